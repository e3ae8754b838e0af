import { GOOSE_EVENTS as EVENTS, detectGoose } from "./detect.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { TriggerResult } from "../runner/types.js";
import { baseRead, stringField } from "./payload.js";
import { failureLine, texts } from "./resultText.js";
import type { HostAnswer, HostRuntime } from "./types.js";

/**
 * Goose (block/goose; docs/hosts/goose.md) runs the hooks of Open Plugins: every folder under
 * `.agents/plugins/` is a plugin (no manifest needed) and its `hooks/hooks.json` holds
 * `{hooks: {Event: [{matcher?, hooks: [{type: "command", command, timeout?, on_failure?}]}]}}`,
 * the matcher an unanchored regex over the event's `matcher_context` (the tool name for tool
 * events), timeouts in seconds (default 30), `on_failure: "block"` honoured on PreToolUse only,
 * unknown events ignored. A command runs as `sh -c` with `PLUGIN_ROOT` set and `${PLUGIN_ROOT}`
 * replaced in its text. Stdin: `{event, session_id, matcher_context, tool_call_id?, tool_name?,
 * tool_input?, tool_output?, message?, last_assistant_message?, working_dir?}`. On the blocking
 * events a hook answers only: exit 2 (stderr the reason) or `{"decision":"block","reason"}`
 * blocks; exit 0 with nothing, or `{"decision":"allow"}`, allows; anything else on stdout is a
 * hook that could not decide. Read from Goose's source (crates/goose/src/hooks/mod.rs,
 * crates/goose/src/plugins/discovery.rs).
 */

/** Goose's tools (extension `__` tool) that have a canonical name. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ developer__shell: "Bash" });

/** Where Goose reads a hook's decision (its blocking chain). */
const BLOCKING = new Set(["pre_tool_use", "stop"]);

const answer = (stdout: string, stderr: string): HostAnswer => ({ stdout: stdout ? `${stdout}\n` : "", stderr: stderr ? `${stderr}\n` : "", exitCode: 0 });

/**
 * The run as Goose reads a hook: a block (and a Stop follow-up) is `{"decision":"block","reason"}`;
 * everything else is an empty stdout (Goose's "allow": any other stdout would be a hook that could
 * not decide, which a PreToolUse entry with `on_failure: block` turns into a denial). Goose gives a
 * hook no channel to the model or the user: context, notices and failures go to stderr, which
 * Goose ignores on exit 0 (docs/hosts/goose.md says what is lost).
 */
export function renderGoose(result: TriggerResult): HostAnswer {
  const shown = result.messages.filter((m) => !m.hide);
  const followups = texts(shown.filter((m) => m.kind === "followup"));
  const lines = [
    ...texts(shown.filter((m) => m.kind !== "followup")),
    ...[...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map((r) => `hookrun: ${failureLine(r)}`),
  ];
  if (result.blocked && BLOCKING.has(result.event)) return answer(JSON.stringify({ decision: "block", reason: result.reason ?? `blocked by ${result.blocked_by}` }), lines.join("\n"));
  if (result.event === "stop" && followups.length) return answer(JSON.stringify({ decision: "block", reason: followups.join("\n\n") }), lines.join("\n"));
  return answer("", lines.join("\n"));
}

export const gooseRun: HostRuntime = {
  name: "goose",
  title: "Goose",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  detect: detectGoose,
  read: (payload) => {
    const ctx = baseRead(gooseRun, payload, {
      renames: { working_dir: "cwd", tool_call_id: "tool_use_id", tool_output: "tool_response" },
      hostFields: ["event", "matcher_context"],
      event: stringField(payload, "event"),
    });
    // Goose names the submitted prompt `message`.
    if (payload.event === "UserPromptSubmit" && typeof payload.message === "string" && ctx.prompt === undefined) ctx.prompt = payload.message;
    return ctx;
  },
  render: renderGoose,
  notRun: (_event, forUser) => answer("", `hookrun: the project's hooks did not run: ${forUser}`),
  degrade: {
    ask: "nothing: Goose reads only allow or block",
    defer: "nothing: Goose reads only allow or block",
    updated_input: "nothing: Goose cannot rewrite a call from a hook",
    context: "nothing: Goose gives a hook no channel to the model (stderr only, which it ignores on success)",
    feedback: "nothing: Goose reads no answer after a tool ran",
    followup: 'Stop `{"decision":"block","reason"}`',
    stop: "nothing: Goose has no way for a hook to end the agent",
    notice: "stderr, which Goose ignores on success",
  },
};

export { EVENTS };
