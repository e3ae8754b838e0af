import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli.js";
import { removeTree } from "./helpers/removeTree.js";

// The CLI loader (scripts/cliLoader.cjs) caches the bundle's compiled code in the user's cache
// dir, never in the installed package: a V8 code cache per command through node:vm, on every Node
// version (docs/decisions/0003-code-cache-loader.md). Whatever is in the cache, the CLI must behave exactly as
// without it. Every test has its own XDG_CACHE_HOME, so no test sees another's cache.
const made: string[] = [];
afterAll(() => {
  for (const d of made) removeTree(d);
});

function cacheHome(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "hookrun-cache-test-"));
  made.push(d);
  return d;
}

/** Every file under dir, relative. */
function files(dir: string): string[] {
  return fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    : [];
}

const vmCacheFiles = (home: string, command: string): string[] => files(path.join(home, "hookrun", "v8-cache")).filter((f) => f.startsWith(`${command}-`) && f.endsWith(".bin"));

describe("CLI code cache", () => {
  it("writes its cache only under $XDG_CACHE_HOME/hookrun, never next to the bundle, and gives the same output with it", async () => {
    const home = cacheHome();
    const first = await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
    expect(first.code).toBe(0);
    expect(files(path.join(home, "hookrun", "v8-cache")).length).toBeGreaterThan(0);
    expect(files(path.join(ROOT, "dist/bin")).filter((f) => f.startsWith(".") || f.endsWith(".bin"))).toEqual([]);
    const second = await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it("defaults to ~/.cache/hookrun without XDG_CACHE_HOME", async () => {
    const home = cacheHome();
    const r = await runCli(["events"], { env: { HOME: home, XDG_CACHE_HOME: undefined, HOOKS_CODE_CACHE: undefined } });
    expect(r.code).toBe(0);
    expect(files(path.join(home, ".cache", "hookrun")).length).toBeGreaterThan(0);
  });

  it("uses no cache dir that others can write, that another user owns, or that is a symlink: a planted cache is never read, nothing is written there, the output is the same", async () => {
    const sub = "v8-cache";
    const cases: [string, (dir: string, home: string) => void][] = [
      ["writable by others", (dir) => fs.chmodSync(dir, 0o777)],
      ["the hookrun folder writable by others", (dir) => fs.chmodSync(path.dirname(dir), 0o777)],
      [
        "a symlink",
        (dir, home) => {
          const elsewhere = path.join(home, "elsewhere");
          fs.mkdirSync(elsewhere, { mode: 0o700 });
          fs.rmSync(dir, { recursive: true });
          fs.symlinkSync(elsewhere, dir);
        },
      ],
    ];
    // another user's (only root can make one here)
    if (process.getuid?.() === 0) cases.push(["owned by another user", (dir) => fs.chownSync(dir, 65534, 65534)]);
    const plain = await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: cacheHome(), HOOKS_CODE_CACHE: "0" } });
    // the name this build reads its settled cache from: planted under it, a read cache would be rejected and rewritten
    const probe = cacheHome();
    await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: probe, HOOKS_CODE_CACHE: undefined } });
    const settled = vmCacheFiles(probe, "events")[0].replace(".first.bin", ".bin");
    for (const [what, spoil] of cases) {
      const home = cacheHome();
      const dir = path.join(home, "hookrun", sub);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(path.dirname(dir), 0o700);
      spoil(dir, home);
      // a planted cache for this very command and build: read, V8 would reject it and the loader rewrite it
      const planted = path.join(dir, settled);
      fs.writeFileSync(planted, "planted");
      const before = files(fs.realpathSync(dir)).sort();
      const r = await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      expect(r.code, what).toBe(0);
      expect(r.stdout, what).toBe(plain.stdout);
      expect(files(fs.realpathSync(dir)).sort(), what).toEqual(before);
      expect(fs.readFileSync(planted, "utf8"), what).toBe("planted");
    }
  });

  it("neither reads nor writes a cache with HOOKS_CODE_CACHE=0", async () => {
    const home = cacheHome();
    const off = await runCli(["help"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: "0" } });
    expect(off.code).toBe(0);
    expect(files(home)).toEqual([]);
    const on = await runCli(["help"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
    expect(on.stdout).toBe(off.stdout);
  });

  it("still runs when the cache dir cannot be written", async () => {
    const home = cacheHome();
    const blocker = path.join(home, "a-file");
    fs.writeFileSync(blocker, "");
    const r = await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: blocker, HOOKS_CODE_CACHE: undefined } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(20);
  });

  describe("the vm loader", () => {
    it("keeps a cache per command", async () => {
      const home = cacheHome();
      await runCli(["events"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      await runCli(["help"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      expect(vmCacheFiles(home, "events")).toHaveLength(1);
      expect(vmCacheFiles(home, "help")).toHaveLength(1);
    });

    it("rejects a corrupt cache, still runs, and replaces it", async () => {
      const home = cacheHome();
      await runCli(["events"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      const [name] = vmCacheFiles(home, "events");
      expect(name).toBeDefined();
      const file = path.join(home, "hookrun", "v8-cache", name);
      fs.writeFileSync(file, "not a V8 code cache");
      const r = await runCli(["events", "--json"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(20);
      expect(fs.readFileSync(file, "utf8")).not.toBe("not a V8 code cache");
    });

    it("writes no cache for a mistyped command", async () => {
      const home = cacheHome();
      const typo = await runCli(["evnets-typo"], { env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      expect(typo.code).toBe(64);
      expect(vmCacheFiles(home, "evnets-typo")).toEqual([]);
    });

    it("is not frozen by a first run that found no config: the second run writes the cache later runs keep", async () => {
      const home = cacheHome();
      const dir = path.join(home, "hookrun", "v8-cache");
      const size = (): number => fs.statSync(path.join(dir, vmCacheFiles(home, "fast-run")[0])).size;
      const none = await runCli(["--no-user-config", "run", "stop"], { cwd: cacheHome(), env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      expect(none.code).toBe(0);
      expect(vmCacheFiles(home, "fast-run")).toEqual([expect.stringMatching(/\.first\.bin$/)]);
      const small = size();
      const project = cacheHome();
      fs.writeFileSync(path.join(project, "hooks.yaml"), 'version: 1\nhooks:\n  stop:\n    - name: a\n      command: "true"\n    - name: b\n      command: "echo hi"\n');
      const run = () => runCli(["--no-user-config", "--trust", "run", "stop"], { cwd: project, env: { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined } });
      expect((await run()).code).toBe(0);
      expect(vmCacheFiles(home, "fast-run")).toEqual([expect.not.stringMatching(/\.first\.bin$/)]);
      expect(size()).toBeGreaterThan(small * 1.1);
      // Settled: later runs only read it.
      const mtime = fs.statSync(path.join(dir, vmCacheFiles(home, "fast-run")[0])).mtimeMs;
      expect((await run()).code).toBe(0);
      expect(fs.statSync(path.join(dir, vmCacheFiles(home, "fast-run")[0])).mtimeMs).toBe(mtime);
    });

    it("runs `hooks run` from the fast run bundle, and leaves a command line it does not take to the full CLI, writing no fast cache for it", async () => {
      const home = cacheHome();
      const env = { XDG_CACHE_HOME: home, HOOKS_CODE_CACHE: undefined };
      const project = cacheHome();
      fs.writeFileSync(path.join(project, "hooks.yaml"), 'version: 1\nhooks:\n  stop:\n    - name: a\n      command: "echo hi"\n');
      const run = await runCli(["--no-user-config", "--trust", "run", "stop", "--json"], { cwd: project, env });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).hooks[0].stdout).toBe("hi\n");
      expect(vmCacheFiles(home, "fast-run")).toHaveLength(1);
      expect(vmCacheFiles(home, "run")).toEqual([]);
      // Help and a typo: commander's own output, from the full CLI.
      const other = cacheHome();
      const help = await runCli(["run", "--help"], { env: { XDG_CACHE_HOME: other, HOOKS_CODE_CACHE: undefined } });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("Usage: hooks run [options] <event>");
      const typo = await runCli(["run", "stop", "--bogus"], { cwd: project, env: { XDG_CACHE_HOME: other, HOOKS_CODE_CACHE: undefined } });
      expect(typo.code).toBe(64);
      expect(typo.stderr).toBe("hooks: unknown option '--bogus'\n");
      expect(vmCacheFiles(other, "fast-run")).toEqual([]);
      expect(vmCacheFiles(other, "run")).toHaveLength(1);
    });
  });
});
