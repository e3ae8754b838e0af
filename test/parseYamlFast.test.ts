import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isMap, isPair, isScalar, isSeq, LineCounter, parse, parseDocument, type Node as YamlNode } from "yaml";
import { parseYamlFast } from "../src/config/parseYamlFast.js";
import { locateInTree } from "../src/config/positions.js";
import { STARTER_CONFIG } from "../src/config/starterConfig.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const shipped = Object.fromEntries(
  [
    "hooks.example.yaml",
    ...readdirSync(path.join(ROOT, "examples"))
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => `examples/${f}`),
  ].map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")]),
);

/** Every path to a non-null value, with whether it is a map key. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => (v === null ? [] : paths(v, [...at, i])))];
  if (value && typeof value === "object") return [at, ...Object.entries(value).flatMap(([k, v]) => (v === null ? [] : paths(v, [...at, k])))];
  return [at];
}

/** Position of a key or value as the `yaml` package reports it. */
function yamlPosition(text: string, p: (string | number)[], target: "key" | "value") {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  let node: unknown = doc.contents;
  for (let i = 0; i < p.length; i++) {
    if (isSeq(node)) node = node.items[p[i] as number];
    else if (isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(p[i]))!;
      if (i === p.length - 1 && target === "key") node = pair.key;
      else node = pair.value;
    }
  }
  return lc.linePos((node as YamlNode).range![0]);
}

/** The fast parser must give exactly what `yaml` gives, or decline (null). */
function expectSameAsYaml(text: string): boolean {
  const fast = parseYamlFast(text);
  // Without positions (how config is read first) it must decline and accept exactly alike.
  const lean = parseYamlFast(text, false);
  expect(lean === null).toBe(fast === null);
  if (!fast) return false;
  expect(lean!.value).toEqual(fast.value);
  expect(fast.value).toEqual(parse(text));
  for (const p of paths(fast.value)) {
    expect(locateInTree(fast.tree, p, "value")).toEqual(yamlPosition(text, p, "value"));
    if (typeof p[p.length - 1] === "string") expect(locateInTree(fast.tree, p, "key")).toEqual(yamlPosition(text, p, "key"));
  }
  return true;
}

const SNIPPETS = [
  "a: 1\nb: -2\nc: 1.5\nd: .5\ne: 1e3\nf: +7\ng: 012\nh: 0x1F\ni: 0o17\nj: .inf\n",
  "a: true\nb: False\nc: TRUE\nd: yes\ne: on\nf: ~\ng: null\nh: NULL\ni:\n",
  'a: \'it\'\'s\'\nb: "tab\\there \\"q\\" \\u00e9 \\x41 \\/"\nc: "\\e"\n',
  "a: plain # comment\nb: a#b\nc: 'x' # c\nd: \"y\"   \n",
  "list:\n- a\n- b\nnested:\n  - - x\n    - y\n  - k: v\n    k2: v2\n",
  'flow: [a, \'b c\', "d", 1, true, [x], {k: v}]\nmap: { a: 1, b: [2, 3], c: "s" }\nempty: []\nempty2: {}\n',
  "args: [npx, --no-install, -x, eslint]\nurl: {u: http://x.y/z?q=1}\n",
  // The one-regex `key: value` lane and its edges.
  "a: \"x\" # c\nb: 'y'   # d\nc: x #c\nd: x#y\ne: \"\"\nf: ''\ng:   spaced out   \nh.i-j_k: 1.5\nl: -1\nm: x: y\n",
  "true: 1\n",
  "Null: x\n",
  "__proto__: x\n",
  "a: 1\na: 2\n",
  "k: \"a\\\"b\"\nk2: 'it''s'\nk3: \"x\"y\nk4: 'x' z\nk5: x :y\nk6: ~\nk7: 08\n",
  "a: x\n  b: y\n",
  "a: x\n# c\n  # d\nb: y\n",
  "a: x\u00a0y\n",
  "\u00a0a: 1\n",
  "a: \ufeffb\n",
  "block: |\n  line 1\n\n    indented\n  line 3\nafter: x\n",
  "block: |-\n  strip\n\n\nnext: y\n",
  "seq:\n  - |\n    in a list\n  - z\n",
  "folded: >\n  a\n  b\n",
  "keep: |+\n  a\n\n",
  "anchor: &a 1\nalias: *a\n",
  "<<: {a: 1}\n",
  "multi: this is\n  continued\n",
  "bad: a: b\n",
  "dup: 1\ndup: 2\n",
  "k: [a,\n  b]\n",
  "\"quoted key\": 1\n'single key': 2\nkey with spaces: 3\n",
  "a:\n  b:\n    c: d\n  e: f\ng: h\n",
  "a: - b\n",
  "a: !tag x\n",
  "a: [a, ]\n",
  "a: {a: 1, a: 2}\n",
  "- top\n- list\n",
  "a:\n  - x\n   - y\n",
  "a: b\n  c: d\n",
  'x: "unterminated\n',
  "a: 9007199254740993\n",
  "a: 'multi\n  line'\n",
  "a: |\n  no final newline",
  "1: a\ntrue: b\n",
  "a:\n# comment at col 0\n  b: c\n",
  "hooks:\n  stop:\n    -\n      name: a\n",
];

describe("parseYamlFast agrees with the yaml package, or declines", () => {
  it.each(Object.keys(shipped))("%s", (file) => {
    const taken = expectSameAsYaml(shipped[file]);
    if (!shipped[file].includes("<<:")) expect(taken).toBe(true);
  });

  it("the hooks init starter takes the fast path", () => {
    expect(expectSameAsYaml(STARTER_CONFIG)).toBe(true);
  });

  it.each(SNIPPETS.map((s) => [JSON.stringify(s), s]))("snippet %s", (_name, text) => {
    let reference: unknown;
    let valid = true;
    try {
      const doc = parseDocument(text, { uniqueKeys: true });
      valid = doc.errors.length === 0;
      reference = doc.toJS();
    } catch {
      valid = false;
    }
    const fast = parseYamlFast(text);
    if (!valid) {
      expect(fast).toBeNull();
      expect(parseYamlFast(text, false)).toBeNull();
    } else if (fast) {
      expect(fast.value).toEqual(reference);
      expectSameAsYaml(text);
    }
  });

  it("takes the fast path for the common forms above", () => {
    const taken = SNIPPETS.filter((s) => parseYamlFast(s) !== null).length;
    expect(taken).toBeGreaterThanOrEqual(12);
  });
});

describe("parseYamlFast on generated configs", () => {
  // A small deterministic generator of realistic hooks.yaml shapes (seeded, so failures replay).
  function generate(seed: number): string {
    let s = seed;
    const rnd = (n: number) => ((s = (s * 1103515245 + 12345) % 2147483648), s % n);
    const pick = <T>(xs: T[]) => xs[rnd(xs.length)];
    const scalars = [
      "echo hi",
      "'single ''q'' value'",
      '"double \\"q\\" \\t value"',
      "42",
      "-3",
      "1.5",
      "true",
      "null",
      "~",
      "./scripts/x.sh --flag",
      "a#b",
      "http://x.y/z",
      "Bash|Edit",
      "'*'",
      '""',
      "2m",
      "-x",
    ];
    const comment = () => (rnd(3) === 0 ? "   # note" : "");
    const lines: string[] = ["# generated", "version: 1"];
    const indentless = rnd(2) === 0;
    if (rnd(2)) lines.push("defaults:", `  timeout: ${pick(["30s", "5", "1.5"])}${comment()}`, `  env: { A: ${pick(["x", '"1"', "'y'"])}, B: b }`);
    lines.push("hooks:");
    for (let e = 0, events = 1 + rnd(3); e < events; e++) {
      lines.push(`  ${pick(["stop", "Stop", '"pre_tool_use"', "session_start", "post-tool-use"])}${e}:${comment()}`);
      if (rnd(5) === 0) lines.push("");
      for (let h = 0, hooks = rnd(4); h < hooks; h++) {
        const dash = indentless ? "  - " : "    - ";
        const pad = indentless ? "    " : "      ";
        lines.push(`${dash}name: h${e}-${h}${comment()}`);
        if (rnd(3) === 0) lines.push(`${pad}command: |${rnd(2) ? "-" : ""}`, `${pad}  line one ${pick(scalars)}`, "", `${pad}    indented`, `${pad}  last`);
        else lines.push(`${pad}command: ${pick(scalars)}${comment()}`);
        if (rnd(2)) lines.push(`${pad}args: [${pick(scalars.filter((x) => !x.includes("#") && !x.startsWith("'*")))}, "b c", [x, y], {k: v}]`);
        if (rnd(3) === 0) lines.push(`${pad}paths:`, `${pad}  - "src/**/*.ts"`, `${pad}  - docs/*.md`);
        if (rnd(4) === 0) lines.push(`${pad}# a comment line`, `${pad}priority: ${pick(["1", "-2", "0"])}`);
        if (rnd(5) === 0) lines.push(`${pad}env:`, `${pad}  X: ${pick(scalars)}`);
      }
    }
    return `${lines.join("\n")}\n`;
  }

  it("matches the yaml package on 300 generated files, values and positions", () => {
    let taken = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = generate(seed);
      const doc = parseDocument(text, { uniqueKeys: true });
      if (doc.errors.length) {
        expect(parseYamlFast(text), `seed ${seed}`).toBeNull();
        continue;
      }
      if (expectSameAsYaml(text)) taken++;
    }
    expect(taken).toBeGreaterThan(200);
  });
});
