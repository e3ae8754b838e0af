/**
 * The windsurf dialect: hooks written for Windsurf Cascade (`dialect: windsurf`, what `hooks
 * import windsurf` writes). The hook receives Windsurf's payload (`agent_action_name`,
 * `trajectory_id`, `execution_id`, `timestamp`, `tool_info`) whichever host fired the event, and
 * its answer is its exit code alone, as Windsurf reads it: 2 blocks a pre-hook with stderr as the
 * reason; what it prints reaches only the user (Windsurf shows it with `show_output`), never the
 * model; no JSON is read. docs/dialects.md has the details.
 */
import type { ResolvedHook } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import type { GateKind } from "../events/catalog.js";
import type { HookResult, Message } from "../runner/types.js";
import { editsOf, firedBy, str } from "./shape.js";
import type { DialectCode } from "./types.js";

/** The Windsurf action of a canonical tool (the reverse of the Windsurf host's tool table). */
export const WINDSURF_ACTION: Readonly<Record<string, string>> = Object.freeze({ Bash: "run_command", Read: "read_code", Write: "write_code", Edit: "write_code", MultiEdit: "write_code" });

/** The action name and `tool_info` of a tool call, as Windsurf sends them. */
function toolAction(base: Record<string, unknown>, post: boolean): { action: string; info: Record<string, unknown> } {
  const tool = str(base.tool_name) ?? "";
  const input = isJsonObject(base.tool_input) ? base.tool_input : {};
  const response = base.tool_response;
  const mcp = /^mcp__(.+?)__(.+)$/.exec(tool);
  if (mcp) {
    const info: Record<string, unknown> = { mcp_server_name: mcp[1], mcp_tool_name: mcp[2], mcp_tool_arguments: input };
    if (post && response !== undefined) info.mcp_result = typeof response === "string" ? response : JSON.stringify(response);
    return { action: "mcp_tool_use", info };
  }
  const action = Object.hasOwn(WINDSURF_ACTION, tool) ? WINDSURF_ACTION[tool] : null;
  if (action === "run_command") return { action, info: { command_line: input.command ?? "", cwd: str(input.cwd) ?? base.cwd } };
  if (action === "read_code") return { action, info: { file_path: input.file_path ?? "" } };
  if (action === "write_code") return { action, info: { file_path: input.file_path ?? "", edits: editsOf(input) } };
  // Windsurf has no action for this tool: the action is named after the event, the call kept as is.
  return { action: "tool_use", info: { tool_name: tool, tool_input: input } };
}

/**
 * The hook's stdin as Windsurf sends it. Fired by Windsurf, the hook gets Windsurf's own action
 * name, ids, timestamp and `tool_info` back. Fired elsewhere: `agent_action_name` is the action of
 * the call (`pre_run_command` for Bash, `pre_read_code`, `pre_write_code`, `pre_mcp_tool_use`;
 * `pre_tool_use` / `post_tool_use` with `tool_info: {tool_name, tool_input}` for a tool Windsurf
 * has no action for), `pre_user_prompt` for a prompt, `post_cascade_response` for stop, the
 * canonical name for any other event; `trajectory_id` is the session id, `execution_id` the tool
 * call's id (else ""), `timestamp` the time of the run.
 */
export function windsurfInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const host = firedBy(base, "windsurf");
  let action: string;
  let info: Record<string, unknown>;
  if (event === "pre_tool_use" || event === "post_tool_use") {
    const post = event === "post_tool_use";
    const call = toolAction(base, post);
    action = `${post ? "post" : "pre"}_${call.action}`;
    info = call.info;
  } else if (event === "user_prompt_submit") {
    action = "pre_user_prompt";
    info = { user_prompt: base.prompt ?? "" };
  } else if (event === "stop") {
    action = "post_cascade_response";
    info = { response: str(base.last_assistant_message) ?? "" };
  } else {
    action = event;
    info = {};
  }
  return {
    agent_action_name: str(host?.event) ?? action,
    trajectory_id: str(host?.trajectory_id) ?? base.session_id,
    execution_id: str(host?.execution_id) ?? str(base.tool_use_id) ?? "",
    timestamp: str(host?.timestamp) ?? new Date().toISOString(),
    tool_info: host && isJsonObject(host.tool_info) ? host.tool_info : info,
  };
}

/**
 * Read a hook that exited 0 or 2 by Windsurf's rules (any other code already failed open): exit 2
 * blocks a pre-hook (a tool call, a prompt, any event before an action) with stderr as the reason; elsewhere nothing can be
 * blocked and stderr is shown to the user. What the hook prints on stdout is shown to the user
 * (a notice), never the model: Windsurf reads no JSON.
 */
export function readWindsurf(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult {
  const notice = (content: string): Message => ({ role: "system", content, kind: "notice", hook: hook.name });
  const out = r.stdout.trim();
  const err = r.stderr.trim();
  // A pre-hook: an event before an action (post_cascade_response, stop, comes after the response).
  if (code === 2 && gate === "yes" && hook.event !== "stop" && hook.event !== "subagent_stop") {
    const result: HookResult = { ...r, status: "blocked", decision: "block", reason: err || "Blocked by hook" };
    if (out) result.messages.push(notice(out));
    return result;
  }
  if (out) r.messages.push(notice(out));
  if (code === 2 && err) r.messages.push(notice(err));
  return r;
}

/** Windsurf's dialect: Windsurf's payload on stdin, the exit code read as Windsurf reads it. */
export const windsurf: DialectCode = { stdin: windsurfInput, readExit: readWindsurf };
