/**
 * The first syntax error of a JSON text, with its character offset: V8's JSON.parse message
 * does not always carry a position, and a trailing comma deserves its own sentence.
 * Returns null when the text is valid JSON.
 */
export function jsonSyntaxError(text: string): { pos: number; message: string } | null {
  let i = 0;
  class Fail {
    constructor(readonly pos: number, readonly message: string) {}
  }
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const shown = () => (i >= text.length ? "the end of the file" : `\`${text[i]}\``);
  const fail = (what: string): never => {
    throw new Fail(i, `expected ${what} but found ${shown()}`);
  };
  const trailing = (commaAt: number, close: string) => {
    ws();
    if (text[i] === close) throw new Fail(commaAt, "trailing comma after the last item: JSON does not allow it; remove this comma");
  };
  const string = () => {
    if (text[i] !== '"') fail(text[i] === "'" ? "a double-quoted string (JSON has no single quotes)" : "a double-quoted string");
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) throw new Fail(i, "a control character (such as a newline) inside a string: escape it");
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Fail(i, "bad \\u escape: write four hex digits");
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "")) throw new Fail(i, `bad escape \`\\${text[i] ?? ""}\` in a string`);
      }
      i++;
    }
    if (i >= text.length) fail("the closing `\"` of a string");
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] === "/" ) throw new Fail(i, "a comment: JSON does not allow comments; remove it (or use hooks.yaml)");
        string();
        ws();
        if (text[i] !== ":") fail("`:` after the key");
        i++;
        value();
        ws();
        if (text[i] === ",") {
          const at = i++;
          trailing(at, "}");
          continue;
        }
        if (text[i] === "}") return void i++;
        fail("`,` or `}`");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          const at = i++;
          trailing(at, "]");
          continue;
        }
        if (text[i] === "]") return void i++;
        fail("`,` or `]`");
      }
    }
    if (c === '"') return string();
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0] !== "-" && m[0] !== "") return void (i += m[0].length);
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) return void (i += word.length);
    if (c === "/") throw new Fail(i, "a comment: JSON does not allow comments; remove it (or use hooks.yaml)");
    fail("a value");
  };
  try {
    value();
    ws();
    if (text[i] === "/") throw new Fail(i, "a comment: JSON does not allow comments; remove it (or use hooks.yaml)");
    if (i < text.length) fail("the end of the file");
    return null;
  } catch (e) {
    if (e instanceof Fail) return { pos: e.pos, message: e.message };
    throw e;
  }
}
