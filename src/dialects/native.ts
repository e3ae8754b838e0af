/**
 * The native dialect (docs/running-hooks.md#what-a-hook-prints-and-decisions): how hookrun reads a hook's exit code and stdout, for hooks
 * written for hookrun. src/dialects/claude.ts reads hooks written for Claude Code.
 */
import { setOwn } from "../runner/context.js";
import { describeJsonError, isJsonObject } from "../config/scanJson.js";
import { FEEDBACK_EVENTS, type GateKind } from "../events/catalog.js";
import type { ResolvedHook } from "../config/types.js";
import type { Decision, HookResult, Message, Role } from "../runner/types.js";
import type { DialectCode } from "./types.js";

/** What a hook's stdout said (docs/running-hooks.md#what-a-hook-prints-and-decisions), merged over all its output objects. */
export interface HookOutput {
  messages: Message[];
  decision: Decision | null;
  reason: string | null;
  continue: boolean;
  stop_reason: string | null;
  stop_propagation: boolean;
  /** undefined when no output object carried one. */
  updated_input?: unknown;
  /** Fields of the output objects that hookrun does not know, kept as is. */
  json?: Record<string, unknown>;
}

export type ParsedOutput = { ok: true; output: HookOutput } | { ok: false; error: string };

class InvalidOutput extends Error {}

const ROLES = new Set<Role>(["system", "user", "assistant"]);

// Every field an output object may carry, in both spellings; anything else goes to `json`.
const KNOWN = new Set([
  "content",
  "role",
  "hide",
  "pinned",
  "messages",
  "decision",
  "reason",
  "continue",
  "stop_reason",
  "stopReason",
  "system_message",
  "systemMessage",
  "additional_context",
  "additionalContext",
  "updated_input",
  "updatedInput",
  "stop_propagation",
  "stopPropagation",
  "hookSpecificOutput",
  "hook_specific_output",
  "suppressOutput",
  "suppress_output",
]);

function empty(): HookOutput {
  return { messages: [], decision: null, reason: null, continue: true, stop_reason: null, stop_propagation: false };
}

function pick(o: Record<string, unknown>, snake: string, camel: string): unknown {
  return o[snake] !== undefined ? o[snake] : o[camel];
}

function toMessage(value: unknown, where: string): Message {
  if (typeof value === "string") return { role: "system", content: value };
  if (!isJsonObject(value)) throw new InvalidOutput(`${where} must be a string or an object with \`content\``);
  if (typeof value.content !== "string") throw new InvalidOutput(`${where}.content must be a string`);
  const role = value.role ?? "system";
  if (typeof role !== "string" || !ROLES.has(role as Role)) throw new InvalidOutput(`${where}.role must be "system", "user" or "assistant"`);
  const m: Message = { role: role as Role, content: value.content };
  for (const flag of ["hide", "pinned"] as const) {
    if (value[flag] === undefined) continue;
    if (typeof value[flag] !== "boolean") throw new InvalidOutput(`${where}.${flag} must be true or false`);
    m[flag] = value[flag];
  }
  return m;
}

function optionalString(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new InvalidOutput(`\`${field}\` must be a string`);
  return v;
}

function decisionOf(v: unknown, field: string): Decision | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new InvalidOutput(`\`${field}\` must be a string ("block" or "allow")`);
  switch (v) {
    case "block":
    case "deny":
      return "block";
    case "allow":
    case "approve":
      return "allow";
    case "ask":
      return "ask";
    default:
      throw new InvalidOutput(`\`${field}\` must be "block" or "allow" (also "approve", "deny", "ask"), not ${JSON.stringify(v)}`);
  }
}

// Apply one output object onto the accumulated output (JSON Lines apply in order).
function applyObject(acc: HookOutput, o: Record<string, unknown>, where: string): void {
  if (o.content !== undefined && o.messages === undefined) acc.messages.push(toMessage(o, where));
  if (o.messages !== undefined) {
    if (!Array.isArray(o.messages)) throw new InvalidOutput(`\`messages\` must be a list`);
    for (const [i, m] of o.messages.entries()) acc.messages.push(toMessage(m, `messages[${i}]`));
  }
  const specific = pick(o, "hook_specific_output", "hookSpecificOutput");
  if (specific !== undefined && !isJsonObject(specific)) throw new InvalidOutput("`hookSpecificOutput` must be an object");
  const hs = (specific ?? {}) as Record<string, unknown>;

  const decision = decisionOf(o.decision, "decision");
  const reason = optionalString(o.reason, "reason");
  if (decision) {
    acc.decision = decision;
    acc.reason = reason;
  } else if (reason !== null && acc.reason === null) acc.reason = reason;
  const permission = decisionOf(pick(hs, "permission_decision", "permissionDecision"), "hookSpecificOutput.permissionDecision");
  if (permission) {
    // A deny from either spelling wins over an allow.
    if (acc.decision !== "block") acc.decision = permission;
    const why = optionalString(pick(hs, "permission_decision_reason", "permissionDecisionReason"), "hookSpecificOutput.permissionDecisionReason");
    if (why !== null && (permission === "block" || acc.reason === null)) acc.reason = why;
  }
  // Claude Code's PermissionRequest answer: hookSpecificOutput.decision {behavior, message, updatedInput}.
  const request = hs.decision;
  if (request !== undefined) {
    if (!isJsonObject(request)) throw new InvalidOutput("`hookSpecificOutput.decision` must be an object with `behavior`");
    const behavior = decisionOf(request.behavior, "hookSpecificOutput.decision.behavior");
    if (behavior && acc.decision !== "block") acc.decision = behavior;
    const message = optionalString(request.message, "hookSpecificOutput.decision.message");
    if (message !== null && (behavior === "block" || acc.reason === null)) acc.reason = message;
    const input = pick(request, "updated_input", "updatedInput");
    if (input !== undefined) acc.updated_input = input;
  }

  const cont = o.continue;
  if (cont !== undefined) {
    if (typeof cont !== "boolean") throw new InvalidOutput("`continue` must be true or false");
    if (!cont) {
      acc.continue = false;
      acc.stop_reason = optionalString(pick(o, "stop_reason", "stopReason"), "stop_reason");
    }
  }
  const stopProp = pick(o, "stop_propagation", "stopPropagation");
  if (stopProp !== undefined) {
    if (typeof stopProp !== "boolean") throw new InvalidOutput("`stop_propagation` must be true or false");
    if (stopProp) acc.stop_propagation = true;
  }
  for (const [src, field] of [
    [o, "system_message"],
    [o, "additional_context"],
    [hs, "additional_context"],
  ] as const) {
    const camel = field === "system_message" ? "systemMessage" : "additionalContext";
    const text = optionalString(pick(src, field, camel), src === hs ? `hookSpecificOutput.${camel}` : field);
    if (text !== null) acc.messages.push({ role: "system", content: text });
  }
  const updated = pick(o, "updated_input", "updatedInput") ?? pick(hs, "updated_input", "updatedInput");
  if (updated !== undefined) acc.updated_input = updated;

  for (const key of Object.keys(o)) {
    if (KNOWN.has(key)) continue;
    setOwn((acc.json ??= {}), key, o[key]);
  }
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Read a hook's stdout by the five rules of docs/running-hooks.md#what-a-hook-prints-and-decisions. */
export function parseHookOutput(stdout: string): ParsedOutput {
  const acc = empty();
  const trimmed = stdout.trim();
  if (trimmed === "") return { ok: true, output: acc };
  try {
    const whole = tryJson(trimmed);
    if (whole.ok) {
      const v = whole.value;
      if (isJsonObject(v)) {
        applyObject(acc, v, "output");
        return { ok: true, output: acc };
      }
      if (Array.isArray(v)) {
        for (const [i, m] of v.entries()) acc.messages.push(toMessage(m, `[${i}]`));
        return { ok: true, output: acc };
      }
      // A JSON scalar is plain text.
      acc.messages.push({ role: "system", content: trimmed });
      return { ok: true, output: acc };
    }
    const lines = trimmed.split("\n");
    const objects: Record<string, unknown>[] = [];
    let linesOk = lines.length > 1;
    for (const line of lines) {
      if (!linesOk) break;
      const l = line.trim();
      if (l === "") continue;
      const parsed = l.startsWith("{") ? tryJson(l) : null;
      if (parsed?.ok && isJsonObject(parsed.value)) objects.push(parsed.value);
      else linesOk = false;
    }
    if (linesOk && objects.length > 0) {
      for (const [i, o] of objects.entries()) applyObject(acc, o, `line ${i + 1}`);
      return { ok: true, output: acc };
    }
    if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
      return { ok: false, error: `stdout is not valid JSON: ${describeJsonError(stdout, whole.error)}` };
    }
  } catch (error) {
    if (error instanceof InvalidOutput) return { ok: false, error: `invalid hook output: ${error.message}` };
    throw error;
  }
  acc.messages.push({ role: "system", content: trimmed });
  return { ok: true, output: acc };
}

/**
 * Read a hook that exited 0 or 2 by hookrun's rules (docs/running-hooks.md) onto its result `r`, stdout
 * on both codes:
 * - on a gate event, exit 2 or a JSON block decision blocks (reason: JSON `reason`, else stderr);
 * - after the tool ran (post_tool_use, post_tool_use_failure: {@link FEEDBACK_EVENTS}), either is
 *   feedback for the model, the same message whichever the hook used ({@link asFeedback});
 * - elsewhere exit 2 is a failure and a JSON block decision is ignored with a warning.
 */
export function readNative(r: HookResult, hook: ResolvedHook, code: 0 | 2, gate: GateKind): HookResult {
  const feedback = FEEDBACK_EVENTS.has(hook.event);
  const parsed = parseHookOutput(r.stdout);
  if (!parsed.ok) {
    if (code === 2 && (gate === "yes" || feedback)) r.warnings.push(parsed.error);
    else return { ...r, status: "invalid_output", error: parsed.error };
  }
  const out = parsed.ok ? parsed.output : null;
  if (out) {
    r.messages = out.messages.map((m) => ({ ...m, hook: hook.name }));
    r.decision = out.decision;
    if (out.reason !== null) r.reason = out.reason;
    if (out.json) r.json = out.json;
    if (out.stop_propagation) r.stop_propagation = true;
    if (!out.continue) {
      r.continue = false;
      r.stop_reason = out.stop_reason;
    }
    if (out.updated_input !== undefined) r.updated_input = out.updated_input;
  }
  if (code === 2) {
    const reason = out?.reason ?? (r.stderr.trim() || `hook ${hook.name} exited with code 2`);
    if (feedback) return asFeedback(r, hook, reason);
    if (gate !== "yes") return { ...r, status: "failed", decision: null, error: `exit code 2 (a block) on event \`${hook.event}\`, which cannot block` };
    return { ...r, status: "blocked", decision: "block", reason };
  }
  if (r.decision === "block") {
    if (gate === "yes") return { ...r, status: "blocked", reason: r.reason ?? `blocked by hook ${hook.name}` };
    if (feedback) return asFeedback(r, hook, r.reason ?? `feedback from hook ${hook.name}`);
    r.warnings.push(`block decision ignored: event \`${hook.event}\` cannot block`);
    r.decision = null;
  }
  return r;
}

/**
 * A block after the tool ran, as the claude dialect reads one there: nothing is blocked (status
 * ok, no decision), the reason is a `feedback` message the hosts give the model next to the
 * tool's result.
 */
function asFeedback(r: HookResult, hook: ResolvedHook, reason: string): HookResult {
  const { reason: _said, ...rest } = r;
  return { ...rest, status: "ok", decision: null, messages: [...r.messages, { role: "system", content: reason, kind: "feedback", hook: hook.name }] };
}

/** hookrun's own dialect: the hook receives the context as the caller gave it; exit 0 and 2 are read, any other code fails. */
export const native: DialectCode = {
  stdin: (base) => base,
  readExit: (r, hook, code, gate) => (code === 0 || code === 2 ? readNative(r, hook, code, gate) : { ...r, status: "failed", error: `exit code ${code}${lastLine(r.stderr)}` }),
};

function lastLine(stderr: string): string {
  const line = stderr.trim().split("\n").pop() ?? "";
  return line ? `: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}` : "";
}
