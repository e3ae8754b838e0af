/**
 * The copilot dialects: hooks written for GitHub Copilot CLI (1.0.102). Copilot has two, chosen by
 * how an event key is spelled in its config: `copilot` for its own camelCase entries (`preToolUse`:
 * a camelCase payload, Copilot's tool names), `copilot-pascal` for its PascalCase ones
 * (`PreToolUse`: Claude's snake_case payload and tool names). Both read the same flat answer
 * (docs/dialects.md lists every field and exit code).
 */
import type { GateKind } from "../events/catalog.js";
import { CAMEL_EVENTS, COPILOT_ARGS, COPILOT_TOOLS } from "../events/copilotNames.js";
import type { ResolvedHook } from "../config/types.js";
import type { HookResult, Message } from "../runner/types.js";
import { setOwn } from "../runner/context.js";
import { isJsonObject } from "../config/scanJson.js";
import { firedBy, hostTool, renameKeys, reversed } from "./shape.js";
import type { DialectCode } from "./types.js";

/** Where Copilot gives a flat `additionalContext` to the model. */
const CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "post_tool_use_failure", "subagent_start"]);
const STOPS = new Set(["stop", "subagent_stop"]);
/** The answer fields Copilot reads; anything else is kept in `json`. */
const FLAT = new Set(["permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext", "decision", "reason"]);
/** Copilot's argument names → canonical. */
const CANONICAL_ARGS = reversed(COPILOT_ARGS);
/** Copilot's words on a denied call when the hook gives no reason. */
const DENIED = "Denied by preToolUse hook";

/** The firing host's tool arguments in Copilot's shape (`path`, `file_text`, `old_str`, …); Copilot's own pass unchanged. */
function copilotArgs(base: Record<string, unknown>, own: Record<string, unknown> | null): unknown {
  return own ? base.tool_input : renameKeys(base.tool_input, COPILOT_ARGS);
}

/** `stop_hook_active` → `stopHookActive` (Copilot sends `stop_hook_active` as is, so it is kept). */
const camel = (key: string): string => (key === "stop_hook_active" ? key : key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));

/**
 * The hook's stdin as a camelCase entry of Copilot receives it: every field in camelCase
 * (`sessionId`, `cwd`, `prompt`, `source`, …; `stop_hook_active` as Copilot spells it), `timestamp`
 * in epoch milliseconds (now, when unknown), `toolName` Copilot's (`bash`, `create`, `edit`,
 * `view`, …), `toolArgs` the arguments in Copilot's shape (an object, as Copilot 1.0.102 sends
 * it; its docs show a JSON string), `toolResult` the tool's response; no event name (Copilot sends none). Fired by Copilot, its own names and values are kept.
 */
export function copilotInput(base: Record<string, unknown>, _event: string): Record<string, unknown> {
  const own = firedBy(base, "copilot");
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) {
    if (key === "hook_event_name" || key === "host") continue;
    const to = key === "tool_input" ? "toolArgs" : key === "tool_response" ? "toolResult" : camel(key);
    if (!Object.hasOwn(out, to)) setOwn(out, to, base[key]);
  }
  // Copilot's own tool name only from a camelCase entry: its PascalCase entries send Claude's.
  if (Object.hasOwn(base, "tool_name")) out.toolName = own?.dialect === "camel" && own.tool_name !== undefined ? own.tool_name : hostTool(COPILOT_TOOLS, base.tool_name);
  if (Object.hasOwn(base, "tool_input") || Object.hasOwn(base, "tool_name")) out.toolArgs = copilotArgs(base, own) ?? {};
  const stamp = own?.timestamp ?? base.timestamp;
  out.timestamp = typeof stamp === "number" ? stamp : typeof stamp === "string" && !Number.isNaN(Date.parse(stamp)) ? Date.parse(stamp) : Date.now();
  if (Object.hasOwn(base, "host")) out.host = base.host;
  return out;
}

/**
 * The hook's stdin as a PascalCase entry of Copilot receives it: Claude's snake_case fields and
 * tool names (`hook_event_name` PreToolUse, `tool_name` Bash / Write), an ISO `timestamp` (now,
 * when unknown), the tool's arguments in Copilot's shape (`path`, `file_text`, …).
 */
export function copilotPascalInput(base: Record<string, unknown>, _event: string): Record<string, unknown> {
  const own = firedBy(base, "copilot");
  const out: Record<string, unknown> = { ...base };
  if (Object.hasOwn(base, "tool_input")) out.tool_input = copilotArgs(base, own);
  const stamp = own?.timestamp ?? base.timestamp;
  out.timestamp = typeof stamp === "string" ? stamp : typeof stamp === "number" ? new Date(stamp).toISOString() : new Date().toISOString();
  return out;
}

/**
 * Read a hook by Copilot CLI's rules onto `r`:
 * - preToolUse: any non-zero exit (126/127 included) denies the call ("hook exited with code N",
 *   all Copilot shows the model); elsewhere it is a failure and Copilot goes on;
 * - on exit 0 stdout is one JSON object (anything else is ignored): `permissionDecision`
 *   deny / ask / allow with `permissionDecisionReason`, `modifiedArgs` (the call's new
 *   arguments, in Copilot's shape: read back to canonical field names) on preToolUse;
 *   `decision: "block"` + `reason` blocks a prompt (userPromptSubmitted), keeps the agent going
 *   (agentStop, subagentStop) and replaces a tool's result (postToolUse: feedback);
 *   `additionalContext` reaches the model on sessionStart, userPromptSubmitted, pre/postToolUse(Failure)
 *   and subagentStart; `continue`, `stopReason`, `systemMessage` are not read;
 * - `hookSpecificOutput` is read only by the PascalCase entries, and only its `permissionDecision`
 *   (with `permissionDecisionReason`): its `additionalContext` is ignored.
 */
function readCopilot(pascal: boolean) {
  return (r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult => {
    const event = hook.event;
    if (code !== 0) {
      const line = r.stderr.trim().split("\n").pop() ?? "";
      if (event === "pre_tool_use") return { ...r, status: "blocked", decision: "block", reason: `${DENIED}: hook exited with code ${code}` };
      return { ...r, status: "failed", error: `exit code ${code}${line ? `: ${line}` : ""}` };
    }
    const text = r.stdout.trim();
    if (text === "") return r;
    let o: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(text);
      if (!isJsonObject(v)) throw new Error("not an object");
      o = v;
    } catch {
      r.warnings.push("stdout is not a JSON object: ignored (as by Copilot CLI)");
      return r;
    }
    const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
    for (const key of Object.keys(o)) if (!FLAT.has(key) && !(pascal && key === "hookSpecificOutput")) setOwn((r.json ??= {}), key, o[key]);
    const hs = pascal && isJsonObject(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
    if (typeof o.additionalContext === "string" && o.additionalContext !== "" && CONTEXT_EVENTS.has(event)) r.messages.push(message(o.additionalContext));
    const reason = typeof o.reason === "string" && o.reason !== "" ? o.reason : null;
    if (event === "pre_tool_use") {
      const decision = o.permissionDecision ?? hs.permissionDecision;
      const why = [o.permissionDecisionReason, hs.permissionDecisionReason].find((w): w is string => typeof w === "string" && w !== "") ?? null;
      if (decision === "deny") return { ...r, status: "blocked", decision: "block", reason: why ?? DENIED };
      if (decision === "ask" || decision === "allow") {
        r.decision = decision;
        if (why !== null) r.reason = why;
      }
      if (o.modifiedArgs !== undefined && o.modifiedArgs !== null) r.updated_input = renameKeys(o.modifiedArgs, CANONICAL_ARGS);
      return r;
    }
    if (o.decision !== "block") return r;
    if (event === "post_tool_use" || event === "post_tool_use_failure") return { ...r, messages: [...r.messages, message(reason ?? "Tool result blocked", "feedback")] };
    if ((event === "user_prompt_submit" || STOPS.has(event)) && gate === "yes") return { ...r, status: "blocked", decision: "block", reason: reason ?? "Blocked by hook" };
    r.warnings.push(`block ignored: Copilot CLI does not block ${hostEvent(event)}`);
    return r;
  };
}

const hostEvent = (event: string): string => hostTool(CAMEL_EVENTS, event) as string;

/** Copilot CLI's camelCase entries: Copilot's camelCase payload, the flat answer. */
export const copilot: DialectCode = { stdin: copilotInput, readExit: readCopilot(false) };
/** Copilot CLI's PascalCase entries: Claude's payload, the flat answer (plus hookSpecificOutput.permissionDecision). */
export const copilotPascal: DialectCode = { stdin: copilotPascalInput, readExit: readCopilot(true) };
