/**
 * The cursor dialect: hooks written for Cursor (`dialect: cursor`, what `hooks import cursor`
 * writes). The hook receives Cursor's payload (its event and tool names, `conversation_id`,
 * `workspace_roots`, …) whichever host fired the event, and its answer is read by Cursor's rules:
 * one JSON object on stdout (`permission`, `user_message`, `agent_message`, `updated_input`,
 * `continue`, `followup_message`, `additional_context`), exit 2 denies, any other exit code fails
 * open. docs/dialects.md lists every field and what it becomes.
 */
import type { ResolvedHook } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import type { GateKind } from "../events/catalog.js";
import { setOwn } from "../runner/context.js";
import type { HookResult, Message } from "../runner/types.js";
import { CURSOR_EVENT, CURSOR_TOOLS } from "../events/cursorNames.js";
import { editsOf, firedBy, reversed, str } from "./shape.js";
import type { DialectCode } from "./types.js";

/** Canonical tool names Cursor spells otherwise (the reverse of its tool table). */
export const CURSOR_TOOL: Readonly<Record<string, string>> = Object.freeze(reversed(CURSOR_TOOLS));

// hookrun's own fields of the context: not part of Cursor's payload.
const HOOKRUN_ONLY = ["event", "hook_event_name", "turn_count", "last_assistant_message", "stop_hook_active", "host", "tool_response", "error"];

const camel = (event: string): string => event.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A canonical tool name as Cursor names it: `Shell` for Bash, `MCP:<tool>` for an MCP tool. */
function cursorTool(tool: string): string {
  if (Object.hasOwn(CURSOR_TOOL, tool)) return CURSOR_TOOL[tool];
  const mcp = /^mcp__.+?__(.+)$/.exec(tool);
  return mcp ? `MCP:${mcp[1]}` : tool;
}

const FILE_EDITS = new Set(["Write", "Edit", "MultiEdit"]);

const asText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v ?? null));

/**
 * The hook's stdin as Cursor sends it. Fired by Cursor, the hook gets Cursor's own event, tool name
 * and fields back (a tool-specific event's `command`, `file_path`, … restored from the tool
 * input). Fired elsewhere, it gets Cursor's generic event (`preToolUse`, `beforeSubmitPrompt`,
 * `stop`, …) with documented defaults: `conversation_id` the session id, `generation_id` and
 * `cursor_version` "", `workspace_roots` [cwd]; a shell call also carries the top-level `command`
 * and `cwd`, a read or an edit `file_path`, as Cursor's tool-specific events do, so a hook written
 * for beforeShellExecution still finds them.
 */
export function cursorInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const host = firedBy(base, "cursor");
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) if (!HOOKRUN_ONLY.includes(key)) setOwn(out, key, base[key]);
  const hostEvent = str(host?.event) ?? (Object.hasOwn(CURSOR_EVENT, event) ? CURSOR_EVENT[event] : undefined) ?? camel(event);
  out.hook_event_name = hostEvent;
  out.conversation_id = str(host?.conversation_id) ?? base.session_id;
  out.generation_id = str(host?.generation_id) ?? "";
  out.cursor_version = str(host?.cursor_version) ?? "";
  out.workspace_roots = Array.isArray(host?.workspace_roots) ? host.workspace_roots : [base.cwd];
  for (const k of ["model", "user_email", "transcript_path"]) if (host && host[k] !== undefined) out[k] = host[k];
  const input = isJsonObject(base.tool_input) ? base.tool_input : {};
  const response = base.tool_response;
  if (typeof base.tool_name === "string") {
    out.tool_name = str(host?.tool_name) ?? cursorTool(base.tool_name);
    out.tool_input = input;
    if (out.tool_use_id === undefined) out.tool_use_id = "";
  }
  // Cursor's tool-specific events name their one tool in the event, and send its fields at the top level.
  switch (hostEvent) {
    case "beforeShellExecution":
    case "afterShellExecution":
      dropToolCall(out);
      out.command = input.command;
      if (typeof input.cwd === "string") out.cwd = input.cwd;
      if (hostEvent === "afterShellExecution" && isJsonObject(response)) for (const k of Object.keys(response)) setOwn(out, k, response[k]);
      break;
    case "beforeReadFile":
      dropToolCall(out);
      out.file_path = input.file_path;
      break;
    case "afterFileEdit":
      dropToolCall(out);
      out.file_path = input.file_path;
      out.edits = input.edits ?? [];
      break;
    case "beforeMCPExecution":
    case "afterMCPExecution": {
      // Cursor names the MCP tool bare and sends its input (and result) as JSON text.
      const name = str(out.tool_name) ?? "";
      out.tool_name = name.startsWith("MCP:") ? name.slice(4) : name;
      out.tool_input = JSON.stringify(input);
      delete out.tool_use_id;
      if (host && isJsonObject(host.mcp_server)) for (const [k, v] of Object.entries(host.mcp_server)) setOwn(out, k, v);
      if (hostEvent === "afterMCPExecution") out.result_json = asText(response);
      break;
    }
    case "preToolUse":
      if (typeof input.command === "string" && base.tool_name === "Bash") {
        // What beforeShellExecution carries, for a hook written for it.
        out.command = input.command;
        if (typeof input.cwd === "string") out.cwd = input.cwd;
      } else if (typeof input.file_path === "string" && out.file_path === undefined) out.file_path = input.file_path;
      break;
    case "postToolUse":
    case "postToolUseFailure":
      if (response !== undefined) out.tool_output = asText(response);
      if (typeof input.file_path === "string" && out.file_path === undefined) out.file_path = input.file_path;
      // What afterFileEdit carries, for a hook written for it.
      if (FILE_EDITS.has(String(base.tool_name)) && out.edits === undefined) out.edits = editsOf(input);
      if (hostEvent === "postToolUseFailure" && base.error !== undefined && out.error_message === undefined) out.error_message = asText(base.error);
      break;
    case "beforeSubmitPrompt":
      if (out.prompt === undefined) out.prompt = "";
      if (out.attachments === undefined) out.attachments = [];
      break;
    case "stop":
    case "subagentStop":
      if (out.status === undefined) out.status = "completed";
      if (out.loop_count === undefined) out.loop_count = base.stop_hook_active === true ? 1 : 0;
      break;
  }
  return out;
}

// Where a field of Cursor's answer is read (by canonical event); elsewhere Cursor ignores it.
const PERMISSION = new Set(["pre_tool_use"]);
const CONTEXT = new Set(["session_start", "post_tool_use", "post_tool_use_failure"]);
const FOLLOWUP = new Set(["stop", "subagent_stop"]);
// Fields of Cursor's answers that mean something to Cursor but that hookrun cannot carry (kept in `json`).
const NOT_CARRIED: Readonly<Record<string, ReadonlySet<string>>> = Object.freeze({ session_start: new Set(["env"]) });
// Every field of Cursor's answers; anything else Cursor ignores, and so does this dialect.
const KNOWN = new Set(["permission", "user_message", "agent_message", "updated_input", "continue", "followup_message", "additional_context", "env"]);

const BLOCKED = "Blocked by hook";

/**
 * Read a hook that exited 0 or 2 by Cursor's rules (any other code already failed open, or
 * blocked under `on_failure: block`, Cursor's `failClosed`): stdout is one JSON object; anything
 * else Cursor cannot read fails open (invalid output). Exit 2 denies a tool call or a prompt (the
 * reason: the JSON's message, else stderr); on events that cannot block, its stderr is for the user.
 */
export function readCursor(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult {
  const event = hook.event;
  const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
  const text = r.stdout.trim();
  let o: Record<string, unknown> = {};
  if (text !== "") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (code !== 2) return { ...r, status: "invalid_output", error: `stdout is not valid JSON (${(error as Error).message}); Cursor ignores it and goes on` };
    }
    if (value !== undefined && !isJsonObject(value)) {
      if (code !== 2) return { ...r, status: "invalid_output", error: "stdout is not a JSON object; Cursor ignores it and goes on" };
    } else if (value !== undefined) o = value as Record<string, unknown>;
  }
  const userMessage = str(o.user_message);
  const agentMessage = str(o.agent_message);
  const notCarried = NOT_CARRIED[event];
  const kept = Object.keys(o).filter((k) => notCarried?.has(k));
  for (const k of kept) setOwn((r.json ??= {}), k, o[k]);
  if (kept.length) r.warnings.push(`${kept.join(", ")}: not carried by hookrun (kept in the result's json)`);
  const unknown = Object.keys(o).filter((k) => !KNOWN.has(k));
  for (const k of unknown) setOwn((r.json ??= {}), k, o[k]);

  let result = r;
  const block = (reason: string): HookResult => ({ ...result, status: "blocked", decision: "block", reason });
  if (event === "user_prompt_submit") {
    if (o.continue === false || code === 2) return block(userMessage ?? (code === 2 && r.stderr.trim() !== "" ? r.stderr.trim() : BLOCKED));
    return result;
  }
  if (PERMISSION.has(event) && gate === "yes") {
    if (code === 2 || o.permission === "deny") {
      // The model gets agent_message (else user_message, else an exit 2's stderr); the user, user_message.
      result = block(agentMessage ?? userMessage ?? (r.stderr.trim() || BLOCKED));
      if (userMessage !== undefined && userMessage !== result.reason) result.messages.push(message(userMessage, "notice"));
      return result;
    }
    if (o.permission === "allow" || o.permission === "ask") {
      result.decision = o.permission;
      if (agentMessage ?? userMessage) result.reason = agentMessage ?? userMessage;
    } else if (agentMessage !== undefined) result.messages.push(message(agentMessage));
    if (userMessage !== undefined) result.messages.push(message(userMessage, "notice"));
    if (event === "pre_tool_use" && isJsonObject(o.updated_input)) result.updated_input = o.updated_input;
    return result;
  }
  if (CONTEXT.has(event) && typeof o.additional_context === "string" && o.additional_context !== "") result.messages.push(message(o.additional_context));
  if (FOLLOWUP.has(event) && typeof o.followup_message === "string" && o.followup_message !== "") result.messages.push(message(o.followup_message, "followup"));
  if (code === 2) {
    // Nothing to deny here (the tool already ran, the agent is stopping): Cursor goes on.
    const said = r.stderr.trim();
    if (gate === "yes" && !FOLLOWUP.has(event) && !CONTEXT.has(event)) return block(said || BLOCKED);
    if (said) result.messages.push(message(said, "notice"));
  }
  return result;
}

/** Cursor's dialect: Cursor's payload on stdin, the answer read by Cursor's rules. */
export const cursor: DialectCode = { stdin: cursorInput, readExit: readCursor };

/** The generic tool-call fields, which Cursor's tool-specific events do not send. */
function dropToolCall(out: Record<string, unknown>): void {
  delete out.tool_name;
  delete out.tool_input;
  delete out.tool_use_id;
}
