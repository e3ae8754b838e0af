import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cursor as cursorHost } from "../src/hosts/cursor.js";
import { CURSOR_TOOL } from "../src/dialects/cursor.js";
import { CURSOR_EVENT } from "../src/events/cursorNames.js";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { hostFixtures } from "./helpers/hostFixtures.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md#cursor-hooks-written-for-cursor: a hook written for Cursor (`dialect: cursor`)
// receives Cursor's payload and is read by Cursor's rules, whichever host fired the event.
const sb = useSandbox();
const FX = hostFixtures("cursor");

/** hooks.yaml with one cursor hook per entry on `event`. */
function configure(event: string, hooks: { name: string; command: string; extra?: string }[]): void {
  const body = hooks.map((h) => `    - name: ${h.name}\n      dialect: cursor\n      command: ${JSON.stringify(h.command)}\n${h.extra ?? ""}`).join("");
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n${body}`);
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

/** `hooks run EVENT --host HOST` with the host's payload: exit code, stdout (parsed when JSON), stderr. */
async function run(event: string, host: string, payload: Record<string, unknown>) {
  const r = await runMain(["--trust", "run", event, "--host", host], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
  const out = r.stdout.trim().startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : r.stdout;
  return { code: r.code, out, stderr: r.stderr };
}

const claudePre = (command = "git push --force") => ({
  session_id: "s1",
  transcript_path: "/t.jsonl",
  cwd: sb.current.dir,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "toolu_1",
});
const geminiPre = () => ({
  session_id: "g1",
  transcript_path: "/t.json",
  cwd: sb.current.dir,
  hook_event_name: "BeforeTool",
  timestamp: "2026-11-24T12:00:00.000Z",
  tool_name: "run_shell_command",
  tool_input: { command: "git push --force" },
});

describe("dialect: cursor — a Cursor guard under other hosts", () => {
  it("a Cursor guard's `permission: deny` denies under Claude Code, with its agent_message reaching Claude's answer", async () => {
    configure("pre_tool_use", [{ name: "guard", command: printing({ permission: "deny", agent_message: "no" }), extra: "      matcher: Bash\n" }]);
    const r = await run("pre_tool_use", "claude", claudePre());
    expect(r.code).toBe(0);
    expect(r.out).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
    // The same guard under Cursor: Cursor's own deny.
    const c = await run("pre_tool_use", "cursor", FX.preToolUse);
    expect(c.out).toMatchObject({ permission: "deny", agent_message: "no" });
    // Under Gemini CLI: Gemini's deny (exit 2 or a JSON deny, as its adapter answers).
    expect(await run("pre_tool_use", "gemini", geminiPre())).toMatchObject({ code: 0, out: { decision: "deny", reason: "no" } });
    // Native, the same answer is not understood: the call goes on.
    sb.current.write("hooks.yaml", `hooks:\n  pre_tool_use:\n    - name: guard\n      command: ${JSON.stringify(printing({ permission: "deny", agent_message: "no" }))}\n`);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(false);
  });

  it("exit 2 denies (stderr the reason), any other exit code fails open, and failClosed (on_failure: block) turns that into a deny", async () => {
    configure("pre_tool_use", [{ name: "guard", command: "echo 'no force push' >&2; exit 2" }]);
    expect((await run("pre_tool_use", "claude", claudePre())).out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no force push" } });
    configure("pre_tool_use", [{ name: "guard", command: `${printing({ permission: "deny", agent_message: "no" })}; exit 1` }]);
    const open = await result("pre_tool_use", { tool_name: "Bash" });
    expect(open.blocked).toBe(false);
    expect(open.hooks[0]).toMatchObject({ status: "failed", dialect: "cursor" });
    configure("pre_tool_use", [{ name: "guard", command: "exit 3", extra: "      on_failure: block\n" }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(true);
    // Output Cursor cannot read is ignored (fails open).
    configure("pre_tool_use", [{ name: "guard", command: "echo 'permission: deny'" }]);
    const bad = await result("pre_tool_use", { tool_name: "Bash" });
    expect(bad.blocked).toBe(false);
    expect(bad.hooks[0]).toMatchObject({ status: "invalid_output", error: expect.stringContaining("Cursor ignores it") });
  });
});

describe("dialect: cursor — every field of Cursor's answers", () => {
  it("preToolUse: allow, ask, agent_message, user_message and updated_input", async () => {
    configure("pre_tool_use", [{ name: "g", command: printing({ permission: "allow", updated_input: { command: "git push" }, user_message: "rewrote it" }) }]);
    const allow = await result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "git push --force" } });
    expect(allow.hooks[0]).toMatchObject({ decision: "allow", updated_input: { command: "git push" } });
    expect(allow.messages).toEqual([{ role: "system", content: "rewrote it", kind: "notice", hook: "g" }]);
    expect((await run("pre_tool_use", "claude", claudePre())).out).toMatchObject({
      systemMessage: "rewrote it",
      hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "git push" } },
    });
    configure("pre_tool_use", [{ name: "g", command: printing({ permission: "ask", user_message: "force push?" }) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ decision: "ask", reason: "force push?" });
    // agent_message without a deny reaches the model.
    configure("pre_tool_use", [{ name: "g", command: printing({ agent_message: "prefer --force-with-lease" }) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).messages).toEqual([{ role: "system", content: "prefer --force-with-lease", hook: "g" }]);
    // A deny's user_message is for the user; its agent_message is the reason.
    configure("pre_tool_use", [{ name: "g", command: printing({ permission: "deny", agent_message: "for the model", user_message: "for you" }) }]);
    const deny = await result("pre_tool_use", { tool_name: "Bash" });
    expect(deny).toMatchObject({ blocked: true, reason: "for the model" });
    expect(deny.messages).toEqual([{ role: "system", content: "for you", kind: "notice", hook: "g" }]);
  });

  it("beforeSubmitPrompt: continue false blocks the prompt with user_message; context there is ignored, as Cursor ignores it", async () => {
    configure("user_prompt_submit", [{ name: "p", command: printing({ continue: false, user_message: "no secrets in prompts" }) }]);
    expect(await result("user_prompt_submit", { prompt: "key sk_1" })).toMatchObject({ blocked: true, reason: "no secrets in prompts" });
    const claude = await run("user_prompt_submit", "claude", { session_id: "s1", transcript_path: "", cwd: sb.current.dir, hook_event_name: "UserPromptSubmit", prompt: "x" });
    expect(claude.out).toMatchObject({ decision: "block", reason: "no secrets in prompts" });
    configure("user_prompt_submit", [{ name: "p", command: printing({ continue: true, additional_context: "ignored", agent_message: "ignored", permission: "deny" }) }]);
    const r = await result("user_prompt_submit", { prompt: "x" });
    expect(r).toMatchObject({ blocked: false, messages: [] });
    expect(r.hooks[0]).toMatchObject({ status: "ok", warnings: [] });
  });

  it("stop: followup_message keeps the agent going (Claude: the turn goes on; Cursor: followup_message)", async () => {
    configure("stop", [{ name: "todo", command: printing({ followup_message: "run the tests" }) }]);
    const r = await result("stop");
    expect(r.messages).toEqual([{ role: "system", content: "run the tests", kind: "followup", hook: "todo" }]);
    const claude = await run("stop", "claude", { session_id: "s1", transcript_path: "", cwd: sb.current.dir, hook_event_name: "Stop", stop_hook_active: false });
    expect(JSON.stringify(claude.out)).toContain("run the tests");
    expect((await run("stop", "cursor", FX.stop)).out).toEqual({ followup_message: "run the tests" });
    // exit 2 on stop denies nothing: its stderr is for the user, the agent stops.
    configure("stop", [{ name: "todo", command: "echo 'left 2 TODOs' >&2; exit 2" }]);
    const two = await result("stop");
    expect(two.blocked).toBe(false);
    expect(two.messages).toEqual([{ role: "system", content: "left 2 TODOs", kind: "notice", hook: "todo" }]);
  });

  it("sessionStart / postToolUse: additional_context reaches the model; sessionStart `env` is kept with a warning; what Cursor ignores is ignored", async () => {
    configure("session_start", [{ name: "ctx", command: printing({ additional_context: "branch main", env: { A: "1" } }) }]);
    const s = await result("session_start", { source: "startup" });
    expect(s.messages).toEqual([{ role: "system", content: "branch main", hook: "ctx" }]);
    expect(s.hooks[0].warnings).toEqual(["env: not carried by hookrun (kept in the result's json)"]);
    expect(s.hooks[0].json).toEqual({ env: { A: "1" } });
    const claude = await run("session_start", "claude", { session_id: "s1", transcript_path: "", cwd: sb.current.dir, hook_event_name: "SessionStart", source: "startup" });
    expect(claude.out).toMatchObject({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "branch main" } });
    configure("post_tool_use", [{ name: "lint", command: printing({ additional_context: "2 lint errors", permission: "deny", followup_message: "x", whatever: 1 }) }]);
    const p = await result("post_tool_use", { tool_name: "Edit" });
    expect(p.messages).toEqual([{ role: "system", content: "2 lint errors", hook: "lint" }]);
    expect(p.hooks[0]).toMatchObject({ status: "ok", decision: null, warnings: [] });
    // The tool-specific events' permission is on preToolUse only: on a pre-tool hook, followup_message is ignored.
    configure("pre_tool_use", [{ name: "g", command: printing({ followup_message: "x", additional_context: "y" }) }]);
    expect(await result("pre_tool_use", { tool_name: "Bash" })).toMatchObject({ blocked: false, messages: [] });
  });
});

describe("dialect: cursor — the hook receives Cursor's payload", () => {
  const dump = () => `cat > '${sb.current.path("stdin.json")}'`;
  const stdin = () => JSON.parse(readFileSync(sb.current.path("stdin.json"), "utf8")) as Record<string, unknown>;

  it("fired by Claude Code: the generic event, Cursor's tool names and documented defaults (plus beforeShellExecution's command and cwd)", async () => {
    configure("pre_tool_use", [{ name: "dump", command: dump() }]);
    await run("pre_tool_use", "claude", claudePre("ls"));
    const got = stdin();
    expect(got).toMatchObject({
      hook_event_name: "preToolUse",
      conversation_id: "s1",
      generation_id: "",
      cursor_version: "",
      workspace_roots: [sb.current.dir],
      tool_name: "Shell",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_1",
      command: "ls",
      cwd: sb.current.dir,
    });
    for (const k of ["event", "turn_count", "host", "stop_hook_active"]) expect(got).not.toHaveProperty(k);
    configure("stop", [{ name: "dump", command: dump() }]);
    await run("stop", "claude", { session_id: "s1", transcript_path: "", cwd: sb.current.dir, hook_event_name: "Stop", stop_hook_active: true });
    // loop_count is this hook's own count of continuations in a row (docs/configuration.md#loop_limit): it never continued.
    expect(stdin()).toMatchObject({ hook_event_name: "stop", status: "completed", loop_count: 0 });
    configure("user_prompt_submit", [{ name: "dump", command: dump() }]);
    await result("user_prompt_submit", { prompt: "hi" });
    expect(stdin()).toMatchObject({ hook_event_name: "beforeSubmitPrompt", prompt: "hi", attachments: [] });
    configure("post_tool_use", [{ name: "dump", command: dump() }]);
    await result("post_tool_use", { tool_name: "mcp__db__query", tool_input: { sql: "1" }, tool_response: { rows: [] } });
    expect(stdin()).toMatchObject({ hook_event_name: "postToolUse", tool_name: "MCP:query", tool_output: '{"rows":[]}' });
    // An edit carries afterFileEdit's file_path and edits too.
    await result("post_tool_use", { tool_name: "Edit", tool_input: { file_path: "a.ts", old_string: "x", new_string: "y" }, tool_response: {} });
    expect(stdin()).toMatchObject({ tool_name: "Edit", file_path: "a.ts", edits: [{ old_string: "x", new_string: "y" }] });
  });

  it("keeps a payload's keys as data: a `__proto__` key reaches the hook as a field, and pollutes nothing", async () => {
    configure("pre_tool_use", [{ name: "dump", command: dump() }]);
    const payload = JSON.stringify(claudePre("ls")).replace(/^\{/, '{"__proto__":{"polluted":true},');
    await runMain(["--trust", "run", "pre_tool_use", "--host", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: payload });
    const got = stdin();
    expect(Object.hasOwn(got, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(got).toMatchObject({ hook_event_name: "preToolUse", tool_name: "Shell" });
  });

  it("fired by Cursor: the hook gets what Cursor sent, its tool-specific events included", async () => {
    configure("pre_tool_use", [{ name: "dump", command: dump() }]);
    await run("pre_tool_use", "cursor", FX.beforeShellExecution);
    const shell = stdin();
    expect(shell).toMatchObject({ ...FX.beforeShellExecution });
    expect(shell).not.toHaveProperty("tool_name");
    await run("pre_tool_use", "cursor", FX.preToolUse);
    expect(stdin()).toMatchObject({ ...FX.preToolUse });
    await run("pre_tool_use", "cursor", FX.beforeMCPExecution);
    expect(stdin()).toMatchObject({ ...FX.beforeMCPExecution, tool_input: JSON.stringify({ sql: "DELETE FROM users" }) });
    await run("pre_tool_use", "cursor", FX.beforeReadFile);
    expect(stdin()).toMatchObject({ ...FX.beforeReadFile });
    configure("stop", [{ name: "dump", command: dump() }]);
    await run("stop", "cursor", FX.stop);
    expect(stdin()).toMatchObject({ ...FX.stop });
  });
});

describe("dialect: cursor — tables and import", () => {
  it("names events and tools as the Cursor host reads them", () => {
    for (const [canonical, name] of Object.entries(CURSOR_EVENT)) expect(cursorHost.events[name], name).toBe(canonical);
    for (const [canonical, name] of Object.entries(CURSOR_TOOL)) expect(cursorHost.tools[name], name).toBe(canonical);
  });

  it("reads Cursor's newer userPromptSubmit event, and imports its hooks under user_prompt_submit", () => {
    expect(cursorHost.read({ hook_event_name: "userPromptSubmit", conversation_id: "c", workspace_roots: ["/p"], prompt: "hi" }, "userPromptSubmit")).toMatchObject({ prompt: "hi" });
    const imp = cursorHost.import?.({ version: 1, hooks: { userPromptSubmit: [{ command: "./p.sh" }] } }, []);
    expect(imp?.hooks.map((h) => [h.event, h.hook])).toEqual([["user_prompt_submit", { name: "p", command: "./p.sh", dialect: "cursor" }]]);
    expect(imp?.customEvents).toEqual({});
  });

  it("`hooks import cursor --write` makes a Cursor guard that denies under Claude Code", async () => {
    sb.current.write("guard.sh", `#!/bin/sh\n${printing({ permission: "deny", agent_message: "no force push" })}\n`);
    sb.current.write(".cursor/hooks.json", JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: "sh guard.sh", failClosed: true, timeout: 5 }] } }));
    const imp = await runMain(["import", "cursor", "--write"], { cwd: sb.current.dir, env: sb.current.env });
    expect(imp.code).toBe(0);
    const yaml = readFileSync(sb.current.path("hooks.yaml"), "utf8");
    expect(yaml).toMatch(/matcher: Bash\n\s+command: sh guard\.sh\n\s+timeout: 5\n\s+on_failure: block\n\s+dialect: cursor/);
    expect((await run("pre_tool_use", "claude", claudePre())).out).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no force push" } });
    // Not a shell call: the guard does not run.
    expect((await run("pre_tool_use", "claude", { ...claudePre(), tool_name: "Read", tool_input: { file_path: "a" } })).out).toEqual({});
  });
});
