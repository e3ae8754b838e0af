import { chmodSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cline as clineHost } from "../src/hosts/cline.js";
import { CLINE_HOOK, CLINE_TOOL } from "../src/dialects/cline.js";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { hostFixtures } from "./helpers/hostFixtures.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md#cline-hooks-written-for-cline: a hook written for Cline (`dialect: cline`)
// receives Cline's payload and is read by Cline's rules (which fail closed), whichever host fired the event.
const sb = useSandbox();
const FX = hostFixtures("cline");

function configure(event: string, command: string, extra = ""): void {
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n    - name: h\n      dialect: cline\n      command: ${JSON.stringify(command)}\n${extra}`);
}

const printing = (json: unknown) => `printf '%s' '${JSON.stringify(json)}'`;

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

describe("dialect: cline — Cline's answer, read as Cline reads it", () => {
  it("`cancel: true` blocks with errorMessage: under Claude Code, Cline and Cursor", async () => {
    configure("pre_tool_use", printing({ cancel: true, errorMessage: "no rm -rf" }), "      matcher: Bash\n");
    expect((await run("pre_tool_use", "claude", claudeBash())).out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } });
    expect((await run("pre_tool_use", "cline", FX.PreToolUse)).out).toMatchObject({ cancel: true, errorMessage: "no rm -rf" });
    const cursor = { ...hostFixtures("cursor").preToolUse, workspace_roots: [sb.current.dir], cwd: sb.current.dir };
    expect((await run("pre_tool_use", "cursor", cursor)).out).toMatchObject({ permission: "deny", agent_message: "no rm -rf" });
    // cancel false lets it run; an errorMessage without cancel is never shown.
    configure("pre_tool_use", printing({ cancel: false, errorMessage: "ignored" }));
    const ok = await result("pre_tool_use", { tool_name: "Bash" });
    expect(ok).toMatchObject({ blocked: false, messages: [] });
  });

  it("reads its answer in time linear in the output: many lines starting with `{` that are no answer fail the hook (closed) at once, not minutes after it exited", async () => {
    // 60,000 lines of `{"a":[`: tried from every line start, each parse running to the end, this took minutes.
    configure("pre_tool_use", `awk 'BEGIN { for (i = 0; i < 60000; i++) print "{\\"a\\":[" }'`, '      max_output: "2MB"\n');
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.hooks[0].stdout.length).toBeGreaterThan(400_000);
    expect(r.blocked).toBe(true);
    expect(r.reason).toMatch(/is written for Cline, which refuses the call when a hook fails here/);
    // A real answer after log lines is still found.
    configure("pre_tool_use", `echo '{ log'; echo '{"cancel": true, "errorMessage": "no"}'`);
    expect(await result("pre_tool_use", { tool_name: "Bash" })).toMatchObject({ blocked: true, reason: "no" });
  });

  it("fails closed: a non-zero exit, a missing command, a timeout or output without JSON blocks a tool call (fails open only where nothing can block)", async () => {
    for (const command of ["echo broken >&2; exit 1", "exit 2", "no-such-command-xyz", "echo 'cancel: false'", printing({ cancel: "yes" })]) {
      configure("pre_tool_use", command);
      const r = await result("pre_tool_use", { tool_name: "Bash" });
      expect(r.blocked, command).toBe(true);
      expect(r.reason, command).toMatch(/is written for Cline, which refuses the call when a hook fails here/);
    }
    configure("pre_tool_use", "sleep 5", '      timeout: "300ms"\n');
    expect((await result("pre_tool_use", { tool_name: "Bash" })).reason).toMatch(/timed out and is written for Cline/);
    // The same failure under Claude Code: Claude's deny.
    configure("pre_tool_use", "exit 1");
    expect((await run("pre_tool_use", "claude", claudeBash())).out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    // After the tool ran nothing can be blocked: the failure is reported, the agent goes on.
    configure("post_tool_use", "exit 1");
    const post = await result("post_tool_use", { tool_name: "Bash" });
    expect(post).toMatchObject({ blocked: false, continue: true });
    expect(post.hooks[0]).toMatchObject({ status: "failed" });
    // On TaskComplete (stop) a block would keep the agent going, which Cline cannot do: a failure there blocks nothing.
    configure("stop", "exit 1");
    const stop = await result("stop");
    expect(stop.blocked).toBe(false);
    expect(stop.hooks[0]).toMatchObject({ status: "failed", decision: null });
    // No output at all is no answer: the call goes on.
    configure("pre_tool_use", "true");
    expect((await result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(false);
  });

  it("contextModification (or context) reaches the model; the last JSON object on stdout is the answer", async () => {
    configure("pre_tool_use", `echo 'checking…'; echo '{"cancel":true}'; ${printing({ cancel: false, contextModification: "prefer trash over rm" })}`);
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(false);
    expect(r.messages).toEqual([{ role: "system", content: "prefer trash over rm", hook: "h" }]);
    expect((await run("pre_tool_use", "claude", claudeBash())).out).toMatchObject({ hookSpecificOutput: { additionalContext: "prefer trash over rm" } });
    configure("session_start", printing({ cancel: false, context: "branch main" }));
    expect((await result("session_start", { source: "startup" })).messages).toEqual([{ role: "system", content: "branch main", hook: "h" }]);
  });

  it("overrideInput rewrites a tool call (Cline's `path` given as `file_path` too)", async () => {
    configure("pre_tool_use", printing({ cancel: false, overrideInput: { path: "src/b.ts" } }));
    expect((await result("pre_tool_use", { tool_name: "Read", tool_input: { file_path: "src/a.ts" } })).updated_input).toEqual({ path: "src/b.ts", file_path: "src/b.ts" });
    // Only on a tool call: elsewhere Cline has nothing to rewrite.
    configure("post_tool_use", printing({ cancel: false, overrideInput: { path: "x" } }));
    expect((await result("post_tool_use", { tool_name: "Read" })).hooks[0].updated_input).toBeUndefined();
  });

  it("cancel where nothing can be blocked stops the agent (after a tool) or only tells the user (TaskComplete)", async () => {
    configure("post_tool_use", printing({ cancel: true, errorMessage: "tests broke: stop" }));
    expect(await result("post_tool_use", { tool_name: "Bash" })).toMatchObject({ blocked: false, continue: false, stop_reason: "tests broke: stop" });
    expect((await run("post_tool_use", "claude", claude("PostToolUse", { tool_name: "Bash", tool_input: {}, tool_response: {} }))).out).toMatchObject({
      continue: false,
      stopReason: "tests broke: stop",
    });
    configure("stop", printing({ cancel: true, errorMessage: "not done" }));
    const stop = await result("stop");
    expect(stop.blocked).toBe(false);
    expect(stop.messages).toEqual([{ role: "system", content: "not done", kind: "notice", hook: "h" }]);
  });
});

describe("dialect: cline — the hook receives Cline's payload", () => {
  const dump = () => `cat > '${sb.current.path("stdin.json")}'`;
  const stdin = () => {
    const { hook: _hook, ...rest } = JSON.parse(readFileSync(sb.current.path("stdin.json"), "utf8")) as Record<string, unknown>;
    return rest;
  };

  it("fired by Cline: what Cline sent, in its older and newer tool shapes", async () => {
    configure("pre_tool_use", `${dump()}; echo '{"cancel":false}'`);
    await run("pre_tool_use", "cline", FX.PreToolUse);
    expect(stdin()).toMatchObject(FX.PreToolUse);
    await run("pre_tool_use", "cline", FX["PreToolUse-tool_call"]);
    expect(stdin()).toMatchObject(FX["PreToolUse-tool_call"]);
    configure("session_start", `${dump()}; echo '{"cancel":false}'`);
    await run("session_start", "cline", FX.TaskResume);
    expect(stdin()).toMatchObject(FX.TaskResume);
  });

  it("fired elsewhere: Cline's hook and tool names, both tool shapes, documented defaults", async () => {
    configure("pre_tool_use", `${dump()}; echo '{"cancel":false}'`);
    await run("pre_tool_use", "claude", claudeBash("npm test"));
    expect(stdin()).toEqual({
      clineVersion: "",
      hookName: "PreToolUse",
      timestamp: expect.stringMatching(/^\d+$/),
      taskId: "s1",
      workspaceRoots: [sb.current.dir],
      userId: "",
      preToolUse: { toolName: "execute_command", parameters: { command: "npm test" } },
      tool_call: { id: "toolu_1", name: "execute_command", input: { command: "npm test" } },
    });
    await result("pre_tool_use", { tool_name: "Read", tool_input: { file_path: "src/a.ts" } });
    expect(stdin()).toMatchObject({ preToolUse: { toolName: "read_file", parameters: { path: "src/a.ts" } } });
    await result("pre_tool_use", { tool_name: "mcp__db__query", tool_input: { sql: "1" } });
    expect(stdin()).toMatchObject({ preToolUse: { toolName: "use_mcp_tool", parameters: { server_name: "db", tool_name: "query", arguments: '{"sql":"1"}' } } });
    configure("session_start", `${dump()}; echo '{"cancel":false}'`);
    await result("session_start", { source: "resume" });
    expect(stdin()).toMatchObject({ hookName: "TaskResume", taskId: "s" });
    configure("user_prompt_submit", `${dump()}; echo '{"cancel":false}'`);
    await result("user_prompt_submit", { prompt: "hi" });
    expect(stdin()).toMatchObject({ hookName: "UserPromptSubmit", userPromptSubmit: { prompt: "hi", attachments: [] } });
    configure("stop", `${dump()}; echo '{"cancel":false}'`);
    await result("stop");
    expect(stdin()).toMatchObject({ hookName: "TaskComplete", taskComplete: {} });
  });

  it("names hooks and tools as the Cline host reads them", () => {
    for (const [canonical, name] of Object.entries(CLINE_HOOK)) expect(clineHost.events[name], name).toBe(canonical);
    for (const [canonical, name] of Object.entries(CLINE_TOOL)) expect(clineHost.tools[name], name).toBe(canonical);
  });
});

describe("dialect: cline — hooks import cline", () => {
  it("imports each executable of .clinerules/hooks as a `dialect: cline` hook, which blocks under Claude Code as under Cline", async () => {
    const hook = (name: string, body: string, mode = 0o755) => {
      const file = sb.current.write(`.clinerules/hooks/${name}`, `#!/bin/sh\n${body}\n`);
      chmodSync(file, mode);
    };
    hook("PreToolUse", `cat > /dev/null; ${printing({ cancel: true, errorMessage: "no rm -rf" })}`);
    hook("TaskResume", `echo '{"cancel":false,"contextModification":"resumed"}'`);
    hook("PostToolUse", "echo '{}'", 0o644);
    hook("UserPromptSubmit", "# hookrun: hands Cline's UserPromptSubmit to hooks.yaml\nexec hooks run user_prompt_submit --host cline");
    sb.current.write(".clinerules/hooks/notes.md", "x\n");
    // A dangling link and a folder in the hooks folder are nothing Cline runs: left out.
    symlinkSync(sb.current.path("gone"), sb.current.path(".clinerules/hooks/TaskCancel"));
    mkdirSync(sb.current.path(".clinerules/hooks/PreCompact"));
    const dry = await runMain(["import", "cline", "--json"], { cwd: sb.current.dir, env: sb.current.env });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      hooks: {
        session_start: [{ name: "cline-task-resume", matcher: "resume", command: "./.clinerules/hooks/TaskResume", dialect: "cline" }],
        pre_tool_use: [{ name: "cline-pre-tool-use", command: "./.clinerules/hooks/PreToolUse", dialect: "cline" }],
      },
    });
    expect(dry.stderr).toContain("PostToolUse: not executable, so Cline does not run it; skipped");
    expect(dry.stderr).toContain("UserPromptSubmit: hookrun's own script");
    expect(dry.stderr).toContain("notes.md: not a Cline hook type");
    const write = await runMain(["import", "cline", "--write"], { cwd: sb.current.dir, env: sb.current.env });
    expect(write.code).toBe(0);
    expect((await run("pre_tool_use", "claude", claudeBash())).out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } });
    expect((await run("pre_tool_use", "cline", FX.PreToolUse)).out).toMatchObject({ cancel: true, errorMessage: "no rm -rf" });
    expect((await result("session_start", { source: "resume" })).messages).toEqual([{ role: "system", content: "resumed", hook: "cline-task-resume" }]);
    expect((await result("session_start", { source: "startup" })).messages).toEqual([]);
    // A second import adds nothing; a folder is required.
    expect((await runMain(["import", "cline", "--write"], { cwd: sb.current.dir, env: sb.current.env })).stdout).toMatch(/^nothing to add/);
    sb.current.write("cline.json", "{}");
    const file = await runMain(["import", "cline", "cline.json"], { cwd: sb.current.dir, env: sb.current.env });
    expect(file.code).not.toBe(0);
    expect(file.stderr).toMatch(/folder of executables/);
  });
});
