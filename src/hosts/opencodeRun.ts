import { OPENCODE_EVENTS as EVENTS, detectOpencode } from "./detect.js";
import { isJsonObject } from "../config/scanJson.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { baseRead, field, stringField } from "./payload.js";
import { blockReason, hookrunLine, rankedDecision, resultTexts } from "./resultText.js";
import type { HostAnswer, HostRuntime, Payload } from "./types.js";

/** opencode's built-in tools (1.18.33: bash, edit, glob, grep, read, skill, task, todowrite, webfetch, write) → Claude Code's names. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({
  bash: "Bash",
  edit: "Edit",
  write: "Write",
  read: "Read",
  glob: "Glob",
  grep: "Grep",
  webfetch: "WebFetch",
  websearch: "WebSearch",
  task: "Agent",
  todowrite: "TodoWrite",
  skill: "Skill",
});

/** opencode's argument names → Claude Code's (the canonical tool_input); both are in the context. */
const ARG_NAMES: Readonly<Record<string, string>> = Object.freeze({ filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" });
const OPENCODE_ARG = new Map(Object.entries(ARG_NAMES).map(([o, c]) => [c, o]));

/** A tool's arguments with Claude Code's names added beside opencode's (`file_path` for `filePath`). */
function canonicalArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const [o, c] of Object.entries(ARG_NAMES)) if (Object.hasOwn(args, o) && !Object.hasOwn(args, c)) out[c] = args[o];
  return out;
}

/** A hook's rewritten input as opencode's arguments: Claude Code's names turned back into opencode's (they win over a stale copy). */
export function opencodeArgs(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!OPENCODE_ARG.has(k)) out[k] = v;
  for (const [k, v] of Object.entries(input)) {
    const o = OPENCODE_ARG.get(k);
    if (o !== undefined) out[o] = v;
  }
  return out;
}

function read(payload: Payload, event: string): HookContext {
  const ctx = baseRead(opencodeRun, payload, { renames: { tool: "tool_name", args: "tool_input", call_id: "tool_use_id", output: "tool_response" }, event });
  const args = field(payload, "args");
  if (isJsonObject(args)) ctx.tool_input = canonicalArgs(args);
  const hostEvent = stringField(payload, "hook_event_name") ?? event;
  if (hostEvent === "session.created") ctx.source = "startup";
  if (hostEvent === "session.idle") ctx.stop_hook_active = false;
  return ctx;
}

/**
 * What the bridge does with a run (the answer's stdout, one JSON object): `block` (a throw: the
 * tool does not run and the model gets the text as its result; a prompt is refused), `args` (the
 * tool's arguments replaced), `append` (added to the tool's output the model reads), `context`
 * (system text on every later request of the session), `log` (opencode's log, for the user).
 */
export interface OpencodeAnswer {
  block?: string;
  args?: Record<string, unknown>;
  append?: string;
  context?: string[];
  log?: string[];
}

const answer = (out: OpencodeAnswer): HostAnswer => ({ stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 });

/** A run as the bridge's answer, with the written degradation rules (docs/hosts/opencode.md). */
function render(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const out: OpencodeAnswer = {};
  const log = [...t.notices, ...t.failures].map(hookrunLine);
  const context = [...t.context];
  const event = result.event;
  if (event === "pre_tool_use" || event === "user_prompt_submit") {
    const ranked = rankedDecision(result);
    if (result.blocked) out.block = blockReason(result);
    else if (!result.continue) out.block = `hookrun: a hook asked to stop the agent, which an opencode plugin cannot do, so this is refused: ${result.stop_reason ?? "no reason given"}`;
    else if (ranked?.decision === "ask") out.block = `hookrun: opencode's plugins cannot ask the user, so this is blocked instead${ranked.reason ? `: ${ranked.reason}` : ""}`;
    else if (event === "pre_tool_use" && result.updated_input !== null && result.updated_input !== undefined && ranked?.decision !== "defer") {
      if (isJsonObject(result.updated_input)) out.args = opencodeArgs(result.updated_input);
      else out.block = `hookrun: a hook rewrote the call's input to something that is not an object (${JSON.stringify(result.updated_input)}), so it is blocked`;
    }
    context.push(...t.feedback, ...t.followups);
  } else if (event === "post_tool_use") {
    const said = [...(result.blocked ? [blockReason(result)] : []), ...t.feedback, ...t.context];
    if (!result.continue) said.push(`hookrun: a hook asked to stop the agent, which an opencode plugin cannot do: ${result.stop_reason ?? "no reason given"}`);
    if (said.length) out.append = said.join("\n\n");
    context.length = 0;
    context.push(...t.followups);
  } else if (event === "stop") {
    const goOn = [...(result.blocked ? [blockReason(result)] : []), ...t.followups, ...t.feedback];
    if (goOn.length) log.push(`hookrun: a stop hook asked the agent to go on, which an opencode plugin cannot make it do: ${goOn.join(" | ")}`);
    context.length = 0;
  } else {
    if (result.blocked) log.push(`hookrun: a hook blocked ${event}, which opencode cannot refuse from a plugin: ${blockReason(result)}`);
    context.push(...t.feedback, ...t.followups);
  }
  if (context.length) out.context = context;
  if (log.length) out.log = log;
  return answer(out);
}

/** Hooks that did not run: the event goes on; the user reads why in opencode's log, the model in its context. */
function notRun(_event: string, forUser: string, forModel: string): HostAnswer {
  return answer({ context: [`hookrun: the project's hooks are not running in this session: ${forModel}`], log: [`hookrun: the project's hooks did not run: ${forUser}`] });
}

export const opencodeRun: HostRuntime = {
  name: "opencode",
  title: "opencode",
  events: EVENTS,
  tools: TOOLS,
  // opencode has no timeouts of its own for plugins: hookrun's per-hook timeouts are the only ones.
  timeout: { unit: "s", default: 0 },
  detect: detectOpencode,
  read,
  render,
  notRun,
  degrade: {
    ask: "a block (the tool does not run) whose message says opencode's plugins cannot ask",
    defer: "nothing: opencode's own permission rules decide",
    updated_input: "the tool's arguments replaced in place (Claude Code's names such as `file_path` turned back into opencode's `filePath`)",
    context: "system text on every later request of the session (`experimental.chat.system.transform`)",
    feedback: "appended to the tool's output the model reads; before a tool: system text on the next request",
    followup: "after a tool: appended to its output; on stop: opencode's log only (a plugin cannot make it go on)",
    stop: "before a tool or a prompt: a block with the stop reason; after a tool: the reason appended to its output",
    notice: "opencode's log (`opencode run --print-logs` shows it), service `hookrun`",
  },
};

export { EVENTS };
