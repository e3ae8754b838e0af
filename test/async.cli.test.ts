import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { asyncSessionDir, asyncFileName, newAsyncId } from "../src/async/paths.js";
import type { AsyncWorkerRecord } from "../src/async/records.js";
import type { ProcessIdentity } from "../src/fs/processes.js";
import { collectAsyncResults } from "../src/async/collect.js";
import type { TriggerResult } from "../src/runner/types.js";
import { runCli, type CliRun } from "./helpers/cli.js";
import { expectNoSurvivors, markProcesses, readPid, sandbox, waitGone, type Sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// Suite-level: no hook or worker process started by this file outlives it.
const survivors = markProcesses();
afterAll(() => expectNoSurvivors(survivors));

let project: Sandbox | undefined;
// Detached workers outlive `hooks run` by design and keep writing into the state dir (result, run
// log; they recreate missing dirs): removing it under them fails with ENOTEMPTY or leaks a temp
// dir. Tests run one at a time per file, so every marked process left belongs to this test.
afterEach(async () => {
  try {
    await waitFor(() => survivors().length === 0, { timeoutMs: 20_000 });
  } finally {
    project?.cleanup();
    project = undefined;
  }
});

function setup(yaml: string): Sandbox {
  project = sandbox({ config: yaml });
  return project;
}

async function run(p: Sandbox, args: string[], env: Record<string, string | undefined> = {}): Promise<CliRun & { json: TriggerResult }> {
  const r = await runCli(["--trust", "run", ...args, "--json"], { cwd: p.dir, env: { XDG_CONFIG_HOME: p.env.XDG_CONFIG_HOME, HOOKS_STATE_DIR: p.env.HOOKS_STATE_DIR, ...env } });
  let json: TriggerResult;
  try {
    json = JSON.parse(r.stdout) as TriggerResult;
  } catch {
    throw new Error(`hooks run printed no JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
  return { ...r, json };
}

function sessionDir(p: Sandbox, session: string): string {
  return asyncSessionDir(p.env.HOOKS_STATE_DIR, fs.realpathSync(p.dir), session);
}

function finishedIn(p: Sandbox, session: string): boolean {
  try {
    return fs.readdirSync(sessionDir(p, session)).some((n) => n.endsWith(".result.json"));
  } catch {
    return false;
  }
}

describe("CLI: async hooks outlive `hooks run` and are delivered exactly once by a later run", () => {
  it("run 1 starts and exits at once, run 2 delivers, run 3 does not deliver again, another session never sees it", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "sleep 1; touch done; echo from-background" }
`);
    const r1 = await run(p, ["stop", "--session-id", "A"]);
    expect(r1.code).toBe(0);
    expect(r1.json.async_started).toEqual(["bg"]);
    expect(r1.json.async_delivered).toEqual([]);
    expect(fs.existsSync(p.path("done"))).toBe(false);

    await waitFor(() => finishedIn(p, "A"));
    const other = await run(p, ["pre_turn", "--session-id", "B"]);
    expect(other.json.async_delivered).toEqual([]);

    const r2 = await run(p, ["pre_turn", "--session-id", "A"]);
    expect(r2.code).toBe(0);
    expect(r2.json.async_delivered).toMatchObject([{ name: "bg", event: "stop", session_id: "A", status: "ok" }]);
    expect(r2.json.messages).toEqual([{ role: "system", content: "from-background", hook: "bg", async: true }]);

    const r3 = await run(p, ["pre_turn", "--session-id", "A"]);
    expect(r3.json.async_delivered).toEqual([]);
  });

  it("a run refused for trust (exit 77) does not consume a finished result", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "echo kept" }
`);
    await run(p, ["stop", "--session-id", "TR"]);
    await waitFor(() => finishedIn(p, "TR"));
    const refused = await runCli(["run", "stop", "--session-id", "TR", "--json"], { cwd: p.dir, env: { XDG_CONFIG_HOME: p.env.XDG_CONFIG_HOME, HOOKS_STATE_DIR: p.env.HOOKS_STATE_DIR } });
    expect(refused.code).toBe(77);
    expect(finishedIn(p, "TR")).toBe(true);
    const r = await run(p, ["stop", "--session-id", "TR"]);
    expect(r.json.async_delivered.map((d) => d.name)).toEqual(["bg"]);
    await waitFor(() => finishedIn(p, "TR"));
  });

  it("two concurrent runs deliver one finished result exactly once", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "echo once" }
`);
    await run(p, ["stop", "--session-id", "R"]);
    await waitFor(() => finishedIn(p, "R"));
    const [a, b] = await Promise.all([run(p, ["pre_turn", "--session-id", "R"]), run(p, ["pre_turn", "--session-id", "R"])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.json.async_delivered.length + b.json.async_delivered.length).toBe(1);
    expect([...a.json.async_delivered, ...b.json.async_delivered][0].name).toBe("bg");
    expect(finishedIn(p, "R")).toBe(false);
  });

  it("a failing detached hook is delivered with its status", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: bad, async: true, command: "exit 5" }
`);
    await run(p, ["stop", "--session-id", "F"]);
    await waitFor(() => finishedIn(p, "F"));
    const r = await run(p, ["pre_turn", "--session-id", "F"]);
    expect(r.json.async_delivered).toMatchObject([{ name: "bad", status: "failed", exit_code: 5 }]);
  });

  it("a timed-out detached hook leaves no process behind, even a grandchild ignoring SIGTERM", async () => {
    const p = setup(`
hooks:
  stop:
    - name: stuck
      async: true
      timeout: 500ms
      command: "echo $$ > hook.pid; trap '' TERM; sh -c 'trap \\"\\" TERM; echo $$ > grandchild.pid; sleep 60' & wait"
`);
    const r1 = await run(p, ["stop", "--session-id", "T"]);
    expect(r1.json.async_started).toEqual(["stuck"]);
    await waitFor(() => finishedIn(p, "T"), { timeoutMs: 20_000 });
    expect(await waitGone(readPid(p.path("hook.pid")))).toBe(true);
    expect(await waitGone(readPid(p.path("grandchild.pid")))).toBe(true);
    const r2 = await run(p, ["pre_turn", "--session-id", "T"]);
    expect(r2.json.async_delivered).toMatchObject([{ name: "stuck", status: "timed_out" }]);
  });
});

describe("CLI: --wait and CI wait for async hooks in the same run", () => {
  const yaml = `
hooks:
  stop:
    - { name: bg, async: true, command: "sleep 0.5; echo waited-for" }
`;
  for (const [label, args, env] of [
    ["--wait", ["--wait"], {}],
    ["CI=true", [], { CI: "true" }],
  ] as const) {
    it(`${label} reports the async hook in async_delivered and leaves nothing behind`, async () => {
      const p = setup(yaml);
      const r = await run(p, ["stop", "--session-id", "W", ...args], env);
      expect(r.code).toBe(0);
      expect(r.json.async_started).toEqual(["bg"]);
      expect(r.json.async_delivered).toMatchObject([{ name: "bg", status: "ok" }]);
      expect(r.json.messages).toEqual([{ role: "system", content: "waited-for", hook: "bg", async: true }]);
      expect(fs.existsSync(sessionDir(p, "W"))).toBe(false);
      const log = await runCli(["log"], { cwd: p.dir, env: { XDG_CONFIG_HOME: p.env.XDG_CONFIG_HOME, HOOKS_STATE_DIR: p.env.HOOKS_STATE_DIR } });
      expect(log.stdout).toMatch(/async bg: finished ok .*delivered \d{4}-/);
    });
  }

  it("CI=false does not wait", async () => {
    const p = setup(yaml);
    const r = await run(p, ["stop", "--session-id", "N"], { CI: "false" });
    expect(r.json.async_delivered).toEqual([]);
    await waitFor(() => finishedIn(p, "N"));
  });
});

describe("CLI: hooks log shows async runs and their delivery", () => {
  it("logs the start, the finish and the delivery, and says whether a result was delivered", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "echo logged" }
`);
    const env = { XDG_CONFIG_HOME: p.env.XDG_CONFIG_HOME, HOOKS_STATE_DIR: p.env.HOOKS_STATE_DIR };
    await run(p, ["stop", "--session-id", "L"]);
    await waitFor(() => finishedIn(p, "L"));
    await waitFor(() => fs.readFileSync(path.join(p.env.HOOKS_STATE_DIR, "runs.jsonl"), "utf8").includes('"finished"'));
    const before = await runCli(["log"], { cwd: p.dir, env });
    expect(before.stdout).toMatch(/async started: bg/);
    expect(before.stdout).toMatch(/async bg: finished ok .*not delivered yet/);

    await run(p, ["pre_turn", "--session-id", "L"]);
    const after = await runCli(["log", "--session", "L"], { cwd: p.dir, env });
    expect(after.stdout).toMatch(/async bg: finished ok .*delivered \d{4}-/);
    expect(after.stdout).toMatch(/async bg: delivered \(ok\)/);
    const json = JSON.parse((await runCli(["log", "--json"], { cwd: p.dir, env })).stdout) as Array<{ async?: string; hooks: { name: string }[] }>;
    expect(json.filter((r) => r.async).map((r) => [r.async, r.hooks[0].name])).toEqual([
      ["finished", "bg"],
      ["delivered", "bg"],
    ]);
  });
});

// The worker record of the one run in `dir`, once it names the hook's process group.
async function workerRecord(dir: string): Promise<AsyncWorkerRecord & { hook: ProcessIdentity }> {
  let record: AsyncWorkerRecord | null = null;
  await waitFor(() => {
    const name = fs.readdirSync(dir).find((n) => n.endsWith(".worker.json"));
    record = name ? (JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as AsyncWorkerRecord) : null;
    return record?.hook != null;
  });
  return record! as AsyncWorkerRecord & { hook: ProcessIdentity };
}

describe("CLI: a worker that dies", () => {
  it("is delivered as failed by the next run, and its hook is killed", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: long, async: true, timeout: 60, command: "echo $$ > long.pid; sleep 60" }
`);
    await run(p, ["stop", "--session-id", "K"]);
    await waitFor(() => fs.existsSync(p.path("long.pid")));
    const job = await workerRecord(sessionDir(p, "K"));
    process.kill(job.worker.pid, "SIGKILL");
    expect(await waitGone(job.worker.pid)).toBe(true);
    const r = await run(p, ["pre_turn", "--session-id", "K"]);
    expect(r.json.async_delivered).toMatchObject([{ name: "long", status: "failed" }]);
    expect(r.json.async_delivered[0].error).toMatch(/exited without writing a result/);
    expect(await waitGone(readPid(p.path("long.pid")))).toBe(true);
    const again = await run(p, ["pre_turn", "--session-id", "K"]);
    expect(again.json.async_delivered).toEqual([]);
  });

  it("a SIGTERM to the worker cancels the hook and still delivers its result", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: long, async: true, timeout: 60, command: "echo $$ > long.pid; sleep 60" }
`);
    await run(p, ["stop", "--session-id", "T2"]);
    await waitFor(() => fs.existsSync(p.path("long.pid")));
    const job = await workerRecord(sessionDir(p, "T2"));
    process.kill(job.worker.pid, "SIGTERM");
    await waitFor(() => finishedIn(p, "T2"));
    expect(await waitGone(readPid(p.path("long.pid")))).toBe(true);
    const r = await run(p, ["pre_turn", "--session-id", "T2"]);
    expect(r.json.async_delivered).toMatchObject([{ name: "long", status: "cancelled" }]);
  });
});

describe("CLI: a stopped worker declared lost", () => {
  it("delivers the loss once, kills the hook, and the resumed worker's result is never delivered", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: long, async: true, timeout: 60, command: "echo $$ > long.pid; sleep 60" }
`);
    await run(p, ["stop", "--session-id", "S"]);
    const dir = sessionDir(p, "S");
    const job = await workerRecord(dir);
    const hookPid = readPid(p.path("long.pid"));
    process.kill(job.worker.pid, "SIGSTOP");
    try {
      // Past the hook's timeout plus the 60 s grace (the clock moved instead of waited for).
      const lost = collectAsyncResults(dir, { now: Date.now() + 60_000 + 61_000 });
      expect(lost.delivered).toMatchObject([{ name: "long", status: "failed" }]);
      expect(lost.delivered[0].error).toMatch(/declared lost/);
      // its hook group (identity checked) is killed
      expect(await waitGone(hookPid)).toBe(true);
    } finally {
      process.kill(job.worker.pid, "SIGCONT");
    }
    // The worker resumes, sees its hook killed, and tries to publish: it must find the run taken.
    expect(await waitGone(job.worker.pid, 15_000)).toBe(true);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.includes(".corrupt.")) : []).toEqual([]);
    const again = await run(p, ["pre_turn", "--session-id", "S"]);
    expect(again.json.async_delivered).toEqual([]);
    expect(again.json.warnings).toEqual([]);
  });
});

describe("CLI: damaged and expired results", () => {
  it("a result with a null message is moved aside with a warning; the run goes on (exit 0)", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: fg, command: "echo fine" }
`);
    const dir = sessionDir(p, "N");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const now = new Date().toISOString();
    fs.writeFileSync(
      path.join(dir, asyncFileName(newAsyncId(), "result")),
      JSON.stringify({
        name: "bg",
        status: "ok",
        exit_code: 0,
        signal: null,
        duration_ms: 1,
        stdout: "",
        stderr: "",
        truncated: false,
        messages: [null],
        decision: null,
        error: null,
        warnings: [],
        event: "stop",
        session_id: "N",
        started_at: now,
        finished_at: now,
      }),
    );
    const r = await run(p, ["stop", "--session-id", "N"]);
    expect(r.code).toBe(0);
    expect(r.json.hooks.map((h) => h.status)).toEqual(["ok"]);
    expect(r.json.warnings.join("\n")).toMatch(/messages\[0\] is not an object.*moved it aside/);
    expect(fs.readdirSync(dir).filter((n) => n.includes(".corrupt."))).toHaveLength(1);
  });

  it("an unusable state dir does not start the async hook, says why, and the run still succeeds", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "touch ran" }
    - { name: fg, command: "echo fine" }
`);
    const notADir = path.join(p.dir, "state-is-a-file");
    fs.writeFileSync(notADir, "");
    const r = await run(p, ["stop", "--session-id", "U"], { HOOKS_STATE_DIR: notADir });
    expect(r.code).toBe(0);
    expect(r.json.hooks.map((h) => [h.name, h.status])).toEqual([["fg", "ok"]]);
    expect(r.json.async_started).toEqual([]);
    expect(r.json.warnings.join("\n")).toMatch(/async hook bg was not started: cannot write its record/);
  });

  it("reports a half-written result file as a warning and still runs", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: fg, command: "echo fine" }
`);
    const dir = sessionDir(p, "C");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, asyncFileName(newAsyncId(), "result")), '{"name":"bg","sta');
    const r = await run(p, ["stop", "--session-id", "C"]);
    expect(r.code).toBe(0);
    expect(r.json.hooks.map((h) => h.status)).toEqual(["ok"]);
    expect(r.json.warnings.join("\n")).toMatch(/corrupt/);
    const again = await run(p, ["stop", "--session-id", "C"]);
    expect(again.json.warnings).toEqual([]);
  });

  it("drops a result older than 24 h with a warning instead of delivering it", async () => {
    const p = setup(`
hooks:
  stop:
    - { name: fg, command: "echo fine" }
`);
    const dir = sessionDir(p, "E");
    fs.mkdirSync(dir, { recursive: true });
    const old = new Date(Date.now() - 25 * 3600_000);
    const file = path.join(dir, asyncFileName(newAsyncId(old.getTime()), "result"));
    fs.writeFileSync(
      file,
      JSON.stringify({
        name: "bg",
        status: "ok",
        exit_code: 0,
        signal: null,
        duration_ms: 1,
        stdout: "late",
        stderr: "",
        truncated: false,
        messages: [{ role: "system", content: "late" }],
        decision: null,
        error: null,
        warnings: [],
        event: "stop",
        session_id: "E",
        started_at: old.toISOString(),
        finished_at: old.toISOString(),
      }),
    );
    fs.utimesSync(file, old, old);
    const r = await run(p, ["stop", "--session-id", "E"]);
    expect(r.json.async_delivered).toEqual([]);
    expect(r.json.warnings.join("\n")).toMatch(/"bg".*expired/);
    expect(fs.existsSync(file)).toBe(false);
  });
});
