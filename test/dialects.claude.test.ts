import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { runCli, runMain } from "./helpers/cli.js";
import { alive, readPid, useSandbox, waitGone } from "./helpers/sandbox.js";
import { sleep, waitFor } from "./helpers/waitFor.js";

// docs/dialects.md: a hook written for Claude Code (`dialect: claude`) behaves under hookrun as under
// Claude Code; the same hook in the native dialect keeps hookrun's rules (docs/running-hooks.md#what-a-hook-prints-and-decisions). Each case runs
// through the real runner and the CLI (`hooks run EVENT --output claude`, what Claude Code reads).
const sb = useSandbox({ survivors: true });

/** hooks.yaml with one hook per entry; `dialect` applies to all of them. */
function configure(event: string, dialect: "claude" | "native", hooks: { name: string; command: string; extra?: string }[]): void {
  const body = hooks.map((h) => `    - name: ${h.name}\n      dialect: ${dialect}\n      command: ${JSON.stringify(h.command)}\n${h.extra ?? ""}`).join("");
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n${body}`);
}

/** `hooks run EVENT --output claude` in the sandbox: the parsed response and the JSON result. */
async function dispatch(event: string, context: Record<string, unknown> = {}): Promise<{ claude: Record<string, unknown> | string; code: number | null; stderr: string }> {
  const r = await runMain(["--trust", "run", event, "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify({ session_id: "s", ...context }) });
  return { claude: r.stdout.startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : r.stdout, code: r.code, stderr: r.stderr };
}

async function result(event: string, context: Record<string, unknown> = {}) {
  const config = await sb.current.load();
  const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.current.dir, env: sb.current.processEnv });
  try {
    return await runner.trigger(event, { session_id: "s", ...context });
  } finally {
    await runner.close();
  }
}

const printing = (json: unknown) => `printf '%s' '${JSON.stringify(json)}'`;

describe("dialect: claude reads a hook's output by Claude Code's rules", () => {
  it("1. post_tool_use `decision: block` + reason on exit 0 is feedback to the model (native: the same)", async () => {
    const hook = [{ name: "lint", command: printing({ decision: "block", reason: "src/a.ts:1 missing semicolon" }) }];
    configure("post_tool_use", "claude", hook);
    const r = await result("post_tool_use", { tool_name: "Edit" });
    expect(r.hooks[0]).toMatchObject({ status: "ok", decision: null, warnings: [] });
    expect(r.messages).toEqual([{ role: "system", content: "src/a.ts:1 missing semicolon", kind: "feedback", hook: "lint" }]);
    expect((await dispatch("post_tool_use", { tool_name: "Edit" })).claude).toEqual({ decision: "block", reason: "src/a.ts:1 missing semicolon" });
    // post_tool_use_failure too, and exit 2 + stderr the same way.
    configure("post_tool_use_failure", "claude", [{ name: "why", command: "echo 'the test runner needs --run' >&2; exit 2" }]);
    expect((await dispatch("post_tool_use_failure", { tool_name: "Bash" })).claude).toEqual({ decision: "block", reason: "the test runner needs --run" });

    configure("post_tool_use", "native", hook);
    const native = await dispatch("post_tool_use", { tool_name: "Edit" });
    expect(native.claude).toEqual({ decision: "block", reason: "src/a.ts:1 missing semicolon" });
    const nativeResult = await result("post_tool_use", { tool_name: "Edit" });
    expect(nativeResult.hooks[0]).toMatchObject({ status: "ok", decision: null, warnings: [] });
    expect(nativeResult.messages).toEqual(r.messages);
  });

  it("2. systemMessage is shown to the user (systemMessage), never made model context (native: context)", async () => {
    for (const event of ["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use"]) {
      configure(event, "claude", [{ name: "note", command: printing({ systemMessage: "formatted 3 files" }) }]);
      const r = await result(event, { tool_name: "Bash" });
      expect(r.messages, event).toEqual([{ role: "system", content: "formatted 3 files", kind: "notice", hook: "note" }]);
      expect((await dispatch(event, { tool_name: "Bash" })).claude, event).toEqual({ systemMessage: "formatted 3 files" });
    }
    configure("session_start", "native", [{ name: "note", command: printing({ systemMessage: "formatted 3 files" }) }]);
    expect((await dispatch("session_start")).claude).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "formatted 3 files" } });
  });

  it("3. plain stdout on exit 0 is model context only on session_start and user_prompt_submit; elsewhere transcript only", async () => {
    configure("post_tool_use", "claude", [{ name: "prettier", command: "echo 'src/a.ts 12ms'" }]);
    const post = await result("post_tool_use", { tool_name: "Edit" });
    expect(post.hooks[0]).toMatchObject({ status: "ok", stdout: "src/a.ts 12ms\n", messages: [] });
    expect((await dispatch("post_tool_use", { tool_name: "Edit" })).claude).toEqual({});
    // Answered as plain stdout, so Claude Code words it as it would the hook's own ("hook success: …").
    for (const event of ["session_start", "user_prompt_submit"]) {
      configure(event, "claude", [{ name: "branch", command: "echo 'Branch: main'" }]);
      expect(await dispatch(event), event).toEqual({ claude: "Branch: main\n", code: 0, stderr: "" });
    }
    // Beside JSON context from another hook, one JSON response carries both.
    configure("session_start", "claude", [
      { name: "branch", command: "echo 'Branch: main'" },
      { name: "todo", command: printing({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "2 TODOs" } }) },
    ]);
    expect((await dispatch("session_start")).claude).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Branch: main\n\n2 TODOs" } });
    // Native: plain text is a Message wherever it is printed (docs/running-hooks.md#what-a-hook-prints-and-decisions).
    configure("post_tool_use", "native", [{ name: "prettier", command: "echo 'src/a.ts 12ms'" }]);
    expect((await dispatch("post_tool_use", { tool_name: "Edit" })).claude).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "src/a.ts 12ms" } });
  });

  it("4. Stop hookSpecificOutput.additionalContext keeps the turn going with it (not a systemMessage)", async () => {
    configure("stop", "claude", [{ name: "todo", command: printing({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "TODO.md still lists 2 items" } }) }]);
    const r = await result("stop");
    expect(r.messages).toEqual([{ role: "system", content: "TODO.md still lists 2 items", kind: "followup", hook: "todo" }]);
    expect(r.blocked).toBe(false);
    expect((await dispatch("stop")).claude).toEqual({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "TODO.md still lists 2 items" } });
    // A native hook's message on stop is shown to the user: it must not keep the agent going.
    configure("stop", "native", [{ name: "todo", command: "echo 'all done'" }]);
    expect((await dispatch("stop")).claude).toEqual({ systemMessage: "all done" });
  });

  it("5. output outside Claude's schema is a non-blocking error: the action proceeds (native: `deny` blocks)", async () => {
    configure("pre_tool_use", "claude", [{ name: "guard", command: printing({ decision: "deny", reason: "no" }) }]);
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(false);
    expect(r.hooks[0].status).toBe("invalid_output");
    expect(r.hooks[0].error).toContain('`decision` must be "approve" or "block", not "deny"');
    const out = (await dispatch("pre_tool_use", { tool_name: "Bash" })).claude as Record<string, unknown>;
    expect(out.hookSpecificOutput).toBeUndefined();
    expect(out.systemMessage).toMatch(/^hook guard invalid output: output does not match Claude Code's hook schema/);
    // Also a hookEventName that is not the event's, and a permissionDecision Claude does not know.
    configure("pre_tool_use", "claude", [{ name: "guard", command: printing({ hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "deny" } }) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(false);
    configure("pre_tool_use", "claude", [{ name: "guard", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "block" } }) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(false);

    configure("pre_tool_use", "native", [{ name: "guard", command: printing({ decision: "deny", reason: "no" }) }]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
  });

  it("a claude hook receives every field Claude Code sends, with documented defaults where the caller gave none (native: as given)", async () => {
    const stdin = sb.current.path("stdin.json");
    configure("pre_tool_use", "claude", [{ name: "dump", command: `cat > '${stdin}'` }]);
    await result("pre_tool_use", { tool_name: "Bash", permission_mode: "plan" });
    expect(JSON.parse(readFileSync(stdin, "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "s",
      cwd: sb.current.dir,
      tool_name: "Bash",
      permission_mode: "plan",
      transcript_path: "",
      tool_use_id: "",
      tool_input: {},
    });
    configure("stop", "claude", [{ name: "dump", command: `cat > '${stdin}'` }]);
    await result("stop");
    const stop = JSON.parse(readFileSync(stdin, "utf8"));
    expect(stop).toMatchObject({ hook_event_name: "Stop", transcript_path: "", permission_mode: "default", stop_hook_active: false });
    expect(stop).not.toHaveProperty("tool_use_id");
    configure("pre_tool_use", "native", [{ name: "dump", command: `cat > '${stdin}'` }]);
    await result("pre_tool_use", { tool_name: "Bash" });
    const native = JSON.parse(readFileSync(stdin, "utf8"));
    for (const field of ["transcript_path", "permission_mode", "tool_use_id", "tool_input"]) expect(native).not.toHaveProperty(field);
  });

  it("permissionDecision defer ranks as Claude ranks it: deny > defer > ask > allow, and the input is not rewritten on defer", async () => {
    const decide = (name: string, decision: string, extra: Record<string, unknown> = {}) => ({
      name,
      command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, ...extra } }),
    });
    configure("pre_tool_use", "claude", [decide("later", "defer"), decide("ok", "allow", { updatedInput: { command: "ls" } })]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "defer" } });
    configure("pre_tool_use", "claude", [decide("later", "defer"), decide("no", "deny")]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    configure("pre_tool_use", "claude", [decide("ask", "ask"), decide("ok", "allow")]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } });
  });

  it("reads the rest of Claude's contract: exit 2 stderr blocks, JSON deny/ask/allow, updatedInput, continue:false, JSON on exit 2 ignored", async () => {
    // A block that is only a hook's exit 2 is answered with exit 2 and its stderr, byte for byte.
    configure("pre_tool_use", "claude", [{ name: "guard", command: `echo '{"decision":"approve"}'; echo 'no rm -rf' >&2; exit 2` }]);
    expect(await dispatch("pre_tool_use", { tool_name: "Bash" })).toEqual({ claude: "", code: 2, stderr: "no rm -rf\n" });
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "no rm -rf", decision: "block" });
    // Beside a message for the model, the block travels in JSON.
    configure("pre_tool_use", "claude", [
      { name: "guard", command: "echo 'no rm -rf' >&2; exit 2" },
      { name: "hint", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "use trash-cli" } }) },
    ]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf", additionalContext: "use trash-cli" },
    });
    configure("pre_tool_use", "claude", [
      { name: "rewrite", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "npm test -- --run" } } }) },
    ]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "npm test -- --run" } },
    });
    configure("pre_tool_use", "claude", [
      { name: "ask", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "pushes to main" } }) },
    ]);
    expect((await dispatch("pre_tool_use", { tool_name: "Bash" })).claude).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "pushes to main" },
    });
    configure("stop", "claude", [{ name: "tests", command: printing({ decision: "block", reason: "tests fail: fix them first" }) }]);
    expect((await dispatch("stop")).claude).toEqual({ decision: "block", reason: "tests fail: fix them first" });
    configure("stop", "claude", [{ name: "quit", command: printing({ continue: false, stopReason: "budget spent" }) }]);
    expect((await dispatch("stop")).claude).toEqual({ continue: false, stopReason: "budget spent" });
    // JSON is read whatever the exit code (exit 1 + a block blocks); a block keeps a JSON answer
    // whose hookEventName names another event.
    configure("stop", "claude", [{ name: "late", command: `${printing({ decision: "block", reason: "one more test", hookSpecificOutput: { hookEventName: "PreToolUse" } })}; exit 1` }]);
    expect((await result("stop")).hooks[0]).toMatchObject({ status: "blocked", reason: "one more test" });
    // `{` … not ending in `}` is plain text (no error); `{` … `}` that is not JSON is a non-blocking error.
    configure("session_start", "claude", [{ name: "log", command: `printf '{"a":1}\\nlog line'` }]);
    expect((await result("session_start")).hooks[0]).toMatchObject({ status: "ok", messages: [{ role: "system", content: '{"a":1}\nlog line', hook: "log" }] });
    configure("session_start", "claude", [{ name: "broken", command: `printf '{"a":}'` }]);
    expect((await result("session_start")).hooks[0]).toMatchObject({ status: "invalid_output" });
    // A claude hook runs in the session's working directory (the context's cwd), as under Claude Code.
    const { mkdirSync } = await import("node:fs");
    mkdirSync(sb.current.path("sub"));
    configure("session_start", "claude", [{ name: "where", command: "pwd" }]);
    expect((await result("session_start", { cwd: sb.current.path("sub") })).messages[0].content).toBe(sb.current.path("sub"));
    // …but its own `cwd:` is relative to hooks.yaml's directory, as for every hook.
    mkdirSync(sb.current.path("tools"));
    configure("session_start", "claude", [{ name: "where", command: "pwd", extra: "      cwd: tools\n" }]);
    expect((await result("session_start", { cwd: sb.current.path("sub") })).messages[0].content).toBe(sb.current.path("tools"));
    // Exit 2 on an event that cannot block: stderr is for the user (Claude shows it, nothing is blocked).
    configure("session_end", "claude", [{ name: "bye", command: "echo 'could not upload the log' >&2; exit 2" }]);
    const end = await result("session_end");
    expect(end.hooks[0].status).toBe("ok");
    expect(end.messages).toEqual([{ role: "system", content: "could not upload the log", kind: "notice", hook: "bye" }]);
  });
});

describe("dialect: claude runs an event's hooks as Claude Code does", () => {
  it("6. all claude hooks of an event run, in parallel, even when one blocks (native: later hooks are skipped)", async () => {
    const audit = sb.current.path("audit.log");
    // A barrier: each hook waits (up to its 5 s timeout) until the other has started, so run one
    // after the other they would time out.
    const meet = (me: string, other: string) =>
      `touch '${sb.current.path(me)}'; i=0; while [ ! -e '${sb.current.path(other)}' ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; [ -e '${sb.current.path(other)}' ] || exit 9; `;
    const hooks = [
      { name: "guard", command: `${meet("a", "b")}echo 'no force push' >&2; exit 2`, extra: "      timeout: 5\n" },
      { name: "audit", command: `${meet("b", "a")}echo ran >> '${audit}'`, extra: "      timeout: 5\n" },
    ];
    configure("pre_tool_use", "claude", hooks);
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(true);
    expect(r.hooks.map((h) => h.status)).toEqual(["blocked", "ok"]);
    expect(readFileSync(audit, "utf8")).toBe("ran\n");
    const { rmSync } = await import("node:fs");
    for (const f of ["a", "b"]) rmSync(sb.current.path(f));

    configure("pre_tool_use", "native", [
      { name: "guard", command: "echo 'no force push' >&2; exit 2" },
      { name: "audit", command: `echo ran >> '${audit}'` },
    ]);
    const native = await result("pre_tool_use", { tool_name: "Bash" });
    expect(native.hooks.map((h) => h.status)).toEqual(["blocked", "skipped"]);
    expect(readFileSync(audit, "utf8")).toBe("ran\n");
  });

  it("7. a background job of a claude hook finishes after the hook exits (native: killed with the hook)", async () => {
    const marker = sb.current.path("notified");
    const hook = [{ name: "notify", command: `(sleep 0.5; touch '${marker}') & exit 0` }];
    configure("stop", "claude", hook);
    const run = await runCli(["--trust", "run", "stop"], { cwd: sb.current.dir, env: sb.current.env });
    expect(run.code).toBe(0);
    await waitFor(() => existsSync(marker), { what: "the background job's marker", timeoutMs: 10_000 });

    configure("stop", "native", hook);
    const marker2 = sb.current.path("notified");
    const { rmSync } = await import("node:fs");
    rmSync(marker2);
    expect((await runCli(["--trust", "run", "stop"], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(0);
    await sleep(1000);
    expect(existsSync(marker2)).toBe(false);
  });

  it("7. a hook that leaves a background job still gets its answer through: exit 2, a JSON block, --output json", async () => {
    configure("pre_tool_use", "claude", [{ name: "guard", command: "sleep 30 >/dev/null 2>&1 & echo 'no force push' >&2; exit 2", extra: "      timeout: 3\n" }]);
    const blocked = await runCli(["--trust", "run", "pre_tool_use", "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: '{"tool_name":"Bash"}' });
    expect({ code: blocked.code, stdout: blocked.stdout, stderr: blocked.stderr }).toEqual({ code: 2, stdout: "", stderr: "no force push\n" });
    configure("stop", "claude", [{ name: "tests", command: `sleep 30 >/dev/null 2>&1 & ${printing({ decision: "block", reason: "tests fail" })}`, extra: "      timeout: 3\n" }]);
    const stop = await runCli(["--trust", "run", "stop", "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env });
    expect({ code: stop.code, answer: JSON.parse(stop.stdout) }).toEqual({ code: 0, answer: { decision: "block", reason: "tests fail" } });
    const json = await runCli(["--trust", "run", "stop", "--output", "json"], { cwd: sb.current.dir, env: sb.current.env });
    expect(JSON.parse(json.stdout)).toMatchObject({ blocked: true, reason: "tests fail" });
  });

  it("7. ...an async claude hook's background job ends at its timeout too (the detached worker lives until then)", async () => {
    const pidFile = sb.current.path("bg.pid");
    configure("stop", "claude", [{ name: "linger", command: `sh -c 'echo $$ > "${pidFile}"; exec sleep 60' >/dev/null 2>&1 & exit 0`, extra: "      async: true\n      timeout: 2\n" }]);
    expect((await runCli(["--trust", "run", "stop"], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(0);
    const pid = await waitFor(() => (existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() ? readPid(pidFile) : null), { what: "the job's pid" });
    expect(await waitGone(pid, 10_000)).toBe(true);
  });

  it("7. ...the watchdog signals only the group it was handed: not a pgid of another process, nor one whose leader started at another time", async () => {
    const { spawn } = await import("node:child_process");
    const other = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    try {
      const { readProcStat } = await import("../src/fs/processes.js");
      const start = readProcStat(other.pid!)!.start;
      // Another start time: refused, whatever the deadline.
      const wrong = await runCli(["__watchdog", String(other.pid), "0", String(Number(start) - 1)], { cwd: sb.current.dir, env: sb.current.env });
      expect(wrong.code).toBe(0);
      await sleep(300);
      expect(alive(other.pid!)).toBe(true);
      // No start time at all: a usage error, nothing signalled.
      expect((await runCli(["__watchdog", String(other.pid), "0", "x"], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(64);
      expect(alive(other.pid!)).toBe(true);
      // What the watchdog asks before each signal, in this process.
      const { groupOrigin } = await import("../src/fs/processes.js");
      expect(groupOrigin(other.pid!, start)).toBe("ours");
      expect(groupOrigin(other.pid!, String(Number(start) - 1))).toBe("foreign");
      // The group it was handed (the right start time), past its deadline: killed.
      expect((await runCli(["__watchdog", String(other.pid), "0", start], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(0);
      expect(await waitGone(other.pid!, 5000)).toBe(true);
      expect(groupOrigin(other.pid!, start)).toBe("gone");
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("7. ...but never past the hook's timeout: `hooks run` exits at once and a watchdog kills the job at the timeout", async () => {
    const pidFile = sb.current.path("bg.pid");
    configure("stop", "claude", [{ name: "linger", command: `sh -c 'trap "" TERM; echo $$ > "${pidFile}"; sleep 60' & exit 0`, extra: "      timeout: 2\n" }]);
    const run = await runCli(["--trust", "run", "stop"], { cwd: sb.current.dir, env: sb.current.env });
    expect(run.code).toBe(0);
    const pid = await waitFor(() => (existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() ? readPid(pidFile) : null), { what: "the job's pid" });
    // `hooks run` did not wait for the job: it is still there after the run returned.
    expect(alive(pid)).toBe(true);
    // timeout 2 s, then SIGTERM (ignored) and SIGKILL 2 s later.
    expect(await waitGone(pid, 8000)).toBe(true);
  });

  it("7. ...and the library's close() kills a background job at once", async () => {
    const pidFile = sb.current.path("bg.pid");
    configure("stop", "claude", [{ name: "linger", command: `sleep 60 & echo $! > '${pidFile}'; exit 0` }]);
    const config = await sb.current.load();
    const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.current.dir, env: sb.current.processEnv });
    await runner.trigger("stop", { session_id: "s" });
    const pid = readPid(pidFile);
    expect(alive(pid)).toBe(true);
    expect(runner.leftovers()).toHaveLength(1);
    await runner.close();
    expect(await waitGone(pid, 5000)).toBe(true);
  });

  it("7. ...also for an async claude hook run by the library: close() kills its background job", async () => {
    const pidFile = sb.current.path("bg.pid");
    configure("stop", "claude", [{ name: "linger", command: `sleep 60 & echo $! > '${pidFile}'; exit 0`, extra: "      async: true\n" }]);
    const runner = createRunner(await sb.current.load(), { trust: "all", runLog: false, cwd: sb.current.dir, env: sb.current.processEnv });
    await runner.trigger("stop", { session_id: "s" });
    const pid = await waitFor(() => (existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() ? readPid(pidFile) : null), { what: "the job's pid" });
    await waitFor(() => runner.pending("s")[0]?.state === "finished", { what: "the async hook to finish" });
    expect(alive(pid)).toBe(true);
    await runner.close({ graceMs: 0 });
    expect(await waitGone(pid, 5000)).toBe(true);
  });

  it("8. a claude hook without a timeout gets Claude Code's 600 s; defaults.timeout and its own timeout still win", async () => {
    const list = async () => JSON.parse((await runMain(["list", "--json"], { cwd: sb.current.dir, env: sb.current.env })).stdout) as { name: string; timeout_ms: number; dialect: string }[];
    sb.current.write(
      "hooks.yaml",
      "hooks:\n  stop:\n    - {name: a, dialect: claude, command: 'true'}\n    - {name: b, dialect: claude, command: 'true', timeout: 65}\n    - {name: c, command: 'true'}\n",
    );
    expect((await list()).map((h) => [h.name, h.timeout_ms, h.dialect])).toEqual([
      ["a", 600_000, "claude"],
      ["b", 65_000, "claude"],
      ["c", 60_000, "native"],
    ]);
    // Claude's shorter defaults where it has them.
    sb.current.write("hooks.yaml", "hooks:\n  user_prompt_submit:\n    - {name: a, dialect: claude, command: 'true'}\n  session_end:\n    - {name: b, dialect: claude, command: 'true'}\n");
    expect(Object.fromEntries((await list()).map((h) => [h.name, h.timeout_ms]))).toEqual({ a: 30_000, b: 1_500 });
    sb.current.write("hooks.yaml", "defaults: {timeout: 30}\nhooks:\n  stop:\n    - {name: a, dialect: claude, command: 'true'}\n");
    expect((await list())[0].timeout_ms).toBe(30_000);
  });
});
