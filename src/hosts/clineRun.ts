import { detectCline } from "./detect.js";
import { isJsonObject } from "../config/scanJson.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { blockReason, parseJsonObject, rankedDecision, resultTexts } from "./resultText.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { baseRead, canonicalTool, field, stringField } from "./payload.js";
import { setOwn } from "../runner/context.js";

/**
 * Cline (the VS Code extension and `cline` CLI): one executable per hook type, named after it, in
 * `.clinerules/hooks/` (project) or `~/Documents/Cline/Hooks/` (global). Payload: camelCase base
 * fields (`clineVersion, hookName, timestamp, taskId, workspaceRoots, userId`) plus one object
 * named after the hook (`preToolUse: {toolName, parameters}`, …). Answer: the last JSON object on
 * stdout, `{cancel, contextModification?, errorMessage?}`; a non-zero exit, invalid JSON or a
 * timeout BLOCKS (Cline fails closed), so a dispatch always exits 0. Facts: docs/hosts/cline.md.
 *
 * There is no JSON config to merge entries into: `hooks install cline` writes one small script per
 * hook type instead (a `scriptFolder` setup), and `hooks import cline` reads that folder.
 */

export const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  TaskStart: "session_start",
  TaskResume: "session_start",
  TaskCancel: "session_end",
  TaskComplete: "stop",
  UserPromptSubmit: "user_prompt_submit",
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
});

/** Cline's tools (docs: Cline Tools Reference) → canonical; MCP calls become `mcp__<server>__<tool>`. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({
  execute_command: "Bash",
  read_file: "Read",
  write_to_file: "Write",
  replace_in_file: "Edit",
  search_files: "Grep",
  web_fetch: "WebFetch",
});

/** The hook-specific object of each hook: `preToolUse` for PreToolUse. */
export const specificKey = (hookName: string) => hookName[0].toLowerCase() + hookName.slice(1);

/**
 * Cline nests each event's fields under a key named for the hook (`preToolUse: {toolName,
 * parameters}`): they are lifted to hookrun's fields, then read by the shared reader like any
 * host's; Cline's own bookkeeping stays under `host`.
 */
function read(payload: Payload, event: string): HookContext {
  const hookName = stringField(payload, "hookName") ?? event;
  const nested = field(payload, specificKey(hookName));
  const specific = isJsonObject(nested) ? nested : {};
  const ctx = baseRead(clineRun, {}, { event: hookName });
  const host = ctx.host as Record<string, unknown>;
  for (const k of ["clineVersion", "timestamp", "taskId", "workspaceRoots", "userId"]) if (field(payload, k) !== undefined) host[k] = payload[k];
  setOwn(host, specificKey(hookName), nested);
  const taskId = stringField(payload, "taskId");
  if (taskId !== undefined) ctx.session_id = taskId;
  const workspaceRoots = field(payload, "workspaceRoots");
  const roots = Array.isArray(workspaceRoots) ? workspaceRoots.filter((r): r is string => typeof r === "string") : [];
  if (roots[0] !== undefined) ctx.cwd = roots[0];

  // A tool call: `preToolUse: {toolName, parameters}` (documented), or `tool_call: {id, name, input}` (newer builds).
  const toolCall = field(payload, "tool_call");
  const call = isJsonObject(toolCall) ? toolCall : undefined;
  const toolName = typeof specific.toolName === "string" ? specific.toolName : typeof call?.name === "string" ? call.name : undefined;
  if (toolName !== undefined) {
    const params = isJsonObject(specific.parameters) ? specific.parameters : isJsonObject(call?.input) ? call.input : {};
    host.tool_name = toolName;
    if (toolName === "use_mcp_tool") {
      ctx.tool_name = `mcp__${String(params.server_name ?? "unknown")}__${String(params.tool_name ?? "unknown")}`;
      ctx.tool_input = parseJsonObject(params.arguments) ?? {};
    } else {
      ctx.tool_name = canonicalTool(clineRun, toolName);
      // Claude's file tools name the file `file_path`; Cline's `path` is kept too.
      ctx.tool_input = typeof params.path === "string" && ctx.tool_name !== "Grep" ? { ...params, file_path: params.path } : { ...params };
    }
    if (typeof call?.id === "string") ctx.tool_use_id = call.id;
    if (hookName === "PostToolUse") ctx.tool_response = { result: specific.result, success: specific.success, executionTimeMs: specific.executionTimeMs };
  }
  if (hookName === "UserPromptSubmit" && typeof specific.prompt === "string") ctx.prompt = specific.prompt;
  if (hookName === "TaskStart") ctx.source = "startup";
  if (hookName === "TaskResume") ctx.source = "resume";
  if (hookName === "TaskCancel") ctx.reason = "cancel";
  ctx.host = host;
  return ctx;
}

const answer = (out: Record<string, unknown>, stderr: string[]): HostAnswer => ({
  stdout: `${JSON.stringify(out)}\n`,
  stderr: stderr.length ? `${stderr.join("\n")}\n` : "",
  exitCode: 0,
});

/**
 * A run as Cline's `{cancel, contextModification, errorMessage}`, exit 0 always (Cline blocks on a
 * non-zero exit). What Cline cannot do is a block whose message says so (ask, a rewritten input)
 * or context for the model's next request (a stop hook that wants the agent to go on).
 */
function render(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const ranked = rankedDecision(result);
  const forModel = [...t.context, ...t.feedback];
  let cancel: string | null = null;
  if (result.event === "stop") {
    const goOn = [...(result.blocked ? [blockReason(result)] : []), ...t.followups];
    if (goOn.length) forModel.push(`hookrun: a hook asked the agent to go on, which Cline cannot do once the task is complete: ${goOn.join(" | ")}`);
  } else if (result.blocked) cancel = blockReason(result);
  // On TaskComplete the task is over anyway; elsewhere a stop request cancels.
  if (!cancel && !result.continue && result.event !== "stop") cancel = `hookrun: a hook asked to stop the agent: ${result.stop_reason ?? "no reason given"}`;
  if (!cancel && ranked?.decision === "ask") cancel = `hookrun: Cline's hooks cannot ask the user, so this is blocked instead${ranked.reason ? `: ${ranked.reason}` : ""}`;
  if (!cancel && result.event === "pre_tool_use" && result.updated_input !== null && result.updated_input !== undefined && ranked?.decision !== "defer")
    cancel = `hookrun: Cline cannot rewrite a tool call, so it is blocked (a hook asked for ${JSON.stringify(result.updated_input)})`;
  const out: Record<string, unknown> = { cancel: cancel !== null };
  if (cancel !== null) {
    out.errorMessage = cancel;
    forModel.unshift(cancel);
  }
  if (forModel.length) out.contextModification = forModel.join("\n\n");
  return answer(
    out,
    [...t.notices, ...t.failures].map((l) => `hookrun: ${l}`),
  );
}

/** Hooks that did not run: the action goes on (exit 0, cancel false), the model is told and can tell the user. */
function notRun(_event: string, forUser: string, forModel: string): HostAnswer {
  return answer({ cancel: false, contextModification: `hookrun: the project's hooks are not running in this session: ${forModel}` }, [`hookrun: the project's hooks did not run: ${forUser}`]);
}

export const clineRun: HostRuntime = {
  name: "cline",
  title: "Cline",
  events: EVENTS,
  tools: TOOLS,
  // Cline's docs name no timeout setting and no default; a timeout blocks the action.
  timeout: { unit: "s", default: 0 },
  detect: detectCline,
  read,
  render,
  notRun,
  degrade: {
    ask: "a block (`cancel: true`) whose errorMessage says Cline cannot ask",
    defer: "`cancel: false`: Cline's own approval rules decide",
    updated_input: "a block saying Cline cannot rewrite the call (what the hook asked for is in the message)",
    context: "`contextModification` (the model sees it on its next request)",
    feedback: "`contextModification`",
    followup: "`contextModification`: TaskComplete cannot make the agent go on",
    stop: "`cancel: true` with the stop reason",
    notice: "stderr only: Cline shows a hook's errorMessage only when it blocks",
  },
};
