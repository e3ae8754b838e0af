/**
 * The claude dialect: how Claude Code (2.1.330) reads a command hook's exit code and output,
 * for hooks written for Claude Code (`dialect: claude`, what `hooks import claude` writes).
 * docs/dialects.md lists every field and exit code and what each dialect does with it; the rules
 * per event (plain stdout as context, additionalContext, what a block does) are the `claude`
 * column of the event catalog.
 */
import { type ClaudeEventRules, EVENT_BY_NAME, type GateKind } from "../events/catalog.js";
import type { ResolvedHook } from "../config/types.js";
import type { HookResult, Message } from "../runner/types.js";
import { setOwn } from "../runner/context.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

// The top-level fields of Claude Code's hook output schema; anything else is kept in `json`.
const TOP_LEVEL = new Set(["continue", "suppressOutput", "stopReason", "decision", "reason", "systemMessage", "hookSpecificOutput"]);

// hookSpecificOutput fields hookrun carries; the others of Claude's schema (sessionTitle,
// watchPaths, updatedToolOutput, …) are kept in `json` and named in a warning.
const CARRIED_SPECIFIC = new Set(["hookEventName", "additionalContext", "permissionDecision", "permissionDecisionReason", "updatedInput", "decision"]);

/** Claude's rules for an event; a custom event is read like a Claude event of the same gate. */
function rulesOf(event: string, gate: GateKind): ClaudeEventRules {
  return EVENT_BY_NAME.get(event)?.claude ?? { name: event, stdoutIsContext: false, additionalContext: false, block: gate === "yes" ? "deny" : "user" };
}

class SchemaError extends Error {}

function optional(o: Record<string, unknown>, field: string, type: "string" | "boolean", where: string): void {
  if (o[field] !== undefined && typeof o[field] !== type) throw new SchemaError(`\`${where}${field}\` must be a ${type}`);
}

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
  if (!isObject(hs)) throw new SchemaError("`hookSpecificOutput` must be an object");
  if (hs.hookEventName !== rules.name) {
    throw new SchemaError(`\`hookSpecificOutput.hookEventName\` must be "${rules.name}" on this event, not ${JSON.stringify(hs.hookEventName)}`);
  }
  for (const f of ["additionalContext", "permissionDecisionReason"]) optional(hs, f, "string", "hookSpecificOutput.");
  if (hs.permissionDecision !== undefined && !["allow", "deny", "ask", "defer"].includes(hs.permissionDecision as string)) {
    throw new SchemaError(`\`hookSpecificOutput.permissionDecision\` must be "allow", "deny", "ask" or "defer", not ${JSON.stringify(hs.permissionDecision)}`);
  }
  if (hs.updatedInput !== undefined && !isObject(hs.updatedInput)) throw new SchemaError("`hookSpecificOutput.updatedInput` must be an object");
  if (hs.decision !== undefined) {
    const d = hs.decision;
    if (!isObject(d) || (d.behavior !== "allow" && d.behavior !== "deny")) throw new SchemaError('`hookSpecificOutput.decision` must be an object with `behavior` "allow" or "deny"');
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

/**
 * Read a hook that exited 0 or 2 by Claude Code's rules onto its result `r`:
 * - exit 2: a block with stderr as the reason (stdout, JSON included, is not read);
 * - exit 0, stdout not starting with `{`: plain text, model context only on the events whose
 *   `stdoutIsContext` is set (SessionStart, UserPromptSubmit, UserPromptExpansion), else it stays
 *   in the result's stdout (Claude's transcript) and reaches no one;
 * - exit 0, JSON: checked against Claude's schema; invalid output is a non-blocking error (the
 *   action proceeds); `systemMessage` is a notice for the user, `decision: "block"` blocks,
 *   feeds back or continues by event, `additionalContext` reaches the model (on Stop: the turn
 *   goes on with it).
 */
export function readClaude(r: HookResult, hook: ResolvedHook, code: 0 | 2, gate: GateKind): HookResult {
  const rules = rulesOf(hook.event, gate);
  if (code === 2) return applyBlock(r, hook, rules, gate, r.stderr.trim() || `hook ${hook.name} exited with code 2 and printed no reason`);
  const text = r.stdout.trim();
  if (text === "") return r;
  const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
  let value: unknown;
  if (text.startsWith("{")) {
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
  }
  if (!isObject(value)) {
    if (rules.stdoutIsContext) r.messages.push(message(text));
    return r;
  }
  try {
    checkSchema(value, rules);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    return { ...r, status: "invalid_output", error: `output does not match Claude Code's hook schema (Claude Code ignores it and goes on): ${error.message}` };
  }
  const o = value;
  const hs = (o.hookSpecificOutput ?? {}) as Record<string, unknown>;
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
  let result = r;
  if (o.decision === "block") result = applyBlock(r, hook, rules, gate, typeof o.reason === "string" ? o.reason : `blocked by hook ${hook.name}`);
  else if (o.decision === "approve" && rules.name === "PreToolUse") {
    result.decision = "allow";
    if (typeof o.reason === "string") result.reason = o.reason;
  }
  if (rules.name === "PreToolUse") {
    const why = typeof hs.permissionDecisionReason === "string" ? hs.permissionDecisionReason : null;
    if (hs.permissionDecision === "deny" && result.status !== "blocked") result = { ...result, status: "blocked", decision: "block", reason: why ?? `blocked by hook ${hook.name}` };
    else if ((hs.permissionDecision === "allow" || hs.permissionDecision === "ask") && result.status !== "blocked") {
      result.decision = hs.permissionDecision;
      if (why !== null) result.reason = why;
    }
    if (hs.updatedInput !== undefined) result.updated_input = hs.updatedInput;
  }
  if (rules.name === "PermissionRequest" && isObject(hs.decision)) {
    const d = hs.decision;
    if (d.behavior === "deny" && result.status !== "blocked")
      result = { ...result, status: "blocked", decision: "block", reason: typeof d.message === "string" ? d.message : `denied by hook ${hook.name}` };
    else if (d.behavior === "allow" && result.status !== "blocked") result.decision = "allow";
    if (d.updatedInput !== undefined) result.updated_input = d.updatedInput;
  }
  return result;
}
