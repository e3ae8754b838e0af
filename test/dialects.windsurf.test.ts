import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { windsurf as windsurfHost } from "../src/hosts/windsurf.js";
import { WINDSURF_ACTION } from "../src/dialects/windsurf.js";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { hostFixtures } from "./helpers/hostFixtures.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md#windsurf-hooks-written-for-windsurf-cascade: a hook written for Windsurf
// (`dialect: windsurf`) receives Windsurf's payload and only its exit code decides, whichever host fired the event.
const sb = useSandbox();
const FX = hostFixtures("windsurf");

function configure(event: string, command: string, extra = ""): void {
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n    - name: h\n      dialect: windsurf\n      command: ${JSON.stringify(command)}\n${extra}`);
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

async function run(event: string, host: string, payload: Record<string, unknown>) {
  const r = await runMain(["--trust", "run", event, "--host", host], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
  const out = r.stdout.trim().startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : r.stdout;
  return { code: r.code, out, stderr: r.stderr };
}

const claude = (event: string, fields: Record<string, unknown>) => ({ session_id: "s1", transcript_path: "", cwd: sb.current.dir, permission_mode: "default", hook_event_name: event, ...fields });
const claudeBash = (command = "rm -rf build") => claude("PreToolUse", { tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" });
const cursorPre = () => ({ ...hostFixtures("cursor").preToolUse, workspace_roots: [sb.current.dir], cwd: sb.current.dir });

describe("dialect: windsurf — the exit code decides, as in Windsurf", () => {
  it("exit 2 blocks a pre-hook with stderr as the reason: under Claude Code, Windsurf and Cursor", async () => {
    configure("pre_tool_use", "echo 'destructive command' >&2; exit 2", "      matcher: Bash\n");
    const c = await run("pre_tool_use", "claude", claudeBash());
    expect(c.out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "destructive command" } });
    expect(await run("pre_tool_use", "windsurf", FX.pre_run_command)).toMatchObject({ code: 2, stderr: "destructive command\n" });
    expect((await run("pre_tool_use", "cursor", cursorPre())).out).toMatchObject({ permission: "deny", agent_message: "destructive command" });
    configure("user_prompt_submit", "echo 'no secrets' >&2; exit 2");
    expect(await result("user_prompt_submit", { prompt: "x" })).toMatchObject({ blocked: true, reason: "no secrets" });
  });

  it("what it prints reaches only the user, never the model; JSON is not read", async () => {
    configure("pre_tool_use", `printf '%s' '{"permission":"deny","decision":"block"}'`);
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(false);
    expect(r.messages).toEqual([{ role: "system", content: '{"permission":"deny","decision":"block"}', kind: "notice", hook: "h" }]);
    configure("session_start", "echo 'branch main'");
    const claudeOut = await run("session_start", "claude", claude("SessionStart", { source: "startup" }));
    expect(claudeOut.out).toEqual({ systemMessage: "branch main" });
  });

  it("exit 2 after the action (post-hooks, post_cascade_response) blocks nothing: its stderr is for the user; other exit codes fail open", async () => {
    configure("post_tool_use", "echo 'lint failed' >&2; exit 2");
    const post = await result("post_tool_use", { tool_name: "Edit" });
    expect(post.messages).toEqual([{ role: "system", content: "lint failed", kind: "notice", hook: "h" }]);
    expect(post.hooks[0]).toMatchObject({ status: "ok", decision: null });
    configure("stop", "echo 'not done' >&2; exit 2");
    const stop = await result("stop");
    expect(stop.blocked).toBe(false);
    // Claude's turn is not continued: the line is only shown.
    expect((await run("stop", "claude", claude("Stop", { stop_hook_active: false }))).out).toEqual({ systemMessage: "not done" });
    configure("pre_tool_use", "echo oops >&2; exit 1");
    const one = await result("pre_tool_use", { tool_name: "Bash" });
    expect(one.blocked).toBe(false);
    expect(one.hooks[0]).toMatchObject({ status: "failed", dialect: "windsurf" });
  });
});

describe("dialect: windsurf — the hook receives Windsurf's payload", () => {
  const dump = () => `cat > '${sb.current.path("stdin.json")}'`;
  const stdin = () => {
    const { hook: _hook, ...rest } = JSON.parse(readFileSync(sb.current.path("stdin.json"), "utf8")) as Record<string, unknown>;
    return rest;
  };

  it("fired by Windsurf: exactly what Windsurf sent", async () => {
    configure("pre_tool_use", dump());
    for (const name of ["pre_run_command", "pre_write_code", "pre_mcp_tool_use", "pre_read_code"]) {
      await run("pre_tool_use", "windsurf", FX[name]);
      expect(stdin(), name).toEqual(FX[name]);
    }
    configure("stop", dump());
    await run("stop", "windsurf", FX.post_cascade_response);
    expect(stdin()).toEqual(FX.post_cascade_response);
  });

  it("fired elsewhere: Windsurf's action for the call, the session as trajectory_id, the call's id as execution_id", async () => {
    configure("pre_tool_use", dump());
    await run("pre_tool_use", "claude", claudeBash("npm test"));
    const bash = stdin();
    expect(bash).toEqual({
      agent_action_name: "pre_run_command",
      trajectory_id: "s1",
      execution_id: "toolu_1",
      timestamp: expect.any(String),
      tool_info: { command_line: "npm test", cwd: sb.current.dir },
    });
    expect(Number.isNaN(Date.parse(bash.timestamp as string))).toBe(false);
    await result("pre_tool_use", { tool_name: "Write", tool_input: { file_path: "a.ts", content: "x" } });
    expect(stdin()).toMatchObject({ agent_action_name: "pre_write_code", trajectory_id: "s", execution_id: "", tool_info: { file_path: "a.ts", edits: [{ old_string: "", new_string: "x" }] } });
    await result("pre_tool_use", { tool_name: "mcp__db__query", tool_input: { sql: "1" } });
    expect(stdin()).toMatchObject({ agent_action_name: "pre_mcp_tool_use", tool_info: { mcp_server_name: "db", mcp_tool_name: "query", mcp_tool_arguments: { sql: "1" } } });
    await result("pre_tool_use", { tool_name: "Grep", tool_input: { pattern: "x" } });
    expect(stdin()).toMatchObject({ agent_action_name: "pre_tool_use", tool_info: { tool_name: "Grep", tool_input: { pattern: "x" } } });
    configure("user_prompt_submit", dump());
    await result("user_prompt_submit", { prompt: "hi" });
    expect(stdin()).toMatchObject({ agent_action_name: "pre_user_prompt", tool_info: { user_prompt: "hi" } });
    configure("stop", dump());
    await result("stop", { last_assistant_message: "done" });
    expect(stdin()).toMatchObject({ agent_action_name: "post_cascade_response", tool_info: { response: "done" } });
  });
});

describe("dialect: windsurf — tables and import", () => {
  it("names actions as the Windsurf host reads them", () => {
    for (const [canonical, action] of Object.entries(WINDSURF_ACTION)) expect(["Write", "Edit", "MultiEdit"].includes(canonical) ? "Edit" : canonical).toBe(windsurfHost.tools[action]);
  });

  it("`hooks import windsurf --write` makes a Windsurf guard that blocks under Claude Code", async () => {
    sb.current.write("guard.sh", "#!/bin/sh\necho 'no rm' >&2\nexit 2\n");
    sb.current.write(".windsurf/hooks.json", JSON.stringify({ hooks: { pre_run_command: [{ command: "sh guard.sh", show_output: true }] } }));
    const imp = await runMain(["import", "windsurf", "--write"], { cwd: sb.current.dir, env: sb.current.env });
    expect(imp.code).toBe(0);
    expect(readFileSync(sb.current.path("hooks.yaml"), "utf8")).toMatch(/matcher: Bash\n\s+command: sh guard\.sh\n\s+dialect: windsurf/);
    expect((await run("pre_tool_use", "claude", claudeBash())).out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no rm" } });
    expect((await run("pre_tool_use", "claude", claude("PreToolUse", { tool_name: "Read", tool_input: { file_path: "a" } }))).out).toEqual({});
  });
});
