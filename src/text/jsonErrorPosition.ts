/**
 * Where strict JSON parsing of `text` fails, as line:col (1-based), or null when it parses.
 * V8's JSON.parse messages do not always carry a position, so a small scanner finds it.
 */
export function jsonErrorPosition(text: string): { offset: number; line: number; col: number } | null {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      } else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
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
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return void i++;
        else fail();
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return void i++;
        else fail();
      }
    } else if (c === '"') string();
    else {
      const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
      if (!m) fail();
      i += m![0].length;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return null;
  } catch (at) {
    if (typeof at !== "number") throw at;
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    return { offset: at, line, col: at - before.lastIndexOf("\n") };
  }
}

/** A JSON.parse error as one phrase with its line:col, e.g. "unexpected `}` at line 2:10". */
export function describeJsonError(text: string, error: unknown): string {
  const pos = jsonErrorPosition(text);
  if (!pos) return error instanceof Error ? error.message : String(error);
  const found = pos.offset >= text.length ? "end of input" : `\`${text[pos.offset]}\``;
  return `unexpected ${found} at line ${pos.line}:${pos.col}`;
}
