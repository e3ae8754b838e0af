import { CONFIG_LIMITS } from "./limits.js";
import type { SourceNode } from "./positions.js";

/**
 * A fast parser for the plain subset of YAML 1.2 that config files use (block maps and lists,
 * one-line plain/quoted scalars and flow collections, literal `|` blocks, comments), with
 * positions. It loads nothing and is several times faster than the `yaml` package on large
 * files. Anything else (anchors, tags, folded or multi-line scalars, tabs, duplicate keys,
 * syntax errors) returns null and the caller uses the `yaml` package, which then also words
 * every error. test/parseYamlFast.test.ts checks it against `yaml` on every shipped config.
 * With `positions` false it builds no source tree (`tree` is a placeholder), which is cheaper.
 */
export function parseYamlFast(text: string, positions = true): { value: unknown; tree: SourceNode } | null {
  if (text.includes("\t") || text.includes("\r") || OTHER_SPACE.test(text)) return null;
  try {
    return new FastParser(text, positions).parseDocument();
  } catch (e) {
    if (e === BAIL) return null;
    throw e;
  }
}

const BAIL = Symbol("bail");
// White space other than space, tab and line breaks, and the BOM: rare, and left to yaml.
const OTHER_SPACE = /[\v\f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
const NO_POSITIONS: SourceNode = Object.freeze({ line: 1, col: 1 });
const bail = (): never => {
  throw BAIL;
};

const INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

// `key: value` at the lastIndex: a plain key of word characters, then a double-quoted string
// without escapes, a single-quoted one without '', or a plain scalar that starts with no
// indicator and holds no `:` or `#`; then an optional ` # comment`. Groups: key, spaces after
// the colon, double-quoted, single-quoted, plain. Anything else takes the general path.
const KEY_VALUE = /([A-Za-z_][\w.-]*):( +)(?:"([^"\\\n]*)"|'([^'\n]*)'|([^-?:,[\]{}#&*!|>'"%@`\s][^#:\n]*?))(?: +#.*)? *$/y;

class FastParser {
  private readonly lines: string[];
  private li = 0;
  /** Collections open around the current line: past the limit, yaml words the error. */
  private depth = 0;

  /** Without positions the tree is NO_POSITIONS throughout: a valid file needs none. */
  constructor(
    text: string,
    private readonly positions: boolean,
  ) {
    this.lines = text.split("\n");
  }

  parseDocument(): { value: unknown; tree: SourceNode } {
    this.skipBlank();
    if (this.li >= this.lines.length) bail();
    const line = this.lines[this.li];
    const n = indentOf(line);
    if (n !== 0 || line.startsWith("---") || line.startsWith("%") || isSeqLine(line, n)) bail();
    const out = this.parseMap(0);
    this.skipBlank();
    if (this.li < this.lines.length) bail();
    return out;
  }

  /** Skip empty and comment-only lines. */
  private skipBlank(): void {
    while (this.li < this.lines.length) {
      const line = this.lines[this.li];
      const n = indentOf(line);
      if (n < line.length && line.charCodeAt(n) !== 35) return;
      this.li++;
    }
  }

  private peekLi = -1;
  private peekIndent = -1;

  /** Indent of the next content line, or -1 at the end (cached: callers ask repeatedly). */
  private nextIndent(): number {
    if (this.li === this.peekLi) return this.peekIndent;
    this.skipBlank();
    this.peekLi = this.li;
    this.peekIndent = this.li < this.lines.length ? indentOf(this.lines[this.li]) : -1;
    return this.peekIndent;
  }

  private parseBlock(minIndent: number): { value: unknown; tree: SourceNode } {
    const n = this.nextIndent();
    if (n < minIndent) bail();
    return isSeqLine(this.lines[this.li], n) ? this.parseSeq(n) : this.parseMap(n);
  }

  private parseMap(n: number): { value: Record<string, unknown>; tree: SourceNode } {
    if (++this.depth > CONFIG_LIMITS.depth) bail();
    const value: Record<string, unknown> = {};
    const entries = this.positions ? new Map<string, { line: number; col: number; node: SourceNode | null }>() : undefined;
    const tree: SourceNode = entries ? { line: this.li + 1, col: n + 1, entries } : NO_POSITIONS;
    while (this.nextIndent() === n) {
      const lineNo = this.li;
      const line = this.lines[lineNo];
      if (isSeqLine(line, n)) break;
      // The common line, `key: value` with a plain word key and a one-line value, in one regex:
      // the same result as the general path below, at a fraction of its cost in a cold process.
      KEY_VALUE.lastIndex = n;
      const m = KEY_VALUE.exec(line);
      if (m !== null) {
        const key = m[1];
        if (key === "__proto__" || Object.hasOwn(value, key) || ("nNtTfF".includes(key[0]) && typeof resolvePlain(key) !== "string")) bail();
        this.li++;
        this.noMoreIndented(n);
        value[key] = m[3] ?? m[4] ?? resolvePlain(m[5]);
        entries?.set(key, { line: lineNo + 1, col: n + 1, node: { line: lineNo + 1, col: n + key.length + m[2].length + 2 } });
        continue;
      }
      const { key, after } = parseKey(line, n);
      if (key === "__proto__" || key === "<<" || Object.hasOwn(value, key)) bail();
      const rest = stripComment(line.slice(after));
      this.li++;
      let child: { value: unknown; tree: SourceNode | null };
      if (rest === "") {
        const next = this.nextIndent();
        if (next > n) child = this.parseBlock(n + 1);
        else if (next === n && isSeqLine(this.lines[this.li], n)) child = this.parseSeq(n);
        else child = { value: null, tree: null };
      } else {
        child = this.parseInline(lineNo, line, line.length - line.slice(after).trimStart().length, n);
      }
      value[key] = child.value;
      entries?.set(key, { line: lineNo + 1, col: n + 1, node: child.tree });
    }
    if (this.li < this.lines.length && this.nextIndent() > n) bail();
    this.depth--;
    return { value, tree };
  }

  private parseSeq(n: number): { value: unknown[]; tree: SourceNode } {
    if (++this.depth > CONFIG_LIMITS.depth) bail();
    const value: unknown[] = [];
    const items: SourceNode[] | undefined = this.positions ? [] : undefined;
    const tree: SourceNode = items ? { line: this.li + 1, col: n + 1, items } : NO_POSITIONS;
    while (this.nextIndent() === n && isSeqLine(this.lines[this.li], n)) {
      const lineNo = this.li;
      const line = this.lines[lineNo];
      const after = line.slice(n + 1);
      const content = after.trimStart();
      if (content === "" || content.startsWith("#")) {
        this.li++;
        if (this.nextIndent() <= n) bail(); // a null item: rare enough to leave to yaml
        const child = this.parseBlock(n + 1);
        value.push(child.value);
        items?.push(child.tree);
        continue;
      }
      const c = line.length - content.length;
      if (looksLikeKey(content) || isSeqLine(content, 0)) {
        // `- key: value`: the dash becomes indentation, so the item is an ordinary block.
        this.lines[lineNo] = " ".repeat(c) + content;
        this.peekLi = -1;
        const child = this.parseBlock(c);
        value.push(child.value);
        items?.push(child.tree);
        continue;
      }
      this.li++;
      const child = this.parseInline(lineNo, line, c, n);
      value.push(child.value);
      items?.push(child.tree);
    }
    this.depth--;
    return { value, tree };
  }

  /** A value written on the key's (or dash's) line, starting at column index `c`. */
  private parseInline(lineNo: number, line: string, c: number, parentIndent: number): { value: unknown; tree: SourceNode } {
    const tree: SourceNode = this.positions ? { line: lineNo + 1, col: c + 1 } : NO_POSITIONS;
    const s = line.slice(c);
    const ch = s[0];
    if (ch === "|") {
      const header = stripComment(s);
      if (header !== "|" && header !== "|-") bail();
      return { value: this.parseLiteral(parentIndent, header[1] ?? ""), tree };
    }
    if (ch === '"' || ch === "'") {
      const q = ch === '"' ? readDouble(s, 0) : readSingle(s, 0);
      if (!onlyComment(s.slice(q.end))) bail();
      this.noMoreIndented(parentIndent);
      return { value: q.value, tree };
    }
    if (ch === "[" || ch === "{") {
      const flow = new FlowParser(s, lineNo + 1, c, this.depth);
      const out = flow.parseNode();
      if (!onlyComment(s.slice(flow.i))) bail();
      this.noMoreIndented(parentIndent);
      return { value: out.value, tree: out.tree };
    }
    if (INDICATORS.includes(ch) && !(ch === "-" && s[1] !== undefined && s[1] !== " ")) bail();
    const raw = stripComment(s);
    if (raw.includes(": ") || raw.endsWith(":") || raw.includes(" #")) bail();
    this.noMoreIndented(parentIndent);
    return { value: resolvePlain(raw), tree };
  }

  // A deeper line after a one-line value would continue a plain scalar (or be an error).
  private noMoreIndented(parentIndent: number): void {
    if (this.nextIndent() > parentIndent) bail();
  }

  private parseLiteral(parentIndent: number, chomp: string): string {
    const body: string[] = [];
    let indent = -1;
    while (this.li < this.lines.length) {
      const line = this.lines[this.li];
      if (line.trim() === "") {
        if (indent >= 0 && line.length > indent && line.slice(0, indent).trim() === "") body.push(line.slice(indent));
        else if (indent < 0 && line.length > 0) bail();
        else body.push("");
        this.li++;
        continue;
      }
      const n = indentOf(line);
      if (indent < 0) {
        if (n <= parentIndent) break;
        indent = n;
      }
      if (n < indent) break;
      body.push(line.slice(indent));
      this.li++;
    }
    // A block running to the end of a file without a final newline: leave that to yaml.
    if (this.li >= this.lines.length && this.lines[this.lines.length - 1] !== "") bail();
    let end = body.length;
    while (end > 0 && body[end - 1] === "") end--;
    const content = body.slice(0, end).join("\n");
    if (end === 0) bail();
    return chomp === "-" ? content : `${content}\n`;
  }
}

class FlowParser {
  i: number;
  constructor(
    private readonly s: string,
    private readonly line: number,
    private readonly base: number,
    private depth: number,
  ) {
    this.i = 0;
  }

  private ws(): void {
    while (this.s[this.i] === " ") this.i++;
  }

  parseNode(): { value: unknown; tree: SourceNode } {
    this.ws();
    const tree: SourceNode = { line: this.line, col: this.base + this.i + 1 };
    const ch = this.s[this.i];
    if ((ch === "[" || ch === "{") && ++this.depth > CONFIG_LIMITS.depth) bail();
    if (ch === "[") {
      this.i++;
      const value: unknown[] = [];
      tree.items = [];
      this.ws();
      if (this.s[this.i] === "]") return this.i++, this.depth--, { value, tree };
      for (;;) {
        const item = this.parseNode();
        value.push(item.value);
        tree.items.push(item.tree);
        this.ws();
        const sep = this.s[this.i++];
        if (sep === "]") return this.depth--, { value, tree };
        if (sep !== ",") bail();
        this.ws();
        if (this.s[this.i] === "]" || this.s[this.i] === ",") bail();
      }
    }
    if (ch === "{") {
      this.i++;
      const value: Record<string, unknown> = {};
      tree.entries = new Map();
      this.ws();
      if (this.s[this.i] === "}") return this.i++, this.depth--, { value, tree };
      for (;;) {
        this.ws();
        const keyCol = this.base + this.i + 1;
        const key = this.scalar(true);
        if (typeof key !== "string" || key === "__proto__" || key === "<<" || tree.entries.has(key)) bail();
        if (this.s[this.i] !== ":" || (this.s[this.i + 1] !== " " && this.s[this.i + 1] !== undefined)) bail();
        this.i++;
        this.ws();
        if (this.s[this.i] === "," || this.s[this.i] === "}") bail();
        const v = this.parseNode();
        value[key as string] = v.value;
        tree.entries.set(key as string, { line: this.line, col: keyCol, node: v.tree });
        this.ws();
        const sep = this.s[this.i++];
        if (sep === "}") return this.depth--, { value, tree };
        if (sep !== ",") bail();
        this.ws();
        if (this.s[this.i] === "}" || this.s[this.i] === ",") bail();
      }
    }
    return { value: this.scalar(false), tree };
  }

  /** A quoted or plain scalar inside a flow collection; keys stay strings. */
  private scalar(isKey: boolean): unknown {
    const ch = this.s[this.i];
    if (ch === '"' || ch === "'") {
      const q = ch === '"' ? readDouble(this.s, this.i) : readSingle(this.s, this.i);
      this.i = q.end;
      this.ws();
      return q.value;
    }
    const next = this.s[this.i + 1];
    if (ch === undefined || (INDICATORS.includes(ch) && !(ch === "-" && next !== undefined && !" ,]}".includes(next)))) bail();
    const start = this.i;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === "," || c === "]" || c === "}" || c === "[" || c === "{") break;
      if (c === ":" && (this.s[this.i + 1] === " " || this.s[this.i + 1] === undefined || ",]}".includes(this.s[this.i + 1]))) break;
      if (c === "#" && this.s[this.i - 1] === " ") bail();
      this.i++;
    }
    if ("[{".includes(this.s[this.i] ?? "")) bail();
    const raw = this.s.slice(start, this.i).trimEnd();
    if (raw === "") bail();
    const value = resolvePlain(raw);
    if (isKey && typeof value !== "string") bail();
    return value;
  }
}

// Files with tabs, CRs or other Unicode white space are left to yaml, so indentation is spaces
// only. Found in native code (a character loop is slow in a cold process), and by search(), which
// allocates nothing: trimStart() made a string per call, several calls per line.
const NOT_SPACE = /[^ ]/;
function indentOf(line: string): number {
  const n = line.search(NOT_SPACE);
  return n < 0 ? line.length : n;
}

function isSeqLine(line: string, n: number): boolean {
  return line[n] === "-" && (line[n + 1] === " " || line[n + 1] === undefined);
}

/**
 * Whether what follows a quoted scalar or flow collection is nothing or a comment. A `#` right
 * after the closing quote or bracket starts no comment: yaml refuses `"a"#c`, so must we.
 */
function onlyComment(rest: string): boolean {
  const t = rest.trimStart();
  return t === "" || (t.charCodeAt(0) === 35 && t.length < rest.length);
}

/** Content after a ` #` comment removed, trimmed (quotes are handled before this is used). */
function stripComment(s: string): string {
  const t = s.trimStart();
  if (t.charCodeAt(0) === 35) return "";
  const at = t.indexOf(" #");
  return (at >= 0 ? t.slice(0, at) : t).trimEnd();
}

function looksLikeKey(s: string): boolean {
  if (s[0] === '"' || s[0] === "'") {
    try {
      const q = s[0] === '"' ? readDouble(s, 0) : readSingle(s, 0);
      return /^ *:( |$)/.test(s.slice(q.end));
    } catch {
      return false;
    }
  }
  if (INDICATORS.includes(s[0])) return false;
  const colon = keyColon(s);
  return colon > 0 && !s.slice(0, colon).includes(" #");
}

/** Index of the `:` that ends a plain key (followed by a space or the end), or -1. */
function keyColon(s: string): number {
  for (let i = s.indexOf(":"); i >= 0; i = s.indexOf(":", i + 1)) {
    if (i + 1 === s.length || s.charCodeAt(i + 1) === 32) return i;
  }
  return -1;
}

function parseKey(line: string, n: number): { key: string; after: number } {
  const s = line.slice(n);
  if (s[0] === '"' || s[0] === "'") {
    const q = s[0] === '"' ? readDouble(s, 0) : readSingle(s, 0);
    const m = /^ *:( |$)/.exec(s.slice(q.end));
    if (!m) bail();
    return { key: q.value, after: n + q.end + m![0].length };
  }
  if (INDICATORS.includes(s[0])) bail();
  const colon = keyColon(s);
  if (colon < 0) bail();
  const key = s.slice(0, colon).trimEnd();
  if (key.includes(" #") || typeof resolvePlain(key) !== "string") bail();
  return { key, after: n + colon + (colon + 1 < s.length ? 2 : 1) };
}

function readSingle(s: string, start: number): { value: string; end: number } {
  let out = "";
  let i = start + 1;
  for (;;) {
    if (i >= s.length) bail();
    if (s[i] === "'") {
      if (s[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      return { value: out, end: i + 1 };
    }
    out += s[i++];
  }
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0", b: "\b", f: "\f", " ": " " };

function readDouble(s: string, start: number): { value: string; end: number } {
  let out = "";
  let i = start + 1;
  for (;;) {
    if (i >= s.length) bail();
    const c = s[i];
    if (c === '"') return { value: out, end: i + 1 };
    if (c === "\\") {
      const e = s[i + 1];
      if (e === "u" || e === "x") {
        const len = e === "u" ? 4 : 2;
        const hex = s.slice(i + 2, i + 2 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) bail();
        const code = parseInt(hex, 16);
        if (code >= 0xd800 && code <= 0xdfff) bail();
        out += String.fromCharCode(code);
        i += 2 + len;
        continue;
      }
      if (!(e in ESCAPES)) bail();
      out += ESCAPES[e];
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
}

const INTEGER = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const UNUSUAL_NUMBER = /^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$|^0[xo]/;

/** YAML 1.2 core schema resolution of a plain scalar; unusual forms are left to yaml. */
function resolvePlain(raw: string): unknown {
  // Most scalars are words: nothing to resolve unless the first character could start one.
  if (!"~nNtTfF+-.0123456789".includes(raw[0])) return raw;
  if (raw === "~" || raw === "null" || raw === "Null" || raw === "NULL") return null;
  if (raw === "true" || raw === "True" || raw === "TRUE") return true;
  if (raw === "false" || raw === "False" || raw === "FALSE") return false;
  if (INTEGER.test(raw)) {
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) bail();
    return n;
  }
  if (FLOAT.test(raw)) return Number(raw);
  if (UNUSUAL_NUMBER.test(raw)) bail();
  return raw;
}
