import { detectQwen } from "./detect.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { type ClaudeHookResponse, claudeRun, formatClaude } from "./claudeRun.js";
import type { TriggerResult } from "../runner/types.js";
import { baseRead } from "./payload.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { QWEN_EVENTS, QWEN_TOOLS } from "../events/qwenNames.js";

/**
 * The canonical event a Qwen payload is, or null for none: Qwen's UserPromptSubmit on a
 * tool-result send (empty `prompt`, no `submitted_prompt`) is not a prompt, so hookrun runs
 * nothing and answers nothing for it. A Stop-block send carries the block's reason as `prompt`
 * (no `submitted_prompt`) and does run user_prompt_submit: it cannot be told from a prompt of an
 * ACP client that declares no `submitted_prompt`, and a guard that runs once too often is the
 * safe side.
 */
export function routeQwen(payload: Payload, event: string): string | null {
  if (event === "user_prompt_submit" && payload.submitted_prompt === undefined && (typeof payload.prompt !== "string" || payload.prompt === "")) return null;
  return event;
}

const join = (...parts: (string | undefined)[]) => parts.filter((p) => p?.trim()).join("\n\n");

/**
 * formatClaude's response, changed where Qwen Code reads it differently (each change is a
 * degradation rule of docs/hosts/qwen.md):
 * - PreToolUse: `updatedInput` (Qwen ignores it, and shows no PreToolUse message headless) makes
 *   the call a denial whose reason gives the model the rewritten input to call again with;
 *   `defer` is no decision (Qwen's own approval applies);
 * - PostToolUse / PostToolUseFailure: feedback (`decision: "block"` + reason, which Qwen ignores)
 *   becomes `additionalContext`, which Qwen appends to the tool result;
 * - Stop / SubagentStop: follow-ups (Claude's Stop `additionalContext`, which Qwen drops) become
 *   the `decision: "block"` reason, so the turn goes on with them.
 */
export function formatQwen(result: TriggerResult): ClaudeHookResponse {
  const out = formatClaude(result);
  const specific = out.hookSpecificOutput;
  const event = result.event;
  if (event === "pre_tool_use" && specific) {
    if (specific.updatedInput !== undefined && specific.permissionDecision !== "deny") {
      // Qwen ignores updatedInput and shows no PreToolUse message in `qwen -p`: running the call
      // as written would fail open in silence, so it is refused, and the model is told how to go on.
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = join(
        specific.permissionDecisionReason,
        `hookrun: a hook allows this call only with its input rewritten to ${JSON.stringify(specific.updatedInput)}, and Qwen Code cannot rewrite a tool call's input, so the call was not run; to go ahead, make the call again with exactly that input`,
      );
    }
    delete specific.updatedInput;
    if (specific.permissionDecision === "defer") {
      delete specific.permissionDecision;
      delete specific.permissionDecisionReason;
    }
  } else if ((event === "post_tool_use" || event === "post_tool_use_failure") && out.decision === "block") {
    out.hookSpecificOutput = { ...(specific ?? { hookEventName: EVENT_BY_NAME.get(event)?.claude?.name ?? event }), additionalContext: join(specific?.additionalContext, out.reason) };
    delete out.decision;
    delete out.reason;
  } else if ((event === "stop" || event === "subagent_stop") && specific?.additionalContext) {
    out.decision = "block";
    out.reason = join(out.reason, specific.additionalContext);
    delete specific.additionalContext;
  }
  if (out.hookSpecificOutput && Object.keys(out.hookSpecificOutput).length <= 1) delete out.hookSpecificOutput;
  return out;
}

/** The run as Qwen Code's command-hook answer: always JSON on stdout, exit 0 (Qwen reads exit 2 by stderr alone and JSON says more). */
export function renderQwen(result: TriggerResult): HostAnswer {
  return { stdout: `${JSON.stringify(formatQwen(result))}\n`, stderr: "", exitCode: 0 };
}

export const qwenRun: HostRuntime = {
  name: "qwen",
  title: "Qwen Code",
  events: QWEN_EVENTS,
  tools: QWEN_TOOLS,
  timeout: { unit: "s", default: 60 },
  detect: detectQwen,
  route: routeQwen,
  read: (payload) => baseRead(qwenRun, payload),
  render: renderQwen,
  // Claude's answer (systemMessage; additionalContext on SessionStart / UserPromptSubmit), which Qwen reads alike.
  // Qwen Code reads the not-run answer as Claude Code does.
  notRun: claudeRun.notRun,
  degrade: {
    ask: "kept: Qwen Code asks the user in its TUI; headless (`qwen -p`) Qwen turns it into a denial whose reason the model gets as the tool result",
    defer: "no decision: Qwen Code's own approval applies",
    updated_input: "a denial (Qwen ignores `updatedInput` and shows no PreToolUse message in `qwen -p`) whose reason gives the model the rewritten input to call again with",
    feedback: "`additionalContext`, appended to the tool result (Qwen ignores a PostToolUse `decision: block`)",
    followup: "Stop's `decision: block` with the follow-up as reason (Qwen drops Stop's `additionalContext`)",
    context: "`additionalContext`; user_prompt_submit runs for the prompt and a Stop-block send (prompt: the reason), not for Qwen's tool-result sends",
    notice: "`systemMessage`: shown to the user in the TUI; `qwen -p` prints only Stop's (on stderr)",
  },
};

export { detectQwen };
