import { pascalEventName } from "../events/catalog.js";
import type { HookResult, TriggerResult } from "../runner/types.js";

/** One Claude Code hook response (the JSON a command hook prints on exit 0). */
export interface ClaudeHookResponse {
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
  decision?: "block";
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: string;
    permissionDecision?: "allow" | "deny" | "ask";
    permissionDecisionReason?: string;
    decision?: { behavior: "allow" | "deny"; message?: string; updatedInput?: unknown };
    additionalContext?: string;
    updatedInput?: unknown;
  };
}

// Events whose hookSpecificOutput.additionalContext Claude Code adds to the model's context.
const CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "post_tool_use_failure"]);
// Events where Claude Code reads a top-level `decision: "block"` (for post-tool events: feedback to the model).
const FEEDBACK_EVENTS = new Set(["post_tool_use", "post_tool_use_failure"]);
const FAILED = new Set(["failed", "timed_out", "spawn_error", "invalid_output"]);

const tail = (text: string, lines = 3) => text.trimEnd().split("\n").slice(-lines).join("\n").trim();

/** Why a hook failed, in one line for the user. */
function failureLine(r: HookResult): string {
  const why = r.error ?? (r.exit_code !== null ? `exit ${r.exit_code}` : r.status.replace("_", " "));
  const err = tail(r.stderr, 1);
  return `hook ${r.name} ${r.status.replace("_", " ")}: ${why}${err && !why.includes(err) ? ` (${err})` : ""}`;
}

/**
 * A whole hookrun run as the one response Claude Code reads from a command hook, so one entry in
 * Claude's settings can dispatch to every hook of hooks.yaml. Messages become additionalContext
 * where Claude gives it to the model, else systemMessage (shown to the user); failures (hookrun
 * fails open) are reported in systemMessage; a block is expressed the way each event expects it.
 */
export function formatClaude(result: TriggerResult): ClaudeHookResponse {
  const out: ClaudeHookResponse = {};
  const event = result.event;
  const specific: NonNullable<ClaudeHookResponse["hookSpecificOutput"]> = { hookEventName: pascalEventName(event) };
  const texts = result.messages
    .filter((m) => !m.hide)
    .map((m) => m.content.trim())
    .filter(Boolean);
  const finished = [...result.async_delivered, ...result.hooks];
  // On post-tool events exit 2 is feedback for the model (below), not a failure to show the user.
  const feedbackExit = (r: HookResult) => FEEDBACK_EVENTS.has(event) && r.exit_code === 2;
  const system = finished.filter((r) => FAILED.has(r.status) && !feedbackExit(r)).map(failureLine);

  if (CONTEXT_EVENTS.has(event)) {
    if (texts.length) specific.additionalContext = texts.join("\n\n");
  } else system.unshift(...texts);

  if (event === "pre_tool_use") {
    const asks = result.hooks.filter((r) => r.decision === "ask");
    const allows = result.hooks.filter((r) => r.decision === "allow");
    if (result.blocked) {
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = result.reason ?? `blocked by ${result.blocked_by}`;
    } else if (asks.length) {
      specific.permissionDecision = "ask";
      const why = asks
        .map((r) => r.reason)
        .filter(Boolean)
        .join("; ");
      if (why) specific.permissionDecisionReason = why;
    } else if (allows.length) {
      specific.permissionDecision = "allow";
      const why = allows
        .map((r) => r.reason)
        .filter(Boolean)
        .join("; ");
      if (why) specific.permissionDecisionReason = why;
    }
    if (result.updated_input !== null && result.updated_input !== undefined) specific.updatedInput = result.updated_input;
  } else if (event === "permission_request") {
    if (result.blocked) specific.decision = { behavior: "deny", message: result.reason ?? `blocked by ${result.blocked_by}` };
    else if (result.hooks.some((r) => r.decision === "allow")) {
      specific.decision = { behavior: "allow" };
      if (result.updated_input !== null && result.updated_input !== undefined) specific.decision.updatedInput = result.updated_input;
    }
  } else if (result.blocked) {
    out.decision = "block";
    out.reason = result.reason ?? `blocked by ${result.blocked_by}`;
  } else if (FEEDBACK_EVENTS.has(event)) {
    // Claude Code feeds a post-tool "block" (JSON decision, or exit 2 + stderr) back to the model.
    const feedback = result.hooks.map((r) => (r.decision === "block" ? (r.reason ?? "") : feedbackExit(r) ? tail(r.stderr, 20) : null)).filter((t): t is string => t !== null);
    if (feedback.length) {
      out.decision = "block";
      out.reason = feedback.filter(Boolean).join("\n") || "blocked by a hook";
    }
  }

  if (!result.continue) {
    out.continue = false;
    if (result.stop_reason) out.stopReason = result.stop_reason;
  }
  if (system.length) out.systemMessage = system.join("\n");
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return out;
}

// Where Claude Code hands hookSpecificOutput.additionalContext to the model before it answers:
// there the model learns that the hooks are off, for a user who sees only its answer (`claude -p`).
const NOT_RUN_CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit"]);

/**
 * The response of a dispatch whose hooks did not run because project or local config is not
 * trusted (exit 77 with any other output). Claude Code treats a non-zero exit as a non-blocking
 * error that a `claude -p` user never sees, so every guard would be off in silence: instead the
 * dispatch exits 0 with a `systemMessage` (shown to the user) saying the hooks did not run, why,
 * and the command that reviews them; on SessionStart and UserPromptSubmit also
 * `additionalContext`, so the model can tell the user, told not to trust the config itself (the
 * review is the user's). Fail open: the agent goes on without the hooks.
 */
export function formatClaudeNotTrusted(event: string, files: readonly string[], trustCommand: string): ClaudeHookResponse {
  const what = files.length === 1 ? `${files[0]} is` : `${files.join(", ")} are`;
  const why = `${what} not trusted (new or changed since it was last reviewed)`;
  const out: ClaudeHookResponse = {
    systemMessage: `hookrun: the project's hooks did not run: ${why}. None of its hooks (guards included) run until you review and trust it: run \`${trustCommand}\` in a terminal.`,
  };
  if (NOT_RUN_CONTEXT_EVENTS.has(event)) {
    out.hookSpecificOutput = {
      hookEventName: pascalEventName(event),
      additionalContext: `hookrun: the project's hooks are not running in this session: ${why}, so none of its hooks, guards included, will run. Tell the user; they must review and trust it themselves by running \`${trustCommand}\` in a terminal. Do not run \`hooks trust\` yourself: the review is theirs.`,
    };
  }
  return out;
}
