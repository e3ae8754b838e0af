/**
 * Text from a config file or from a hook's output, made safe to print on a terminal: every
 * character that a terminal acts on, or that changes how the rest of the line looks without
 * being seen itself, is replaced by a visible name in ⟨…⟩. The reader then sees every character
 * that is there, in order, and nothing can overwrite, hide, reorder or restyle the text around it.
 *
 * Escaped (and why):
 * - C0 controls U+0000–U+001F and DEL U+007F: ESC starts escape sequences (clear the line,
 *   move the cursor, OSC 52 writes the clipboard), CR returns to the start of the line to
 *   overwrite it, BS steps back. Named: ⟨ESC⟩, ⟨CR⟩, ⟨LF⟩, ⟨TAB⟩, ⟨NUL⟩ …
 * - C1 controls U+0080–U+009F: some terminals act on them (U+009B is a one-character CSI).
 * - Every other Unicode format character (general category Cf): bidi embeddings, overrides
 *   and isolates (U+202A–U+202E, U+2066–U+2069, U+061C, U+200E/U+200F) reorder what follows
 *   ("Trojan Source"); zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+00AD)
 *   and the tag characters U+E0000–U+E007F are invisible and can carry hidden text.
 * - Line and paragraph separators U+2028/U+2029, lone surrogates (not text at all), the
 *   Hangul fillers U+115F, U+1160, U+3164, U+FFA0 (letters that draw nothing) and the
 *   supplementary variation selectors U+E0100–U+E01EF (invisible; used to smuggle data).
 * - The opening bracket ⟨ (U+27E8) itself, so that a literal "⟨CR⟩" in the text can never
 *   pass for an escaped carriage return: the notation stays unambiguous.
 * Everything else, printable non-ASCII included, is kept: a review must stay readable.
 * Look-alike letters (homoglyphs) are visible characters and are not this function's concern.
 */

const C0_NAMES = [
  "NUL",
  "SOH",
  "STX",
  "ETX",
  "EOT",
  "ENQ",
  "ACK",
  "BEL",
  "BS",
  "TAB",
  "LF",
  "VT",
  "FF",
  "CR",
  "SO",
  "SI",
  "DLE",
  "DC1",
  "DC2",
  "DC3",
  "DC4",
  "NAK",
  "SYN",
  "ETB",
  "CAN",
  "EM",
  "SUB",
  "ESC",
  "FS",
  "GS",
  "RS",
  "US",
];

// Beyond controls and Cf: the Hangul fillers (letters that draw nothing) and the supplementary
// variation selectors U+E0100–U+E01EF (invisible, used to smuggle data into text).
const INVISIBLE = "\\u2028\\u2029\\u27e8\\u115f\\u1160\\u3164\\uffa0\\u{e0100}-\\u{e01ef}\\p{Cf}\\p{Cs}";
// \p{Cs} matches lone surrogates only: a /u regex sees a valid pair as one code point.
const unsafe = (c0: string): RegExp => new RegExp(`[${c0}\\u007f-\\u009f${INVISIBLE}]`, "gu");
// The C0 range of each pattern, by option (keepNewlines + 2 × keepTabs). Each pattern is built on
// first use: parsing one with Unicode properties costs a cold process about 0.1 ms, and most runs
// print only plain ASCII (see PLAIN below).
const C0_UNSAFE = ["\\u0000-\\u001f", "\\u0000-\\u0009\\u000b-\\u001f", "\\u0000-\\u0008\\u000a-\\u001f", "\\u0000-\\u0008\\u000b-\\u001f"];
const UNSAFE_PATTERNS: (RegExp | undefined)[] = [];

/** The visible name of one unsafe character. */
export function escapeName(char: string): string {
  const code = char.codePointAt(0)!;
  if (code < 0x20) return `⟨${C0_NAMES[code]}⟩`;
  if (code === 0x7f) return "⟨DEL⟩";
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

export interface TerminalSafeOptions {
  /** Keep LF as a line break (the caller indents the lines); default: escape it as ⟨LF⟩. */
  keepNewlines?: boolean;
  /** Keep TAB (it moves the cursor forward and hides nothing); default: escape it as ⟨TAB⟩. */
  keepTabs?: boolean;
}

// Printable ASCII (and the kept LF / TAB) needs no escaping. Checked first: the patterns above use
// Unicode properties, and compiling one costs a cold process about 0.25 ms, which most output
// (plain ASCII) never needs.
const plainBut = (kept: string): RegExp => new RegExp(`^[\\x20-\\x7e${kept}]*$`);
const PLAIN = [plainBut(""), plainBut("\\n"), plainBut("\\t"), plainBut("\\n\\t")];

/** `text` with every unsafe character replaced by its visible name (see above). */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  const kind = (options.keepNewlines ? 1 : 0) + (options.keepTabs ? 2 : 0);
  if (PLAIN[kind].test(text)) return text;
  const pattern = (UNSAFE_PATTERNS[kind] ??= unsafe(C0_UNSAFE[kind]));
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, escapeName) : text;
}

/**
 * Multi-line text (hook output) as terminal-safe lines: split on LF (a CRLF line end counts as
 * one break, so Windows-style output is not littered with ⟨CR⟩), each line escaped, tabs kept.
 * A CR anywhere else is escaped: it is how a line is overwritten.
 */
export function terminalSafeLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => terminalSafe(line, { keepTabs: true }));
}

/** Edit distance (Damerau-lite: insert, delete, substitute, adjacent swap). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => [i, ...new Array<number>(n).fill(0)]);
  for (let j = 0; j <= n; j++) d[0][j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[m][n];
}

/**
 * The candidates closest to `input`, best first: within a distance that grows with the word's
 * length, or sharing a prefix/substring, so "stpo" finds "stop" and "tool_pre" finds
 * "pre_tool_use"-like names without suggesting noise.
 */
export function closestMatches(input: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = input.toLowerCase();
  const scored: { c: string; score: number }[] = [];
  for (const c of new Set(candidates)) {
    const hay = c.toLowerCase();
    const dist = editDistance(needle, hay);
    const limit = Math.max(2, Math.floor(Math.max(needle.length, hay.length) / 3));
    let score = dist;
    if (dist > limit) {
      if (needle.length >= 3 && (hay.includes(needle) || needle.includes(hay))) score = limit + 0.5;
      else continue;
    }
    scored.push({ c, score });
  }
  scored.sort((x, y) => x.score - y.score || x.c.localeCompare(y.c));
  return scored.slice(0, max).map((s) => s.c);
}

/** " (did you mean `x`?)" or "" — appended to error sentences. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const best = closestMatches(input, candidates, 3);
  if (best.length === 0) return "";
  return ` (did you mean ${best.map((b) => `\`${b}\``).join(" or ")}?)`;
}

const pad2 = (n: number): string => (n < 10 ? "0" : "") + n;

/**
 * `new Date(ms).toISOString()` without V8's time-zone set-up: the first toISOString() of a
 * process reads /etc/localtime and initialises ICU's zone data (measured 0.3-13 ms of a cold
 * `hooks run`, which writes one run-log time). Only the UTC getters are used, so the result is the
 * same string for every time between years 0 and 9999.
 */
export function isoTime(ms: number = Date.now()): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) return d.toISOString();
  const ms3 = d.getUTCMilliseconds();
  return `${String(year).padStart(4, "0")}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${ms3 < 10 ? "00" : ms3 < 100 ? "0" : ""}${ms3}Z`;
}

/** The 1-based line of `offset` in `text`. */
export const lineOf = (text: string, offset: number): number => text.slice(0, offset).split("\n").length;
