import { CRUSH_TOOLS as TOOLS, detectCrush } from "./detect.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { TriggerResult } from "../runner/types.js";
import { baseRead } from "./payload.js";
import { failureLine, rankedDecision, texts } from "./resultText.js";
import type { HostAnswer, HostRuntime } from "./types.js";

/**
 * Crush (charmbracelet/crush; docs/hosts/crush.md): one event, PreToolUse, configured in the
 * `hooks` key of `crush.json` (or `.crush.json`; the user's in `~/.config/crush/crush.json`) as flat
 * entries `{name?, matcher?, command, timeout?}`: the matcher an unanchored regex over Crush's
 * tool names (`bash`, `edit`, `write`, `view`, …), the timeout in seconds (default 30). Hooks run
 * in Crush's embedded POSIX shell with `CRUSH_PROJECT_DIR`, `CRUSH_EVENT`, `CRUSH_TOOL_NAME`, …
 * set; stdin is `{event, session_id, cwd, tool_name, tool_input}`. Exit 2 blocks with stderr as
 * the reason, exit 49 halts the turn; on exit 0 stdout is Crush's envelope `{decision: allow|deny,
 * halt, reason, context, updated_input}` (or Claude's `hookSpecificOutput`). A hook past its
 * timeout is "no opinion": the call goes on. Read from Crush's source (internal/hooks).
 */

export const EVENTS: Readonly<Record<string, string>> = Object.freeze({ PreToolUse: "pre_tool_use" });

/** Crush's answer envelope (version 1). */
interface CrushResponse {
  version: 1;
  decision?: "allow" | "deny";
  halt?: true;
  reason?: string;
  context?: string;
  updated_input?: unknown;
}

/**
 * The run as Crush's envelope: a block is `decision: deny` + reason; an allow is `allow` (Crush
 * then skips its permission prompt); ask and defer say nothing (Crush asks as it would without a
 * hook); a rewritten input is `updated_input` (Crush merges it over the call's input, key by key);
 * a stop is `halt` (the whole turn ends). Crush shows the user nothing of a hook, so context,
 * notices and failures all go to `context`, for the model.
 */
export function renderCrush(result: TriggerResult): HostAnswer {
  const out: CrushResponse = { version: 1 };
  const ranked = rankedDecision(result);
  if (result.blocked) {
    out.decision = "deny";
    out.reason = result.reason ?? `blocked by ${result.blocked_by}`;
  } else if (ranked?.decision === "allow") out.decision = "allow";
  if (!result.blocked && result.updated_input !== null && result.updated_input !== undefined && ranked?.decision !== "defer") out.updated_input = result.updated_input;
  if (!result.continue) {
    out.halt = true;
    out.reason ??= result.stop_reason ?? "hookrun: a hook stopped the agent";
  }
  const shown = result.messages.filter((m) => !m.hide);
  const context = [...texts(shown), ...[...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map((r) => `hookrun: ${failureLine(r)}`)];
  if (context.length) out.context = context.join("\n\n");
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

export const crushRun: HostRuntime = {
  name: "crush",
  title: "Crush",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  // Crush's payload names its event in `event` (no `hook_event_name`) and its tools in lower case.
  detect: detectCrush,
  read: (payload) => baseRead(crushRun, payload, { hostFields: ["event"], event: "PreToolUse" }),
  render: renderCrush,
  notRun: (_event, _forUser, forModel) => ({
    stdout: `${JSON.stringify({ version: 1, context: `hookrun: the project's hooks are not running in this session: ${forModel}` })}\n`,
    stderr: "",
    exitCode: 0,
  }),
  degrade: {
    ask: "nothing: Crush has no ask; its own permission rules decide, as with no hook",
    defer: "nothing: Crush's own permission rules decide",
    updated_input: "`updated_input`, merged by Crush over the call's input key by key (a key the rewrite drops stays)",
    context: "`context`: to the model (Crush shows the user nothing of a hook)",
    feedback: "nothing: Crush fires no post-tool event",
    followup: "nothing: Crush fires no stop event",
    stop: "`halt: true`: Crush ends the whole turn",
    notice: "`context` (Crush has no channel to the user)",
  },
};

export { TOOLS };
