import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_VARS, HOOK_ENV } from "../src/env.js";

const SRC = path.resolve(import.meta.dirname, "../src");
function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (p.endsWith(".ts")) yield p;
  }
}

describe("the env table (src/env.ts) names every variable hookrun reads or sets", () => {
  it("every env.NAME in src/ is in ENV_VARS or HOOK_ENV", () => {
    const known = new Set([...ENV_VARS, ...HOOK_ENV].map((v) => v.name));
    const used = new Map<string, string>();
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, "utf8").matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b/g)) used.set(m[1], path.relative(SRC, file));
    }
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter(([name]) => !known.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });

  it("names are unique and every entry is described", () => {
    for (const table of [ENV_VARS, HOOK_ENV]) {
      expect(new Set(table.map((v) => v.name)).size).toBe(table.length);
      for (const v of table) expect(v.description.length).toBeGreaterThan(0);
    }
  });
});
