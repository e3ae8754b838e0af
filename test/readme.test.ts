import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS } from "../src/env.js";
import { EVENTS, eventTableMarkdown } from "../src/events/catalog.js";
import { hostTableMarkdown } from "../src/hosts/adapters.js";
// Shared with scripts/update-readme-events.mjs, which writes the blocks this file checks.
import { BLOCKS, envTableMarkdown, readBlock } from "../scripts/doc-tables.mjs";
import { ROOT, anchors, brokenLinks } from "./helpers/markdownLinks.js";

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
  ...readdirSync(path.join(ROOT, "docs/decisions"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/decisions/${f}`),
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

describe("the README", () => {
  it("stays under 15 KB: a newcomer's page, details live in docs/", () => {
    expect(Buffer.byteLength(README)).toBeLessThan(15 * 1024);
  });

  it("keeps the two quick-start commands", () => {
    expect(README).toContain("npm install && npm run demo");
    expect(README).toContain("npm install-ci-test");
  });
});

describe("links in README.md and docs/ (topic pages, host pages, decision records)", () => {
  it.each(DOCS)("every relative link in %s points to an existing file and heading", (file) => {
    const { links, broken } = brokenLinks(file, read(file));
    // A page no link leads out of is a sign the check read nothing; a decision record may stand alone.
    if (!file.startsWith("docs/decisions/")) expect(links.length).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });

  it("the check sees a missing file, a missing heading and a repeated heading, and skips code", () => {
    expect(anchors("# A `b`: c / d\n## A `b`: c / d\n```\n# not a heading\n```\n")).toEqual(new Set(["a-b-c--d", "a-b-c--d-1"]));
    const text = "# Top\n[a](cli.md#exit-codes) [b](nope.md) [c](cli.md#nope) [d](#top) [e](#gone) `[f](nope2.md)`\n```\n[g](nope3.md)\n```\n[h](https://example.com)\n";
    expect(brokenLinks("docs/x.md", text).broken).toEqual(["nope.md: no such file", "cli.md#nope: no heading #nope", "#gone: no heading #gone"]);
  });
});

describe("the docs never teach npx for hookrun", () => {
  // The npm package named `hooks` is another one, and npx adds npm's start-up to every agent event:
  // a command block runs the installed binary (`hooks`, `./node_modules/.bin/hooks`).
  const npxHookrun = (markdown: string) => [...markdown.matchAll(/^```[\s\S]*?^```/gm)].flatMap((m) => m[0].split("\n")).filter((line) => /\bnpx\s+(--\S+\s+)*(hooks|hookrun)\b/.test(line));

  it.each(DOCS)("no command block of %s runs hooks through npx", (file) => {
    expect(npxHookrun(read(file))).toEqual([]);
  });

  it("the check sees npx in a command block, not in prose", () => {
    expect(npxHookrun("never `npx hooks`\n```sh\nnpx hooks install\nnpx --yes hookrun run stop\nnpx vitest run\n```\n")).toEqual(["npx hooks install", "npx --yes hookrun run stop"]);
  });
});
