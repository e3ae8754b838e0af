import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli, type CliOptions } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// The CLI loader runs the bundle from V8 code cache (scripts/cliLoader.cjs). Whatever is in the
// cache, the CLI must behave exactly as without it. Each test has its own XDG_CACHE_HOME.
const sb = useSandbox({ prefix: "hookrun-code-cache-" });
const withCache = (env: Record<string, string | undefined> = {}): CliOptions => ({ env: { ...sb.current.env, HOOKS_CODE_CACHE: undefined, ...env } });

// Where the cache files are: under the user's cache dir ($XDG_CACHE_HOME/hookrun/…), or, from
// loaders that still write beside the bundle, dist/bin/.v8-cache.
function cacheFiles(command: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.startsWith(`${command}-`) && e.name.endsWith(".bin")) found.push(p);
    }
  };
  walk(path.join(sb.current.env.XDG_CACHE_HOME, "hookrun"));
  if (found.length === 0) walk(path.join(ROOT, "dist/bin/.v8-cache"));
  return found;
}

describe("CLI code cache", () => {
  it("writes a cache per command and gives the same output with it", async () => {
    const first = await runCli(["events", "--json"], withCache());
    expect(first.code).toBe(0);
    expect(cacheFiles("events").length).toBeGreaterThan(0);
    const second = await runCli(["events", "--json"], withCache());
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it("rejects a corrupt cache, still runs, and replaces it", async () => {
    await runCli(["events"], withCache());
    const [file] = cacheFiles("events");
    expect(file).toBeDefined();
    fs.writeFileSync(file, "not a V8 code cache");
    const r = await runCli(["events", "--json"], withCache());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(20);
    expect(fs.readFileSync(file, "utf8")).not.toBe("not a V8 code cache");
  });

  it("writes no cache for a mistyped command", async () => {
    const typo = await runCli(["evnets-typo"], withCache());
    expect(typo.code).toBe(64);
    expect(cacheFiles("evnets-typo")).toEqual([]);
  });

  it("neither reads nor writes the cache with HOOKS_CODE_CACHE=0", async () => {
    await runCli(["events"], withCache());
    const events = cacheFiles("events")[0];
    const file = path.join(path.dirname(events), `help${path.basename(events).slice("events".length)}`);
    fs.writeFileSync(file, "left alone");
    const off = await runCli(["help"], withCache({ HOOKS_CODE_CACHE: "0" }));
    expect(off.code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe("left alone");
    const on = await runCli(["help"], withCache());
    expect(on.stdout).toBe(off.stdout);
    expect(fs.readFileSync(file, "utf8")).not.toBe("left alone");
  });
});
