/**
 * The cline dialect: hooks written for Cline (`dialect: cline`). The hook receives Cline's payload
 * (`hookName`, `taskId`, `workspaceRoots`, the object named after the hook, `tool_call` on tool
 * hooks) whichever host fired the event, and its answer is read by Cline's rules: the last JSON
 * object on stdout, `{cancel, contextModification, errorMessage}`; Cline fails closed, so a
 * non-zero exit, a missing command, a timeout or output it cannot read blocks (the dialect row's
 * `failsClosedOn`). docs/dialects.md has every field.
 */
import type { ResolvedHook } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import type { GateKind } from "../events/catalog.js";
import { setOwn } from "../runner/context.js";
import type { HookResult, Message } from "../runner/types.js";
import { firedBy, str } from "./shape.js";
import type { DialectCode } from "./types.js";

/** Cline's tool for each canonical tool (the reverse of the Cline host's tool table). */
export const CLINE_TOOL: Readonly<Record<string, string>> = Object.freeze({
  Bash: "execute_command",
  Read: "read_file",
  Write: "write_to_file",
  Edit: "replace_in_file",
  Grep: "search_files",
  WebFetch: "web_fetch",
});

/** Cline's hook for each canonical event (session_start is TaskResume when its source is `resume`). */
export const CLINE_HOOK: Readonly<Record<string, string>> = Object.freeze({
  session_start: "TaskStart",
  session_end: "TaskCancel",
  stop: "TaskComplete",
  user_prompt_submit: "UserPromptSubmit",
  pre_tool_use: "PreToolUse",
  post_tool_use: "PostToolUse",
  pre_compact: "PreCompact",
});

const pascal = (event: string): string => event.replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase());
const specificKey = (hookName: string): string => hookName[0].toLowerCase() + hookName.slice(1);

/** A canonical tool call as Cline names it: its tool and parameters (`path` for `file_path`). */
function clineCall(tool: string, input: Record<string, unknown>): { name: string; parameters: Record<string, unknown> } {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(tool);
  if (mcp) return { name: "use_mcp_tool", parameters: { server_name: mcp[1], tool_name: mcp[2], arguments: JSON.stringify(input) } };
  const { file_path, ...rest } = input;
  const parameters: Record<string, unknown> = typeof file_path === "string" && rest.path === undefined ? { path: file_path, ...rest } : { ...input };
  if (typeof file_path === "string") delete parameters.file_path;
  return { name: Object.hasOwn(CLINE_TOOL, tool) ? CLINE_TOOL[tool] : tool, parameters };
}

/**
 * The hook's stdin as Cline sends it. Fired by Cline, the hook gets Cline's own hook name, base
 * fields and hook object back. Fired elsewhere: `hookName` is Cline's hook of the event (TaskStart,
 * TaskResume, TaskCancel, TaskComplete, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact; the
 * PascalCase canonical name for any other), `taskId` the session id, `workspaceRoots` [cwd],
 * `clineVersion` and `userId` "", `timestamp` the time of the run in ms; a tool call is given both
 * ways Cline has sent it, `preToolUse: {toolName, parameters}` and `tool_call: {id, name, input}`.
 */
export function clineInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const host = firedBy(base, "cline");
  const hookName = str(host?.event) ?? (event === "session_start" && base.source === "resume" ? "TaskResume" : (CLINE_HOOK[event] ?? pascal(event)));
  const out: Record<string, unknown> = {
    clineVersion: str(host?.clineVersion) ?? "",
    hookName,
    timestamp: str(host?.timestamp) ?? String(Date.now()),
    taskId: str(host?.taskId) ?? base.session_id,
    workspaceRoots: Array.isArray(host?.workspaceRoots) ? host.workspaceRoots : [base.cwd],
    userId: str(host?.userId) ?? "",
  };
  const key = specificKey(hookName);
  let specific: Record<string, unknown> = {};
  if (typeof base.tool_name === "string") {
    const call = clineCall(base.tool_name, isJsonObject(base.tool_input) ? base.tool_input : {});
    if (typeof host?.tool_name === "string") call.name = host.tool_name;
    specific = { toolName: call.name, parameters: call.parameters };
    if (event === "post_tool_use") {
      const response = isJsonObject(base.tool_response) ? base.tool_response : {};
      specific.result = response.result ?? base.tool_response ?? "";
      specific.success = response.success ?? true;
      specific.executionTimeMs = response.executionTimeMs ?? 0;
    }
    out.tool_call = { id: str(base.tool_use_id) ?? "", name: call.name, input: call.parameters };
  } else if (event === "user_prompt_submit") specific = { prompt: base.prompt ?? "", attachments: [] };
  else if (hookName === "TaskStart" || hookName === "TaskResume") specific = { taskMetadata: { taskId: out.taskId, ulid: "", initialTask: "" } };
  // Cline's own hook object when Cline fired the event.
  if (host && isJsonObject(host[key])) specific = host[key];
  setOwn(out, key, specific);
  return out;
}

/**
 * How many line starts `lastJsonObject` tries, from the last one back. Each try parses to the end
 * of the output, so an unbounded number of them would take time quadratic in its length (a hook
 * printing 100,000 lines of `{"a":[` would block hookrun for minutes after it exited); bounded,
 * the reading is linear. An answer whose own lines start with `{` more often than this (an array
 * of many objects, pretty-printed) is not found, and the hook fails: closed, as Cline's do.
 */
const MAX_JSON_STARTS = 16;

/**
 * Cline's answer: the last JSON object on stdout (a hook may log lines before it), or null. It
 * starts a line: such starts are tried from the last one back, at most MAX_JSON_STARTS of them.
 */
function lastJsonObject(text: string): Record<string, unknown> | null {
  const starts: number[] = [];
  for (const m of text.matchAll(/^[ \t]*\{/gm)) starts.push(m.index + m[0].length - 1);
  for (const start of starts.reverse().slice(0, MAX_JSON_STARTS)) {
    try {
      const value: unknown = JSON.parse(text.slice(start));
      if (isJsonObject(value)) return value;
    } catch {
      // not one JSON object from here to the end
    }
  }
  return null;
}

const BLOCKED = "Blocked by hook";
const STOPPING = new Set(["stop", "subagent_stop"]);

/**
 * Read a hook by Cline's rules. A non-zero exit fails (and so, on an event that can block,
 * blocks: the row fails closed); on exit 0 the last JSON object is the answer, and stdout with
 * none fails the same way. `cancel: true` blocks the action with `errorMessage` (on an event that
 * cannot block it cancels the task: the agent stops; on TaskComplete nothing is left to cancel and
 * the message is for the user); `contextModification` (or `context`) reaches the model;
 * `overrideInput` replaces a tool call's input; `errorMessage` without `cancel` Cline never shows.
 */
export function readCline(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult {
  const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
  if (code !== 0) {
    const line = r.stderr.trim().split("\n").pop() ?? "";
    return { ...r, status: "failed", error: `exit code ${code}${line ? `: ${line}` : ""} (Cline cancels on a non-zero exit)` };
  }
  const text = r.stdout.trim();
  if (text === "") return r;
  const o = lastJsonObject(text);
  if (o === null) return { ...r, status: "invalid_output", error: "stdout holds no JSON object (Cline cancels on output it cannot read)" };
  if (o.cancel !== undefined && typeof o.cancel !== "boolean") return { ...r, status: "invalid_output", error: "`cancel` must be true or false (Cline cancels on output it cannot read)" };
  for (const k of Object.keys(o)) if (!["cancel", "contextModification", "context", "errorMessage", "overrideInput"].includes(k)) setOwn((r.json ??= {}), k, o[k]);
  const context = str(o.contextModification) ?? str(o.context);
  if (context) r.messages.push(message(context));
  const why = str(o.errorMessage) || BLOCKED;
  if (o.cancel === true) {
    if (STOPPING.has(hook.event)) r.messages.push(message(why, "notice"));
    else if (gate === "yes") return { ...r, status: "blocked", decision: "block", reason: why };
    else {
      r.continue = false;
      r.stop_reason = why;
    }
    return r;
  }
  if (hook.event === "pre_tool_use" && isJsonObject(o.overrideInput)) {
    const input = o.overrideInput;
    r.updated_input = typeof input.path === "string" && input.file_path === undefined ? { ...input, file_path: input.path } : input;
  }
  return r;
}

/** Cline's dialect: Cline's payload on stdin, the answer read by Cline's rules. */
export const cline: DialectCode = { stdin: clineInput, readExit: readCline };
