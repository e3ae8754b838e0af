import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli, runMain, spawnCli } from "./helpers/cli.js";
import { useSandbox, waitGone } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

const sb = useSandbox({ survivors: true, prefix: "hookrun-cli-run-" });
const survivors = sb.survivors;
let env: Record<string, string>;
beforeEach(() => {
  env = sb.current.env;
});

function project(yaml: string): string {
  const dir = path.join(sb.current.root, "repo");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "hooks.yaml"), yaml);
  return dir;
}

const run = (args: string[], input = "", extraEnv: Record<string, string> = {}) => runMain(["--trust", ...args], { cwd: path.join(sb.current.root, "repo"), env: { ...env, ...extraEnv }, input });
/** The same through the built CLI as a real process: an end-to-end check. */
const runSpawned = (args: string[], input = "") => runCli(["--trust", ...args], { cwd: path.join(sb.current.root, "repo"), env, input });

describe("hooks run --output json (docs/running-hooks.md#the-result)", () => {
  it("prints exactly the result shape", async () => {
    project(`hooks:\n  stop:\n    - name: auto-commit\n      command: echo committed\n    - name: bg\n      command: "true"\n      async: true\n`);
    const r = await run(["run", "stop", "--output", "json", "--session-id", "abc"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(
      [
        "async_delivered",
        "async_started",
        "blocked",
        "blocked_by",
        "continue",
        "duration_ms",
        "event",
        "hooks",
        "messages",
        "reason",
        "session_id",
        "stop_reason",
        "stopped_by",
        "updated_input",
        "warnings",
      ].sort(),
    );
    expect(out).toMatchObject({
      event: "stop",
      session_id: "abc",
      messages: [{ role: "system", content: "committed", hook: "auto-commit" }],
      blocked: false,
      blocked_by: null,
      reason: null,
      continue: true,
      stop_reason: null,
      stopped_by: null,
      updated_input: null,
      async_started: ["bg"],
      async_delivered: [],
      warnings: [],
    });
    expect(typeof out.duration_ms).toBe("number");
    expect(out.hooks).toHaveLength(1);
    expect(Object.keys(out.hooks[0]).sort()).toEqual(["decision", "duration_ms", "error", "exit_code", "messages", "name", "signal", "status", "stderr", "stdout", "truncated", "warnings"].sort());
    expect(out.hooks[0]).toMatchObject({
      name: "auto-commit",
      status: "ok",
      exit_code: 0,
      signal: null,
      stdout: "committed\n",
      stderr: "",
      truncated: false,
      decision: null,
      error: null,
      warnings: [],
    });
    // The detached worker of `bg` outlives the CLI and writes into the state dir: removing the temp
    // dir under it fails (ENOTEMPTY) or leaks a dir it recreates. Wait until it has exited.
    await waitFor(() => survivors().length === 0, { what: "the async worker of bg to exit" });
  });
});

describe("hooks run exit codes (docs/cli.md#exit-codes)", () => {
  it("0 on success (text output lists the hook and its message; the built CLI)", async () => {
    project(`hooks:\n  stop:\n    - {name: hello, command: "echo hi there"}\n`);
    const r = await runSpawned(["run", "stop"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓\s+hello/);
    expect(r.stdout).toContain("» hi there");
    expect(r.stdout).toMatch(/stop: 1 hook \(1 ok\)/);
  });
  it("1 when a hook failed, with its stderr tail", async () => {
    project(`hooks:\n  stop:\n    - {name: broken, command: "echo boom >&2; exit 3"}\n`);
    const r = await run(["run", "stop"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗\s+broken.*exit code 3/);
    expect(r.stdout).toContain("│ boom");
  });
  it("2 when blocked", async () => {
    project(`hooks:\n  pre_tool_use:\n    - {name: guard, command: "echo no >&2; exit 2"}\n`);
    const r = await run(["run", "PreToolUse", "--set", "tool_name=Bash"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/blocked by guard: no/);
  });
  it("0 on continue: false", async () => {
    project(`hooks:\n  stop:\n    - {name: halt, command: "echo '{\\"continue\\": false}'"}\n`);
    expect((await run(["run", "stop"])).code).toBe(0);
  });
  it("65 for a context that is not JSON or not an object", async () => {
    project(`hooks:\n  stop:\n    - {name: a, command: "true"}\n`);
    const bad = await run(["run", "stop"], "{not json");
    expect(bad.code).toBe(65);
    expect(bad.stderr).toMatch(/not valid JSON .*line 1:2/);
    expect((await run(["run", "stop"], "[1,2]")).code).toBe(65);
  });
  it("64 for a malformed flag value", async () => {
    project(`hooks:\n  stop:\n    - {name: a, command: "true"}\n`);
    expect((await run(["run", "stop", "--turn-count", "many"])).code).toBe(64);
    expect((await run(["run", "stop", "--set", "novalue"])).code).toBe(64);
    expect((await run(["run", "stop", "--max-parallel", "0"])).code).toBe(64);
  });
  it("1 when a hook timed out", async () => {
    project(`defaults:\n  timeout: 300ms\nhooks:\n  stop:\n    - {name: slow, command: "sleep 30"}\n`);
    const r = await run(["run", "stop"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/slow .*timed out after 300ms/);
  });
  it("64 for an unknown event, with a suggestion", async () => {
    project(`hooks: {}\n`);
    const r = await run(["run", "stpo"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/did you mean `stop`/);
  });
  it("78 for a config that cannot be loaded", async () => {
    mkdirSync(path.join(sb.current.root, "repo", "hooks.yaml"), { recursive: true });
    expect((await run(["run", "stop"])).code).toBe(78);
  });
  it("0 with a note on stderr when there is no config at all", async () => {
    mkdirSync(path.join(sb.current.root, "repo"));
    const r = await run(["run", "stop"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/no hooks\.yaml found/);
  });
});

describe("hooks run context input (docs/cli.md#hooks-run-event)", () => {
  it("stdin (Claude Code's shape as is), then the override flags", async () => {
    const dir = project(`hooks:\n  pre_tool_use:\n    - {name: cap, command: "cat > ctx.json"}\n`);
    const claude = { session_id: "cc-1", transcript_path: "/t.jsonl", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } };
    const r = await run(["run", "pre_tool_use", "--turn-count", "4", "--last-message", "ok", "--set", "tool_input.timeout=30", "--set", "note=plain text"], JSON.stringify(claude));
    expect(r.code).toBe(0);
    const ctx = JSON.parse(readFileSync(path.join(dir, "ctx.json"), "utf8"));
    expect(ctx).toMatchObject({
      event: "pre_tool_use",
      hook_event_name: "PreToolUse",
      session_id: "cc-1",
      turn_count: 4,
      last_assistant_message: "ok",
      transcript_path: "/t.jsonl",
      tool_name: "Bash",
      tool_input: { command: "ls", timeout: 30 },
      note: "plain text",
    });
  });
  it("--context FILE; empty stdin is {}; session_id from HOOKS_SESSION_ID", async () => {
    const dir = project(`hooks:\n  stop:\n    - {name: cap, command: "cat > ctx.json"}\n`);
    writeFileSync(path.join(dir, "c.json"), `{"turn_count": 2}`);
    await run(["run", "stop", "--context", "c.json"], "", { HOOKS_SESSION_ID: "env-s" });
    expect(JSON.parse(readFileSync(path.join(dir, "ctx.json"), "utf8"))).toMatchObject({ turn_count: 2, session_id: "env-s" });
    await run(["run", "stop"], "");
    expect(JSON.parse(readFileSync(path.join(dir, "ctx.json"), "utf8"))).toMatchObject({ turn_count: 0, session_id: "default", last_assistant_message: null });
  });
  it("--dry-run prints the plan and the context and runs nothing", async () => {
    const dir = project(`hooks:\n  stop:\n    - {name: touchy, command: "touch ran"}\n`);
    const r = await run(["run", "stop", "--dry-run", "--json"], `{"session_id":"d"}`);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.hooks.map((h: { name: string }) => h.name)).toEqual(["touchy"]);
    expect(plan.context).toMatchObject({ event: "stop", session_id: "d" });
    expect(existsSync(path.join(dir, "ran"))).toBe(false);
  });
  it("--only / --skip; an unknown name exits 1 with a suggestion", async () => {
    project(`hooks:\n  stop:\n    - {name: one, command: "echo 1"}\n    - {name: two, command: "echo 2"}\n`);
    const only = JSON.parse((await run(["run", "stop", "--json", "--only", "two"])).stdout);
    expect(only.hooks.map((h: { name: string }) => h.name)).toEqual(["two"]);
    const skip = JSON.parse((await run(["run", "stop", "--json", "--skip", "two"])).stdout);
    expect(skip.hooks.map((h: { name: string }) => h.name)).toEqual(["one"]);
    const bad = await run(["run", "stop", "--only", "tow"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/did you mean two/);
  });
});

describe("hooks log (docs/cli.md#hooks-log)", () => {
  it("shows recent runs; --session filters; --json prints the records", async () => {
    project(`hooks:\n  stop:\n    - {name: a, command: "true"}\n`);
    await run(["run", "stop", "--session-id", "s1"]);
    await run(["run", "stop", "--session-id", "s2"]);
    const text = await run(["log"]);
    expect(text.stdout.trim().split("\n")).toHaveLength(2);
    const json = JSON.parse((await run(["log", "--json", "--session", "s2"])).stdout);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ event: "stop", session_id: "s2", hooks: [{ name: "a", status: "ok", exit_code: 0 }] });
    expect(JSON.parse((await run(["log", "--json", "-n", "1"])).stdout)[0].session_id).toBe("s2");
  });
});

describe("signals to hooks run (docs/running-hooks.md#signals)", () => {
  it("a closed terminal (real pty hang-up): hooks killed, exit 129 even though the report cannot be shown", () => {
    const dir = project(`hooks:\n  post_tool_use:\n    - {name: a, command: "sleep 60 & echo $! > a.pid; wait"}\n`);
    // python3's pty.fork makes the CLI a session leader on a real terminal; closing the master
    // side is what closing a terminal window does: SIGHUP, then every write fails with EIO.
    const script = [
      "import os, pty, sys, time",
      "pid, fd = pty.fork()",
      "if pid == 0:",
      "    os.execv(sys.argv[1], sys.argv[1:])",
      "deadline = time.time() + 10",
      "while not (os.path.exists('a.pid') and open('a.pid').read().strip()):",
      "    if time.time() > deadline: sys.exit('hooks never started')",
      "    try: os.read(fd, 65536)",
      "    except OSError: pass",
      "    time.sleep(0.02)",
      "os.close(fd)",
      "print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))",
    ].join("\n");
    const r = spawnSync("python3", ["-c", script, process.execPath, CLI, "--trust", "run", "post_tool_use"], { cwd: dir, env: cliEnv(env), encoding: "utf8", timeout: 20_000 });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("129");
    return waitGone(Number(readFileSync(path.join(dir, "a.pid"), "utf8")), 3000).then((gone) => expect(gone).toBe(true));
  });

  // SIGHUP: the terminal closed; SIGQUIT: Ctrl-\ or a host. Each exits 128 + its number.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
    ["SIGQUIT", 131],
    ["SIGUSR2", 128 + os.constants.signals.SIGUSR2],
  ] as const) {
    it(`${signal} while hooks run: every group killed, exit ${code}, no survivor`, async () => {
      const dir = project(
        `hooks:\n  post_tool_use:\n    - {name: a, command: "sleep 60 & echo $! > a.pid; wait"}\n    - {name: b, command: "sleep 60 & echo $! > b.pid; wait"}\nevents:\n  post_tool_use: {parallel: true}\n`,
      );
      const p = spawnCli(["--trust", "run", "post_tool_use"], { cwd: dir, env });
      const pid = (f: string) => existsSync(path.join(dir, f)) && readFileSync(path.join(dir, f), "utf8").trim();
      await waitFor(() => pid("a.pid") && pid("b.pid"), { timeoutMs: 10_000, intervalMs: 20, what: "hooks to start" });
      p.child.kill(signal);
      expect((await p.closed).code).toBe(code);
      expect(p.stdout()).toMatch(/cancelled/);
      for (const f of ["a.pid", "b.pid"]) expect(await waitGone(Number(readFileSync(path.join(dir, f), "utf8")), 3000)).toBe(true);
    });
  }
});
