import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { asyncSessionDir, newAsyncId, projectKey, sessionKey } from "../src/async/paths.js";
import { type AsyncJob, writeAsyncJob, writeAsyncResult } from "../src/async/records.js";
import { ASYNC_SWEEP_INTERVAL_MS, listUndeliveredAsync, SWEEP_STAMP, sweepExpiredAsync } from "../src/async/sweep.js";
import type { AsyncDelivery } from "../src/runner/types.js";
import { runCli } from "./helpers/cli.js";
import { asyncDelivery } from "./helpers/results.js";
import { expectNoSurvivors, markProcesses, sandbox, type Sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// Results of sessions that never trigger again expire by age on any trigger of the project
// (throttled by a stamp), and `hooks log --pending` shows what waits undelivered
// (docs/async.md#expiry-and-guarantees).
const survivors = markProcesses();
afterAll(() => expectNoSurvivors(survivors));

const HOUR = 3600_000;
const DAY = 24 * HOUR;

let sb: Sandbox | undefined;
afterEach(async () => {
  try {
    await waitFor(() => survivors().length === 0, { timeoutMs: 20_000 });
  } finally {
    sb?.cleanup();
    sb = undefined;
  }
});

function delivery(name: string, session: string, finishedAt: number): AsyncDelivery {
  const at = new Date(finishedAt).toISOString();
  return asyncDelivery(name, { messages: [{ role: "system", content: `${name} says hi` }], session_id: session, started_at: at, finished_at: at });
}

/** A result file of `session`, finished `ageMs` ago (its mtime too). */
function result(stateDir: string, projectDir: string, session: string, name: string, ageMs: number): string {
  const at = Date.now() - ageMs;
  const file = writeAsyncResult(asyncSessionDir(stateDir, projectDir, session), newAsyncId(at), delivery(name, session, at));
  fs.utimesSync(file, new Date(at), new Date(at));
  return file;
}

/** A started record with no worker and no result (a run whose worker vanished), started `ageMs` ago. */
function lostRun(stateDir: string, projectDir: string, session: string, name: string, ageMs: number): string {
  const at = Date.now() - ageMs;
  const id = newAsyncId(at);
  const job: AsyncJob = {
    version: 1,
    id,
    name,
    event: "stop",
    gate: "yes",
    session_id: session,
    project_dir: projectDir,
    started_at: new Date(at).toISOString(),
    timeout_ms: 1000,
    hook: { name } as AsyncJob["hook"],
    context: {},
    cwd: projectDir,
    run_log: null,
  };
  return writeAsyncJob(asyncSessionDir(stateDir, projectDir, session), job);
}

describe("sweepExpiredAsync: expiry of the other sessions of a project", () => {
  it("expires results and lost runs past 24 h in every other session, leaves younger ones and the caller's own, removes emptied dirs", () => {
    sb = sandbox();
    const state = sb.env.HOOKS_STATE_DIR;
    const old = result(state, "/repo", "gone", "old-result", DAY + HOUR);
    const fresh = result(state, "/repo", "alive", "fresh-result", HOUR);
    lostRun(state, "/repo", "lost", "lost-run", DAY + HOUR);
    const own = result(state, "/repo", "me", "own-old", DAY + HOUR);
    const other = result(state, "/elsewhere", "gone", "other-project", DAY + HOUR);
    const projectDir = path.join(state, "async", projectKey("/repo"));
    const swept = sweepExpiredAsync(projectDir, sessionKey("me"));
    expect(swept.expired.map((e) => `${e.session_id}/${e.name}`).sort()).toEqual(["gone/old-result", "lost/lost-run"]);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(path.dirname(old))).toBe(false);
    expect(fs.existsSync(asyncSessionDir(state, "/repo", "lost"))).toBe(false);
    // Younger results wait for their own session; the caller's session is its own collection's job.
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(own)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.lstatSync(path.join(projectDir, SWEEP_STAMP)).isFile()).toBe(true);
  });

  it("sweeps at most once per interval per project, remembered by the stamp's mtime; a stamp in the future counts as due", () => {
    sb = sandbox();
    const state = sb.env.HOOKS_STATE_DIR;
    const projectDir = path.join(state, "async", projectKey("/repo"));
    result(state, "/repo", "a", "first", DAY + HOUR);
    expect(sweepExpiredAsync(projectDir, null).expired).toHaveLength(1);
    const second = result(state, "/repo", "b", "second", DAY + HOUR);
    expect(sweepExpiredAsync(projectDir, null).expired).toEqual([]);
    expect(fs.existsSync(second)).toBe(true);
    const stamp = path.join(projectDir, SWEEP_STAMP);
    const due = new Date(Date.now() - ASYNC_SWEEP_INTERVAL_MS - 1000);
    fs.utimesSync(stamp, due, due);
    expect(sweepExpiredAsync(projectDir, null).expired.map((e) => e.name)).toEqual(["second"]);
    const third = result(state, "/repo", "c", "third", DAY + HOUR);
    const future = new Date(Date.now() + DAY);
    fs.utimesSync(stamp, future, future);
    expect(sweepExpiredAsync(projectDir, null).expired.map((e) => e.name)).toEqual(["third"]);
    expect(fs.existsSync(third)).toBe(false);
  });

  it("treats the state dir as hostile: a session entry that is a symlink is not followed, a stamp that is a symlink is not touched through", () => {
    sb = sandbox();
    const state = sb.env.HOOKS_STATE_DIR;
    const projectDir = path.join(state, "async", projectKey("/repo"));
    // Somewhere outside the project's async dir, reachable only through planted symlinks.
    const outside = result(state, "/outside", "x", "outside", DAY + HOUR);
    fs.mkdirSync(projectDir, { recursive: true });
    fs.symlinkSync(path.dirname(outside), path.join(projectDir, "planted"));
    const target = sb.write("target.txt", "keep");
    const before = fs.statSync(target).mtimeMs;
    fs.symlinkSync(target, path.join(projectDir, SWEEP_STAMP));
    const swept = sweepExpiredAsync(projectDir, null);
    expect(swept.expired).toEqual([]);
    expect(fs.existsSync(outside)).toBe(true);
    expect(fs.statSync(target).mtimeMs).toBe(before);
  });

  it("does nothing (and creates nothing) for a project that never started an async hook", () => {
    sb = sandbox();
    const projectDir = path.join(sb.env.HOOKS_STATE_DIR, "async", projectKey("/repo"));
    expect(sweepExpiredAsync(projectDir, null)).toEqual({ expired: [], warnings: [] });
    expect(fs.existsSync(projectDir)).toBe(false);
  });
});

describe("CLI: any trigger of a project expires the old results of its other sessions", () => {
  it("a session that never triggers again: its 25 h old result is deleted by another session's trigger and logged as expired; that trigger shows no warning about it", async () => {
    sb = sandbox({ config: `hooks:\n  stop:\n    - {name: a, command: "true"}\n` });
    const state = sb.env.HOOKS_STATE_DIR;
    const old = result(state, sb.dir, "finished-session", "notify", DAY + HOUR);
    const r = await runCli(["--trust", "run", "stop", "--session-id", "active", "--json"], { cwd: sb.dir, env: sb.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toEqual([]);
    expect(fs.existsSync(old)).toBe(false);
    const log = JSON.parse((await runCli(["log", "--json", "--session", "finished-session"], { cwd: sb.dir, env: sb.env })).stdout);
    expect(log).toMatchObject([{ event: "stop", session_id: "finished-session", async: "expired", hooks: [{ name: "notify", status: "expired" }], project_dir: sb.dir }]);
  });
});

describe("hooks log --pending", () => {
  it("lists undelivered results per session with name, event, age and expiry, and runs without a result; --json; --session; empty once delivered", async () => {
    sb = sandbox({ config: `hooks:\n  stop:\n    - {name: bg, async: true, command: "echo done"}\n` });
    const env = sb.env;
    const none = await runCli(["log", "--pending"], { cwd: sb.dir, env });
    expect({ code: none.code, stdout: none.stdout }).toEqual({ code: 0, stdout: "" });
    expect(none.stderr).toMatch(/no undelivered async results/);
    // A real async run, finished and waiting for session s1's next trigger.
    expect((await runCli(["--trust", "run", "stop", "--session-id", "s1"], { cwd: sb.dir, env })).code).toBe(0);
    const dir = asyncSessionDir(env.HOOKS_STATE_DIR, sb.dir, "s1");
    await waitFor(() => fs.existsSync(dir) && fs.readdirSync(dir).some((n) => n.endsWith(".result.json")), { what: "the async result" });
    // And one of another session, 3 h old, plus a run still without a result.
    result(env.HOOKS_STATE_DIR, sb.dir, "s2", "late", 3 * HOUR);
    lostRun(env.HOOKS_STATE_DIR, sb.dir, "s3", "slow", 5000);
    const text = await runCli(["log", "--pending"], { cwd: sb.dir, env });
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^3 async results not delivered yet/);
    expect(lines).toContainEqual(`session s2  late (stop): finished ok 3h 00m ago, expires in 20h 59m  ${sb.dir}`);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^session s1  bg \\(stop\\): finished ok \\d+s ago, expires in 23h 59m  ${sb.dir}$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^session s3  slow \\(stop\\): running for \\d+s  ${sb.dir}$`)));
    const json = JSON.parse((await runCli(["log", "--pending", "--json", "--session", "s2"], { cwd: sb.dir, env })).stdout);
    expect(json).toEqual([
      {
        project_dir: sb.dir,
        project_key: projectKey(sb.dir),
        session_id: "s2",
        name: "late",
        event: "stop",
        state: "finished",
        status: "ok",
        started_at: expect.any(String),
        finished_at: expect.any(String),
        age_ms: expect.any(Number),
      },
    ]);
    expect(json[0].age_ms).toBeGreaterThanOrEqual(3 * HOUR);
    // s1's next trigger delivers its result: no longer listed.
    const delivered = JSON.parse((await runCli(["--trust", "run", "session_start", "--session-id", "s1", "--json"], { cwd: sb.dir, env })).stdout);
    expect(delivered.async_delivered.map((d: AsyncDelivery) => d.name)).toEqual(["bg"]);
    const after = JSON.parse((await runCli(["log", "--pending", "--json"], { cwd: sb.dir, env })).stdout);
    expect(after.map((p: { session_id: string }) => p.session_id).sort()).toEqual(["s2", "s3"]);
  });

  it("skips damaged records instead of failing, and names a project the run log does not know by its key", () => {
    sb = sandbox();
    const state = sb.env.HOOKS_STATE_DIR;
    const dir = asyncSessionDir(state, "/unknown", "s");
    result(state, "/unknown", "s", "ok-one", HOUR);
    fs.writeFileSync(path.join(dir, `${newAsyncId()}.result.json`), "{not json");
    const list = listUndeliveredAsync(state);
    expect(list).toMatchObject([{ name: "ok-one", project_dir: null, project_key: projectKey("/unknown"), session_id: "s", state: "finished" }]);
  });
});
