import { describe, expect, it } from "vitest";
import { formatClaude, renderClaude } from "../src/hosts/claude.js";
import { afterToolBlocks, asyncDelivery, hookResult, triggerResult } from "./helpers/results.js";

describe("formatClaude", () => {
  it("prints an empty object when nothing has anything to say (Claude Code proceeds as usual)", () => {
    expect(formatClaude(triggerResult("pre_tool_use", [hookResult("a")]))).toEqual({});
  });

  it("expresses a pre_tool_use block as permissionDecision deny with the reason", () => {
    const r = triggerResult("pre_tool_use", [hookResult("guard", { status: "blocked", exit_code: 2, decision: "block", reason: "no rm -rf" })], {
      blocked: true,
      blocked_by: "guard",
      reason: "no rm -rf",
    });
    expect(formatClaude(r)).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf" },
    });
  });

  it("passes ask and allow on, ask winning over allow, and the updated input", () => {
    const ask = triggerResult("pre_tool_use", [hookResult("a", { decision: "allow", reason: "safe" }), hookResult("b", { decision: "ask", reason: "touches prod" })], {
      updated_input: { command: "ls -la" },
    });
    expect(formatClaude(ask).hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "ask",
      permissionDecisionReason: "touches prod",
      updatedInput: { command: "ls -la" },
    });
    const allow = triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" })]);
    expect(formatClaude(allow).hookSpecificOutput).toEqual({ hookEventName: "PreToolUse", permissionDecision: "allow" });
  });

  it("uses decision/reason for a block on stop, and joins messages into systemMessage there", () => {
    const r = triggerResult(
      "stop",
      [hookResult("notes", { messages: [{ role: "system", content: "3 files changed" }] }), hookResult("todo", { status: "blocked", decision: "block", reason: "TODO.md is not empty" })],
      { blocked: true, blocked_by: "todo", reason: "TODO.md is not empty" },
    );
    expect(formatClaude(r)).toEqual({ decision: "block", reason: "TODO.md is not empty", systemMessage: "3 files changed" });
  });

  it("on Stop, gives the model what an async hook of a model-context event delivers there (additionalContext: the turn goes on once); a sync hook's message stays the user's", () => {
    const delivered = asyncDelivery("analyze", { event: "post_tool_use", messages: [{ role: "system", content: "a.py: 1 finding" }] });
    const r = triggerResult("stop", [hookResult("notes", { messages: [{ role: "system", content: "3 files changed" }] })], {
      async_delivered: [delivered],
      messages: [
        { role: "system", content: "a.py: 1 finding", hook: "analyze", async: true },
        { role: "system", content: "seen by the user", kind: "notice", hook: "analyze", async: true },
        { role: "system", content: "3 files changed", hook: "notes" },
      ],
    });
    expect(formatClaude(r)).toEqual({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "a.py: 1 finding" }, systemMessage: "3 files changed\nseen by the user" });
    // An async hook of Stop itself (a notifier's chatter) stays the user's: it does not keep the agent going.
    const chatter = asyncDelivery("notify", { event: "stop", messages: [{ role: "system", content: "notified" }] });
    const fromStop = triggerResult("stop", [], { async_delivered: [chatter], messages: [{ role: "system", content: "notified", hook: "notify", async: true }] });
    expect(formatClaude(fromStop)).toEqual({ systemMessage: "notified" });
    // Where context reaches the model anyway, an async message is context like any other.
    const pre = triggerResult("pre_tool_use", [], { async_delivered: [delivered], messages: [{ role: "system", content: "a.py: 1 finding", hook: "analyze", async: true }] });
    expect(formatClaude(pre)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "a.py: 1 finding" } });
    // StopFailure takes no additionalContext: there it is the user's.
    expect(formatClaude({ ...r, event: "stop_failure" }).hookSpecificOutput).toBeUndefined();
  });

  it("gives messages to the model as additionalContext where Claude Code supports it", () => {
    const r = triggerResult("user_prompt_submit", [
      hookResult("ctx", { messages: [{ role: "system", content: "Use pnpm." }] }),
      hookResult("more", {
        messages: [
          { role: "system", content: "Branch: main" },
          { role: "system", content: "secret", hide: true },
        ],
      }),
    ]);
    expect(formatClaude(r)).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "Use pnpm.\n\nBranch: main" } });
  });

  it("reports continue: false with its stop reason, and failures (fail open) in systemMessage", () => {
    const r = triggerResult(
      "post_tool_use",
      [
        hookResult("budget", { continue: false, stop_reason: "budget spent" }),
        hookResult("broken", { status: "failed", exit_code: 1, stderr: "Traceback...\nKeyError: 'x'\n" }),
        hookResult("missing", { status: "spawn_error", exit_code: null, error: "command not found: lintx" }),
      ],
      { continue: false, stop_reason: "budget spent", stopped_by: "budget" },
    );
    const out = formatClaude(r);
    expect(out.continue).toBe(false);
    expect(out.stopReason).toBe("budget spent");
    expect(out.systemMessage).toBe("hook broken failed: exit 1 (KeyError: 'x')\nhook missing spawn error: command not found: lintx");
    expect(out.decision).toBeUndefined();
  });

  it("answers a native hook's block after the tool ran as Claude's post-tool block (feedback), alike whether it exited 2 or printed a JSON block", async () => {
    for (const event of ["post_tool_use", "post_tool_use_failure"]) {
      const { exit2, json } = await afterToolBlocks("src/a.ts: 2 errors", event);
      const answer = { stdout: `${JSON.stringify({ decision: "block", reason: "src/a.ts: 2 errors" })}\n`, stderr: "", exitCode: 0 };
      expect(renderClaude(exit2), event).toEqual(answer);
      expect(renderClaude(json), event).toEqual(answer);
    }
  });

  it("answers a permission_request with hookSpecificOutput.decision", () => {
    const deny = triggerResult("permission_request", [hookResult("p", { status: "blocked", decision: "block", reason: "not on Fridays" })], {
      blocked: true,
      blocked_by: "p",
      reason: "not on Fridays",
    });
    expect(formatClaude(deny).hookSpecificOutput).toEqual({ hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "not on Fridays" } });
    const allow = triggerResult("permission_request", [hookResult("p", { decision: "allow" })]);
    expect(formatClaude(allow).hookSpecificOutput).toEqual({ hookEventName: "PermissionRequest", decision: { behavior: "allow" } });
  });
});
