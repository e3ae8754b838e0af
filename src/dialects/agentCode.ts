/**
 * The agent-code dialect: hooks written for agent-code (`dialect: agent-code`, what `hooks import
 * agent-code` writes). A hook receives agent-code's own context for the event (no common envelope:
 * on pre_tool_use the raw tool input, the tool named only in `AGENT_CODE_HOOK_TOOL`), compact JSON
 * with sorted keys, and the `AGENT_CODE_HOOK_*` variables. agent-code reads nothing a hook says
 * except on pre_tool_use, where any non-zero exit vetoes the call with the first line of stderr
 * (else stdout) as the reason. docs/dialects.md#agent-code-hooks-written-for-agent-code.
 */
import { isJsonObject } from "../config/scanJson.js";
import { setOwn } from "../runner/context.js";
import type { DialectCode } from "./types.js";

/** Canonical tool names agent-code spells otherwise (Bash, Glob, Grep, WebFetch, … alike). */
const AGENT_CODE_TOOL: Readonly<Record<string, string>> = Object.freeze({ Write: "FileWrite", Edit: "FileEdit", MultiEdit: "MultiEdit", Read: "FileRead" });

/** hookrun events agent-code names otherwise. */
const AGENT_CODE_EVENT: Readonly<Record<string, string>> = Object.freeze({ session_end: "session_stop", post_tool_use_failure: "post_tool_use" });

/** The events agent-code fires with a tool (AGENT_CODE_HOOK_TOOL set). */
const TOOL_EVENTS = new Set(["pre_tool_use", "post_tool_use", "post_tool_use_failure", "permission_denied"]);

type Field = readonly [agentCode: string, canonical: string, fallback?: unknown];

/** Per event, agent-code's context fields: its name, hookrun's, and the default when the firing host gave none. */
const FIELDS: Readonly<Record<string, readonly Field[]>> = {
  session_start: [
    ["session_id", "session_id"],
    ["cwd", "cwd"],
    ["model", "model", ""],
  ],
  session_end: [
    ["session_id", "session_id"],
    ["turn_count", "turn_count"],
    ["total_cost_usd", "total_cost_usd", 0],
    ["total_tokens", "total_tokens", 0],
  ],
  user_prompt_submit: [
    ["user_input", "prompt", ""],
    ["turn", "turn_count"],
    ["attachments", "attachments"],
    ["steered", "steered"],
  ],
  pre_turn: [
    ["turn", "turn_count"],
    ["user_input_preview", "user_input_preview"],
  ],
  post_turn: [
    ["turn", "turn_count"],
    ["total_turns", "total_turns"],
  ],
  post_tool_use: [
    ["tool", "tool_name", ""],
    ["is_error", "is_error", false],
  ],
  post_tool_use_failure: [
    ["tool", "tool_name", ""],
    ["is_error", "is_error", true],
  ],
  file_changed: [
    ["tool", "tool_name", ""],
    ["path", "path"],
    ["is_error", "is_error", false],
  ],
  stop: [
    ["session_id", "session_id"],
    ["turn_count", "turn_count"],
    ["last_assistant_message", "last_assistant_message"],
  ],
  cwd_changed: [
    ["previous_cwd", "old_cwd"],
    ["new_cwd", "new_cwd"],
    ["additional_dirs", "additional_dirs"],
    ["cause", "cause"],
  ],
  permission_denied: [
    ["session_id", "session_id"],
    ["turn", "turn_count"],
    ["tool", "tool_name", ""],
    ["tool_use_id", "tool_use_id", ""],
    ["reason", "reason", ""],
    ["input_summary", "input_summary", ""],
    ["timestamp", "timestamp", ""],
  ],
  error: [
    ["message", "error", ""],
    ["turn", "turn_count"],
    ["stage", "stage"],
  ],
  task_completed: [
    ["id", "task_id"],
    ["description", "task_description"],
    ["kind", "kind"],
    ["status", "status"],
  ],
};

/** hookrun's own envelope fields, left out of an event agent-code sends "as is". */
const ENVELOPE = new Set(["event", "hook_event_name", "host", "turn_count", "last_assistant_message", "stop_hook_active"]);

/** agent-code's name of the call's tool: its own when agent-code fired the event, else the canonical name in its spelling. */
function toolOf(base: Record<string, unknown>): string {
  const host = isJsonObject(base.host) ? base.host : null;
  if (host?.name === "agent-code" && typeof host.tool_name === "string") return host.tool_name;
  const t = base.tool_name;
  return typeof t === "string" ? (Object.hasOwn(AGENT_CODE_TOOL, t) ? AGENT_CODE_TOOL[t] : t) : "";
}

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) setOwn(out, k, o[k]);
  return out;
}

/**
 * agent-code's context for the event, keys sorted: pre_tool_use's is the tool's raw input (the
 * context's `tool_input`); the other events' are the fields of {@link FIELDS} under agent-code's
 * names (a field the firing host did not give is left out, or gets the default listed there); an
 * event without a row gets the context without hookrun's envelope.
 */
export function agentCodeInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  if (event === "pre_tool_use") return sorted(isJsonObject(base.tool_input) ? base.tool_input : {});
  const fields = FIELDS[event];
  const out: Record<string, unknown> = {};
  if (!fields) {
    for (const k of Object.keys(base)) if (!ENVELOPE.has(k)) setOwn(out, k, base[k]);
    return sorted(out);
  }
  for (const [name, canonical, fallback] of fields) {
    const value = canonical === "tool_name" ? toolOf(base) || undefined : base[canonical];
    if (value !== undefined) out[name] = value;
    else if (fallback !== undefined) out[name] = fallback;
  }
  return sorted(out);
}

// agent-code puts the context in AGENT_CODE_HOOK_CONTEXT up to this many bytes.
const CONTEXT_LIMIT = 16 * 1024;

/** The variables agent-code sets: the event, the tool (empty on events without one), the context (or that it was too large). */
function agentCodeEnv(input: Record<string, unknown>, event: string, _projectDir: string, base?: Record<string, unknown>): Record<string, string> {
  const context = JSON.stringify(input);
  const env: Record<string, string> = {
    AGENT_CODE_HOOK_EVENT: Object.hasOwn(AGENT_CODE_EVENT, event) ? AGENT_CODE_EVENT[event] : event,
    AGENT_CODE_HOOK_TOOL: TOOL_EVENTS.has(event) && base ? toolOf(base) : "",
  };
  if (Buffer.byteLength(context) <= CONTEXT_LIMIT) env.AGENT_CODE_HOOK_CONTEXT = context;
  else env.AGENT_CODE_HOOK_CONTEXT_TRUNCATED = "1";
  return env;
}

const firstLine = (text: string): string => text.trim().split("\n")[0]?.trim() ?? "";

export const agentCode: DialectCode = {
  stdin: agentCodeInput,
  env: agentCodeEnv,
  /**
   * pre_tool_use: any non-zero exit vetoes the call, the reason the first line of stderr, else of
   * stdout; exit 0 lets agent-code's own permission rules decide. Elsewhere nothing is read: a
   * non-zero exit is a failure (agent-code goes on), stdout reaches no one.
   */
  readExit(r, hook, code) {
    if (code === 0) return r;
    if (hook.event === "pre_tool_use") return { ...r, status: "blocked", decision: "block", reason: firstLine(r.stderr) || firstLine(r.stdout) || `hook exited with code ${code}` };
    return { ...r, status: "failed", error: `exit code ${code}${firstLine(r.stderr) ? `: ${firstLine(r.stderr)}` : ""} (agent-code ignores it and goes on)` };
  },
};
