import { describe, expect, it } from "vitest";
import { claudePreToolUse, dialectHarness, printing } from "./helpers/dialectSandbox.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md: hooks written for Gemini CLI (`dialect: gemini`) receive Gemini's payload and
// are read by Gemini's rules, whichever host fires the event.
const sb = useSandbox({ survivors: true });
const g = dialectHarness(() => sb.current, "gemini");

/** A BeforeTool guard as Gemini's docs write one: it reads tool_name / tool_input.command and denies in JSON. */
const GUARD = `input=$(cat); printf '%s' "$input" > stdin.json
tool=$(printf '%s' "$input" | jq -r .tool_name)
cmd=$(printf '%s' "$input" | jq -r .tool_input.command)
case "$tool:$cmd" in run_shell_command:*"rm -rf"*) printf '%s\\n' '{"decision":"deny","reason":"no rm -rf"}';; esac`;

const geminiBeforeTool = (dir: string, command: string) => ({
  session_id: "g1",
  transcript_path: "/tmp/g.json",
  cwd: dir,
  hook_event_name: "BeforeTool",
  timestamp: "2026-11-24T12:00:00.000Z",
  tool_name: "run_shell_command",
  tool_input: { command },
});

describe("dialect: gemini", () => {
  it("a Gemini guard's deny DENIES under Claude Code with its reason, and under Gemini CLI itself", async () => {
    g.configure("pre_tool_use", [{ name: "guard", command: GUARD }]);
    const claude = await g.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "rm -rf build"));
    expect(claude.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } });
    // It received Gemini's payload: Gemini's event and tool names, an ISO timestamp.
    const stdin = g.read("stdin.json");
    expect(stdin).toMatchObject({ hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "rm -rf build" }, session_id: "s1", transcript_path: "/tmp/t.jsonl" });
    expect(Number.isNaN(Date.parse(stdin.timestamp as string))).toBe(false);
    expect((await g.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "ls"))).answer).toEqual({});
    const own = await g.fire("pre_tool_use", "gemini", geminiBeforeTool(sb.current.dir, "rm -rf build"));
    expect(own.answer).toEqual({ decision: "deny", reason: "no rm -rf" });
    expect(g.read("stdin.json")).toMatchObject({ timestamp: "2026-11-24T12:00:00.000Z", session_id: "g1" });
  });

  it("exit codes: ≥ 2 with plain text blocks (126/127 too), 1 is a warning, 0 plain text is a notice for the user, not model context", async () => {
    for (const [command, reason] of [
      ["echo 'no writes here' >&2; exit 2", "no writes here"],
      ["echo 'policy says no'; exit 3", "policy says no"],
      ["./missing-script.sh", expect.stringContaining("missing-script.sh")],
    ] as const) {
      g.configure("pre_tool_use", [{ name: "guard", command }]);
      const r = await g.result("pre_tool_use", { tool_name: "Bash" });
      expect(r.blocked, command).toBe(true);
      expect(r.reason).toEqual(reason);
    }
    g.configure("pre_tool_use", [{ name: "warn", command: "echo 'slow disk' >&2; exit 1" }]);
    const warn = await g.result("pre_tool_use", { tool_name: "Bash" });
    expect(warn.blocked).toBe(false);
    expect(warn.messages).toEqual([{ role: "system", content: "Warning: slow disk", kind: "notice", hook: "warn" }]);
    g.configure("session_start", [{ name: "hello", command: "echo 'Branch: main'" }]);
    const start = await g.result("session_start", { source: "startup" });
    expect(start.messages).toEqual([{ role: "system", content: "Branch: main", kind: "notice", hook: "hello" }]);
    expect((await g.fire("session_start", "claude", { session_id: "s", transcript_path: "", cwd: sb.current.dir, hook_event_name: "SessionStart", source: "startup" })).answer).toEqual({
      systemMessage: "Branch: main",
    });
    // JSON is read on every exit code: a JSON allow with exit 2 does not block.
    g.configure("pre_tool_use", [{ name: "guard", command: `${printing({ decision: "allow" })}; exit 2` }]);
    expect((await g.result("pre_tool_use", { tool_name: "Bash" })).blocked).toBe(false);
    // A non-zero exit without output is a failure; Gemini goes on.
    g.configure("pre_tool_use", [{ name: "guard", command: "exit 2" }]);
    const silent = await g.result("pre_tool_use", { tool_name: "Bash" });
    expect(silent.blocked).toBe(false);
    expect(silent.hooks[0].status).toBe("failed");
    expect((await sb.current.load()).hooks[0].timeoutMs).toBe(60_000);
  });

  it("hookSpecificOutput.additionalContext reaches the model on AfterTool; a top-level additionalContext is ignored, as by Gemini", async () => {
    g.configure("post_tool_use", [
      { name: "ctx", command: `cat > stdin.json; ${printing({ additionalContext: "top level", hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "3 tests failed" } })}` },
    ]);
    const r = await g.result("post_tool_use", { tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: "FAIL" });
    expect(r.messages).toEqual([{ role: "system", content: "3 tests failed", hook: "ctx" }]);
    expect(g.read("stdin.json")).toMatchObject({ hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_response: { llmContent: "FAIL", returnDisplay: "FAIL" } });
    const claude = await g.fire("post_tool_use", "claude", {
      session_id: "s",
      transcript_path: "",
      cwd: sb.current.dir,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: "FAIL",
    });
    expect(claude.answer).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "3 tests failed" } });
    // A block after the tool ran replaces its result: feedback for the model.
    g.configure("post_tool_use", [{ name: "lint", command: printing({ decision: "block", reason: "lint failed" }) }]);
    expect((await g.result("post_tool_use", { tool_name: "Edit" })).messages).toEqual([{ role: "system", content: "lint failed", kind: "feedback", hook: "lint" }]);
    // Where Gemini gives no additionalContext to the model (BeforeTool), none is given.
    g.configure("pre_tool_use", [{ name: "ctx", command: printing({ hookSpecificOutput: { hookEventName: "BeforeTool", additionalContext: "x" } }) }]);
    expect((await g.result("pre_tool_use", { tool_name: "Bash" })).messages).toEqual([]);
  });

  it("hookSpecificOutput.tool_input replaces the tool input; ask asks; continue:false stops; systemMessage is for the user unless suppressOutput", async () => {
    g.configure("pre_tool_use", [{ name: "rewrite", command: printing({ hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "npm test -- --run" } } }) }]);
    expect((await g.result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "npm test" } })).updated_input).toEqual({ command: "npm test -- --run" });
    expect((await g.fire("pre_tool_use", "claude", claudePreToolUse(sb.current.dir, "npm test"))).answer).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "npm test -- --run" } },
    });
    g.configure("pre_tool_use", [{ name: "ask", command: printing({ decision: "ask", reason: "pushes to main" }) }]);
    expect((await g.result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ decision: "ask", reason: "pushes to main" });
    g.configure("post_tool_use", [{ name: "halt", command: printing({ continue: false, reason: "budget spent", systemMessage: "stopping" }) }]);
    const halt = await g.result("post_tool_use", { tool_name: "Bash" });
    expect(halt).toMatchObject({ continue: false, stop_reason: "budget spent" });
    expect(halt.messages).toEqual([{ role: "system", content: "stopping", kind: "notice", hook: "halt" }]);
    g.configure("session_start", [{ name: "quiet", command: printing({ systemMessage: "hidden", suppressOutput: true }) }]);
    expect((await g.result("session_start", { source: "startup" })).messages).toEqual([]);
  });

  it("AfterAgent: a block keeps the turn going; the hook gets prompt_response; an unknown hookSpecificOutput field is kept with a warning", async () => {
    g.configure("stop", [{ name: "more", command: `cat > stdin.json; ${printing({ decision: "block", reason: "add tests", hookSpecificOutput: { clearContext: true } })}` }]);
    const r = await g.result("stop", { last_assistant_message: "done" });
    expect(r).toMatchObject({ blocked: true, reason: "add tests" });
    expect(r.hooks[0].warnings).toEqual(["hookSpecificOutput.clearContext: not carried by hookrun (kept in the result's json)"]);
    expect(g.read("stdin.json")).toMatchObject({ hook_event_name: "AfterAgent", prompt_response: "done", stop_hook_active: false });
    // SessionStart cannot be blocked in Gemini: a deny there is ignored with a warning.
    g.configure("session_start", [{ name: "no", command: "echo nope >&2; exit 2" }]);
    const start = await g.result("session_start", { source: "startup" });
    expect(start.blocked).toBe(false);
    expect(start.hooks[0].warnings[0]).toMatch(/^block ignored: Gemini CLI does not block SessionStart/);
  });

  it("an event's gemini hooks run at once: a block does not skip the hook beside it", async () => {
    g.configure("pre_tool_use", [
      { name: "guard", command: "echo no >&2; exit 2" },
      { name: "audit", command: "echo ran > audit.txt" },
    ]);
    const r = await g.result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(true);
    expect(r.hooks.map((h) => h.status)).toEqual(["blocked", "ok"]);
    // A `sequential: true` event, as `hooks import gemini` writes it (priorities in file order): one at a time, a block ends the run.
    g.configure("pre_tool_use", [
      { name: "guard", command: "echo no >&2; exit 2", extra: "      priority: 1\n" },
      { name: "audit", command: "echo ran > audit.txt", extra: "      priority: 0\n" },
    ]);
    expect((await g.result("pre_tool_use", { tool_name: "Bash" })).hooks.map((h) => h.status)).toEqual(["blocked", "skipped"]);
  });
});
