import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md#agent-code-hooks-written-for-agent-code: a hook written for agent-code
// (`dialect: agent-code`) receives agent-code's own payload and AGENT_CODE_HOOK_* variables, and on
// pre_tool_use any non-zero exit (or a timeout) vetoes the call; nothing else it says is read.
const sb = useSandbox();

function configure(event: string, hooks: { name: string; command: string; extra?: string }[]): void {
  const body = hooks.map((h) => `    - name: ${h.name}\n      dialect: agent-code\n      command: ${JSON.stringify(h.command)}\n${h.extra ?? ""}`).join("");
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n${body}`);
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

async function fire(host: string, event: string, payload: Record<string, unknown>, env: Record<string, string> = {}) {
  const r = await runMain(["--trust", "run", event, "--host", host], { cwd: sb.current.dir, env: { ...sb.current.env, ...env }, input: JSON.stringify(payload) });
  return { ...r, json: r.stdout.trim().startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : null };
}

const SAVE = `cat > "$HOOK_PROJECT_DIR/stdin.json"; printf '%s|%s|%s' "$AGENT_CODE_HOOK_EVENT" "$AGENT_CODE_HOOK_TOOL" "$AGENT_CODE_HOOK_CONTEXT" > "$HOOK_PROJECT_DIR/env.txt"`;
const savedText = (): string => readFileSync(sb.current.path("stdin.json"), "utf8");
/** The stdin the hook saved, without the `hook` field hookrun adds to every hook's stdin. */
const saved = (): Record<string, unknown> => {
  const { hook: _hook, ...rest } = JSON.parse(savedText()) as Record<string, unknown>;
  return rest;
};
const env = (): string[] => readFileSync(sb.current.path("env.txt"), "utf8").split("|");

/** A guard written for agent-code: its stdin is the raw tool input, the tool in $AGENT_CODE_HOOK_TOOL; a veto is a non-zero exit. */
const RM_GUARD = `#!/bin/sh
[ "$AGENT_CODE_HOOK_TOOL" = Bash ] || exit 0
case "$(jq -r .command)" in
  *"rm -rf"*) echo "no rm -rf here" >&2; echo "second line" >&2; exit 1;;
esac
`;

describe("dialect: agent-code, what the hook receives", () => {
  it("fired by Claude Code, pre_tool_use's stdin is the raw tool input (keys sorted) and the tool is in AGENT_CODE_HOOK_TOOL, agent-code's name", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE }]);
    await fire("claude", "PreToolUse", { session_id: "s", cwd: sb.current.dir, hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: "a.txt", content: "x" }, tool_use_id: "t" });
    expect(saved()).toMatchObject({ content: "x", file_path: "a.txt" });
    expect(saved()).not.toHaveProperty("tool_name");
    expect(savedText().startsWith('{"content":"x","file_path":"a.txt"')).toBe(true);
    const [event, tool, context] = env();
    expect([event, tool]).toEqual(["pre_tool_use", "FileWrite"]);
    expect(JSON.parse(context)).toEqual({ content: "x", file_path: "a.txt" });
  });

  it("the other events get agent-code's fields: post_tool_use {tool, is_error}, user_prompt_submit {user_input, turn}, stop, session_end as session_stop", async () => {
    configure("post_tool_use", [{ name: "save", command: SAVE }]);
    await result("post_tool_use", { tool_name: "Edit", tool_input: { file_path: "a" } });
    expect(saved()).toEqual({ is_error: false, tool: "FileEdit" });
    expect(env().slice(0, 2)).toEqual(["post_tool_use", "FileEdit"]);
    configure("post_tool_use_failure", [{ name: "save", command: SAVE }]);
    await result("post_tool_use_failure", { tool_name: "Bash" });
    expect(saved()).toEqual({ is_error: true, tool: "Bash" });
    configure("user_prompt_submit", [{ name: "save", command: SAVE }]);
    await result("user_prompt_submit", { prompt: "hi", turn_count: 3 });
    expect(saved()).toEqual({ turn: 3, user_input: "hi" });
    expect(env().slice(0, 2)).toEqual(["user_prompt_submit", ""]);
    configure("stop", [{ name: "save", command: SAVE }]);
    await result("stop", { last_assistant_message: "done" });
    expect(saved()).toEqual({ last_assistant_message: "done", session_id: "s", turn_count: 0 });
    configure("session_end", [{ name: "save", command: SAVE }]);
    await result("session_end", {});
    expect(saved()).toEqual({ session_id: "s", total_cost_usd: 0, total_tokens: 0, turn_count: 0 });
    expect(env()[0]).toBe("session_stop");
  });

  it("fired by agent-code, the hook gets agent-code's raw input and its own variables back", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE }]);
    await fire("agent-code", "pre_tool_use", { command: "ls", description: "list" }, { AGENT_CODE_HOOK_TOOL: "Bash", AGENT_CODE_HOOK_EVENT: "pre_tool_use", AGENT_CODE_HOOK_CONTEXT: "ORIGINAL" });
    expect(saved()).toMatchObject({ command: "ls", description: "list" });
    expect(env()).toEqual(["pre_tool_use", "Bash", "ORIGINAL"]);
  });
});

describe("dialect: agent-code, the rm guard written for agent-code", () => {
  it("vetoes `rm -rf` fired by Claude Code with the first line of its stderr, and by agent-code itself", async () => {
    sb.current.write("guard.sh", RM_GUARD);
    configure("pre_tool_use", [{ name: "rm", command: "sh guard.sh" }]);
    const claude = await fire("claude", "PreToolUse", {
      session_id: "s",
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "t",
    });
    expect(claude.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf here" } });
    const ok = await fire("claude", "PreToolUse", { session_id: "s", cwd: sb.current.dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" });
    expect(ok.json?.hookSpecificOutput).toBeUndefined();
    const own = await fire("agent-code", "pre_tool_use", { command: "rm -rf build" }, { AGENT_CODE_HOOK_TOOL: "Bash", AGENT_CODE_HOOK_EVENT: "pre_tool_use" });
    expect(own.code).toBe(2);
    expect(own.stderr.trim()).toBe("no rm -rf here");
  });
});

describe("dialect: agent-code reads only a pre_tool_use veto", () => {
  it("pre_tool_use: exit 1, exit 2, a missing command (127) veto; the reason is stderr's first line, else stdout's; exit 0 with JSON is not read", async () => {
    configure("pre_tool_use", [{ name: "g", command: "echo 'from stdout'; exit 3" }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "from stdout", dialect: "agent-code" });
    configure("pre_tool_use", [{ name: "g", command: "exit 2" }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "hook exited with code 2" });
    configure("pre_tool_use", [{ name: "g", command: "no-such-command-hookrun-test" }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked" });
    configure("pre_tool_use", [{ name: "g", command: `printf '%s' '{"decision":"block","reason":"json"}'` }]);
    const zero = await result("pre_tool_use", { tool_name: "Bash" });
    expect(zero.blocked).toBe(false);
    expect(zero.messages).toEqual([]);
  });

  it("pre_tool_use: a hook that times out vetoes the call (agent-code fails closed there)", async () => {
    configure("pre_tool_use", [{ name: "slow", command: "sleep 5", extra: "      timeout: 200ms\n" }]);
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(true);
    expect(r.hooks[0]).toMatchObject({ status: "timed_out", decision: "block" });
    expect(r.reason).toContain("written for agent-code");
  });

  it("pre_tool_use: when hookrun cannot run the hooks (an untrusted hooks.yaml), the dispatch fails closed under every host, as agent-code would", async () => {
    configure("pre_tool_use", [{ name: "g", command: "exit 0" }]);
    const payload = { session_id: "s", cwd: sb.current.dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" };
    const r = await runMain(["run", "PreToolUse", "--host", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(r.stdout).toMatch(/is not trusted/);
    // A native hook there fails open: the user is told, the call goes on.
    sb.current.write("hooks.yaml", "hooks:\n  pre_tool_use:\n    - name: g\n      command: exit 0\n");
    const open = await runMain(["run", "PreToolUse", "--host", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
    expect(open.stdout).not.toMatch(/"deny"/);
  });

  it("elsewhere nothing is read: stdout reaches no one, exit 2 on stop keeps no turn going (a failure), post_tool_use exit 2 is no feedback", async () => {
    configure("session_start", [{ name: "ctx", command: "echo 'Branch: main'" }]);
    const start = await result("session_start", {});
    expect(start.messages).toEqual([]);
    expect(start.hooks[0].status).toBe("ok");
    configure("stop", [{ name: "more", command: "echo 'keep going' >&2; exit 2" }]);
    const stop = await result("stop", {});
    expect(stop.blocked).toBe(false);
    expect(stop.hooks[0]).toMatchObject({ status: "failed" });
    configure("post_tool_use", [{ name: "lint", command: "echo 'lint failed' >&2; exit 2" }]);
    const post = await result("post_tool_use", { tool_name: "Bash" });
    expect(post.messages).toEqual([]);
  });

  it("runs an event's hooks one after another, all of them even after a veto, with agent-code's 30 s default", async () => {
    configure("pre_tool_use", [
      { name: "veto", command: "echo no >&2; exit 1" },
      { name: "audit", command: "echo audited > audit.txt" },
    ]);
    const r = await result("pre_tool_use", { tool_name: "Bash", cwd: sb.current.dir });
    expect(r.blocked).toBe(true);
    expect(r.hooks.map((h) => h.status)).toEqual(["blocked", "ok"]);
    expect(readFileSync(sb.current.path("audit.txt"), "utf8")).toBe("audited\n");
    expect((await sb.current.load()).hooks.find((h) => h.name === "veto")?.timeoutMs).toBe(30_000);
  });
});
