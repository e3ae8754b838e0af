import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, brokenTarget } from "./helpers/markdownLinks.js";

// The repository explains itself: a comment, doc, test, script or example links into docs/ (a
// page that exists, a heading that exists), never to a document outside the repository (a
// product spec, an issue number, a research note, a path on the machine it was written on).

/** Where pointers are looked for. */
const SCOPES = ["src", "docs", "README.md", "test", "scripts", "bench", "examples", "integrations"];
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|md|ya?ml|json|jsonl|toml|py|sh|txt)$/;

// The patterns are built from pieces so that this file does not match them itself.
const word = (w: string) => new RegExp(`\\b${w}\\b`);
const POINTERS: [string, RegExp][] = [
  ["the product spec", word(["S", "PEC"].join(""))],
  ["an issue number", new RegExp(`\\b[Ii]ssues? ${"[0-9]"}`)],
  ["a bare issue or PR number", new RegExp(`(^|[\\s(])#${"[0-9]"}+\\b`)],
  ["a section sign (a section of an outside document)", /\u00a7/],
  ["the hosts research notes", new RegExp(["HOSTS", "\\.md"].join(""))],
  ["the shared notes folder", new RegExp(`shared/(${["S", "PEC|HOS", "TS|STY", "LE"].join("")})`)],
  ["a path on the machine it was written on", new RegExp(["/wo", "rk/"].join(""))],
];

/**
 * Files whose `docs/….md` strings are data, not links: file paths a test feeds to a hook's
 * `paths` filter, and the link checker's own cases.
 */
const DOCS_PATHS_AS_DATA = new Set(["test/prove.explain.test.ts", "test/readme.test.ts", "test/docs.links.test.ts"]);

function filesUnder(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return TEXT.test(entry) ? [entry] : [];
  return readdirSync(full, { withFileTypes: true }).flatMap((d) => (d.name === "node_modules" || d.name.startsWith(".") ? [] : filesUnder(`${entry}/${d.name}`)));
}

const FILES = SCOPES.flatMap(filesUnder);
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** `file:line: what (the line)` for every pointer outside the repository in `text`. */
function pointers(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const [what, re] of POINTERS) if (re.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
  });
  return found;
}

/** `docs/….md` and `docs/….md#anchor` written in `text` (not inside a URL or a longer path). */
const docsLinks = (text: string) => [...text.matchAll(/(?<![\w./-])(docs\/[\w./-]*?\.md)(?:#([\w-]+))?/g)].map((m) => ({ link: m[0], target: m[1], anchor: m[2] }));

/** Paths from the repository's root that a decision record names (as `src/x.ts` or in a link). */
const namedPaths = (text: string) => [...text.matchAll(/(?<![\w./$-])((?:src|test|bench|scripts|schema|examples|integrations)\/[\w./-]*\w)/g)].map((m) => m[1]).filter((p) => !p.includes("*"));

describe("no pointer outside the repository", () => {
  it("finds files to check in every scope", () => {
    for (const scope of SCOPES)
      expect(
        FILES.some((f) => f === scope || f.startsWith(`${scope}/`)),
        scope,
      ).toBe(true);
  });

  it("in src/, docs/, README.md, test/, scripts/, bench/, examples/ and integrations/", () => {
    expect(FILES.flatMap((f) => pointers(f, read(f)))).toEqual([]);
  });

  it("the patterns catch each kind of pointer, and plain words pass", () => {
    const bad = [
      ["S", "PEC \u00a79"],
      ["is", "sue 14 \u00a72"],
      ["see #", "24"],
      ["../shared/", "HOS", "TS.md"],
      ["/wo", "rk/research/x.md"],
    ].map((parts) => parts.join(""));
    for (const line of bad) expect(pointers("x", line), line).not.toEqual([]);
    for (const line of ["INSPECT the SPECIFIC rules", "issues found: 3", "&#13; in XML", "Factory-AI/factory#3", "shared/settings.json"]) {
      expect(pointers("x", line), line).toEqual([]);
    }
  });
});

describe("docs/ links in code, tests, scripts and benches point at a page and heading that exist", () => {
  const sources = FILES.filter((f) => !f.endsWith(".md") && !DOCS_PATHS_AS_DATA.has(f));

  it("every docs/….md and docs/….md#anchor resolves", () => {
    const broken = sources.flatMap((f) =>
      docsLinks(read(f)).flatMap(({ link, target, anchor }) => {
        const problem = brokenTarget(path.join(ROOT, target), anchor, link);
        return problem ? [`${f}: ${problem}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it("the link pattern reads a link with and without an anchor, and skips URLs", () => {
    expect(docsLinks("(docs/cli.md#exit-codes), docs/trust.md. https://x.com/docs/a.md").map((l) => l.link)).toEqual(["docs/cli.md#exit-codes", "docs/trust.md"]);
    expect(brokenTarget(path.join(ROOT, "docs/cli.md"), "nope", "docs/cli.md#nope")).toBe("docs/cli.md#nope: no heading #nope");
  });
});

describe("decision records name files that exist", () => {
  const records = FILES.filter((f) => f.startsWith("docs/decisions/") && f.endsWith(".md"));

  it.each(records)("%s", (file) => {
    const missing = namedPaths(read(file)).filter((p) => !existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });
});
