/**
 * The claude dialect: how Claude Code (2.1.330; PreSkillShellCommand from 2.1.332) reads a command hook's exit code and output,
 * for hooks written for Claude Code (`dialect: claude`, what `hooks import claude` writes).
 * docs/dialects.md lists every field and exit code and what each dialect does with it; the rules
 * per event (plain stdout as context, additionalContext, what a block does) are the `claude`
 * column of the event catalog.
 */
import { type ClaudeEventRules, EVENT_BY_NAME, type GateKind, TOOL_CALL_EVENTS } from "../events/catalog.js";
import type { ResolvedHook } from "../config/types.js";
import type { HookResult, Message } from "../runner/types.js";
import { setOwn } from "../runner/context.js";
import { isJsonObject } from "../config/scanJson.js";
import type { DialectCode } from "./types.js";

// The top-level fields of Claude Code's hook output schema; anything else is kept in `json`.
const TOP_LEVEL = new Set(["continue", "suppressOutput", "stopReason", "decision", "reason", "systemMessage", "hookSpecificOutput"]);

// hookSpecificOutput fields hookrun carries; the others of Claude's schema (sessionTitle,
// watchPaths, updatedToolOutput, …) are kept in `json` and named in a warning.
const CARRIED_SPECIFIC = new Set(["hookEventName", "additionalContext", "permissionDecision", "permissionDecisionReason", "updatedInput", "decision"]);

/** Claude's rules for an event; a custom event is read like a Claude event of the same gate. */
export function claudeRules(event: string, gate: GateKind): ClaudeEventRules {
  return EVENT_BY_NAME.get(event)?.claude ?? { name: event, stdoutIsContext: false, additionalContext: false, block: gate === "yes" ? "deny" : "user" };
}

class SchemaError extends Error {}

function optional(o: Record<string, unknown>, field: string, type: "string" | "boolean", where: string): void {
  if (o[field] !== undefined && typeof o[field] !== type) throw new SchemaError(`\`${where}${field}\` must be a ${type}`);
}

/**
 * Claude Code's event before a shell command a skill embeds, which hookrun reads as pre_tool_use
 * (docs/dialects.md#how-a-claude-hook-runs): a claude hook on pre_tool_use may name either event
 * in `hookSpecificOutput.hookEventName` (Claude Code takes PreToolUse's answer there too).
 */
const SKILL_SHELL = "PreSkillShellCommand";

/** Whether `hookEventName` names the event being answered. */
const eventNameFits = (name: unknown, rules: ClaudeEventRules): boolean => name === rules.name || (rules.name === "PreToolUse" && name === SKILL_SHELL);

/** Check an output object against Claude Code's schema (what it would refuse, it refuses here). */
function checkSchema(o: Record<string, unknown>, rules: ClaudeEventRules): void {
  optional(o, "continue", "boolean", "");
  optional(o, "suppressOutput", "boolean", "");
  optional(o, "stopReason", "string", "");
  optional(o, "reason", "string", "");
  optional(o, "systemMessage", "string", "");
  if (o.decision !== undefined && o.decision !== "approve" && o.decision !== "block") {
    throw new SchemaError(`\`decision\` must be "approve" or "block", not ${JSON.stringify(o.decision)}`);
  }
  const hs = o.hookSpecificOutput;
  if (hs === undefined) return;
  if (!isJsonObject(hs)) throw new SchemaError("`hookSpecificOutput` must be an object");
  if (typeof hs.hookEventName !== "string") throw new SchemaError("`hookSpecificOutput.hookEventName` is required");
  if (!eventNameFits(hs.hookEventName, rules)) {
    // Claude keeps a block and drops the rest; without a block the whole output is refused.
    if (o.decision === "block") return;
    throw new SchemaError(`\`hookSpecificOutput.hookEventName\` must be "${rules.name}" on this event, not ${JSON.stringify(hs.hookEventName)}`);
  }
  for (const f of ["additionalContext", "permissionDecisionReason"]) optional(hs, f, "string", "hookSpecificOutput.");
  if (hs.permissionDecision !== undefined && !["allow", "deny", "ask", "defer"].includes(hs.permissionDecision as string)) {
    throw new SchemaError(`\`hookSpecificOutput.permissionDecision\` must be "allow", "deny", "ask" or "defer", not ${JSON.stringify(hs.permissionDecision)}`);
  }
  if (hs.updatedInput !== undefined && !isJsonObject(hs.updatedInput)) throw new SchemaError("`hookSpecificOutput.updatedInput` must be an object");
  if (hs.decision !== undefined) {
    const d = hs.decision;
    if (!isJsonObject(d) || (d.behavior !== "allow" && d.behavior !== "deny")) throw new SchemaError('`hookSpecificOutput.decision` must be an object with `behavior` "allow" or "deny"');
  }
}

/**
 * What a block says on this event, by Claude's rules: `deny` blocks the action (status blocked),
 * `continue` keeps a Stop going (status blocked: "do not stop yet"), `feedback` reaches the model
 * next to the tool result (the tool already ran), `user` is shown to the user only.
 */
function applyBlock(r: HookResult, hook: ResolvedHook, rules: ClaudeEventRules, gate: GateKind, reason: string): HookResult {
  const kind = rules.block === "deny" || rules.block === "continue" ? (gate === "yes" ? rules.block : "user") : rules.block;
  if (kind === "feedback") return { ...r, messages: [...r.messages, { role: "system", content: reason, kind: "feedback", hook: hook.name }] };
  if (kind === "user") return { ...r, messages: [...r.messages, { role: "system", content: reason, kind: "notice", hook: hook.name }] };
  return { ...r, status: "blocked", decision: "block", reason };
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

// Claude's words where a hook gives none.
const NO_STDERR = "No stderr output";
const BLOCKED = "Blocked by hook";

/** How Claude reads stdout: JSON only when it starts with `{`, ends with `}` and is one document. */
function parseStdout(text: string): { json: Record<string, unknown> } | { plain: true } | { invalid: string } {
  if (!text.startsWith("{")) return { plain: true };
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? { json: value } : { invalid: "not a JSON object" };
  } catch (error) {
    if (!text.endsWith("}")) return { plain: true };
    // Several JSON documents, one per line, are plain text to Claude too.
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    if (lines.length > 1 && lines.every(isJsonLine)) return { plain: true };
    return { invalid: `looks like a JSON object but is not valid JSON (${(error as Error).message})` };
  }
}

/**
 * Read a hook that exited (any code but a spawn error) by Claude Code's rules onto its result `r`:
 * - stdout that starts with `{` is JSON and read whatever the exit code; JSON outside Claude's
 *   schema (or not valid JSON) is a non-blocking error: the action proceeds (on exit 2 the block
 *   stands);
 * - exit 2 blocks with stderr as the reason when the JSON gives none; on events that cannot
 *   block, stderr is for the user; any other non-zero exit is a non-blocking error;
 * - plain stdout on exit 0 is model context only on the events whose `stdoutIsContext` is set
 *   (SessionStart, UserPromptSubmit, UserPromptExpansion), else it reaches no one (Claude's
 *   transcript; it stays in the result's stdout);
 * - `systemMessage` is a notice for the user, `decision: "block"` blocks, feeds back or continues
 *   by event, `additionalContext` reaches the model (on Stop: the turn goes on with it).
 */
export function readClaude(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult {
  const rules = claudeRules(hook.event, gate);
  const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
  const parsed = parseStdout(r.stdout.trim());
  let result = r;
  if ("json" in parsed) {
    try {
      checkSchema(parsed.json, rules);
      result = applyJson(r, hook, rules, gate, parsed.json, message);
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      if (code !== 2) return { ...r, status: "invalid_output", error: `output does not match Claude Code's hook schema (Claude Code ignores it and goes on): ${error.message}` };
      r.warnings.push(`output ignored: it does not match Claude Code's hook schema (${error.message})`);
    }
  } else if ("invalid" in parsed) {
    if (code !== 2) return { ...r, status: "invalid_output", error: `stdout ${parsed.invalid} (Claude Code ignores it and goes on)` };
  } else if (code === 0 && rules.stdoutIsContext && r.stdout.trim() !== "") {
    r.messages.push(message(r.stdout.trim()));
  }
  if (code === 2 && result.status !== "blocked" && !result.messages.some((m) => m.kind === "feedback")) {
    return applyBlock(result, hook, rules, gate, r.stderr.trim() || NO_STDERR);
  }
  if (code !== 0 && code !== 2 && result.status === "ok") {
    const line = r.stderr.trim().split("\n").pop() ?? "";
    return { ...result, status: "failed", error: `exit code ${code}${line ? `: ${line}` : ""}` };
  }
  return result;
}

/** Apply a schema-valid JSON answer. */
function applyJson(r: HookResult, hook: ResolvedHook, rules: ClaudeEventRules, gate: GateKind, o: Record<string, unknown>, message: (content: string, kind?: Message["kind"]) => Message): HookResult {
  const hs = isJsonObject(o.hookSpecificOutput) && eventNameFits(o.hookSpecificOutput.hookEventName, rules) ? o.hookSpecificOutput : {};
  for (const key of Object.keys(o)) if (!TOP_LEVEL.has(key)) setOwn((r.json ??= {}), key, o[key]);
  const dropped = Object.keys(hs).filter((k) => !CARRIED_SPECIFIC.has(k));
  if (dropped.length > 0) {
    setOwn((r.json ??= {}), "hookSpecificOutput", hs);
    r.warnings.push(`hookSpecificOutput.${dropped.join(", ")}: not carried by hookrun (kept in the result's json)`);
  }
  if (typeof o.systemMessage === "string") r.messages.push(message(o.systemMessage, "notice"));
  if (typeof hs.additionalContext === "string" && rules.additionalContext) {
    r.messages.push(message(hs.additionalContext, rules.block === "continue" ? "followup" : undefined));
  }
  if (o.continue === false) {
    r.continue = false;
    r.stop_reason = typeof o.stopReason === "string" ? o.stopReason : null;
  }
  const reason = typeof o.reason === "string" ? o.reason : null;
  let result = r;
  if (o.decision === "block") result = applyBlock(r, hook, rules, gate, reason ?? BLOCKED);
  else if (o.decision === "approve" && rules.name === "PreToolUse") {
    result.decision = "allow";
    if (reason !== null) result.reason = reason;
  }
  if (rules.name === "PreToolUse") {
    const why = typeof hs.permissionDecisionReason === "string" ? hs.permissionDecisionReason : reason;
    if (hs.permissionDecision === "deny" && result.status !== "blocked") result = { ...result, status: "blocked", decision: "block", reason: why ?? BLOCKED };
    else if ((hs.permissionDecision === "allow" || hs.permissionDecision === "ask" || hs.permissionDecision === "defer") && result.status !== "blocked") {
      result.decision = hs.permissionDecision;
      if (why !== null) result.reason = why;
    }
    if (hs.updatedInput !== undefined) result.updated_input = hs.updatedInput;
  }
  if (rules.name === "PermissionRequest" && isJsonObject(hs.decision)) {
    const d = hs.decision;
    if (d.behavior === "deny" && result.status !== "blocked") result = { ...result, status: "blocked", decision: "block", reason: typeof d.message === "string" ? d.message : BLOCKED };
    else if (d.behavior === "allow" && result.status !== "blocked") result.decision = "allow";
    if (d.updatedInput !== undefined) result.updated_input = d.updatedInput;
  }
  return result;
}

/**
 * The stdin context of a claude hook with every field Claude Code always sends (docs/dialects.md#how-a-claude-hook-runs: a hook
 * receives the context shaped as its dialect's host sends it, whoever fired the event). Under
 * Claude Code they are all there; fired from elsewhere, what hookrun cannot know gets a
 * documented default, so libraries that require Claude's fields (fasthooks' models) still accept
 * the payload: `transcript_path` "", `permission_mode` "default", and on tool events
 * `tool_use_id` "" and `tool_input` {}. Values the caller gave are never replaced.
 */
export function claudeInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const defaults: Record<string, unknown> = { transcript_path: "", permission_mode: "default" };
  if (TOOL_CALL_EVENTS.has(event)) Object.assign(defaults, { tool_use_id: "", tool_input: {} });
  const missing = Object.keys(defaults).filter((k) => base[k] === undefined);
  const skillShell = event === "pre_tool_use" && firedBySkillShell(base);
  if (missing.length === 0 && !skillShell) return base;
  const out = { ...base };
  for (const k of missing) out[k] = defaults[k];
  // Claude Code names its own event: the shell command a skill embeds is PreSkillShellCommand.
  if (skillShell) out.hook_event_name = SKILL_SHELL;
  return out;
}

/** Claude Code fired the event as PreSkillShellCommand (the host's spelling under `host`). */
function firedBySkillShell(base: Record<string, unknown>): boolean {
  const host = Object.hasOwn(base, "host") ? base.host : undefined;
  return isJsonObject(host) && Object.hasOwn(host, "name") && host.name === "claude" && Object.hasOwn(host, "event") && host.event === SKILL_SHELL;
}

/** Claude Code's dialect: Claude's field set on stdin, the output read by Claude's rules. */
export const claude: DialectCode = { stdin: claudeInput, readExit: readClaude };
