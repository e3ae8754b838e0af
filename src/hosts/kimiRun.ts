import { KIMI_EVENTS as EVENTS, detectKimi } from "./detect.js";
import type { TriggerResult } from "../runner/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { baseRead, field } from "./payload.js";
import { blockReason, hookrunLine, resultTexts } from "./resultText.js";
import type { HostAnswer, HostRuntime } from "./types.js";

/**
 * Kimi Code (MoonshotAI's `kimi` CLI, `@moonshot-ai/kimi-code`; docs/hosts/kimi.md) runs the
 * `[[hooks]]` tables of `~/.kimi-code/config.toml` (`$KIMI_CODE_HOME/config.toml`), nowhere else:
 * each table is `event`, `matcher?` (an unanchored regex over the tool name, the prompt, the
 * source…), `command` and `timeout?` (seconds, 1–600, default 30), and a table with any other key
 * makes the whole config fail to load. A command runs through the shell in the session's project
 * directory with a snake_case JSON payload on stdin: `{hook_event_name, session_id, cwd,
 * session_title (once the session has one), client_type: "kimi_code_cli", …}` plus the event's
 * fields (`tool_name`, `tool_input`, `tool_call_id`; `prompt`, as content parts;
 * `stop_hook_active`…), Claude's tool names (`Bash`, `Read`, `Edit`…). Only PreToolUse,
 * UserPromptSubmit and Stop read an answer: exit 2 (stderr the reason) or exit 0 with
 * `{"hookSpecificOutput":{"permissionDecision":"deny", "permissionDecisionReason"}}` blocks; on UserPromptSubmit the stdout of exit 0 is added to the
 * model's context; everything else (another exit code, a crash, a timeout) allows. Read from
 * `@moonshot-ai/kimi-code` 2.1.0's bundle and MoonshotAI/kimi-code's source
 * (packages/agent-core-v2/src/features/externalHooks), and run by test/kimi.e2e.test.ts.
 */

/** Kimi Code's tools that have a canonical name under another name (Bash, Read, Write, Edit, Glob, Grep, WebSearch are Claude's own). */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ FetchURL: "WebFetch" });

/** Where Kimi Code reads a hook's answer. */
const BLOCKING = new Set(["pre_tool_use", "user_prompt_submit", "stop"]);

const answer = (stdout: string, stderr: string, exitCode = 0): HostAnswer => ({ stdout: stdout ? `${stdout}\n` : "", stderr: stderr ? `${stderr}\n` : "", exitCode });

/**
 * A submitted prompt's text: Kimi Code sends the prompt as its content parts (`[{type: "text",
 * text}, {type: "image_url", …}]`), and hookrun's `prompt` is a string, so the text parts are
 * joined with a space, as Kimi Code joins them for its own matcher; a string passes unchanged.
 */
function promptText(prompt: unknown): string | undefined {
  if (!Array.isArray(prompt)) return undefined;
  return prompt
    .filter((p): p is { text: string } => isJsonObject(p) && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join(" ");
}

/**
 * The run as Kimi Code reads a hook: a block (and a Stop follow-up, which Kimi Code reads as "go on
 * with this") is exit 2 with the reason alone on stderr (Kimi Code takes the whole stderr as the
 * reason); a submitted prompt's context is the stdout of exit 0, which Kimi Code adds to the
 * model's context. Everything else has no channel: notices and failures go to stderr, which Kimi
 * Code ignores on exit 0.
 */
export function renderKimi(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const lines = [...t.notices, ...t.failures.map((f) => hookrunLine(f))];
  if (result.blocked && BLOCKING.has(result.event)) return answer("", blockReason(result), 2);
  if (result.event === "stop" && t.followups.length) return answer("", t.followups.join("\n\n"), 2);
  if (result.event === "user_prompt_submit") return answer(t.context.join("\n\n"), lines.join("\n"));
  return answer("", [...t.context, ...lines].join("\n"));
}

export const kimiRun: HostRuntime = {
  name: "kimi",
  title: "Kimi Code",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  detect: detectKimi,
  read: (payload) => {
    const ctx = baseRead(kimiRun, payload, {
      renames: { tool_call_id: "tool_use_id", tool_output: "tool_response" },
      hostFields: ["client_type", "session_title"],
    });
    const prompt = promptText(field(payload, "prompt"));
    if (prompt !== undefined) ctx.prompt = prompt;
    return ctx;
  },
  render: renderKimi,
  // Only a submitted prompt's stdout reaches anyone (the model); elsewhere stderr, which Kimi Code ignores on exit 0.
  notRun: (event, forUser, forModel) => answer(event === "user_prompt_submit" ? forModel : "", `hookrun: the project's hooks did not run: ${forUser}`),
  degrade: {
    ask: "nothing: Kimi Code reads only allow or block (its own permission check follows the hook)",
    defer: "nothing: Kimi Code's own permission check decides",
    updated_input: "nothing: Kimi Code cannot rewrite a call from a hook",
    context: "UserPromptSubmit's stdout, added to the model's context; elsewhere dropped (stderr)",
    feedback: "nothing: Kimi Code reads no answer after a tool ran",
    followup: "Stop: exit 2 with the text, which Kimi Code gives the model to go on with (once per turn)",
    stop: "nothing: Kimi Code has no way for a hook to end the agent",
    notice: "stderr, which Kimi Code ignores on success",
  },
};

export { EVENTS };
