import { undetectable } from "./detect.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { blockReason, hookrunLine, rankedDecision, resultTexts } from "./resultText.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { baseRead, field, stringField } from "./payload.js";

/**
 * pi (`@mariozechner/pi-coding-agent`): no shell hooks; TypeScript extensions in
 * `.pi/extensions/*.ts` (user: `~/.pi/agent/extensions/`) that pi loads in its own process.
 * `hooks install pi` writes one (src/hosts/piExtension.ts) that hands each pi event to hookrun's
 * library in process (src/hosts/inProcess.ts) and applies the answer this adapter renders. The
 * payload is pi's event as the extension sends it: pi's own camelCase fields (`toolName`,
 * `toolCallId`, `input`, `content`, `isError`, `text`, `reason`) plus `type` (the event),
 * `sessionId` and `cwd`. Facts and degradation rules: docs/hosts/pi.md.
 */

/** pi's event → canonical. */
const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  session_start: "session_start",
  session_shutdown: "session_end",
  input: "user_prompt_submit",
  tool_call: "pre_tool_use",
  tool_result: "post_tool_use",
  agent_end: "stop",
  session_before_compact: "pre_compact",
  session_compact: "post_compact",
});

/** pi's built-in tools → canonical. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ bash: "Bash", read: "Read", write: "Write", edit: "Edit", grep: "Grep", find: "Glob", ls: "LS" });

/** pi's fields → hookrun's. */
const RENAMES: Readonly<Record<string, string>> = Object.freeze({
  sessionId: "session_id",
  toolName: "tool_name",
  toolCallId: "tool_use_id",
  input: "tool_input",
  lastAssistantMessage: "last_assistant_message",
  customInstructions: "custom_instructions",
});

function read(payload: Payload, event: string): HookContext {
  const hostEvent = stringField(payload, "type") ?? event;
  const ctx = baseRead(piRun, payload, { renames: RENAMES, hostFields: ["type", "details"], event: hostEvent });
  // What a tool returned: pi's content blocks and error flag, as Claude's `tool_response`.
  if (hostEvent === "tool_result") {
    ctx.tool_response = { content: field(payload, "content"), is_error: field(payload, "isError") === true };
    delete ctx.content;
    delete ctx.isError;
  }
  // The prompt as typed (`input`'s `text`).
  if (hostEvent === "input") {
    ctx.prompt = field(payload, "text");
    delete ctx.text;
  }
  // Why a session started: startup, reload, new, resume or fork.
  if (hostEvent === "session_start" && ctx.reason !== undefined) {
    ctx.source = ctx.reason;
    delete ctx.reason;
  }
  if (hostEvent === "agent_end") ctx.stop_hook_active = false;
  return ctx;
}

/**
 * What the extension applies, as one JSON object on stdout (exit 0 always):
 * - `block`: the reason; `tool_call` returns `{block: true, reason}` (the model gets the reason as
 *   the tool's result), `input` swallows the prompt (`{action: "handled"}`) and tells the user,
 *   `session_before_compact` cancels the compaction;
 * - `input`: the tool call's input replaced by this object (pi runs what the extension leaves in `event.input`);
 * - `context`: text for the model: appended to the tool's result on `tool_result`, else a message
 *   pi sends with the next request;
 * - `notify`: lines for the user (pi's UI, or stderr under `pi -p`).
 */
export interface PiAnswer {
  block?: string;
  input?: Record<string, unknown>;
  context?: string;
  notify?: string;
}

function render(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const ranked = rankedDecision(result);
  const out: PiAnswer = {};
  const notes = [...t.notices.map(hookrunLine), ...t.failures.map(hookrunLine)];
  const forModel = [...t.context, ...t.feedback];
  const gate = result.event === "pre_tool_use" || result.event === "user_prompt_submit" || result.event === "pre_compact";
  if (result.event === "stop") {
    // pi does not wait for agent_end's handlers before it stops: a request to go on reaches the user only.
    const goOn = [...(result.blocked ? [blockReason(result)] : []), ...t.followups];
    if (goOn.length) notes.push(`hookrun: a hook asked the agent to go on, which pi cannot do from its agent_end event: ${goOn.join(" | ")}`);
  } else if (result.blocked) {
    if (gate) out.block = blockReason(result);
    else forModel.push(blockReason(result));
  } else if (!result.continue) {
    const why = `hookrun: a hook asked to stop the agent: ${result.stop_reason ?? "no reason given"}`;
    if (gate) out.block = why;
    else notes.push(`${why}; pi's extensions cannot stop it from this event`);
  } else if (ranked?.decision === "ask" && gate) {
    out.block = `hookrun: a hook asked for the user's confirmation${ranked.reason ? ` (${ranked.reason})` : ""}, which pi's extensions cannot ask headless: the call is blocked; ask the user, then retry`;
  } else if (result.event === "pre_tool_use" && result.updated_input !== null && result.updated_input !== undefined && ranked?.decision !== "defer") {
    if (typeof result.updated_input === "object" && !Array.isArray(result.updated_input)) out.input = result.updated_input as Record<string, unknown>;
    else out.block = `hookrun: a hook rewrote this call's input to ${JSON.stringify(result.updated_input)}, which is not an object pi can run: the call is blocked`;
  }
  if (t.followups.length && result.event !== "stop") forModel.push(...t.followups);
  if (forModel.length) out.context = forModel.join("\n\n");
  if (notes.length) out.notify = notes.join("\n");
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

/** Hooks that did not run: the call goes on (as under every host) and the user and the model are told. */
function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: PiAnswer = { notify: `hookrun: the project's hooks did not run: ${forUser}` };
  if (event === "session_start" || event === "user_prompt_submit") out.context = `hookrun: the project's hooks are not running in this session: ${forModel}`;
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

export const piRun: HostRuntime = {
  name: "pi",
  title: "pi",
  events: EVENTS,
  tools: TOOLS,
  // pi has no timeouts of its own: hookrun's timeouts bound every hook (docs/hosts/pi.md).
  timeout: { unit: "s", default: 0 },
  // Only the extension sends pi's payloads, naming the host itself: never guessed from a payload.
  detect: undetectable,
  read,
  render,
  notRun,
  degrade: {
    ask: "a block whose reason says pi cannot ask (pi's extensions get no confirmation under `pi -p`)",
    defer: "nothing: pi's own rules decide",
    updated_input: "applied: the extension replaces the call's input (pi does not check it again)",
    context: "appended to the tool's result on tool_result; elsewhere a message sent to the model with the next request",
    feedback: "appended to the tool's result (tool_result), or sent with the next request",
    followup: "on agent_end, shown to the user only: pi does not wait for agent_end's handlers before it stops",
    stop: "a block on tool_call, input and session_before_compact; elsewhere a line the user sees",
    notice: "a line the user sees (pi's UI, or stderr under `pi -p`)",
  },
};
