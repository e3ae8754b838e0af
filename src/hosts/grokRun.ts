import { GROK_ENVELOPE_EVENT as ENVELOPE_EVENT, GROK_EVENTS as EVENTS, detectGrok, envelopeName } from "./detect.js";
import type { TriggerResult } from "../runner/types.js";
import { baseRead, stringField } from "./payload.js";
import { blockReason, hookrunLine, resultTexts } from "./resultText.js";
import type { HostAnswer, HostRuntime } from "./types.js";

/**
 * Grok Build (xAI's `grok`; docs/hosts/grok.md) reads Claude-shaped matcher groups from every
 * `*.json` in `.grok/hooks/` (and `~/.grok/hooks/`), project hooks only once the folder is trusted;
 * timeouts in seconds, default 5. A command runs through `sh -c` in the workspace root with
 * GROK_WORKSPACE_ROOT (and CLAUDE_PROJECT_DIR) set. Its stdin is its own camelCase envelope:
 * `{hookEventName: "pre_tool_use", sessionId, cwd, workspaceRoot, timestamp, transcriptPath?,
 * permissionMode?, toolName, toolUseId, toolInput, …}` with Grok's tool names
 * (`run_terminal_command`). Only PreToolUse and Stop/SubagentStop read an answer: PreToolUse exit
 * 2 (stderr's first line the reason) or `{"decision":"deny","reason"}` denies, `{"decision":
 * "allow","hookSpecificOutput":{"updatedInput"}}` rewrites; Stop reads `{"decision":"block",
 * "reason"}`, `{"continue":false,"stopReason"}`, `hookSpecificOutput.additionalContext`, or exit 2.
 * Read from xai-org/grok-build's source (crates/codegen/xai-grok-hooks).
 */

/** Grok Build's tools → Claude's names (its own alias table, xai-grok-tools claude_alias.rs). */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({
  run_terminal_command: "Bash",
  read_file: "Read",
  hashline_read: "Read",
  write: "Write",
  search_replace: "Edit",
  hashline_edit: "Edit",
  grep: "Grep",
  hashline_grep: "Grep",
  list_dir: "Glob",
  web_search: "WebSearch",
  web_fetch: "WebFetch",
  spawn_subagent: "Agent",
});

const STOPS = new Set(["stop", "subagent_stop"]);

const answer = (stdout: unknown, stderr: string[]): HostAnswer => ({
  stdout: stdout === null ? "" : `${JSON.stringify(stdout)}\n`,
  stderr: stderr.length ? `${stderr.join("\n")}\n` : "",
  exitCode: 0,
});

/** camelCase → snake_case, Grok's envelope keys to hookrun's context keys. */
const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The run as Grok Build reads a hook: PreToolUse a deny or a rewrite; Stop and SubagentStop a
 * block (a follow-up too: the reason goes to the model and the turn goes on), a stop, context.
 * Grok Build reads nothing else: notices, failures and context elsewhere go to stderr.
 */
export function renderGrok(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const lines = [...t.notices, ...t.failures].map(hookrunLine);
  if (result.event === "pre_tool_use") {
    if (result.blocked) return answer({ decision: "deny", reason: blockReason(result) }, lines);
    if (result.updated_input !== null && result.updated_input !== undefined) return answer({ decision: "allow", hookSpecificOutput: { updatedInput: result.updated_input } }, [...t.context, ...lines]);
    return answer(null, [...t.context, ...lines]);
  }
  if (STOPS.has(result.event)) {
    const out: Record<string, unknown> = {};
    if (result.blocked) Object.assign(out, { decision: "block", reason: blockReason(result) });
    else if (t.followups.length) Object.assign(out, { decision: "block", reason: t.followups.join("\n\n") });
    if (!result.continue) Object.assign(out, { continue: false, ...(result.stop_reason && { stopReason: result.stop_reason }) });
    if (t.context.length) out.hookSpecificOutput = { additionalContext: t.context.join("\n\n") };
    return answer(Object.keys(out).length ? out : null, lines);
  }
  return answer(null, [...t.context, ...lines]);
}

export const grokRun: HostRuntime = {
  name: "grok",
  title: "Grok Build",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 5 },
  detect: detectGrok,
  read: (payload) => {
    const envelope = stringField(payload, "hookEventName");
    return baseRead(grokRun, payload, {
      renames: (key) => (key === "toolResult" ? "tool_response" : key === "hookEventName" ? "host" : snake(key)),
      hostFields: ["workspaceRoot", "timestamp", "clientIdentifier", "promptId", "toolInputTruncated", "toolResultTruncated"],
      event: envelope !== undefined ? (ENVELOPE_EVENT[envelope] ?? envelope) : undefined,
    });
  },
  render: renderGrok,
  notRun: (_event, forUser) => answer(null, [`hookrun: the project's hooks did not run: ${forUser}`]),
  degrade: {
    ask: "nothing: Grok Build reads only allow or deny (its own permission check decides)",
    defer: "nothing: Grok Build's own permission check decides",
    context: "Stop's `hookSpecificOutput.additionalContext`; elsewhere dropped (Grok Build records other events' output and reads none of it)",
    feedback: "nothing: Grok Build reads no answer after a tool ran",
    followup: 'Stop `{"decision":"block","reason"}`: the turn goes on with it',
    stop: 'Stop `{"continue":false,"stopReason"}`; elsewhere dropped',
    notice: "stderr, which Grok Build does not show",
  },
};

export { EVENTS, envelopeName };
