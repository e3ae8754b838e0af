import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, type CliProcess, cliEnv, runCli, runMain, spawnCli, untilStderr } from "./helpers/cli.js";
import { alive, useSandbox } from "./helpers/sandbox.js";
import { sleep, waitFor } from "./helpers/waitFor.js";

/**
 * `hooks log --follow` (docs/cli.md#hooks-log) as a real process: it streams the runs other processes append
 * to the run log, across rotation and half-written lines, and ends cleanly on SIGINT, SIGTERM and
 * a closed stdout, leaving no process behind. (`npm run build` first: it spawns dist/bin/hooks.js.)
 */

const sb = useSandbox({ survivors: true, prefix: "hookrun-log-follow-" });

const CONFIG = [
  "hooks:",
  "  pre_tool_use:",
  "    - name: guard",
  `      command: 'if grep -q "rm -rf"; then echo "no rm -rf" >&2; exit 2; fi'`,
  "  stop:",
  "    - {name: done, command: 'true'}",
  "",
].join("\n");

const followers: CliProcess[] = [];
afterEach(async () => {
  for (const p of followers.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await p.exited;
  }
});

function start(args: string[] = []): Promise<CliProcess> {
  sb.current.write("hooks.yaml", CONFIG);
  const p = spawnCli(["log", "--follow", ...args], { cwd: sb.current.dir, env: sb.current.env });
  followers.push(p);
  return untilStderr(p, /following/, "hooks log --follow to start").then(() => p);
}

const fire = (args: string[], input = "") => runMain(["--trust", "run", ...args], { cwd: sb.current.dir, env: sb.current.env, input });
const logFile = () => path.join(sb.current.env.HOOKS_STATE_DIR, "runs.jsonl");
const lines = (p: CliProcess) => p.stdout().split("\n").filter(Boolean);
const untilLines = (p: CliProcess, n: number): Promise<string[]> => waitFor(() => (lines(p).length >= n ? lines(p) : null), { what: `${n} lines from hooks log --follow`, timeoutMs: 10_000 });

const claude = (command: string) =>
  JSON.stringify({ session_id: "s-c", transcript_path: "", cwd: "/tmp", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t" });

describe("hooks log --follow", () => {
  it("--json: one record per line for each run other processes append; SIGINT ends it with exit 0 and no process left", async () => {
    const p = await start(["--json"]);
    // Two real `hooks run` processes, as two agents' entries would start them.
    await runCli(["--trust", "run", "PreToolUse", "--host", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: claude("rm -rf /") });
    await runCli(["--trust", "run", "stop", "--session-id", "s2"], { cwd: sb.current.dir, env: sb.current.env });
    const got = (await untilLines(p, 2)).map((l) => JSON.parse(l));
    expect(got.map((r) => [r.event, r.host, r.session_id, r.decision])).toEqual([
      ["pre_tool_use", "claude", "s-c", "block"],
      ["stop", undefined, "s2", "none"],
    ]);
    expect(got[0].id).toMatch(/^[0-9a-z]{12}$/);
    p.child.kill("SIGINT");
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(alive(p.child.pid!)).toBe(false);
  });

  it("text: one line per run (id, time, event, host, session, decision, duration, hooks); filters apply; SIGTERM ends it", async () => {
    const p = await start(["--event", "PreToolUse", "--status", "blocked"]);
    await fire(["stop"]);
    await fire(["pre_tool_use", "--set", "tool_input.command=ls"]);
    await fire(["pre_tool_use", "--set", "tool_input.command=rm -rf /", "--session-id", "bad"]);
    const [line] = await untilLines(p, 1);
    expect(line).toMatch(/^[0-9a-z]{12} {2}\d{4}-\S+Z {2}pre_tool_use {2}- {2}session bad {2}BLOCKED {2}\d+ms {2}guard blocked\(2\)$/);
    await sleep(600);
    expect(lines(p)).toHaveLength(1);
    p.child.kill("SIGTERM");
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("-n N first shows the last N runs, then follows; other projects' runs only with --all-projects", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    await fire(["stop", "--session-id", "before"]);
    const p = await start(["-n", "1", "--json"]);
    const all = spawnCli(["log", "--follow", "--json", "--all-projects"], { cwd: sb.current.dir, env: sb.current.env });
    followers.push(all);
    await untilStderr(all, /following/, "the --all-projects follower");
    const other = path.join(sb.current.root, "other");
    mkdirSync(other);
    writeFileSync(path.join(other, "hooks.yaml"), CONFIG);
    await runMain(["--trust", "run", "stop", "--session-id", "elsewhere"], { cwd: other, env: sb.current.env });
    await fire(["stop", "--session-id", "after"]);
    expect((await untilLines(p, 2)).map((l) => JSON.parse(l).session_id)).toEqual(["before", "after"]);
    expect((await untilLines(all, 2)).map((l) => JSON.parse(l).session_id)).toEqual(["elsewhere", "after"]);
    await sleep(400);
    expect(lines(p)).toHaveLength(2);
  });

  it("survives rotation: lines left in the renamed runs.jsonl.1 are read, then the new file from its start", async () => {
    const p = await start(["--json"]);
    await fire(["stop", "--session-id", "r1"]);
    await untilLines(p, 1);
    // The writer's rotation as it happens in appendRunLog, in one tick: a line lands, the file is
    // renamed, and the next line starts a new file, all before the follower looks again.
    const rec = (session: string) =>
      `${JSON.stringify({ id: `zz${session}`, time: "2026-11-24T00:00:00.000Z", project_dir: sb.current.dir, event: "stop", session_id: session, duration_ms: 1, blocked: false, hooks: [] })}\n`;
    appendFileSync(logFile(), rec("r2"));
    renameSync(logFile(), `${logFile()}.1`);
    appendFileSync(logFile(), rec("r3"));
    await fire(["stop", "--session-id", "r4"]);
    expect((await untilLines(p, 4)).map((l) => JSON.parse(l).session_id)).toEqual(["r1", "r2", "r3", "r4"]);
  });

  it("a real rotation at 10 MiB by hooks run", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    mkdirSync(sb.current.env.HOOKS_STATE_DIR, { recursive: true, mode: 0o700 });
    writeFileSync(logFile(), "\n".repeat(10 * 1024 * 1024 - 10), { mode: 0o600 });
    const p = await start(["--json"]);
    await fire(["stop", "--session-id", "rotated"]);
    expect(readFileSync(`${logFile()}.1`).length).toBe(10 * 1024 * 1024 - 10);
    expect(JSON.parse((await untilLines(p, 1))[0]).session_id).toBe("rotated");
  });

  it("a log that does not exist yet is followed from its start; a half-written last line waits for its end; hostile lines are skipped or shown escaped", async () => {
    const p = await start();
    mkdirSync(sb.current.env.HOOKS_STATE_DIR, { recursive: true, mode: 0o700 });
    const rec = JSON.stringify({
      id: "halfline0001",
      time: "2026-11-24T00:00:00.000Z",
      project_dir: sb.current.dir,
      event: "stop",
      session_id: "s\u001b[2J",
      duration_ms: 1,
      blocked: false,
      hooks: [],
    });
    appendFileSync(logFile(), `{"not": "a record"}\n${"x".repeat(2 * 1024 * 1024)}\n${rec.slice(0, 40)}`);
    await sleep(600);
    expect(p.stdout()).toBe("");
    appendFileSync(logFile(), `${rec.slice(40)}\n`);
    const [line] = await untilLines(p, 1);
    expect(line).toBe("halfline0001  2026-11-24T00:00:00.000Z  stop  -  session s⟨ESC⟩[2J  -  1ms  -");
    expect(p.stdout()).not.toContain("\u001b");
  });

  it("a state dir others can write is refused with the fix, before following anything (exit 1)", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    const dir = sb.current.env.HOOKS_STATE_DIR;
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const r = await runMain(["log", "--follow"], { cwd: sb.current.dir, env: sb.current.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`chmod 700 ${dir}`);
    expect(r.stdout).toBe("");
  });

  it("ends when stdout is closed: `hooks log --follow | head -1` exits after the next run", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    const sh = spawn("sh", ["-c", `"${process.execPath}" "${CLI}" log --follow | head -1`], { cwd: sb.current.dir, env: cliEnv(sb.current.env), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    sh.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    sh.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    const closed = new Promise<number | null>((resolve) => sh.on("close", (code) => resolve(code)));
    try {
      await waitFor(() => err.includes("following"), { what: "the follower to start" });
      await fire(["stop", "--session-id", "first"]);
      await waitFor(() => out.includes("first"), { what: "the first line" });
      // head has exited; the follower learns it at its next write.
      await fire(["stop", "--session-id", "second"]);
      expect(await Promise.race([closed, sleep(8000).then(() => "still running")])).toBe(0);
      expect(out.trim().split("\n")).toHaveLength(1);
      expect(err).not.toMatch(/EPIPE|Error/);
    } finally {
      if (sh.exitCode === null) sh.kill("SIGKILL");
    }
  });
});
