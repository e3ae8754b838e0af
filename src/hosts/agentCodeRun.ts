import { undetectable } from "./detect.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { baseRead, canonicalTool } from "./payload.js";
import { blockReason, rankedDecision, resultTexts } from "./resultText.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";

/**
 * agent-code (avala-ai/agent-code, a Rust agent; read from its source at c25b885f / 0.30.0, not
 * run: docs/hosts/agent-code.md). Its settings (TOML) list `[[hooks]]` tables: `event`, an
 * optional exact `tool_name`, `action = { type = "shell", command = "…" }`. It runs a shell hook
 * as `bash -c CMD` in its own working directory, with the event's context as one JSON line on stdin
 * (no common envelope: pre_tool_use's is the raw tool input) and in `AGENT_CODE_HOOK_CONTEXT`, the
 * event and tool in `AGENT_CODE_HOOK_EVENT` / `AGENT_CODE_HOOK_TOOL`, and kills it after a fixed
 * 30 s. It reads nothing a hook says except on pre_tool_use, where any non-zero exit (a timeout
 * too) vetoes the call and the first line of stderr (else stdout) is the reason the model gets.
 */

/** agent-code's events (HookEvent, crates/lib/src/config/schema.rs) → hookrun's. A name not in it fails agent-code's whole config. */
export const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  session_start: "session_start",
  session_stop: "session_end",
  pre_tool_use: "pre_tool_use",
  post_tool_use: "post_tool_use",
  user_prompt_submit: "user_prompt_submit",
  pre_turn: "pre_turn",
  post_turn: "post_turn",
  pre_compact: "pre_compact",
  post_compact: "post_compact",
  file_changed: "file_changed",
  stop: "stop",
  notification: "notification",
  cwd_changed: "cwd_changed",
  config_change: "config_change",
  error: "error",
  permission_denied: "permission_denied",
  task_completed: "task_completed",
});
export const HOST_NAME: ReadonlyMap<string, string> = new Map(Object.entries(EVENTS).map(([host, canonical]) => [canonical, host]));

/** agent-code's tool names → canonical; Bash, Glob, Grep, WebFetch, WebSearch, Agent, NotebookEdit, … are spelled alike. */
export const TOOLS: Readonly<Record<string, string>> = Object.freeze({
  FileWrite: "Write",
  FileEdit: "Edit",
  MultiEdit: "Edit",
  ApplyPatch: "Edit",
  FileRead: "Read",
});

/** Per event, agent-code's context fields → hookrun's (query/mod.rs builds each context by hand). */
const RENAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  user_prompt_submit: { user_input: "prompt", turn: "turn_count" },
  pre_turn: { turn: "turn_count" },
  post_turn: { turn: "turn_count" },
  post_tool_use: { tool: "tool_name" },
  permission_denied: { tool: "tool_name", turn: "turn_count" },
  file_changed: { tool: "tool_name", path: "file_path" },
  cwd_changed: { previous_cwd: "old_cwd" },
  error: { message: "error", turn: "turn_count" },
  task_completed: { id: "task_id", description: "task_description" },
};

type Env = Readonly<Record<string, string | undefined>>;

/**
 * agent-code's payload as hookrun's context. pre_tool_use's stdin is the tool's raw input: it
 * becomes `tool_input`, the tool comes from `AGENT_CODE_HOOK_TOOL`. agent-code's own names stay
 * under `host` (event, tool_name, and `context_truncated` when the context was too large for
 * `AGENT_CODE_HOOK_CONTEXT`; stdin always has all of it).
 */
export function read(payload: Payload, event: string, env: Env = {}): HookContext {
  let context: HookContext;
  if (event === "pre_tool_use") {
    const tool = env.AGENT_CODE_HOOK_TOOL ?? "";
    context = { tool_name: canonicalTool(agentCodeRun, tool), tool_input: payload, host: { name: "agent-code", tool_name: tool } };
  } else {
    context = baseRead(agentCodeRun, payload, { renames: RENAMES[event] });
    if (event === "file_changed" && typeof payload.path === "string") context.path = payload.path;
  }
  const host = context.host as Record<string, unknown>;
  host.event = env.AGENT_CODE_HOOK_EVENT || (HOST_NAME.get(event) ?? event);
  if (env.AGENT_CODE_HOOK_CONTEXT_TRUNCATED === "1") host.context_truncated = true;
  return context;
}

/** A reason on one line: agent-code gives the model only the first line of a veto's stderr. */
const oneLine = (text: string): string => text.trim().replace(/\s*[\r\n]+\s*/g, " / ");

/** Why a pre_tool_use run vetoes the call, or null: the call goes on to agent-code's own permission rules. */
function vetoReason(result: TriggerResult): string | null {
  if (result.blocked) return blockReason(result);
  if (!result.continue)
    return `hookrun: the hooks asked to stop the agent (${result.stop_reason ?? `stopped by ${result.stopped_by ?? "a hook"}`}); a hook cannot stop agent-code, so this call is refused`;
  const ranked = rankedDecision(result);
  if (ranked?.decision === "ask")
    return `hookrun: a hook asked for the user's confirmation${ranked.reason ? ` (${ranked.reason})` : ""}, and agent-code hooks cannot ask: the call is refused; ask the user, then make the call again`;
  if (result.updated_input !== null && result.updated_input !== undefined)
    return `hookrun: a hook rewrote this call's input, and agent-code cannot run a rewritten call: it is refused; make the call again with this input: ${JSON.stringify(result.updated_input)}`;
  return null;
}

/** What agent-code drops of a run (it reads no hook output but a pre_tool_use veto), for stderr. */
function lost(result: TriggerResult): string[] {
  const t = resultTexts(result);
  const out: string[] = [];
  if (result.blocked) out.push(`a block (${blockReason(result)})`);
  if (!result.continue) out.push("a request to stop the agent");
  if (result.updated_input !== null && result.updated_input !== undefined) out.push("a rewritten input");
  for (const [what, list] of [
    ["context", t.context],
    ["feedback", t.feedback],
    ["follow-up", t.followups],
    ["notice", t.notices],
  ] as const)
    if (list.length) out.push(`${what}: ${list.join(" / ")}`);
  return [...out.map((l) => `hookrun: agent-code ignores hooks' output on ${HOST_NAME.get(result.event) ?? result.event}; not delivered: ${l}`), ...t.failures.map((f) => `hookrun: ${f}`)];
}

/**
 * The run in agent-code's contract (docs/hosts/agent-code.md). pre_tool_use: a block, ask,
 * rewritten input or stop request is a veto (exit 2, the reason alone on stderr's first line);
 * anything else is exit 0 and agent-code's permission rules decide. Every other event: exit 0,
 * what agent-code drops listed on stderr (agent-code discards it; a manual `hooks run` shows it).
 */
function render(result: TriggerResult): HostAnswer {
  if (result.event === "pre_tool_use") {
    const veto = vetoReason(result);
    if (veto !== null) return { stdout: "", stderr: `${oneLine(veto)}\n`, exitCode: 2 };
  }
  const lines = lost(result);
  return { stdout: "", stderr: lines.length ? `${lines.join("\n")}\n` : "", exitCode: 0 };
}

/**
 * Untrusted or invalid config. On pre_tool_use the call is vetoed (fail closed: the guards did not
 * run), the reason telling the model to tell the user; elsewhere nothing reaches anyone: stderr.
 */
function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  if (event === "pre_tool_use") return { stdout: "", stderr: `${oneLine(`hookrun: the project's hooks are not running, so this call is refused: ${forModel}`)}\n`, exitCode: 2 };
  return { stdout: "", stderr: `hookrun: the project's hooks did not run: ${forUser}\n`, exitCode: 0 };
}

export const agentCodeRun: HostRuntime = {
  name: "agent-code",
  title: "agent-code",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  // No envelope to recognise (pre_tool_use's stdin is the bare tool input): only `--host agent-code`.
  detect: undetectable,
  read,
  readEnv: ["AGENT_CODE_HOOK_TOOL", "AGENT_CODE_HOOK_EVENT", "AGENT_CODE_HOOK_CONTEXT_TRUNCATED"],
  render,
  notRun,
  degrade: {
    ask: "pre_tool_use: a veto whose reason says agent-code hooks cannot ask (the model should ask the user, then make the call again); elsewhere dropped",
    defer: "nothing: agent-code's own permission rules decide (as with no decision)",
    updated_input: "pre_tool_use: a veto whose reason gives the rewritten input as JSON (agent-code cannot run a rewritten call; running the original would ignore the hook); elsewhere dropped",
    context: "dropped: agent-code reads no hook output but a pre_tool_use veto's reason, so session-start and prompt context never reach the model",
    feedback: "dropped: agent-code ignores post_tool_use hooks' output and exit code",
    followup: "dropped: a stop block cannot continue the turn (agent-code ignores stop hooks' output and exit code)",
    stop: "pre_tool_use: a veto saying the hooks asked to stop the agent; elsewhere dropped (a hook cannot stop agent-code)",
    notice: "dropped (written to stderr, which agent-code discards); hook failures stay in hookrun's run log",
  },
};
