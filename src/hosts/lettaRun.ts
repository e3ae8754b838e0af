import { LETTA_EVENTS as EVENTS, detectLetta } from "./detect.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { TriggerResult } from "../runner/types.js";
import { baseRead, stringField } from "./payload.js";
import { failureLine, texts } from "./resultText.js";
import type { HostAnswer, HostRuntime } from "./types.js";

/**
 * Letta Code (`@letta-ai/letta-code`; docs/hosts/letta.md): Claude Code's settings shape (matcher
 * groups of `{type: "command", command, timeout}` under `hooks` in `.letta/settings.json`,
 * `.letta/settings.local.json`, `~/.letta/settings.json`) and tool names, but its own payloads
 * (`event_type`, `working_directory`) and a reading of answers built on exit codes: exit 2 blocks
 * (or keeps a Stop going) with stderr as the reason; exit 0's stdout is read only as PreToolUse's
 * `hookSpecificOutput.updatedInput`, as plain context on SessionStart and UserPromptSubmit, and as
 * `additionalContext` (top level or in `hookSpecificOutput`) on the events it runs in parallel
 * (PostToolUse, PostToolUseFailure, Notification, PreCompact, SessionEnd). Timeouts are in
 * milliseconds (default 60000). Read from Letta Code's source (src/hooks/).
 */

/** Where Letta takes exit 0's plain stdout as context for the model. */
const PLAIN_CONTEXT = new Set(["session_start", "user_prompt_submit"]);
/** Where Letta reads exit 2 as a block (the others run in parallel and only report it). */
const BLOCKS = new Set(["pre_tool_use", "user_prompt_submit", "stop", "subagent_stop"]);
/** Where a follow-up keeps the turn going: an exit 2 there is fed back to the agent. */
const CONTINUES = new Set(["stop", "subagent_stop"]);

const answer = (stdout: string, stderr: string, exitCode: number): HostAnswer => ({ stdout: stdout ? `${stdout}\n` : "", stderr: stderr ? `${stderr}\n` : "", exitCode });

/**
 * The run as Letta reads a hook: a block (and a Stop follow-up) is exit 2 with the reason on
 * stderr; a rewrite is `hookSpecificOutput.updatedInput`; context, notices and failures are plain
 * stdout on SessionStart / UserPromptSubmit and `additionalContext` on the parallel events. On
 * PreToolUse Letta reads nothing else: context, notices and failures there are lost (said in
 * docs/hosts/letta.md); `ask`, `defer` and a stop have no counterpart.
 */
export function renderLetta(result: TriggerResult): HostAnswer {
  const event = result.event;
  const shown = result.messages.filter((m) => !m.hide);
  const followups = texts(shown.filter((m) => m.kind === "followup"));
  const lines = [
    ...texts(shown.filter((m) => m.kind !== "followup")),
    ...[...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map((r) => `hookrun: ${failureLine(r)}`),
  ];
  if (result.blocked && BLOCKS.has(event)) return answer("", result.reason ?? `blocked by ${result.blocked_by}`, 2);
  if (CONTINUES.has(event) && followups.length) return answer("", followups.join("\n\n"), 2);
  if (event === "pre_tool_use") {
    if (result.updated_input !== null && result.updated_input !== undefined)
      return answer(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: result.updated_input } }), "", 0);
    return answer("", "", 0);
  }
  if (PLAIN_CONTEXT.has(event)) return answer(lines.join("\n\n"), "", 0);
  if (!BLOCKS.has(event) && lines.length) return answer(JSON.stringify({ additionalContext: lines.join("\n\n") }), "", 0);
  return answer("", "", 0);
}

function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  if (PLAIN_CONTEXT.has(event)) return answer(`hookrun: the project's hooks are not running in this session: ${forModel}`, "", 0);
  // Exit 1 is a non-blocking error in Letta: the call goes on and "Hook error: …" is reported.
  return answer("", `hookrun: the project's hooks did not run: ${forUser}`, 1);
}

export const lettaRun: HostRuntime = {
  name: "letta",
  title: "Letta Code",
  events: EVENTS,
  tools: {},
  timeout: { unit: "ms", default: 60_000 },
  detect: detectLetta,
  read: (payload) => {
    const ctx = baseRead(lettaRun, payload, {
      renames: { working_directory: "cwd", tool_call_id: "tool_use_id", assistant_message: "last_assistant_message", tool_result: "tool_response" },
      hostFields: ["event_type"],
      event: stringField(payload, "event_type"),
    });
    return ctx;
  },
  render: renderLetta,
  notRun,
  degrade: {
    ask: "nothing: Letta's PreToolUse reads only exit 2 and a rewrite; its own permission rules decide",
    defer: "nothing: Letta's own permission rules decide",
    updated_input: "`hookSpecificOutput.updatedInput` on PreToolUse",
    context: "plain stdout on SessionStart / UserPromptSubmit; `additionalContext` on PostToolUse, PostToolUseFailure, Notification, PreCompact, SessionEnd; lost on PreToolUse",
    feedback: "`additionalContext` on PostToolUse",
    followup: "Stop / SubagentStop exit 2 with the text on stderr (the turn goes on)",
    stop: "nothing: Letta has no way for a hook to end the agent",
    notice: "with the context (Letta shows the user no hook message of its own)",
  },
};

export { EVENTS };
