import { CURSOR_EVENTS as EVENTS, detectCursor } from "./detect.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { blockReason, parseJsonObject, rankedDecision, resultTexts } from "./resultText.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { CURSOR_EVENT, CURSOR_TOOLS } from "../events/cursorNames.js";
import { baseRead, canonicalTool, field, stringField } from "./payload.js";

/**
 * Cursor (the IDE's agent and `cursor-agent`): `.cursor/hooks.json`, `{"version": 1, "hooks":
 * {event: [{command, timeout?, matcher?, failClosed?, loop_limit?}]}}` (flat entries, timeouts in
 * seconds). Facts and sources: docs/hosts/cursor.md; payloads: test/fixtures/hosts/cursor/.
 *
 * Cursor fires a generic pair (preToolUse / postToolUse, every tool, `tool_name` + `tool_input`)
 * and older tool-specific events (beforeShellExecution, beforeReadFile, afterFileEdit, …). Both
 * are read; `hooks install cursor` writes only the generic ones (one dispatch per tool call, and
 * only they carry `updated_input` and `additional_context`).
 */

/** The tool a tool-specific event is about, as Cursor's generic events name it. */
const EVENT_TOOL: Readonly<Record<string, string>> = Object.freeze({
  beforeShellExecution: "Shell",
  afterShellExecution: "Shell",
  beforeReadFile: "Read",
  afterFileEdit: "Edit",
});

/** Common fields of every payload: kept under `host`, not at the top level. */
const COMMON = ["hook_event_name", "conversation_id", "generation_id", "cursor_version", "workspace_roots", "model", "user_email", "transcript_path"] as const;

function hostEventOf(payload: Payload, event: string): string | undefined {
  const named = stringField(payload, "hook_event_name");
  if (named !== undefined) return named;
  return Object.hasOwn(EVENTS, event) ? event : undefined;
}

/** Moves `keys` of `from` (those present) into a new object. */
function take(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys)
    if (from[k] !== undefined) {
      out[k] = from[k];
      delete from[k];
    }
  return out;
}

export function read(payload: Payload, event: string): HookContext {
  const hostEvent = hostEventOf(payload, event);
  // The shared reader: the common fields under `host` (the transcript kept at the top level too).
  const ctx = baseRead(cursorRun, payload, { hostFields: COMMON, event: hostEvent ?? event });
  const host = ctx.host as Record<string, unknown>;
  delete host.tool_name;
  delete ctx.tool_name;
  if (field(payload, "transcript_path") !== undefined) ctx.transcript_path = payload.transcript_path;
  const workspaceRoots = field(payload, "workspace_roots");
  const roots = Array.isArray(workspaceRoots) ? workspaceRoots.filter((r): r is string => typeof r === "string") : [];
  const sessionId = stringField(payload, "session_id") ?? stringField(payload, "conversation_id");
  if (sessionId !== undefined) ctx.session_id = sessionId;
  if (typeof ctx.cwd !== "string" && roots[0] !== undefined) ctx.cwd = roots[0];

  let hostTool = stringField(payload, "tool_name");
  switch (hostEvent) {
    case "beforeShellExecution":
    case "afterShellExecution": {
      ctx.tool_input = { command: payload.command, ...(typeof payload.cwd === "string" && { cwd: payload.cwd }) };
      delete ctx.command;
      if (hostEvent === "afterShellExecution") ctx.tool_response = take(ctx, ["output", "exit_code", "stdout", "stderr", "duration"]);
      break;
    }
    case "beforeReadFile":
      ctx.tool_input = { file_path: payload.file_path };
      break;
    case "afterFileEdit":
      ctx.tool_input = take(ctx, ["file_path", "edits"]);
      break;
    case "beforeMCPExecution":
    case "afterMCPExecution": {
      // The MCP server's url or command is not the tool's input: it goes under `host`.
      const server = take(ctx, ["url", "command"]);
      if (Object.keys(server).length) host.mcp_server = server;
      hostTool = hostTool === undefined ? undefined : `MCP:${hostTool}`;
      ctx.tool_input = parseJsonObject(payload.tool_input);
      if (hostEvent === "afterMCPExecution") {
        ctx.tool_response = parseJsonObject(payload.result_json ?? payload.tool_result);
        delete ctx.result_json;
        delete ctx.tool_result;
      }
      break;
    }
    case "preToolUse":
    case "postToolUse":
    case "postToolUseFailure":
      ctx.tool_input = parseJsonObject(payload.tool_input);
      if (payload.tool_output !== undefined) {
        ctx.tool_response = parseJsonObject(payload.tool_output);
        delete ctx.tool_output;
      }
      if (hostEvent === "postToolUseFailure" && ctx.error === undefined) {
        const error = payload.error_message ?? payload.failure_type;
        if (error !== undefined) ctx.error = error;
      }
      break;
    case "stop":
    case "subagentStop":
      if (typeof payload.loop_count === "number") ctx.stop_hook_active = payload.loop_count > 0;
      break;
  }
  hostTool ??= hostEvent && Object.hasOwn(EVENT_TOOL, hostEvent) ? EVENT_TOOL[hostEvent] : undefined;
  if (hostTool !== undefined) {
    host.tool_name = hostTool;
    ctx.tool_name = canonicalTool(cursorRun, hostTool);
  }
  ctx.host = host;
  return ctx;
}

// Where a hookrun notice for the user can go: Cursor shows `user_message` on these events.
const HAS_USER_MESSAGE = new Set(["pre_tool_use", "user_prompt_submit"]);

/**
 * A run as Cursor's hook output (one JSON object on stdout, exit 0). What Cursor cannot take on an
 * event goes to stderr, which Cursor shows in its Hooks output channel: never dropped silently.
 */
function render(result: TriggerResult): HostAnswer {
  const event = result.event;
  const t = resultTexts(result);
  const out: Record<string, unknown> = {};
  const user = [...t.notices, ...t.failures];
  const stderr: string[] = [];
  const lost = (what: string, items: string[]) => {
    if (items.length) stderr.push(`hookrun: Cursor's ${CURSOR_EVENT[event] ?? event} cannot carry ${what}; not delivered: ${items.join(" | ")}`);
  };

  if (event === "pre_tool_use") {
    const ranked = rankedDecision(result);
    // Cursor 2.4.21 and later mishandle `permission: ask` (2.x denies, 3.x allows): ask becomes a deny that says so.
    const denial = result.blocked
      ? blockReason(result)
      : !result.continue
        ? `hookrun: a hook asked to stop the agent (${result.stop_reason ?? "no reason given"}); Cursor cannot stop it from a tool hook, so the call is denied`
        : ranked?.decision === "ask"
          ? `hookrun: Cursor does not honour ask, so this call is denied instead${ranked.reason ? `: ${ranked.reason}` : ""}`
          : null;
    if (denial !== null) {
      out.permission = "deny";
      out.agent_message = denial;
      user.unshift(denial);
    } else if (ranked?.decision === "allow") out.permission = "allow";
    if (!out.agent_message && t.context.length) out.agent_message = t.context.join("\n\n");
    if (result.updated_input !== null && result.updated_input !== undefined && denial === null && ranked?.decision !== "defer") out.updated_input = result.updated_input;
  } else if (event === "user_prompt_submit") {
    if (result.blocked || !result.continue) {
      out.continue = false;
      user.unshift(result.blocked ? blockReason(result) : (result.stop_reason ?? "a hook asked to stop"));
    } else out.continue = true;
    lost("context for the model", t.context);
  } else if (event === "session_start") {
    if (t.context.length) out.additional_context = t.context.join("\n\n");
  } else if (event === "post_tool_use" || event === "post_tool_use_failure") {
    const forModel = [...t.context, ...t.feedback];
    if (result.blocked) forModel.push(blockReason(result));
    if (forModel.length) out.additional_context = forModel.join("\n\n");
  } else if (event === "stop" || event === "subagent_stop") {
    const followup = [...(result.blocked ? [blockReason(result)] : []), ...t.followups];
    if (followup.length) out.followup_message = followup.join("\n\n");
    lost("context for the model (only a follow-up message continues the agent)", t.context);
  } else {
    lost("context for the model", t.context);
  }
  // On stop the agent is stopping anyway: only elsewhere is a stop request something Cursor cannot do.
  if (!result.continue && !["pre_tool_use", "user_prompt_submit", "stop", "subagent_stop"].includes(event))
    stderr.push(`hookrun: a hook asked to stop the agent (${result.stop_reason ?? "no reason given"}); Cursor's ${CURSOR_EVENT[event] ?? event} cannot stop it`);
  if (HAS_USER_MESSAGE.has(event)) {
    if (user.length) out.user_message = user.join("\n");
  } else stderr.push(...user.map((u) => `hookrun: ${u}`));
  return { stdout: `${JSON.stringify(out)}\n`, stderr: stderr.length ? `${stderr.join("\n")}\n` : "", exitCode: 0 };
}

function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const line = `hookrun: the project's hooks did not run: ${forUser}`;
  const out: Record<string, unknown> = {};
  if (HAS_USER_MESSAGE.has(event)) out.user_message = line;
  if (event === "user_prompt_submit") out.continue = true;
  if (event === "session_start") out.additional_context = `hookrun: the project's hooks are not running in this session: ${forModel}`;
  return { stdout: `${JSON.stringify(out)}\n`, stderr: `${line}\n`, exitCode: 0 };
}

// ---- the adapter --------------------------------------------------------------------------

export const cursorRun: HostRuntime = {
  name: "cursor",
  title: "Cursor",
  events: EVENTS,
  tools: CURSOR_TOOLS,
  timeout: { unit: "s", default: 30 },
  detect: detectCursor,
  read,
  render,
  notRun,
  degrade: {
    ask: "a deny whose message says Cursor does not honour ask (since 2.4.21 Cursor denies or allows on ask, depending on the version)",
    defer: "no `permission` field: Cursor's own permission rules decide",
    updated_input: "`updated_input` on preToolUse (the event `hooks install cursor` writes); the tool-specific events cannot rewrite and ignore it",
    context:
      "sessionStart: `additional_context`; preToolUse: `agent_message`; postToolUse / postToolUseFailure: `additional_context`; beforeSubmitPrompt, stop and the rest cannot carry it: written to stderr (Cursor's Hooks output channel), never dropped silently",
    feedback: "postToolUse `additional_context` (the tool already ran)",
    followup: "stop / subagentStop `followup_message`: Cursor submits it as the next user message, at most `loop_limit` times (default 5)",
    stop: "preToolUse: a deny saying so; beforeSubmitPrompt: `continue: false`; elsewhere a stderr line (Cursor cannot stop the agent there)",
    notice: "`user_message` on preToolUse and beforeSubmitPrompt; elsewhere stderr",
  },
};

export { EVENTS };
