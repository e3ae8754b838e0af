import { CONFIG_LIMITS, TOO_DEEP } from "./limits.js";
import type { SourceNode } from "./positions.js";

/** A JSON object (not null, not an array), as JSON.parse returns it. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export type JsonScan = { ok: true; tree: SourceNode; duplicates: { pos: number; key: string }[] } | { ok: false; pos: number; message: string };

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * Walk a JSON text once: the first syntax error with its offset (V8's JSON.parse message does
 * not always carry one, and a trailing comma deserves its own sentence), or else where every
 * value sits and which keys repeat (JSON.parse silently keeps the last).
 */
export function scanJson(text: string): JsonScan {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const duplicates: { pos: number; key: string }[] = [];
  class Fail {
    constructor(
      readonly pos: number,
      readonly message: string,
    ) {}
  }
  const ws = () => {
    for (;;) {
      const c = text[i];
      if (c === "\n") {
        line++;
        lineStart = ++i;
      } else if (c === " " || c === "\t" || c === "\r") i++;
      else return;
    }
  };
  const here = (): SourceNode => ({ line, col: i - lineStart + 1 });
  const shown = () => (i >= text.length ? "the end of the file" : `\`${text[i]}\``);
  const fail = (what: string): never => {
    throw new Fail(i, `expected ${what} but found ${shown()}`);
  };
  const comment = () => {
    if (text[i] === "/") throw new Fail(i, "a comment: JSON does not allow comments; remove it (or use hooks.yaml)");
  };
  const trailing = (commaAt: number, close: string) => {
    ws();
    if (text[i] === close) throw new Fail(commaAt, "trailing comma after the last item: JSON does not allow it; remove this comma");
  };
  const string = (): string => {
    if (text[i] !== '"') fail(text[i] === "'" ? "a double-quoted string (JSON has no single quotes)" : "a double-quoted string");
    const start = i;
    i++;
    let escaped = false;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) throw new Fail(i, "a control character (such as a newline) inside a string: escape it");
      if (text[i] === "\\") {
        escaped = true;
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw new Fail(i, "bad \\u escape: write four hex digits");
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "")) throw new Fail(i, `bad escape \`\\${text[i] ?? ""}\` in a string`);
      }
      i++;
    }
    if (i >= text.length) fail('the closing `"` of a string');
    i++;
    const raw = text.slice(start, i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  let depth = 0;
  const value = (): SourceNode => {
    ws();
    comment();
    const node = here();
    const c = text[i];
    // Recursion is one frame per level: stop long before the stack does.
    if ((c === "{" || c === "[") && ++depth > CONFIG_LIMITS.depth) throw new Fail(i, TOO_DEEP);
    if (c === "{") {
      i++;
      node.entries = new Map();
      ws();
      if (text[i] === "}") return i++, depth--, node;
      for (;;) {
        ws();
        comment();
        const keyAt = here();
        const keyPos = i;
        const key = string();
        if (node.entries.has(key)) duplicates.push({ pos: keyPos, key });
        ws();
        if (text[i] !== ":") fail("`:` after the key");
        i++;
        node.entries.set(key, { line: keyAt.line, col: keyAt.col, node: value() });
        ws();
        comment();
        if (text[i] === ",") {
          const at = i++;
          trailing(at, "}");
          continue;
        }
        if (text[i] === "}") return i++, depth--, node;
        fail("`,` or `}`");
      }
    }
    if (c === "[") {
      i++;
      node.items = [];
      ws();
      if (text[i] === "]") return i++, depth--, node;
      for (;;) {
        node.items.push(value());
        ws();
        comment();
        if (text[i] === ",") {
          const at = i++;
          trailing(at, "]");
          continue;
        }
        if (text[i] === "]") return i++, depth--, node;
        fail("`,` or `]`");
      }
    }
    if (c === '"') return string(), node;
    // Any length, as JSON.parse takes it (the value is the nearest double; past ±1.8e308, Infinity).
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m && m[0] !== "-" && m[0] !== "") return (i += m[0].length), node;
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) return (i += word.length), node;
    return fail("a value");
  };
  try {
    const tree = value();
    ws();
    comment();
    if (i < text.length) fail("the end of the file");
    return { ok: true, tree, duplicates };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, pos: e.pos, message: e.message };
    throw e;
  }
}

/**
 * Where strict JSON parsing of `text` fails, as line:col (1-based) and offset, or null when it
 * parses. V8's JSON.parse messages do not always carry a position; scanJson finds it.
 */
export function jsonErrorPosition(text: string): { offset: number; line: number; col: number } | null {
  const scan = scanJson(text);
  if (scan.ok) return null;
  const before = text.slice(0, scan.pos);
  return { offset: scan.pos, line: before.split("\n").length, col: scan.pos - before.lastIndexOf("\n") };
}

/** A JSON.parse error as one phrase with its line:col, e.g. "unexpected `}` at line 2:10". */
export function describeJsonError(text: string, error: unknown): string {
  const pos = jsonErrorPosition(text);
  if (!pos) return error instanceof Error ? error.message : String(error);
  const found = pos.offset >= text.length ? "end of input" : `\`${text[pos.offset]}\``;
  return `unexpected ${found} at line ${pos.line}:${pos.col}`;
}
