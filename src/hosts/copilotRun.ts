import { copilotDialect, detectCopilot as detect } from "./detect.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { baseRead, field } from "./payload.js";
import { hookrunLine, resultTexts } from "./resultText.js";
import { CAMEL_EVENTS, COPILOT_ARGS, COPILOT_TOOLS as TOOLS, PASCAL_EVENTS } from "../events/copilotNames.js";
import { renameKeys } from "../dialects/shape.js";

/** Payload fields renamed to hookrun's (snake_case; Claude's names where Claude has the field). */
const RENAMES: Readonly<Record<string, string>> = {
  toolArgs: "tool_input",
  toolInput: "tool_input",
  toolResult: "tool_response",
  tool_result: "tool_response",
};

/** `sessionId` → `session_id`. */
const snake = (key: string): string => key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/**
 * The payload as hookrun's context: field names to snake_case (`sessionId` → `session_id`,
 * `toolArgs` → `tool_input`, `toolResult`/`tool_result` → `tool_response`), the tool name to the
 * canonical vocabulary; `host` keeps `{name, dialect, event, tool_name, timestamp}` as sent.
 */
function read(payload: Payload, event: string): HookContext {
  const dialect = copilotDialect(payload);
  const context = baseRead(copilotRun, payload, { renames: (key) => (Object.hasOwn(RENAMES, key) ? RENAMES[key] : snake(key)) });
  delete context.hook_name;
  const host: Record<string, unknown> = { name: "copilot", dialect, ...(context.host as Record<string, unknown>) };
  delete host.event;
  const hostEvent = dialect === "pascal" ? field(payload, "hook_event_name") : (field(payload, "hookName") ?? Object.keys(CAMEL_EVENTS).find((k) => CAMEL_EVENTS[k] === event));
  if (typeof hostEvent === "string") host.event = hostEvent;
  if (typeof host.tool_name !== "string") delete host.tool_name;
  const timestamp = field(payload, "timestamp");
  if (timestamp !== undefined) {
    host.timestamp = timestamp;
    // One spelling for hooks: ISO 8601, as the PascalCase payloads send it.
    if (typeof timestamp === "number") context.timestamp = new Date(timestamp).toISOString();
  }
  context.host = host;
  return context;
}

/** Copilot's flat answer (both dialects read these fields; it ignores the rest). */
export interface CopilotResponse {
  permissionDecision?: "allow" | "deny" | "ask";
  permissionDecisionReason?: string;
  modifiedArgs?: unknown;
  additionalContext?: string;
  decision?: "block";
  reason?: string;
}

// Events whose flat additionalContext reaches the model (sessionStart/userPromptSubmitted: as a
// message before the prompt; pre/postToolUse(Failure): beside the tool call; subagentStart: the child's prompt).
const CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "post_tool_use_failure", "subagent_start"]);
const CONTINUE_EVENTS = new Set(["stop", "subagent_stop"]);

/**
 * The run as Copilot's answer: always exit 0 with one JSON object (Copilot denies a tool call on
 * any non-zero exit and shows the model only "hook exited with code N"). What Copilot has no field
 * for, and hookrun's notices and hook failures, go to stderr, which Copilot does not show (see
 * `degrade`); the run log keeps them.
 */
export function formatCopilot(result: TriggerResult): { response: CopilotResponse; notes: string[] } {
  const out: CopilotResponse = {};
  const event = result.event;
  const { context, followups, feedback, failures, notices } = resultTexts(result);
  const notes = [...notices, ...failures];
  const stopped = !result.continue;
  const stopWhy = `the hooks asked to stop the agent${result.stop_reason ? `: ${result.stop_reason}` : ""}${result.stopped_by ? ` (hook ${result.stopped_by})` : ""}`;
  const blockedWhy = result.reason ?? `blocked by ${result.blocked_by}`;

  const forModel = event.startsWith("post_tool_use") ? [...context, ...feedback] : [...context];
  // Copilot shows the user nothing a hook prints: where the model has a channel, it hears of a
  // failed hook (hookrun went on without it) so that it can tell the user; stderr keeps it too.
  if (failures.length) forModel.push(`hookrun: ${failures.join("; ")}. Copilot shows the user nothing of this: tell them.`);
  if (CONTEXT_EVENTS.has(event)) {
    if (forModel.length) out.additionalContext = forModel.join("\n\n");
  } else {
    notes.unshift(...context.map((c) => `not given to the model (Copilot takes no context on ${event}): ${c}`));
    notes.push(...feedback.map((f) => `feedback not given to the model: ${f}`));
  }

  if (event === "pre_tool_use") {
    const ranked = (["ask", "allow"] as const).find((d) => result.hooks.some((r) => r.decision === d));
    const deferred = !ranked && result.hooks.some((r) => r.decision === "defer");
    if (result.blocked || stopped) {
      out.permissionDecision = "deny";
      out.permissionDecisionReason = result.blocked ? blockedWhy : `hookrun: ${stopWhy}; Copilot cannot stop the agent from a hook, so this tool call is denied`;
    } else if (ranked) {
      out.permissionDecision = ranked;
      const why = result.hooks
        .filter((r) => r.decision === ranked)
        .map((r) => r.reason)
        .filter(Boolean)
        .join("; ");
      if (why) out.permissionDecisionReason = why;
    }
    if (out.permissionDecision !== "deny") {
      if (result.updated_input !== null && result.updated_input !== undefined && !deferred) out.modifiedArgs = renameKeys(result.updated_input, COPILOT_ARGS);
    }
  } else if (event === "user_prompt_submit" && (result.blocked || stopped)) {
    out.decision = "block";
    out.reason = result.blocked ? blockedWhy : `hookrun: ${stopWhy}`;
  } else if (CONTINUE_EVENTS.has(event)) {
    // continue: false lets the agent stop (Claude's precedence); else a block or follow-ups continue it.
    if (stopped) notes.push(stopWhy);
    else if (result.blocked || followups.length) {
      out.decision = "block";
      out.reason = [...(result.blocked ? [blockedWhy] : []), ...followups].join("\n\n");
    }
  } else {
    if (result.blocked) notes.push(`Copilot cannot block ${event}; not blocked: ${blockedWhy}`);
    if (stopped) notes.push(`${stopWhy}; Copilot cannot stop the agent from ${event}`);
  }
  if (result.updated_input !== null && result.updated_input !== undefined && event !== "pre_tool_use")
    notes.push(`updated_input on ${event} is not applied (Copilot rewrites only a pre_tool_use call's arguments)`);
  return { response: out, notes };
}

function render(result: TriggerResult): HostAnswer {
  const { response, notes } = formatCopilot(result);
  return { stdout: `${JSON.stringify(response)}\n`, stderr: notes.map((n) => `${hookrunLine(n)}\n`).join(""), exitCode: 0 };
}

/**
 * The hooks did not run (config untrusted or invalid): fail open like the Claude host, with the
 * model told on sessionStart and userPromptSubmitted (the only place Copilot shows anything of a
 * hook in `-p`), and the user's sentence on stderr.
 */
function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: CopilotResponse = {};
  if (event === "session_start" || event === "user_prompt_submit") out.additionalContext = `hookrun: the project's hooks are not running in this session: ${forModel}`;
  return { stdout: `${JSON.stringify(out)}\n`, stderr: `hookrun: the project's hooks did not run: ${forUser}\n`, exitCode: 0 };
}

export const copilotRun: HostRuntime = {
  name: "copilot",
  title: "Copilot CLI",
  // camelCase first: hostEventName() gives the dialect hookrun installs in.
  events: { ...CAMEL_EVENTS, ...PASCAL_EVENTS },
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  detect,
  read,
  render,
  notRun,
  degrade: {
    ask: "passed on: Copilot asks the user; where it cannot (`copilot -p`) the call is denied and the model gets the reason",
    defer: "nothing is answered: Copilot's own permission rules decide",
    updated_input:
      "pre_tool_use: `modifiedArgs` (the tool's arguments in Copilot's shape: canonical `file_path`, `content`, `old_string`, `new_string` become `path`, `file_text`, `old_str`, `new_str`); elsewhere not applied, said on stderr",
    context: "flat `additionalContext` on sessionStart, userPromptSubmitted, preToolUse, postToolUse(Failure), subagentStart; elsewhere not given to the model, said on stderr",
    feedback: "postToolUse `additionalContext`, beside the tool's result (Copilot's `decision: block` there would replace the result)",
    followup: "agentStop/subagentStop `decision: block` with the follow-up as `reason` (Copilot ends the turn after 8 consecutive blocks)",
    stop: "Copilot reads no `continue`/`stopReason`: on preToolUse the call is denied and on userPromptSubmitted the prompt is blocked, saying so; on agentStop the agent stops; elsewhere said on stderr",
    notice:
      "stderr, which Copilot does not show (no channel reaches the user in `-p`); the run log keeps it; a failed hook is also told to the model where it has a channel (additionalContext), so it can tell the user",
  },
};

export { copilotDialect };
