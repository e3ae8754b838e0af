import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WriteError } from "../src/errors.js";
import { withFileLock } from "../src/fs/withFileLock.js";
import { disableHook } from "../src/index.js";
import { tempEnv } from "./helpers/tempEnv.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function setup(): ReturnType<typeof tempEnv> {
  const t = tempEnv("hookrun-lock-");
  cleanups.push(t.cleanup);
  return t;
}

/** The pid of a process that has exited (and, right after, is not reused). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("the lock serialises writers and recovers from crashed ones (SPEC §9)", () => {
  it("breaks a lock whose process is dead", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    writeFileSync(`${file}.lock`, `${deadPid()}\n${new Date().toISOString()}\n`);
    const got = await withFileLock(file, () => "ran", { timeoutMs: 5000 });
    expect(got).toBe("ran");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("breaks a lock older than staleMs even if its pid is alive", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    writeFileSync(`${file}.lock`, `${process.pid}\n`);
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${file}.lock`, old, old);
    expect(await withFileLock(file, () => 1, { timeoutMs: 5000 })).toBe(1);
  });

  it("waits for a live holder, then gives up with a clear error after timeoutMs", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    writeFileSync(`${file}.lock`, `${process.pid}\n`);
    await expect(withFileLock(file, () => 1, { timeoutMs: 300 })).rejects.toThrow(WriteError);
    await expect(withFileLock(file, () => 1, { timeoutMs: 300 })).rejects.toThrow(/timed out waiting for the lock/);
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(`${process.pid}\n`);
  });

  it("runs holders one at a time", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        withFileLock(file, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
  });

  it("a config reached through a symlink is edited through it, not replaced by a copy", async () => {
    const t = setup();
    const real = path.join(t.root, "shared-hooks.yaml");
    writeFileSync(real, "hooks:\n  stop:\n    - name: a\n      command: echo\n");
    symlinkSync(real, path.join(t.dir, "hooks.yaml"));
    await disableHook("a", { cwd: t.dir, userConfig: false, env: t.env });
    expect(lstatSync(path.join(t.dir, "hooks.yaml")).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toContain("enabled: false");
  });
});
