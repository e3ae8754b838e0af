import { CODEX_EVENTS as EVENTS, detectCodex } from "./detect.js";
import { isJsonObject } from "../config/scanJson.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { baseRead } from "./payload.js";
import { blockReason, resultTexts } from "./resultText.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";

/**
 * Codex CLI (`@openai/codex`, verified against 0.171.0; docs/hosts/codex.md). Codex reads
 * `.codex/hooks.json` (project, only when the project is trusted in config.toml) and
 * `~/.codex/hooks.json`, in Claude's shape, sends Claude's snake_case payload plus `turn_id` and
 * `model`, and reads a strict subset of Claude's JSON answer: every output object denies unknown
 * fields, and on PreToolUse / PermissionRequest `continue: false`, `stopReason`, `suppressOutput`
 * and `ask` are rejected, after which the tool call PROCEEDS. So this renderer writes, per event,
 * only the fields that event's schema has, and degrades what Codex lacks into a deny that says so.
 */

export const CODEX_NAME: ReadonlyMap<string, string> = new Map(Object.entries(EVENTS).map(([codex, canonical]) => [canonical, codex]));

/**
 * Codex's tool names → canonical. The shell tool (exec_command / shell) is reported as `Bash`
 * already; `apply_patch` (the patch text in tool_input.command) is `Edit`, or `Write` when the
 * patch only adds files (read() decides; Codex's own matchers `Edit` and `Write` both select
 * apply_patch). MCP tools are `mcp__server__tool`, as in Claude.
 */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ Bash: "Bash", apply_patch: "Edit" });

/** Which answer fields each event's output schema has (Codex denies unknown fields). */
interface Shape {
  /** hookSpecificOutput.additionalContext (a developer message to the model). */
  context: boolean;
  /** Top-level decision: "block" + reason. */
  block: boolean;
  /** `continue: false` / `stopReason` are accepted (rejected on PreToolUse and PermissionRequest). */
  stop: boolean;
}
/** An event whose answer is `systemMessage` alone (Interrupt's schema; SessionEnd has none, and Codex reads nothing back). */
const MESSAGE_ONLY: Shape = { context: false, block: false, stop: false };
const SHAPES: Readonly<Record<string, Shape>> = {
  session_start: { context: true, block: false, stop: true },
  user_prompt_submit: { context: true, block: true, stop: true },
  pre_tool_use: { context: true, block: false, stop: false },
  permission_request: { context: false, block: false, stop: false },
  post_tool_use: { context: true, block: true, stop: true },
  pre_compact: { context: false, block: false, stop: true },
  post_compact: { context: false, block: false, stop: true },
  subagent_start: { context: true, block: false, stop: true },
  subagent_stop: { context: false, block: true, stop: true },
  stop: { context: false, block: true, stop: true },
  session_end: MESSAGE_ONLY,
  generation_interrupt: MESSAGE_ONLY,
};

/** One Codex hook answer (only fields some Codex event accepts; never suppressOutput). */
export interface CodexHookResponse {
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
  decision?: "block";
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: string;
    permissionDecision?: "allow" | "deny";
    permissionDecisionReason?: string;
    updatedInput?: unknown;
    additionalContext?: string;
    decision?: { behavior: "allow" | "deny"; message?: string };
  };
}

/** The files an apply_patch patch touches, and whether it only adds files. */
export function patchFiles(patch: string): { files: string[]; addsOnly: boolean } {
  const files: string[] = [];
  let addsOnly = true;
  for (const m of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) {
    files.push(m[2].trim());
    if (m[1] !== "Add") addsOnly = false;
  }
  return { files, addsOnly: addsOnly && files.length > 0 };
}

/** Codex's payload as hookrun's context: tool names canonical; Codex's own under `host`. */
function read(payload: Payload, event: string): HookContext {
  const context = baseRead(codexRun, payload);
  const host = context.host as Record<string, unknown>;
  host.event ??= CODEX_NAME.get(event) ?? event;
  for (const k of ["turn_id", "model", "permission_mode"] as const) if (payload[k] !== undefined) host[k] = payload[k];
  const input = payload.tool_input;
  if (payload.tool_name === "apply_patch" && isJsonObject(input) && typeof input.command === "string") {
    const { files, addsOnly } = patchFiles(input.command);
    host.patch_files = files;
    if (addsOnly) context.tool_name = "Write";
  }
  return context;
}

/** The reason of a blocked run. */

/**
 * The run as Codex's answer for its event. Rules (docs/hosts/codex.md):
 * - block: PreToolUse deny + reason; PermissionRequest decision deny + message; elsewhere
 *   decision block + reason (UserPromptSubmit drops the prompt, PostToolUse replaces the tool's
 *   output with it, Stop/SubagentStop go on with it as a `<hook_prompt>`); SessionStart,
 *   SubagentStart and the compact events cannot block: the reason goes to systemMessage.
 * - ask (Codex has none; it would run the tool): a deny whose reason says the host cannot ask.
 * - allow: only with updated_input (allow + updatedInput); a bare allow is left out (Codex
 *   rejects it) and Codex's own approval flow decides.
 * - updated_input: PreToolUse allow + updatedInput; elsewhere a systemMessage (not applied).
 * - context: additionalContext where the event has it, else systemMessage (user only).
 * - feedback (post-tool): decision block + reason, which Codex puts in place of the tool output.
 * - follow-ups on Stop/SubagentStop: decision block + reason (the turn goes on).
 * - continue: false: `continue: false` + stopReason where accepted (it ends the session or turn on
 *   SessionStart / UserPromptSubmit / Stop; on PostToolUse Codex only puts stopReason in place of
 *   the tool output and goes on); on PreToolUse it becomes a deny saying the hooks asked to stop,
 *   on PermissionRequest a deny message.
 * - notices and hook failures (hookrun fails open): systemMessage.
 */
export function formatCodex(result: TriggerResult): CodexHookResponse {
  const event = result.event;
  const shape = SHAPES[event] ?? { context: false, block: false, stop: true };
  const out: CodexHookResponse = {};
  const specific: NonNullable<CodexHookResponse["hookSpecificOutput"]> = { hookEventName: CODEX_NAME.get(event) ?? event };
  const { context, followups, feedback, notices, failures } = resultTexts(result);
  const system = [...notices, ...failures];
  if (shape.context && context.length) specific.additionalContext = context.join("\n\n");
  else system.unshift(...context);
  const stopWhy = result.stop_reason ?? `stopped by ${result.stopped_by ?? "a hook"}`;
  const hasInput = result.updated_input !== null && result.updated_input !== undefined;

  if (event === "pre_tool_use") {
    const asks = result.hooks.filter((r) => r.decision === "ask");
    const deny = (why: string) => {
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = why;
    };
    if (result.blocked) deny(blockReason(result));
    else if (!result.continue) deny(`hookrun: the hooks asked to stop the agent (${stopWhy}); Codex cannot stop from PreToolUse, so this call is denied`);
    else if (asks.length) {
      const why = asks
        .map((r) => r.reason)
        .filter(Boolean)
        .join("; ");
      deny(`hookrun: a hook asked for the user's confirmation${why ? ` (${why})` : ""}, and Codex hooks cannot ask: the call is denied; ask the user, then retry`);
    } else if (hasInput) {
      specific.permissionDecision = "allow";
      specific.updatedInput = result.updated_input;
    }
    // a bare allow is left out: Codex rejects `allow` without updatedInput; its own approval flow decides
  } else if (event === "permission_request") {
    if (result.blocked) specific.decision = { behavior: "deny", message: blockReason(result) };
    else if (!result.continue)
      specific.decision = { behavior: "deny", message: `hookrun: the hooks asked to stop the agent (${stopWhy}); Codex cannot stop from PermissionRequest, so this request is denied` };
    else if (result.hooks.some((r) => r.decision === "allow")) specific.decision = { behavior: "allow" };
    if (hasInput && specific.decision?.behavior !== "deny") system.push("hookrun: a hook rewrote the tool input, which Codex cannot take on PermissionRequest: the original input is used");
  } else {
    if (hasInput) system.push(`hookrun: a hook rewrote the input on ${event}, which Codex cannot take there: not applied`);
    if (result.blocked) {
      if (shape.block) {
        out.decision = "block";
        out.reason = blockReason(result);
      } else system.push(`hookrun: blocked by ${result.blocked_by ?? "a hook"} (${blockReason(result)}), but Codex cannot block ${CODEX_NAME.get(event) ?? event}`);
    } else if (shape.block && (event === "stop" || event === "subagent_stop") && followups.length) {
      out.decision = "block";
      out.reason = followups.join("\n\n");
    } else if (event === "post_tool_use" && feedback.length) {
      out.decision = "block";
      out.reason = feedback.join("\n");
    }
    if (!result.continue && shape.stop) {
      out.continue = false;
      out.stopReason = stopWhy;
    } else if (!result.continue) system.push(`hookrun: the hooks asked to stop the agent (${stopWhy}), which Codex cannot do on ${CODEX_NAME.get(event) ?? event}`);
  }
  if (system.length) out.systemMessage = system.join("\n");
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return out;
}

/** What a dispatch under Codex prints: always one JSON answer on stdout, exit 0. */
function render(result: TriggerResult): HostAnswer {
  return { stdout: `${JSON.stringify(formatCodex(result))}\n`, stderr: "", exitCode: 0 };
}

/** Untrusted or invalid config: the user is told (systemMessage), and the model where Codex gives it context. */
function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: CodexHookResponse = { systemMessage: `hookrun: the project's hooks did not run: ${forUser}` };
  if (event === "session_start" || event === "user_prompt_submit")
    out.hookSpecificOutput = { hookEventName: CODEX_NAME.get(event)!, additionalContext: `hookrun: the project's hooks are not running in this session: ${forModel}` };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

export const codexRun: HostRuntime = {
  name: "codex",
  title: "Codex CLI",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 600 },
  detect: detectCodex,
  read,
  render,
  notRun,
  degrade: {
    ask: "a deny whose reason says Codex hooks cannot ask (Codex rejects `ask` and would run the tool)",
    defer: "nothing: Codex's own approval flow decides (as with no decision)",
    updated_input: "PreToolUse: allow + updatedInput (Codex takes a rewrite only with allow); elsewhere a systemMessage, not applied",
    context: "additionalContext (a developer message) on SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, SubagentStart; elsewhere systemMessage (user only)",
    feedback: "PostToolUse decision block + reason: Codex gives the model the reason IN PLACE of the tool's output",
    followup: "Stop / SubagentStop decision block + reason: the turn goes on with it as a <hook_prompt> user message",
    stop: "continue: false + stopReason where Codex accepts it (SessionStart, UserPromptSubmit, Stop end the session or turn; on PostToolUse Codex only puts stopReason in place of the tool output and goes on); on PreToolUse a deny saying the hooks asked to stop; on PermissionRequest a deny",
    notice: "systemMessage (the TUI shows it; `codex exec` prints none)",
  },
};

export { EVENTS };
