import type { TriggerResult } from "../runner/types.js";
import { GEMINI_NAME } from "../events/geminiNames.js";
import { blockReason, resultTexts } from "./resultText.js";
import type { HostAnswer } from "./types.js";

/**
 * A run's result as Gemini CLI's answer to a command hook (docs/hosts/gemini.md says what each
 * field does there); the adapter is src/hosts/gemini.ts.
 */

/** What Gemini reads from a command hook (the subset hookrun writes). */
export interface GeminiHookResponse {
  decision?: "deny" | "block";
  reason?: string;
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext?: string; tool_input?: Record<string, unknown> };
}

/** Where Gemini hands `hookSpecificOutput.additionalContext` to the model (`<hook_context>`). */
const CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit", "post_tool_use"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const ASK_DEGRADED = "a hook asked for the user's confirmation, which Gemini CLI cannot be relied on to ask (headless `gemini -p` waits forever), so hookrun denied the call";

/**
 * The run as one Gemini hook answer (JSON on stdout, exit 0: Gemini reads JSON on every code).
 * - a block: `decision: "deny"` + reason (BeforeTool: "Tool execution blocked: reason" is the
 *   tool's result; BeforeAgent: the prompt is refused; AfterAgent: `block` re-prompts the model);
 * - `ask` on pre_tool_use: a deny whose reason says a confirmation was asked for ({@link ASK_DEGRADED});
 * - `updated_input` on pre_tool_use: `hookSpecificOutput.tool_input`, the whole input (Gemini
 *   replaces the arguments with it); a value that is not an object is a systemMessage warning;
 * - context: `hookSpecificOutput.additionalContext` on SessionStart, BeforeAgent and AfterTool
 *   (the model reads it in `<hook_context>`), elsewhere a systemMessage (the user only);
 * - post-tool feedback (a hook's block after the tool ran, by exit 2 or JSON): AfterTool additionalContext, next to
 *   the tool's result, which stays;
 * - follow-ups on stop: an AfterAgent block with them as the reason (the model goes on with it);
 * - `continue: false` + stopReason; notices and failures (hookrun fails open): systemMessage.
 */
export function formatGemini(result: TriggerResult): GeminiHookResponse {
  const out: GeminiHookResponse = {};
  const event = result.event;
  const { context, feedback, followups, notices, failures } = resultTexts(result);
  const system = [...notices, ...failures];
  const modelContext: string[] = [];
  if (CONTEXT_EVENTS.has(event)) modelContext.push(...context);
  else system.unshift(...context);
  if (event === "post_tool_use") modelContext.push(...feedback);
  else if (feedback.length) system.push(...feedback);

  const blocked = blockReason(result);
  if (result.blocked) {
    if (event === "pre_compact") system.push(`hookrun: a hook blocked compaction (${blocked}), but Gemini CLI cannot stop a compaction; it goes on`);
    else {
      out.decision = event === "stop" ? "block" : "deny";
      out.reason = blocked;
    }
  } else if (event === "pre_tool_use" && result.hooks.some((r) => r.decision === "ask")) {
    const why = result.hooks
      .filter((r) => r.decision === "ask")
      .map((r) => r.reason)
      .filter(Boolean)
      .join("; ");
    out.decision = "deny";
    out.reason = `${why ? `${why} (` : ""}${ASK_DEGRADED}${why ? ")" : ""}`;
  } else if (event === "stop" && followups.length) {
    out.decision = "block";
    out.reason = followups.join("\n\n");
  }
  if (event !== "stop" && followups.length) system.push(...followups);

  const specific: NonNullable<GeminiHookResponse["hookSpecificOutput"]> = { hookEventName: GEMINI_NAME.get(event) ?? event };
  if (event === "pre_tool_use" && !out.decision && result.updated_input !== null && result.updated_input !== undefined) {
    if (isObject(result.updated_input)) specific.tool_input = result.updated_input;
    else system.push(`hookrun: a hook rewrote the tool input to a value that is not an object, which Gemini CLI cannot take; the call runs with its input unchanged`);
  }
  if (modelContext.length) specific.additionalContext = modelContext.join("\n\n");
  if (!result.continue) {
    out.continue = false;
    out.stopReason = result.stop_reason ?? `stopped by ${result.stopped_by ?? "a hook"}`;
  }
  if (system.length) out.systemMessage = system.join("\n");
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return out;
}

export function renderGemini(result: TriggerResult): HostAnswer {
  return { stdout: `${JSON.stringify(formatGemini(result))}\n`, stderr: "", exitCode: 0 };
}

/** Hooks did not run (untrusted or invalid config): the user is told; on SessionStart / BeforeAgent the model too. Fail open. */
export function geminiNotRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: GeminiHookResponse = { systemMessage: `hookrun: the project's hooks did not run: ${forUser}` };
  if (event === "session_start" || event === "user_prompt_submit")
    out.hookSpecificOutput = { hookEventName: GEMINI_NAME.get(event) ?? event, additionalContext: `hookrun: the project's hooks are not running in this session: ${forModel}` };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}
