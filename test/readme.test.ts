import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS } from "../src/env.js";
import { EVENTS, eventTableMarkdown } from "../src/events/catalog.js";
import { hostTableMarkdown } from "../src/hosts/table.js";
// Shared with scripts/update-readme-events.mjs, which writes the blocks this file checks.
import { BLOCKS, envTableMarkdown, readBlock } from "../scripts/doc-tables.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const README = read("README.md");
const DOCS = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  ...readdirSync(path.join(ROOT, "docs/hosts"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/hosts/${f}`),
];

describe("README and docs/ agree with the code (regenerate with scripts/update-readme-events.mjs)", () => {
  it("docs/configuration.md's event table is the catalog's, and the README links to it", () => {
    expect(readBlock(read("docs/configuration.md"), "events")).toBe(eventTableMarkdown());
    expect(README).toContain("](docs/configuration.md#events)");
  });

  it("the event table has one row per catalog event, with its gate and match field", () => {
    const rows = eventTableMarkdown()
      .split("\n")
      .slice(2)
      .map((r) => r.split("|").map((c) => c.trim()));
    expect(rows.map((r) => r[1])).toEqual(EVENTS.map((e) => e.name));
    expect(rows.map((r) => [r[4], r[5]])).toEqual(EVENTS.map((e) => [e.gate, e.matchField ?? "–"]));
  });

  it("docs/cli.md's environment variable table is ENV_VARS", () => {
    expect(readBlock(read("docs/cli.md"), "env")).toBe(envTableMarkdown(ENV_VARS));
    const names = envTableMarkdown(ENV_VARS)
      .split("\n")
      .slice(2)
      .map((r) => /^\| `([^`]+)`/.exec(r)?.[1]);
    expect(names).toEqual(ENV_VARS.map((v) => v.name));
  });

  it("every generated block is what the generator would write", () => {
    const modules = { eventTableMarkdown, ENV_VARS, hostTableMarkdown };
    for (const block of BLOCKS) {
      expect(readBlock(read(block.file), block.name), `${block.file} ${block.name}`).toBe(block.table(modules));
    }
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(markdown).split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .replace(/`/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, "");
/** The text without fenced code blocks and inline code, where a `[x](y)` is not a link. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, "``");

/** Relative links of `text` (as if it were the file `file`) that name no file, or no heading of a .md file. */
function brokenLinks(file: string, text: string): { links: string[]; broken: string[] } {
  const links = [...withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  const broken: string[] = [];
  for (const link of links) {
    if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
    const [target, anchor] = link.split("#") as [string, string | undefined];
    const resolved = target === "" ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), target);
    if (target !== "" && !existsSync(resolved)) {
      broken.push(`${link}: no such file`);
      continue;
    }
    const page = target === "" ? text : statSync(resolved).isFile() && resolved.endsWith(".md") ? readFileSync(resolved, "utf8") : undefined;
    if (anchor !== undefined && page !== undefined && !anchors(page).has(anchor)) broken.push(`${link}: no heading #${anchor}`);
  }
  return { links, broken };
}

describe("links in README.md and docs/*.md", () => {
  it.each(DOCS)("every relative link in %s points to an existing file and heading", (file) => {
    const { links, broken } = brokenLinks(file, read(file));
    expect(links.length).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  it("the check sees a missing file, a missing heading and a repeated heading, and skips code", () => {
    expect(anchors("# A `b`: c / d\n## A `b`: c / d\n```\n# not a heading\n```\n")).toEqual(new Set(["a-b-c--d", "a-b-c--d-1"]));
    const text = "# Top\n[a](cli.md#exit-codes) [b](nope.md) [c](cli.md#nope) [d](#top) [e](#gone) `[f](nope2.md)`\n```\n[g](nope3.md)\n```\n[h](https://example.com)\n";
    expect(brokenLinks("docs/x.md", text).broken).toEqual(["nope.md: no such file", "cli.md#nope: no heading #nope", "#gone: no heading #gone"]);
  });
});
