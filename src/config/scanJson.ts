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
  const scan = new JsonScanner(text);
  try {
    const tree = scan.value();
    scan.ws();
    scan.comment();
    if (scan.i < text.length) scan.fail("the end of the file");
    return { ok: true, tree, duplicates: scan.duplicates };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, pos: e.pos, message: e.message };
    throw e;
  }
}

/** The first syntax error, thrown out of the scan. */
class Fail {
  constructor(
    readonly pos: number,
    readonly message: string,
  ) {}
}

/** A recursive-descent walk of one JSON text: where it is, and the keys seen twice. */
class JsonScanner {
  i = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;
  readonly duplicates: { pos: number; key: string }[] = [];

  constructor(private readonly text: string) {}

  ws(): void {
    const text = this.text;
    for (;;) {
      const c = text[this.i];
      if (c === "\n") {
        this.line++;
        this.lineStart = ++this.i;
      } else if (c === " " || c === "\t" || c === "\r") this.i++;
      else return;
    }
  }

  private here(): SourceNode {
    return { line: this.line, col: this.i - this.lineStart + 1 };
  }

  private shown(): string {
    return this.i >= this.text.length ? "the end of the file" : `\`${this.text[this.i]}\``;
  }

  fail(what: string): never {
    throw new Fail(this.i, `expected ${what} but found ${this.shown()}`);
  }

  comment(): void {
    if (this.text[this.i] === "/") throw new Fail(this.i, "a comment: JSON does not allow comments; remove it (or use hooks.yaml)");
  }

  private trailing(commaAt: number, close: string): void {
    this.ws();
    if (this.text[this.i] === close) throw new Fail(commaAt, "trailing comma after the last item: JSON does not allow it; remove this comma");
  }

  private string(): string {
    const text = this.text;
    if (text[this.i] !== '"') this.fail(text[this.i] === "'" ? "a double-quoted string (JSON has no single quotes)" : "a double-quoted string");
    const start = this.i;
    this.i++;
    let escaped = false;
    while (this.i < text.length && text[this.i] !== '"') {
      if (text.charCodeAt(this.i) < 0x20) throw new Fail(this.i, "a control character (such as a newline) inside a string: escape it");
      if (text[this.i] === "\\") {
        escaped = true;
        this.i++;
        if (text[this.i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 1, this.i + 5))) throw new Fail(this.i, "bad \\u escape: write four hex digits");
          this.i += 4;
        } else if (!'"\\/bfnrt'.includes(text[this.i] ?? "")) throw new Fail(this.i, `bad escape \`\\${text[this.i] ?? ""}\` in a string`);
      }
      this.i++;
    }
    if (this.i >= text.length) this.fail('the closing `"` of a string');
    this.i++;
    const raw = text.slice(start, this.i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  value(): SourceNode {
    this.ws();
    this.comment();
    const node = this.here();
    const c = this.text[this.i];
    // Recursion is one frame per level: stop long before the stack does.
    if ((c === "{" || c === "[") && ++this.depth > CONFIG_LIMITS.depth) throw new Fail(this.i, TOO_DEEP);
    if (c === "{") return this.object(node);
    if (c === "[") return this.array(node);
    if (c === '"') return this.string(), node;
    // Any length, as JSON.parse takes it (the value is the nearest double; past ±1.8e308, Infinity).
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (m && m[0] !== "-" && m[0] !== "") return (this.i += m[0].length), node;
    for (const word of ["true", "false", "null"]) if (this.text.startsWith(word, this.i)) return (this.i += word.length), node;
    return this.fail("a value");
  }

  private object(node: SourceNode): SourceNode {
    const text = this.text;
    this.i++;
    const entries: NonNullable<SourceNode["entries"]> = new Map();
    node.entries = entries;
    this.ws();
    if (text[this.i] === "}") return this.i++, this.depth--, node;
    for (;;) {
      this.ws();
      this.comment();
      const keyAt = this.here();
      const keyPos = this.i;
      const key = this.string();
      if (entries.has(key)) this.duplicates.push({ pos: keyPos, key });
      this.ws();
      if (text[this.i] !== ":") this.fail("`:` after the key");
      this.i++;
      entries.set(key, { line: keyAt.line, col: keyAt.col, node: this.value() });
      this.ws();
      this.comment();
      if (text[this.i] === ",") {
        const at = this.i++;
        this.trailing(at, "}");
        continue;
      }
      if (text[this.i] === "}") return this.i++, this.depth--, node;
      this.fail("`,` or `}`");
    }
  }

  private array(node: SourceNode): SourceNode {
    const text = this.text;
    this.i++;
    const items: SourceNode[] = [];
    node.items = items;
    this.ws();
    if (text[this.i] === "]") return this.i++, this.depth--, node;
    for (;;) {
      items.push(this.value());
      this.ws();
      this.comment();
      if (text[this.i] === ",") {
        const at = this.i++;
        this.trailing(at, "]");
        continue;
      }
      if (text[this.i] === "]") return this.i++, this.depth--, node;
      this.fail("`,` or `]`");
    }
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
