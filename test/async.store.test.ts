import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asyncSessionDir, sessionKey, newAsyncId, asyncFileName } from "../src/async/paths.js";
import { publishAsyncResult, writeAsyncResult, writeAsyncJob, writeWorkerRecord, listAsyncPending, type AsyncJob } from "../src/async/records.js";
import { captureIdentity, groupSignalDecision } from "../src/fs/processes.js";
import { collectAsyncResults } from "../src/async/collect.js";
import type { AsyncDelivery } from "../src/runner/types.js";
import { ROOT } from "./helpers/cli.js";
import { asyncDelivery } from "./helpers/results.js";
import { useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox({ prefix: "hookrun-async-store-" });
let state: string;
beforeEach(() => {
  state = sb.current.env.HOOKS_STATE_DIR;
  fs.mkdirSync(state, { recursive: true, mode: 0o700 });
});

// stdout carries the name: the store tests tell results apart by it.
const delivery = (name: string, extra: Partial<AsyncDelivery> = {}): AsyncDelivery => asyncDelivery(name, { stdout: `${name}\n`, ...extra });

function job(id: string, extra: Partial<AsyncJob> = {}): AsyncJob {
  return {
    version: 1,
    id,
    name: "bg",
    event: "stop",
    gate: "yes",
    session_id: "s1",
    project_dir: "/p",
    started_at: new Date().toISOString(),
    timeout_ms: 60_000,
    cwd: "/p",
    run_log: null,
    context: { session_id: "s1" },
    hook: {
      name: "bg",
      event: "stop",
      command: "true",
      priority: 0,
      async: true,
      timeoutMs: 60_000,
      enabled: true,
      env: {},
      dir: "/p",
      shell: "sh",
      onFailure: "continue",
      dialect: "native",
      maxOutput: 1024,
      order: 0,
      source: { file: "/p/hooks.yaml", line: 1, col: 1, layer: "project" },
      enabledSource: { file: "/p/hooks.yaml", line: 1, col: 1, layer: "project" },
      sources: [],
    },
    ...extra,
  };
}

describe("async store layout", () => {
  it("keys results by project and by a filesystem-safe session name", () => {
    const dir = asyncSessionDir(state, "/repo", "../../etc/x y");
    expect(path.relative(state, dir).split(path.sep)).toHaveLength(3);
    expect(path.basename(dir)).toBe("%2E%2E%2F%2E%2E%2Fetc%2Fx%20y");
    expect(asyncSessionDir(state, "/repo", "a")).not.toBe(asyncSessionDir(state, "/other", "a"));
    expect(sessionKey("")).toBe("%");
    const long1 = sessionKey(`${"x".repeat(300)}1`);
    const long2 = sessionKey(`${"x".repeat(300)}2`);
    expect(long1.length).toBeLessThanOrEqual(80);
    expect(long1).not.toBe(long2);
  });
});

describe("async store delivery", () => {
  it("delivers a finished result once, oldest first, and removes it", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    writeAsyncResult(dir, newAsyncId(Date.now() - 1000), delivery("second", { started_at: "2026-01-01T00:00:02.000Z" }));
    writeAsyncResult(dir, newAsyncId(), delivery("first", { started_at: "2026-01-01T00:00:01.000Z" }));
    expect(listAsyncPending(dir).map((p) => [p.name, p.state])).toEqual(
      expect.arrayContaining([
        ["first", "finished"],
        ["second", "finished"],
      ]),
    );
    const one = collectAsyncResults(dir);
    expect(one.delivered.map((d) => d.name)).toEqual(["first", "second"]);
    expect(one.warnings).toEqual([]);
    expect(collectAsyncResults(dir).delivered).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("delivers runs started in the same millisecond in the order they started (one process's ids strictly increase)", () => {
    const ids = Array.from({ length: 200 }, () => newAsyncId());
    expect([...ids].sort()).toEqual(ids);
    const dir = asyncSessionDir(state, "/repo", "s1");
    const sameMs = "2026-01-01T00:00:01.000Z";
    const names = ["a", "b", "c", "d", "e", "f"];
    for (const name of names) writeAsyncResult(dir, newAsyncId(), delivery(name, { started_at: sameMs }));
    expect(collectAsyncResults(dir).delivered.map((d) => d.name)).toEqual(names);
  });

  it("lists a started run as running and does not deliver it while its worker lives", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const id = newAsyncId();
    // a stand-in worker: detached, so it leads its own process group like a real one
    const worker = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    try {
      writeAsyncJob(dir, job(id));
      writeWorkerRecord(dir, id, { version: 1, worker: captureIdentity(worker.pid!), hook: null });
      expect(listAsyncPending(dir).map((p) => p.state)).toEqual(["running"]);
      const got = collectAsyncResults(dir);
      expect(got.delivered).toEqual([]);
      expect(got.warnings).toEqual([]);
    } finally {
      worker.kill("SIGKILL");
    }
    expect(publishAsyncResult(dir, id, delivery("bg"))).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([asyncFileName(id, "result")]);
    expect(collectAsyncResults(dir).delivered.map((d) => d.name)).toEqual(["bg"]);
  });

  it("delivers a run whose worker died without a result as failed, once", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const dead = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
    const pid = Number(dead.stdout.trim());
    const id = newAsyncId();
    writeAsyncJob(dir, job(id));
    writeWorkerRecord(dir, id, { version: 1, worker: { pid, start: null, boot_id: null }, hook: null });
    const got = collectAsyncResults(dir);
    expect(got.delivered).toHaveLength(1);
    expect(got.delivered[0]).toMatchObject({ name: "bg", status: "failed" });
    expect(got.delivered[0].error).toMatch(/exited without writing a result/);
    expect(collectAsyncResults(dir).delivered).toEqual([]);
  });
});

describe("async store: corrupt and half-written files", () => {
  it("reports a half-written result, moves it aside, and still delivers the others", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    writeAsyncResult(dir, newAsyncId(), delivery("good"));
    const bad = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.writeFileSync(bad, '{"name":"half","status":"o');
    const wrongShape = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.writeFileSync(wrongShape, '{"name": 3}');
    const got = collectAsyncResults(dir);
    expect(got.delivered.map((d) => d.name)).toEqual(["good"]);
    expect(got.warnings).toHaveLength(2);
    expect(got.warnings.join("\n")).toMatch(/is corrupt \(.*\); moved it aside/);
    expect(fs.existsSync(bad)).toBe(false);
    expect(fs.readdirSync(dir).filter((n) => n.includes(".corrupt."))).toHaveLength(2);
    // reported once, not on every later trigger
    expect(collectAsyncResults(dir).warnings).toEqual([]);
  });

  it("reports a corrupt started record", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, asyncFileName(newAsyncId(), "started")), "{");
    const got = collectAsyncResults(dir);
    expect(got.delivered).toEqual([]);
    expect(got.warnings.join("\n")).toMatch(/async run record .* is corrupt/);
  });
});

describe("async store expiry", () => {
  it("deletes a result older than 24 h without delivering it, and says so", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const old = new Date(Date.now() - 25 * 3600_000);
    const file = writeAsyncResult(dir, newAsyncId(old.getTime()), delivery("stale", { started_at: old.toISOString(), finished_at: old.toISOString() }));
    fs.utimesSync(file, old, old);
    writeAsyncResult(dir, newAsyncId(), delivery("fresh"));
    const got = collectAsyncResults(dir);
    expect(got.delivered.map((d) => d.name)).toEqual(["fresh"]);
    expect(got.expired.map((e) => e.name)).toEqual(["stale"]);
    expect(got.warnings.join("\n")).toMatch(/"stale".*expired/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("expires a run started more than 24 h ago whose worker never reported back", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    writeAsyncJob(dir, job(newAsyncId(), { started_at: old }));
    const got = collectAsyncResults(dir);
    expect(got.delivered).toEqual([]);
    expect(got.expired.map((e) => e.name)).toEqual(["bg"]);
    expect(got.warnings.join("\n")).toMatch(/"bg".*expired/);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("expires by file age even when finished_at claims to be recent", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const old = new Date(Date.now() - 25 * 3600_000);
    const file = writeAsyncResult(dir, newAsyncId(), delivery("stale"));
    fs.utimesSync(file, old, old);
    expect(collectAsyncResults(dir).expired.map((e) => e.name)).toEqual(["stale"]);
  });
});

describe("async store: exactly-once delivery across concurrent processes", () => {
  it("four processes racing over 300 results deliver each exactly once", async () => {
    const total = 300;
    const ids: string[] = [];
    for (let i = 0; i < total; i++) {
      // one session per result, so every claim is contended by all four processes
      const dir = asyncSessionDir(state, "/repo", `s${i}`);
      writeAsyncResult(dir, newAsyncId(), delivery(`h${i}`, { session_id: `s${i}` }));
      ids.push(`h${i}`);
    }
    const script = `
      const { collectAsyncResults } = await import(${JSON.stringify(path.join(ROOT, "dist/async/collect.js"))});
      const { asyncSessionDir } = await import(${JSON.stringify(path.join(ROOT, "dist/async/paths.js"))});
      const got = [];
      const warnings = [];
      for (let i = 0; i < ${total}; i++) {
        const r = collectAsyncResults(asyncSessionDir(${JSON.stringify(state)}, "/repo", "s" + i));
        got.push(...r.delivered.map((d) => d.name));
        warnings.push(...r.warnings);
      }
      process.stdout.write(JSON.stringify({ got, warnings }));`;
    const runs = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<{ got: string[]; warnings: string[] }>((resolve, reject) => {
            const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
            let out = "";
            child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
            child.on("error", reject);
            child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`collector exited ${code}`))));
          }),
      ),
    );
    const all = runs.flatMap((r) => r.got);
    expect(runs.flatMap((r) => r.warnings)).toEqual([]);
    expect(all.length).toBe(total);
    expect(new Set(all).size).toBe(total);
    expect(all.sort()).toEqual(ids.sort());
    expect(fs.readdirSync(path.join(state, "async")).length).toBeLessThanOrEqual(1);
  });
});

describe("async store: session ids are encoded one-to-one", () => {
  it("keeps ids differing only in lone surrogates apart (short and long)", () => {
    const pairs: [string, string][] = [
      ["\ud800v", "\udbffv"],
      [`${"x".repeat(100)}\ud800`, `${"x".repeat(100)}\udbff`],
      ["\udc00", "\ufffd"],
    ];
    for (const [a, b] of pairs) {
      expect(sessionKey(a)).not.toBe(sessionKey(b));
      const dirA = asyncSessionDir(state, "/repo", a);
      const dirB = asyncSessionDir(state, "/repo", b);
      writeAsyncResult(dirA, newAsyncId(), delivery("for-a", { session_id: a }));
      writeAsyncResult(dirB, newAsyncId(), delivery("for-b", { session_id: b }));
      expect(collectAsyncResults(dirA).delivered.map((d) => d.name)).toEqual(["for-a"]);
      expect(collectAsyncResults(dirB).delivered.map((d) => d.name)).toEqual(["for-b"]);
    }
    // well-formed ids keep the names older versions gave them (results survive an upgrade)
    expect(sessionKey("é x")).toBe("%C3%A9%20x");
    expect(sessionKey("\ud83d\ude00")).toBe("%F0%9F%98%80");
  });
});

describe("async store: result files are hostile input", () => {
  it.each([
    ["a null message", { messages: [null] }],
    ["a message without content", { messages: [{ role: "system" }] }],
    ["an unknown role", { messages: [{ role: "root", content: "x" }] }],
    ["a warning that is not a string", { warnings: [3] }],
    ["an unknown status", { status: "pwned" }],
    ["a duration that is not a number", { duration_ms: "5" }],
  ])("moves aside a result with %s, says so, and delivers the others", (_label, patch) => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    writeAsyncResult(dir, newAsyncId(), delivery("good"));
    const bad = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.writeFileSync(bad, JSON.stringify({ ...delivery("bad"), ...patch }));
    const got = collectAsyncResults(dir);
    expect(got.delivered.map((d) => d.name)).toEqual(["good"]);
    expect(got.warnings).toHaveLength(1);
    expect(got.warnings[0]).toMatch(/is corrupt \(.+\); moved it aside to .*\.corrupt\./);
    expect(fs.readdirSync(dir).filter((n) => n.includes(".corrupt."))).toHaveLength(1);
  });

  it("drops fields an async result may not carry", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const file = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...delivery("x"), decision: "block", continue: false, updated_input: { a: 1 }, extra: 1, messages: [{ content: "m", evil: true }] }));
    const [d] = collectAsyncResults(dir).delivered;
    expect(d.decision).toBeNull();
    expect(d).not.toHaveProperty("continue");
    expect(d).not.toHaveProperty("updated_input");
    expect(d).not.toHaveProperty("extra");
    expect(d.messages).toEqual([{ role: "system", content: "m" }]);
  });

  it("never reads an oversized result, a FIFO or a link to a device: each is moved aside", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    fs.mkdirSync(dir, { recursive: true });
    const huge = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.writeFileSync(huge, "");
    fs.truncateSync(huge, 300 * 1024 * 1024); // sparse: costs no disk, would cost 300 MB of memory to read
    const fifo = path.join(dir, asyncFileName(newAsyncId(), "result"));
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    fs.symlinkSync("/dev/zero", path.join(dir, asyncFileName(newAsyncId(), "result")));
    writeAsyncResult(dir, newAsyncId(), delivery("good"));
    const got = collectAsyncResults(dir);
    expect(got.delivered.map((d) => d.name)).toEqual(["good"]);
    expect(got.warnings.join("\n")).toMatch(/over the \d+-byte limit/);
    expect(got.warnings.join("\n")).toMatch(/is a FIFO/);
    expect(got.warnings.join("\n")).toMatch(/is a character device/);
    expect(fs.readdirSync(dir).filter((n) => n.includes(".corrupt."))).toHaveLength(3);
  });

  it("moves aside a started record of the wrong shape", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const id = newAsyncId();
    writeAsyncJob(dir, { ...job(id), timeout_ms: "soon" } as unknown as AsyncJob);
    const got = collectAsyncResults(dir);
    expect(got.warnings.join("\n")).toMatch(/async run record .* is corrupt \(.*timeout_ms/);
  });
});

describe("async store: a lost run's hook is killed only if it provably is the group hookrun started", () => {
  const realBoot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "latin1").trim();

  // A worker that died without a result, whose record names `hook` as the hook's group.
  function lostRun(hook: unknown): string {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const id = newAsyncId();
    writeAsyncJob(dir, job(id));
    const dead = Number(spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
    fs.writeFileSync(path.join(dir, asyncFileName(id, "worker")), JSON.stringify({ version: 1, worker: { pid: dead, start: null, boot_id: null }, hook }));
    return dir;
  }

  it.each([
    ["pid 1 (kill(-1) signals every process)", 1],
    ["pid 0 (our own group)", 0],
    ["a negative pid", -4242],
    ["a fraction", 4242.5],
    ["a string", "4242"],
    ["a pid above pid_max", 2 ** 31],
    ["our own pid", process.pid],
  ])("refuses %s before any signal", (_label, pid) => {
    const hook = { pid, start: "1", boot_id: realBoot };
    // Guard first: were the decision wrong, the collector below would signal for real (as root).
    const decision = groupSignalDecision(hook);
    expect(decision.signal).toBe(false);
    // overdue too: a record whose worker identity is corrupt is judged by its deadline alone
    const got = collectAsyncResults(lostRun(hook), { now: Date.now() + 60_000 + 61_000 });
    expect(got.delivered.map((d) => d.status)).toEqual(["failed"]);
    // a non-integer pid fails the record's shape check; every other one is refused by number
    expect(got.warnings.join("\n")).toMatch(
      typeof pid === "number" && Number.isInteger(pid) ? /did not signal its process group .*not a pid hookrun could have started/ : /async worker record .* is corrupt/,
    );
    expect(process.kill(process.pid, 0)).toBe(true);
  });

  it("spares a live process group whose start time differs from the record (a reused pid)", async () => {
    const other = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => other.on("exit", (_code, signal) => resolve(signal)));
    try {
      const real = captureIdentity(other.pid!);
      expect(real.start).toMatch(/^\d+$/);
      const forged = { ...real, start: String(Number(real.start) + 1) };
      expect(groupSignalDecision(forged)).toEqual({ signal: false, reason: expect.stringMatching(/start time differs/), gone: true });
      const got = collectAsyncResults(lostRun(forged));
      expect(got.delivered.map((d) => d.status)).toEqual(["failed"]);
      // Proof it was not killed: it dies of the SIGTERM sent now, not of a SIGKILL before.
      other.kill("SIGTERM");
      expect(await exited).toBe("SIGTERM");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("spares a group recorded before the last reboot, and one that was never identified", async () => {
    const other = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => other.on("exit", (_code, signal) => resolve(signal)));
    try {
      const real = captureIdentity(other.pid!);
      expect(groupSignalDecision({ ...real, boot_id: "00000000-0000-0000-0000-000000000000" })).toMatchObject({ signal: false, reason: expect.stringMatching(/before the last reboot/) });
      expect(groupSignalDecision({ ...real, start: null })).toMatchObject({ signal: false, reason: expect.stringMatching(/no start time/) });
      collectAsyncResults(lostRun({ ...real, boot_id: "00000000-0000-0000-0000-000000000000" }));
      collectAsyncResults(lostRun({ ...real, start: null, boot_id: null }));
      other.kill("SIGTERM");
      expect(await exited).toBe("SIGTERM");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("kills the group when pid, start time and boot match (and the pid leads its group)", async () => {
    const hookGroup = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => hookGroup.on("exit", (_code, signal) => resolve(signal)));
    const notLeader = spawn("sleep", ["30"], { stdio: "ignore" }); // in our group: pgrp != pid
    try {
      expect(groupSignalDecision(captureIdentity(notLeader.pid!))).toMatchObject({ signal: false, reason: expect.stringMatching(/no longer leads its process group/) });
      expect(groupSignalDecision(captureIdentity(hookGroup.pid!))).toEqual({ signal: true });
      const got = collectAsyncResults(lostRun(captureIdentity(hookGroup.pid!)));
      expect(got.delivered[0].error).toMatch(/exited without writing a result/);
      expect(await exited).toBe("SIGKILL");
    } finally {
      hookGroup.kill("SIGKILL");
      notLeader.kill("SIGKILL");
    }
  });
});

describe("async store: one outcome per run", () => {
  // A live stand-in worker: detached like a real one.
  let worker: ReturnType<typeof spawn>;
  beforeEach(() => {
    worker = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
  });
  afterEach(() => {
    worker.kill("SIGKILL");
  });

  it("a worker publishing after its run was declared lost writes nothing anyone delivers", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const id = newAsyncId();
    writeAsyncJob(dir, job(id, { timeout_ms: 1000 }));
    writeWorkerRecord(dir, id, { version: 1, worker: captureIdentity(worker.pid!), hook: null });
    expect(collectAsyncResults(dir).delivered).toEqual([]);
    // The worker lives but is overdue (stopped, say): declared lost.
    const lost = collectAsyncResults(dir, { now: Date.now() + 1000 + 61_000 });
    expect(lost.delivered.map((d) => [d.name, d.status])).toEqual([["bg", "failed"]]);
    expect(lost.delivered[0].error).toMatch(/declared lost/);
    // It resumes and publishes: refused.
    writeWorkerRecord(dir, id, { version: 1, worker: captureIdentity(worker.pid!), hook: null });
    expect(publishAsyncResult(dir, id, delivery("bg"))).toBe(false);
    expect(collectAsyncResults(dir).delivered).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("a publishing worker is never declared lost for being late, only once provably gone", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const id = newAsyncId();
    writeAsyncJob(dir, job(id, { timeout_ms: 1000 }));
    fs.renameSync(path.join(dir, asyncFileName(id, "started")), path.join(dir, asyncFileName(id, "publishing")));
    writeWorkerRecord(dir, id, { version: 1, worker: captureIdentity(worker.pid!), hook: null });
    expect(listAsyncPending(dir).map((p) => p.state)).toEqual(["running"]);
    expect(collectAsyncResults(dir, { now: Date.now() + 1000 + 61_000 }).delivered).toEqual([]);
    const gone = collectAsyncResults(dir, { isAlive: () => false });
    expect(gone.delivered[0].error).toMatch(/exited while publishing its result/);
  });
});
