import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { parseYamlFast } from "../src/config/parseYamlFast.js";

/**
 * Differential fuzzing of the fast YAML reader against the `yaml` package (the reference): for
 * every generated text the fast reader either declines (null) or returns exactly yaml's value,
 * and it never accepts a text yaml refuses. Seeded and bounded, so it runs in seconds in CI and
 * a failure names the seed that replays it.
 */

// mulberry32: tiny, fast, and the same sequence on every machine.
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)], chance: (p: number) => next() < p };
}

// Pieces chosen to sit on the edges of the fast reader's subset.
const KEYS = [
  "a",
  "name",
  "command",
  "k.x-y_z",
  "key with space",
  '"quoted key"',
  "'single key'",
  "true",
  "null",
  "1",
  "on",
  "x-ext",
  "é",
  "a#b",
  "a:b",
  "~",
  "-k",
  "<<",
  "__proto__",
  "constructor",
  "k ",
];
const SCALARS = [
  "x",
  "hello world",
  "a#b",
  "a #b",
  "a: b",
  "a:b",
  "x:",
  "http://x.y/z?q=1#f",
  "Bash|Edit",
  "-x",
  "- x",
  "--flag",
  "-",
  "-1",
  "+7",
  "0",
  "-0",
  "012",
  "0x1F",
  "0o17",
  "1e3",
  "1.5",
  ".5",
  "1.",
  ".inf",
  "-.INF",
  ".nan",
  "9007199254740993",
  "123456789012345678901234567890",
  "true",
  "True",
  "TRUE",
  "tRUE",
  "yes",
  "no",
  "on",
  "off",
  "null",
  "Null",
  "~",
  "''",
  '""',
  "'it''s'",
  "'a'#c",
  "'a' #c",
  '"a"#c',
  '"a" #c',
  '"a\\"b"',
  '"\\t\\u00e9\\x41\\/"',
  '"\\e"',
  '"\\N"',
  '"\\ud800"',
  '"a\\',
  "'unterminated",
  '"x"y',
  "'x' z",
  "x :y",
  "a  b",
  "é ü ✓",
  "日本",
  "😀",
  "\u00a0x",
  "x\u00a0",
  "*alias",
  "&anchor x",
  "!tag x",
  "!!str 1",
  "%x",
  "@x",
  "`x",
  "|x",
  ">x",
  "?x",
  "? x",
  "{x",
  "[x",
  "]x",
  "}x",
  ",x",
  "x,y",
  "x]",
  "x}",
  "[a]#c",
  "[a] #c",
  "{a: 1}#c",
  "{a: 1} #c",
  "[a, 'b c', \"d\", 1, true, [x], {k: v}]",
  "[a, ]",
  "[, a]",
  "[a,,b]",
  "{a: 1, a: 2}",
  "{a: 1, b}",
  "{a:1}",
  "{a: }",
  "{: a}",
  "[a: 1]",
  "[a #c]",
  "[a#c]",
  "{a: b #c}",
  '["a"#c]',
  "['a' , b]",
  "[ ]",
  "{ }",
  "[[[]]]",
  "[-1, -x, - y]",
  "{k: [1, {m: n}]}",
  "[a,\n  b]",
  "'multi\n  line'",
  '"multi\n  line"',
  "plain\n  continued",
  "x # c\n  y",
];
const COMMENTS = ["", "", "", " # c", "  #c", "#c", " #", " # : - [ ] { } ' \"", "\t# tab"];
const INDENTS = ["", " ", "  ", "   ", "    ", "\t"];

function line(r: ReturnType<typeof rng>, wild: boolean, scalars: readonly string[]): string {
  const indent = wild && r.chance(0.4) ? r.pick(INDENTS) : "";
  const kind = wild ? r.int(12) : r.pick([0, 1, 2, 8, 9, 10, 11, 1, 0, 3, 5]);
  const comment = wild || r.chance(0.3) ? r.pick(COMMENTS) : "";
  if (kind === 0) return `${indent}- ${r.pick(scalars)}${comment}`;
  if (kind === 1) return `${indent}- ${r.pick(KEYS)}: ${r.pick(scalars)}${comment}`;
  if (kind === 2) return `${indent}${r.pick(KEYS)}:${comment}`;
  if (kind === 3) return `${indent}${r.pick(["#", "# c", "  # x: y"])}`;
  if (kind === 4) return r.pick(["", "", "---", "...", "--- # doc", "%YAML 1.2", "- ", "-", ":", "? a", ": b"]);
  if (kind === 5)
    return `${indent}${r.pick(KEYS)}: ${r.pick(["|", "|-", "|+", ">", ">-", "|2", "| #c", "|#c"])}\n${indent}  ${r.pick(scalars)}\n${indent}${r.pick(["", "  ", "    "])}${r.pick(scalars)}`;
  if (kind === 6) return `${indent}${r.pick(KEYS)}: &${r.pick(["a", "b"])} ${r.pick(scalars)}`;
  if (kind === 7) return `${indent}${r.pick(KEYS)}: *${r.pick(["a", "b", "c"])}${comment}`;
  if (kind === 8) return `${indent}${r.pick(KEYS)}:${r.pick([" ", "  ", "\t", ""])}${r.pick(scalars)}${r.pick([" ", "\t", ""])}${comment}`;
  return `${indent}${r.pick(KEYS)}: ${r.pick(scalars)}${comment}`;
}

// Scalars yaml takes as a value on a key's line (computed: the reference decides).
const VALID_SCALARS = SCALARS.filter((v) => !v.includes("\n") && reference(`k: ${v}\n`).ok);

/** A well-formed-looking config (unique keys, consistent blocks) built from edge-case scalars. */
function mild(r: ReturnType<typeof rng>): string {
  const scalar = () => (r.chance(0.9) ? r.pick(VALID_SCALARS) : r.pick(SCALARS));
  const comment = () => (r.chance(0.3) ? r.pick(COMMENTS) : "");
  const key = (i: number) => r.pick(["k", "name", "x-a", "key with space", "é", "a#b", "on", "constructor"]) + i;
  const lines: string[] = [];
  for (let i = 0, n = 1 + r.int(6); i < n; i++) {
    const shape = r.int(4);
    if (shape === 0) {
      lines.push(`${key(i)}: ${scalar()}${comment()}`);
      continue;
    }
    lines.push(`${key(i)}:${comment()}`);
    const pad = r.pick(["  ", "    ", ""]);
    for (let j = 0, m = 1 + r.int(3); j < m; j++) {
      if (shape === 1) lines.push(`${pad || "  "}${key(j)}: ${scalar()}${comment()}`);
      else if (shape === 2) lines.push(`${pad}- ${scalar()}${comment()}`);
      else lines.push(`${pad}- ${key(j)}: ${scalar()}${comment()}`, `${pad}  ${key(j + 10)}: ${scalar()}${comment()}`);
      if (r.chance(0.1)) lines.push(r.pick(["", "# c", "  # c"]));
    }
  }
  return `${lines.join("\n")}\n`;
}

/** A YAML-ish text: mostly a plausible block structure, with edge pieces mixed in. */
function generate(seed: number): string {
  const r = rng(seed);
  const wild = r.chance(0.5);
  if (!wild) return mild(r);
  const lines: string[] = [];
  const scalars = SCALARS;
  for (let i = 0, n = 1 + r.int(8); i < n; i++) {
    if (r.chance(0.5)) {
      // A structured block: key, then nested entries or list items at one deeper indent.
      const pad = r.pick(["  ", "    ", " "]);
      lines.push(`${r.pick(KEYS)}:${r.pick(COMMENTS)}`);
      for (let j = 0, m = r.int(4); j < m; j++) {
        const l = line(r, wild, scalars);
        lines.push(r.chance(0.8) ? pad + l.trimStart() : l);
      }
    } else lines.push(line(r, wild, scalars));
  }
  let text = lines.join("\n") + (r.chance(0.9) ? "\n" : "");
  if (r.chance(0.1)) text = text.replace(/\n/g, "\r\n");
  if (r.chance(0.05)) text = `\ufeff${text}`;
  return text;
}

/** yaml's verdict with the options config loading uses: the value, or undefined when refused. */
function reference(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    const doc = parseDocument(text, { merge: true, uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length) return { ok: false };
    return { ok: true, value: doc.toJS({ maxAliasCount: -1 }) };
  } catch {
    return { ok: false };
  }
}

/**
 * Exact structural equality: same prototypes, same own keys in the same order, Object.is on
 * leaves (so -0 ≠ 0 and NaN = NaN). Not toStrictEqual, which compares `.constructor` and so
 * mistakes a YAML key named `constructor` for a type difference.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k]));
}

const COUNT = 4000;

describe("parseYamlFast differential fuzz against the yaml package", () => {
  it(`${COUNT} seeded texts: the fast reader declines or agrees, never accepts differently`, () => {
    let taken = 0;
    let refused = 0;
    for (let seed = 1; seed <= COUNT; seed++) {
      const text = generate(seed);
      const fast = parseYamlFast(text, false);
      const withPositions = parseYamlFast(text, true);
      const where = `seed ${seed}: ${JSON.stringify(text)}`;
      expect(withPositions === null, where).toBe(fast === null);
      const ref = reference(text);
      if (!ref.ok) refused++;
      if (fast === null) continue;
      taken++;
      expect(ref.ok, `fast reader accepted what yaml refuses, ${where}`).toBe(true);
      expect(same(fast.value, (ref as { value: unknown }).value), `${where}\nfast: ${JSON.stringify(fast.value)}\nyaml: ${JSON.stringify((ref as { value: unknown }).value)}`).toBe(true);
      expect(same(withPositions!.value, fast.value), where).toBe(true);
    }
    // The generator must exercise both sides: texts the fast reader takes and texts yaml refuses.
    expect(taken).toBeGreaterThan(COUNT / 20);
    expect(refused).toBeGreaterThan(COUNT / 10);
  });

  it("the cases the fuzzer found stay fixed", () => {
    for (const text of ['k: "a"#c\n', "k: 'a'#c\n", "k: [a]#c\n", "k: {a: 1}#c\n", 'matcher: "Bash"#|Edit\n', '- "a"#c\n']) {
      expect(reference(text).ok, text).toBe(false);
      expect(parseYamlFast(text), text).toBeNull();
    }
    for (const text of ['k: "a" #c\n', "k: [a] #c\n", "k: {a: 1}   #c\n"]) expect(same(parseYamlFast(text)?.value, (reference(text) as { value: unknown }).value), text).toBe(true);
  });
});
