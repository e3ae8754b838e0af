import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENTS, eventTableMarkdown } from "../src/events/catalog.js";

const README = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");

describe("README agrees with the code", () => {
  it("its event table is the catalog's (regenerate with scripts/update-readme-events.mjs)", () => {
    const m = /<!-- events:start[^>]*-->\n([\s\S]*?)\n<!-- events:end -->/.exec(README);
    expect(m?.[1]).toBe(eventTableMarkdown());
  });

  it("the table has one row per catalog event, with its gate and match field", () => {
    const rows = eventTableMarkdown().split("\n").slice(2).map((r) => r.split("|").map((c) => c.trim()));
    expect(rows.map((r) => r[1])).toEqual(EVENTS.map((e) => e.name));
    expect(rows.map((r) => [r[4], r[5]])).toEqual(EVENTS.map((e) => [e.gate, e.matchField ?? "–"]));
  });
});
