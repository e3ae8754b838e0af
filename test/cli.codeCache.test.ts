import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli.js";

// The CLI loader runs the bundle from V8 code cache (scripts/cliLoader.cjs). Whatever is in the
// cache, the CLI must behave exactly as without it.
const CACHE_DIR = path.join(ROOT, "dist/bin/.v8-cache");
const cacheFiles = (command: string): string[] => (fs.existsSync(CACHE_DIR) ? fs.readdirSync(CACHE_DIR).filter((f) => f.startsWith(`${command}-`) && f.endsWith(".bin")) : []);

describe("CLI code cache", () => {
  it("writes a cache per command and gives the same output with it", async () => {
    const first = await runCli(["events", "--json"]);
    expect(first.code).toBe(0);
    expect(cacheFiles("events").length).toBeGreaterThan(0);
    const second = await runCli(["events", "--json"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it("rejects a corrupt cache, still runs, and replaces it", async () => {
    await runCli(["events"]);
    const [name] = cacheFiles("events");
    expect(name).toBeDefined();
    fs.writeFileSync(path.join(CACHE_DIR, name), "not a V8 code cache");
    const r = await runCli(["events", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(20);
    expect(fs.readFileSync(path.join(CACHE_DIR, name), "utf8")).not.toBe("not a V8 code cache");
  });

  it("writes no cache for a mistyped command", async () => {
    const typo = await runCli(["evnets-typo"]);
    expect(typo.code).toBe(64);
    expect(cacheFiles("evnets-typo")).toEqual([]);
  });

  it("neither reads nor writes the cache with HOOKS_CODE_CACHE=0", async () => {
    await runCli(["events"]);
    const suffix = cacheFiles("events")[0].slice("events".length);
    const file = path.join(CACHE_DIR, `help${suffix}`);
    fs.writeFileSync(file, "left alone");
    const off = await runCli(["help"], { env: { HOOKS_CODE_CACHE: "0" } });
    expect(off.code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe("left alone");
    const on = await runCli(["help"]);
    expect(on.stdout).toBe(off.stdout);
    expect(fs.readFileSync(file, "utf8")).not.toBe("left alone");
  });
});
