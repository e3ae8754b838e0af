import { describe, expect, it } from "vitest";
import { claudePreToolUse, dialectHarness, printing } from "./helpers/dialectSandbox.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md: hooks written for Copilot CLI, in its camelCase entries (`dialect: copilot`) and
// its PascalCase ones (`dialect: copilot-pascal`), receive Copilot's payload and are read by
// Copilot's rules, whichever host fires the event.
const sb = useSandbox({ survivors: true });
const camel = dialectHarness(() => sb.current, "copilot");
const pascal = dialectHarness(() => sb.current, "copilot-pascal");

/** A guard for Copilot's camelCase preToolUse: it denies `rm -rf` in the shell tool (toolArgs an object, as Copilot 1.0.102 sends it). */
const GUARD = `input=$(cat); printf '%s' "$input" > stdin.json
tool=$(printf '%s' "$input" | jq -r .toolName)
cmd=$(printf '%s' "$input" | jq -r .toolArgs.command)
case "$tool:$cmd" in bash:*"rm -rf"*) printf '%s\\n' '{"permissionDecision":"deny","permissionDecisionReason":"no"}';; esac`;

describe("dialect: copilot (camelCase entries)", () => {
  it("a Copilot guard's flat deny DENIES under Claude Code, with its reason (and under Gemini CLI and Copilot itself)", async () => {
    camel.configure("pre_tool_use", [{ name: "guard", command: GUARD }]);
    const claude = await camel.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "rm -rf build"));
    expect(claude.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
    // It received Copilot's payload: camelCase, Copilot's tool name and argument object, epoch ms.
    const stdin = camel.read("stdin.json");
    expect(stdin).toMatchObject({ sessionId: "s1", cwd: sb.current.dir, toolName: "bash", toolArgs: { command: "rm -rf build" }, timestamp: expect.any(Number) });
    for (const key of ["session_id", "tool_name", "tool_input", "hook_event_name", "transcript_path"]) expect(stdin).not.toHaveProperty(key);
    expect((await camel.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "ls"))).answer).toEqual({});

    const gemini = await camel.fire("pre_tool_use", "gemini", {
      session_id: "g1",
      transcript_path: "",
      cwd: sb.current.dir,
      hook_event_name: "BeforeTool",
      timestamp: "2026-11-24T12:00:00.000Z",
      tool_name: "run_shell_command",
      tool_input: { command: "rm -rf build" },
    });
    expect(gemini.answer).toEqual({ decision: "deny", reason: "no" });
    expect(camel.read("stdin.json")).toMatchObject({ toolName: "bash", timestamp: Date.parse("2026-11-24T12:00:00.000Z") });

    // Fired by Copilot itself, it gets what Copilot sent.
    const own = await camel.fire("pre_tool_use", "copilot", {
      sessionId: "c1",
      timestamp: 1795523520870,
      cwd: sb.current.dir,
      toolName: "bash",
      toolArgs: { command: "rm -rf build", description: "x" },
    });
    expect(own.answer).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no" });
    expect(camel.read("stdin.json")).toMatchObject({ sessionId: "c1", timestamp: 1795523520870, toolName: "bash", toolArgs: { command: "rm -rf build", description: "x" } });
    // Fired by a PascalCase entry of Copilot (Claude's names), the camelCase hook still gets Copilot's tool name and epoch ms.
    const pascalEntry = await camel.fire("pre_tool_use", "copilot", {
      hook_event_name: "PreToolUse",
      session_id: "c2",
      timestamp: "2026-11-24T12:32:00.870Z",
      cwd: sb.current.dir,
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
    expect(pascalEntry.answer).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no" });
    expect(camel.read("stdin.json")).toMatchObject({ sessionId: "c2", timestamp: Date.parse("2026-11-24T12:32:00.870Z"), toolName: "bash" });
  });

  it("the arguments are in Copilot's shape on stdin, and modifiedArgs comes back in the canonical one", async () => {
    camel.configure("pre_tool_use", [{ name: "rewrite", command: `cat > stdin.json; ${printing({ permissionDecision: "allow", modifiedArgs: { path: "/p/b.txt", file_text: "y\n" } })}` }]);
    const r = await camel.result("pre_tool_use", { tool_name: "Write", tool_input: { file_path: "/p/a.txt", content: "x\n" } });
    expect(camel.read("stdin.json")).toMatchObject({ toolName: "create", toolArgs: { path: "/p/a.txt", file_text: "x\n" } });
    expect(r.hooks[0]).toMatchObject({ status: "ok", decision: "allow", updated_input: { file_path: "/p/b.txt", content: "y\n" } });
    const claude = await camel.fire("pre_tool_use", "claude", { ...claudePreToolUse(sb.current.dir, ""), tool_name: "Write", tool_input: { file_path: "/p/a.txt", content: "x\n" } });
    expect(claude.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { file_path: "/p/b.txt", content: "y\n" } } });
    // Under Copilot the rewrite goes back in Copilot's own argument names.
    const own = await camel.fire("pre_tool_use", "copilot", { sessionId: "c1", timestamp: 1, cwd: sb.current.dir, toolName: "create", toolArgs: { path: "/p/a.txt", file_text: "x\n" } });
    expect(own.answer).toEqual({ permissionDecision: "allow", modifiedArgs: { path: "/p/b.txt", file_text: "y\n" } });
    // ask is passed on with its reason.
    camel.configure("pre_tool_use", [{ name: "ask", command: printing({ permissionDecision: "ask", permissionDecisionReason: "pushes to main" }) }]);
    expect((await camel.result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ decision: "ask", reason: "pushes to main" });
  });

  it("preToolUse fails CLOSED on any non-zero exit (127 of a missing command too); elsewhere a failure lets Copilot go on", async () => {
    for (const [command, code] of [
      ["echo 'oops' >&2; exit 1", 1],
      [`${printing({ permissionDecision: "allow" })}; exit 2`, 2],
      ["./missing-script.sh", 127],
    ] as const) {
      camel.configure("pre_tool_use", [{ name: "guard", command }]);
      const r = await camel.result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "ls" } });
      expect(r.blocked, command).toBe(true);
      expect(r.reason).toBe(`Denied by preToolUse hook: hook exited with code ${code}`);
    }
    camel.configure("session_start", [{ name: "ctx", command: "echo 'oops' >&2; exit 1" }]);
    const start = await camel.result("session_start", { source: "startup" });
    expect(start.blocked).toBe(false);
    expect(start.hooks[0]).toMatchObject({ status: "failed", error: "exit code 1: oops" });
    // Copilot's default timeout, 30 s.
    expect((await sb.current.load()).hooks[0].timeoutMs).toBe(30_000);
  });

  it("flat additionalContext reaches the model; hookSpecificOutput, systemMessage, continue and plain stdout are ignored, as by Copilot", async () => {
    camel.configure("session_start", [
      { name: "ctx", command: printing({ additionalContext: "branch main", hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ignored" }, systemMessage: "hi" }) },
    ]);
    const r = await camel.result("session_start", { source: "startup" });
    expect(r.messages).toEqual([{ role: "system", content: "branch main", hook: "ctx" }]);
    expect(r.hooks[0].json).toMatchObject({ hookSpecificOutput: { additionalContext: "ignored" }, systemMessage: "hi" });
    expect((await camel.fire("session_start", "claude", { session_id: "s", transcript_path: "", cwd: sb.current.dir, hook_event_name: "SessionStart", source: "startup" })).answer).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "branch main" },
    });
    camel.configure("post_tool_use", [{ name: "stop", command: `${printing({ continue: false, stopReason: "x" })}` }]);
    const post = await camel.result("post_tool_use", { tool_name: "Bash" });
    expect(post.continue).toBe(true);
    camel.configure("pre_tool_use", [{ name: "plain", command: "echo 'looks fine'" }]);
    const plain = await camel.result("pre_tool_use", { tool_name: "Bash" });
    expect(plain.messages).toEqual([]);
    expect(plain.hooks[0].warnings).toEqual(["stdout is not a JSON object: ignored (as by Copilot CLI)"]);
  });

  it("decision block: refuses a prompt, keeps agentStop going, replaces a tool's result after it ran (feedback)", async () => {
    camel.configure("user_prompt_submit", [{ name: "p", command: `cat > stdin.json; ${printing({ decision: "block", reason: "no secrets" })}` }]);
    const prompt = await camel.result("user_prompt_submit", { prompt: "my key is x" });
    expect(prompt).toMatchObject({ blocked: true, reason: "no secrets" });
    expect(camel.read("stdin.json")).toMatchObject({ prompt: "my key is x", sessionId: "s" });
    camel.configure("stop", [{ name: "tests", command: `cat > stdin.json; ${printing({ decision: "block", reason: "run the tests" })}` }]);
    expect(await camel.result("stop")).toMatchObject({ blocked: true, reason: "run the tests" });
    expect(camel.read("stdin.json")).toMatchObject({ stop_hook_active: false });
    expect((await camel.fire("stop", "claude", { session_id: "s", transcript_path: "", cwd: sb.current.dir, hook_event_name: "Stop", stop_hook_active: false })).answer).toEqual({
      decision: "block",
      reason: "run the tests",
    });
    camel.configure("post_tool_use", [{ name: "lint", command: printing({ decision: "block", reason: "lint failed", additionalContext: "see eslint" }) }]);
    const post = await camel.result("post_tool_use", { tool_name: "Edit" });
    expect(post.messages).toEqual([
      { role: "system", content: "see eslint", hook: "lint" },
      { role: "system", content: "lint failed", kind: "feedback", hook: "lint" },
    ]);
  });
});

describe("dialect: copilot-pascal (PascalCase entries)", () => {
  it("receives Claude's snake_case payload and tool names with Copilot's argument names", async () => {
    pascal.configure("pre_tool_use", [{ name: "dump", command: "cat > stdin.json" }]);
    await pascal.result("pre_tool_use", { tool_name: "Edit", tool_input: { file_path: "a.txt", old_string: "a", new_string: "b" } });
    expect(pascal.read("stdin.json")).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "s",
      tool_name: "Edit",
      tool_input: { path: "a.txt", old_str: "a", new_str: "b" },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("reads the flat answer and hookSpecificOutput.permissionDecision; hookSpecificOutput.additionalContext is ignored", async () => {
    pascal.configure("pre_tool_use", [{ name: "guard", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not here" } }) }]);
    expect((await pascal.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "ls"))).answer).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not here" },
    });
    pascal.configure("session_start", [{ name: "ctx", command: printing({ additionalContext: "flat", hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "nested" } }) }]);
    expect((await pascal.result("session_start", { source: "startup" })).messages).toEqual([{ role: "system", content: "flat", hook: "ctx" }]);
    // A camelCase hook does not read hookSpecificOutput at all.
    camel.configure("pre_tool_use", [{ name: "guard", command: printing({ hookSpecificOutput: { permissionDecision: "deny" } }) }]);
    expect((await camel.result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(false);
  });
});
