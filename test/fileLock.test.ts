import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WriteError } from "../src/errors.js";
import { lockPathFor, withFileLock } from "../src/fs/withFileLock.js";
import { disableHook } from "../src/index.js";
import { sandbox, type Sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

function setup(): Sandbox {
  const t = sandbox({ prefix: "hookrun-lock-" });
  return t;
}

/** The pid of a process that has exited (and, right after, is not reused). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("the lock serialises writers and recovers from crashed ones (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("breaks a lock whose process is dead", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    writeFileSync(`${file}.lock`, `${deadPid()}\n${new Date().toISOString()}\n`);
    const got = await withFileLock(file, () => "ran", { timeoutMs: 5000 });
    expect(got).toBe("ran");
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it.skipIf(!existsSync("/usr/bin/perl"))("breaks a lock whose process has exited but was not reaped (a zombie; needs /usr/bin/perl)", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    // perl forks a child that exits at once and is never waited for: a zombie for 30 s.
    const parent = spawn("/usr/bin/perl", ["-e", '$| = 1; my $c = fork(); if ($c == 0) { exit 0 } print "$c\\n"; sleep 30'], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(d.toString()))));
      await waitFor(() => readFileSync(`/proc/${zombie}/stat`, "latin1").split(") ")[1]?.startsWith("Z") ?? false, { what: "the child to be a zombie" });
      writeFileSync(`${file}.lock`, `${zombie}\n${new Date().toISOString()}\n`);
      expect(await withFileLock(file, () => "ran", { timeoutMs: 3000 })).toBe("ran");
    } finally {
      parent.kill("SIGKILL");
    }
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

describe("the lock file is untrusted input, and a lock is released only by its holder", () => {
  const age = (f: string, ms: number) => utimesSync(f, new Date(Date.now() - ms), new Date(Date.now() - ms));

  for (const content of ["-1\n", "0\n", "99999999999999999999\n", "1e3\n", "\u0000\u0000garbage", "x".repeat(100_000)]) {
    it(`content ${JSON.stringify(content.slice(0, 24))} is garbage: waited on while fresh (being written), broken once 2 s old`, async () => {
      const t = setup();
      const file = path.join(t.dir, "f");
      writeFileSync(`${file}.lock`, content);
      await expect(withFileLock(file, () => 1, { timeoutMs: 200 })).rejects.toThrow(/timed out/);
      age(`${file}.lock`, 3000);
      expect(await withFileLock(file, () => 2, { timeoutMs: 2000 })).toBe(2);
    });
  }

  it("a FIFO or a symlink at the lock path is a clear error, not a hang or a deletion", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    expect(spawnSync("mkfifo", [`${file}.lock`]).status).toBe(0);
    await expect(withFileLock(file, () => 1, { timeoutMs: 2000 })).rejects.toThrow(/not a regular file/);
    const other = path.join(t.dir, "g");
    symlinkSync(path.join(t.dir, "elsewhere"), `${other}.lock`);
    await expect(withFileLock(other, () => 1, { timeoutMs: 2000 })).rejects.toThrow(/symlink/);
    expect(lstatSync(`${other}.lock`).isSymbolicLink()).toBe(true);
  });

  it.skipIf(!existsSync("/proc/self/stat"))("a live pid that started after the lock was written is pid reuse: the lock is stale", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    writeFileSync(`${file}.lock`, `${process.pid}\n${new Date().toISOString()}\n1\nabc\n`);
    expect(await withFileLock(file, () => "ran", { timeoutMs: 300 })).toBe("ran");
  });

  it("a holder whose lock was broken and taken over does not release the new holder's lock", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    const theirs = `${process.pid}\n${new Date().toISOString()}\n-\nsomeone-else\n`;
    await withFileLock(file, () => writeFileSync(`${file}.lock`, theirs));
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(theirs);
  });

  it("a claim left by a breaker that crashed is passed over after 10 s; a fresh one means wait", async () => {
    const t = setup();
    const file = path.join(t.dir, "f");
    const content = `${deadPid()}\n2020-01-01T00:00:00.000Z\n-\ntoken\n`;
    writeFileSync(`${file}.lock`, content);
    const id = `${statSync(`${file}.lock`).ino}-${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
    const claim = `${file}.lock.break-${id}-0`;
    writeFileSync(claim, "");
    await expect(withFileLock(file, () => 1, { timeoutMs: 300 })).rejects.toThrow(/timed out/); // someone is breaking it
    age(claim, 11_000);
    expect(await withFileLock(file, () => 2, { timeoutMs: 2000 })).toBe(2);
    expect(readdirSync(t.dir).sort()).toEqual([`f.lock.break-${id}-0`]);
  });

  it("is keyed by the real path: two symlinks to one file share one lock beside the real file", async () => {
    const t = setup();
    const real = path.join(realpathSync(t.root), "real.yaml");
    writeFileSync(real, "");
    mkdirSync(path.join(t.dir, "a"));
    const links = [path.join(t.dir, "a", "hooks.yaml"), path.join(t.dir, "b.yaml")];
    for (const l of links) symlinkSync(real, l);
    for (const l of links) expect(lockPathFor(l)).toBe(`${real}.lock`);
    let inside = 0;
    let most = 0;
    await Promise.all(
      links.flatMap((f) =>
        Array.from({ length: 5 }, () =>
          withFileLock(f, async () => {
            most = Math.max(most, ++inside);
            await new Promise((r) => setTimeout(r, 5));
            inside--;
          }),
        ),
      ),
    );
    expect(most).toBe(1);
    expect(lockPathFor(path.join(t.dir, "new.yaml"))).toBe(path.join(realpathSync(t.dir), "new.yaml.lock"));
  });
});
