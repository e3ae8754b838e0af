import { describe, expect, it } from "vitest";
import { claudePreToolUse, dialectHarness, printing } from "./helpers/dialectSandbox.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md: hooks written for Qwen Code (`dialect: qwen`) receive Qwen's payload and are
// read by Qwen's rules (Claude Code's, with Qwen's differences), whichever host fires the event.
const sb = useSandbox({ survivors: true });
const q = dialectHarness(() => sb.current, "qwen");
const claudeDialect = dialectHarness(() => sb.current, "claude");

/** A PreToolUse guard as written for Qwen: its tool id, a top-level `decision: "deny"` (which Claude Code's schema refuses). */
const GUARD = `input=$(cat); printf '%s' "$input" > stdin.json
tool=$(printf '%s' "$input" | jq -r .tool_name)
cmd=$(printf '%s' "$input" | jq -r .tool_input.command)
case "$tool:$cmd" in run_shell_command:*"rm -rf"*) printf '%s\\n' '{"decision":"deny","reason":"no rm -rf"}';; esac`;

const qwenPreToolUse = (dir: string, command: string) => ({
  session_id: "q1",
  transcript_path: "",
  cwd: dir,
  permission_mode: "yolo",
  hook_event_name: "PreToolUse",
  timestamp: "2026-11-24T12:00:00.000Z",
  tool_name: "run_shell_command",
  tool_input: { command },
  tool_call_id: "call_1",
});

describe("dialect: qwen", () => {
  it("a Qwen guard's deny DENIES under Claude Code with its reason, and under Qwen Code itself; it receives Qwen's payload", async () => {
    q.configure("pre_tool_use", [{ name: "guard", command: GUARD }]);
    const claude = await q.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "rm -rf build"));
    expect(claude.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } });
    const stdin = q.read("stdin.json");
    expect(stdin).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "run_shell_command", tool_call_id: "toolu_1", tool_use_id: "toolu_1", permission_mode: "default" });
    expect(Number.isNaN(Date.parse(stdin.timestamp as string))).toBe(false);
    const own = await q.fire("pre_tool_use", "qwen", qwenPreToolUse(sb.current.dir, "rm -rf build"));
    expect(own.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } });
    expect(q.read("stdin.json")).toMatchObject({ session_id: "q1", timestamp: "2026-11-24T12:00:00.000Z", tool_call_id: "call_1", permission_mode: "yolo" });
    // The same guard in the claude dialect is refused by Claude's schema and fails open.
    claudeDialect.configure("pre_tool_use", [{ name: "guard", command: GUARD }]);
    expect((await claudeDialect.result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "rm -rf x" } })).blocked).toBe(false);
  });

  it("exit 2 blocks with stderr alone (its stdout is not read); JSON is read on exit 0; JSON that is not JSON is ignored", async () => {
    q.configure("pre_tool_use", [{ name: "guard", command: `${printing({ decision: "block", reason: "from stdout" })}; echo 'from stderr' >&2; exit 2` }]);
    expect(await q.result("pre_tool_use", { tool_name: "Bash" })).toMatchObject({ blocked: true, reason: "from stderr" });
    q.configure("session_start", [{ name: "broken", command: "echo '{not json'" }]);
    const broken = await q.result("session_start", { source: "startup" });
    expect(broken.hooks[0]).toMatchObject({ status: "ok", messages: [] });
    expect(broken.hooks[0].warnings).toEqual(["stdout starts like a JSON object but is not valid JSON: ignored (as by Qwen Code)"]);
    expect((await sb.current.load()).hooks[0].timeoutMs).toBe(60_000);
  });

  it("PreToolUse allow and updatedInput are ignored, as by Qwen; ask is kept", async () => {
    q.configure("pre_tool_use", [{ name: "rewrite", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls" } } }) }]);
    const r = await q.result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "rm x" } });
    expect(r.hooks[0]).toMatchObject({ status: "ok", decision: null });
    expect(r.hooks[0].updated_input).toBeUndefined();
    expect(r.hooks[0].warnings).toEqual(["updatedInput ignored: Qwen Code does not rewrite a tool call's input"]);
    expect((await q.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "rm x"))).answer).toEqual({});
    q.configure("pre_tool_use", [{ name: "ask", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" } }) }]);
    expect((await q.result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ decision: "ask", reason: "sure?" });
  });

  it("PostToolUse: a block's reason never reaches the model, additionalContext does; Stop: only a block continues", async () => {
    q.configure("post_tool_use", [
      { name: "lint", command: printing({ decision: "block", reason: "lint failed", hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "see eslint" } }) },
    ]);
    const post = await q.result("post_tool_use", { tool_name: "Edit" });
    expect(post.messages).toEqual([{ role: "system", content: "see eslint", hook: "lint" }]);
    expect(post.hooks[0].warnings[0]).toMatch(/^block ignored: Qwen Code does not give a PostToolUse block's reason to the model/);
    q.configure("post_tool_use", [{ name: "lint", command: "echo 'lint failed' >&2; exit 2" }]);
    expect((await q.result("post_tool_use", { tool_name: "Edit" })).messages).toEqual([]);
    q.configure("stop", [{ name: "more", command: printing({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "one more thing" } }) }]);
    const stop = await q.result("stop");
    expect(stop.blocked).toBe(false);
    expect(stop.messages).toEqual([]);
    q.configure("stop", [{ name: "more", command: printing({ decision: "block", reason: "run the tests" }) }]);
    expect(await q.result("stop")).toMatchObject({ blocked: true, reason: "run the tests" });
  });

  it("plain stdout: model context on SessionStart / UserPromptSubmit, a message for the user elsewhere", async () => {
    q.configure("session_start", [{ name: "branch", command: "echo 'Branch: main'" }]);
    expect((await q.result("session_start", { source: "startup" })).messages).toEqual([{ role: "system", content: "Branch: main", hook: "branch" }]);
    q.configure("post_tool_use", [{ name: "fmt", command: "echo 'formatted'" }]);
    expect((await q.result("post_tool_use", { tool_name: "Edit" })).messages).toEqual([{ role: "system", content: "formatted", kind: "notice", hook: "fmt" }]);
  });
});
