/**
 * The codex dialect: hooks written for Codex CLI (`dialect: codex`, what `hooks import codex`
 * writes). A codex hook receives Codex's payload (Claude's snake_case plus `turn_id` and `model`;
 * the shell tool `Bash`, file edits `apply_patch` with the patch text in `tool_input.command`) and
 * its answer is read as Codex (codex-rs/hooks, 0.169) reads it: stdout only on exit 0, stderr only
 * on exit 2, every answer object refusing fields its event does not have, and unsupported answers
 * failing open. docs/dialects.md#codex-hooks-written-for-codex-cli lists every case.
 */
import path from "node:path";
import { isJsonObject } from "../config/scanJson.js";
import type { ResolvedHook } from "../config/types.js";
import { EVENT_BY_NAME, type GateKind, pascalEventName, TOOL_CALL_EVENTS } from "../events/catalog.js";
import { setOwn } from "../runner/context.js";
import type { HookResult, Message } from "../runner/types.js";
import { firedBy, str } from "./shape.js";
import type { DialectCode } from "./types.js";

/** Codex's event names (Claude's spelling); `hookSpecificOutput.hookEventName` must be one of them. */
const CODEX_EVENTS = new Set([
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
]);

/** What one Codex event's answer may hold, and what its plain stdout and exit 2 do. */
interface Rules {
  /** Plain (non-JSON) stdout on exit 0: model context, ignored, or an invalid answer (Stop). */
  plain: "context" | "ignored" | "invalid";
  /** `decision` values the event's answer takes (with `reason`); empty: neither field. */
  decision: readonly string[];
  /** hookSpecificOutput fields besides hookEventName; null: no hookSpecificOutput. */
  specific: readonly string[] | null;
  /** Exit 2 with stderr: blocks the action (a Stop goes on), is feedback after the tool, or is a failure. */
  exit2: "block" | "feedback" | "failure";
  /** `continue: false`, `stopReason`, `suppressOutput` are refused (the call proceeds). */
  noStop?: boolean;
}

const ANY: Rules = { plain: "ignored", decision: [], specific: null, exit2: "failure" };
const RULES: Readonly<Record<string, Rules>> = {
  session_start: { plain: "context", decision: [], specific: ["additionalContext"], exit2: "failure" },
  user_prompt_submit: { plain: "context", decision: ["block"], specific: ["additionalContext"], exit2: "block" },
  pre_tool_use: {
    plain: "ignored",
    decision: ["approve", "block"],
    specific: ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
    exit2: "block",
    noStop: true,
  },
  permission_request: { plain: "ignored", decision: [], specific: ["decision"], exit2: "block", noStop: true },
  post_tool_use: { plain: "ignored", decision: ["block"], specific: ["additionalContext", "updatedMCPToolOutput"], exit2: "feedback" },
  subagent_start: { plain: "ignored", decision: [], specific: ["additionalContext"], exit2: "failure" },
  stop: { plain: "invalid", decision: ["block"], specific: null, exit2: "block" },
  subagent_stop: { plain: "invalid", decision: ["block"], specific: null, exit2: "block" },
};

/** Codex's name of a hookrun event (its events are Claude's names). */
function codexName(event: string): string {
  return EVENT_BY_NAME.get(event)?.claude?.name ?? pascalEventName(event);
}

const nonEmpty = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** A file path as Codex's model writes it in a patch: relative to the session's cwd when inside it. */
function patchPath(file: string, cwd: string): string {
  if (!cwd || !path.isAbsolute(file)) return file;
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

const lines = (text: string, mark: string): string[] =>
  text === ""
    ? []
    : text
        .replace(/\n$/, "")
        .split("\n")
        .map((l) => `${mark}${l}`);

/**
 * A canonical Write / Edit / MultiEdit call as the apply_patch call Codex would make for it, so a
 * codex guard on apply_patch sees the file: a Write adds the file (`*** Add File:`), an edit updates
 * it with one hunk per replacement (`*** Update File:`). Null for another tool or input.
 */
export function patchOf(tool: unknown, input: unknown, cwd: string): string | null {
  if (!isJsonObject(input) || typeof input.file_path !== "string") return null;
  const file = patchPath(input.file_path, cwd);
  let body: string[];
  if (tool === "Write") body = [`*** Add File: ${file}`, ...lines(str(input.content) ?? "", "+")];
  else if (tool === "Edit") body = [`*** Update File: ${file}`, "@@", ...lines(str(input.old_string) ?? "", "-"), ...lines(str(input.new_string) ?? "", "+")];
  else if (tool === "MultiEdit" && Array.isArray(input.edits))
    body = [`*** Update File: ${file}`, ...input.edits.flatMap((e) => (isJsonObject(e) ? ["@@", ...lines(str(e.old_string) ?? "", "-"), ...lines(str(e.new_string) ?? "", "+")] : []))];
  else return null;
  return ["*** Begin Patch", ...body, "*** End Patch", ""].join("\n");
}

/**
 * A rewritten apply_patch input (`{command: PATCH}`) back in the canonical shape of the call it
 * was made from: one added file is a Write, one file's single hunk an Edit. Null when the patch
 * says more than that call can.
 */
export function canonicalFromPatch(tool: unknown, input: unknown, cwd: string): Record<string, unknown> | null {
  if (!isJsonObject(input) || typeof input.command !== "string") return null;
  const body = input.command.split("\n").filter((l) => !/^\*\*\* (Begin|End) Patch\s*$/.test(l));
  while (body.length && body[body.length - 1] === "") body.pop();
  const head = /^\*\*\* (Add|Update) File: (.+)$/.exec(body[0] ?? "");
  if (!head || body.slice(1).some((l) => l.startsWith("*** "))) return null;
  const file = path.resolve(cwd || "/", head[2].trim());
  const rest = body.slice(1);
  if (head[1] === "Add" && tool === "Write" && rest.every((l) => l.startsWith("+"))) return { file_path: file, content: rest.map((l) => l.slice(1)).join("\n") + (rest.length ? "\n" : "") };
  if (head[1] !== "Update" || tool === "Write" || rest[0]?.startsWith("@@") !== true || rest.slice(1).some((l) => l.startsWith("@@"))) return null;
  const hunk = rest.slice(1);
  const side = (mark: string) =>
    hunk
      .filter((l) => l.startsWith(mark) || l.startsWith(" "))
      .map((l) => l.slice(1))
      .join("\n");
  return { file_path: file, old_string: side("-"), new_string: side("+") };
}

/**
 * The stdin of a codex hook: the context shaped as Codex sends it. Fired by Codex, Codex's own
 * tool name, input, `turn_id` and `model` are given back. Fired elsewhere: `hook_event_name` is
 * Codex's name, `model` and `turn_id` (every event but SessionStart) default to "",
 * `transcript_path` to null, `permission_mode` to "default", a tool event's `tool_use_id` to "";
 * a Write / Edit / MultiEdit becomes `apply_patch` with the patch made from it in
 * `tool_input.command` (the file relative to `cwd` when inside it); other tools keep their name.
 */
export function codexInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  const host = isJsonObject(base.host) ? base.host : null;
  const fromCodex = host?.name === "codex";
  out.hook_event_name = codexName(event);
  if (out.transcript_path === undefined) out.transcript_path = null;
  if (out.permission_mode === undefined) out.permission_mode = str(host?.permission_mode) ?? "default";
  if (out.model === undefined) out.model = (fromCodex && str(host?.model)) || "";
  if (event !== "session_start" && out.turn_id === undefined) out.turn_id = (fromCodex && str(host?.turn_id)) || "";
  if (TOOL_CALL_EVENTS.has(event)) {
    if (out.tool_use_id === undefined) out.tool_use_id = "";
    if (out.tool_input === undefined) out.tool_input = {};
    if (fromCodex && typeof host?.tool_name === "string") out.tool_name = host.tool_name;
    else {
      const patch = patchOf(base.tool_name, base.tool_input, str(base.cwd) ?? "");
      if (patch !== null) {
        out.tool_name = "apply_patch";
        out.tool_input = { command: patch };
      }
    }
  }
  return out;
}

class Invalid extends Error {}

function checkType(o: Record<string, unknown>, field: string, type: "string" | "boolean", where = ""): void {
  if (o[field] !== undefined && typeof o[field] !== type) throw new Invalid(`\`${where}${field}\` must be a ${type}`);
}

/** Codex's schema of the event's answer: unknown fields and wrong types refuse the whole answer. */
function checkSchema(o: Record<string, unknown>, rules: Rules): void {
  const top = new Set(["continue", "stopReason", "suppressOutput", "systemMessage", ...(rules.decision.length ? ["decision", "reason"] : []), ...(rules.specific ? ["hookSpecificOutput"] : [])]);
  for (const k of Object.keys(o)) if (!top.has(k)) throw new Invalid(`\`${k}\` is not a field of this event's answer`);
  checkType(o, "continue", "boolean");
  checkType(o, "suppressOutput", "boolean");
  checkType(o, "stopReason", "string");
  checkType(o, "systemMessage", "string");
  checkType(o, "reason", "string");
  if (o.decision !== undefined && !rules.decision.includes(o.decision as string))
    throw new Invalid(`\`decision\` must be ${rules.decision.map((d) => JSON.stringify(d)).join(" or ")}, not ${JSON.stringify(o.decision)}`);
  const hs = o.hookSpecificOutput;
  if (hs === undefined) return;
  if (!isJsonObject(hs)) throw new Invalid("`hookSpecificOutput` must be an object");
  if (!CODEX_EVENTS.has(hs.hookEventName as string)) throw new Invalid("`hookSpecificOutput.hookEventName` must name a Codex event");
  for (const k of Object.keys(hs)) if (k !== "hookEventName" && !rules.specific?.includes(k)) throw new Invalid(`\`hookSpecificOutput.${k}\` is not a field of this event's answer`);
  checkType(hs, "additionalContext", "string", "hookSpecificOutput.");
  checkType(hs, "permissionDecisionReason", "string", "hookSpecificOutput.");
  if (hs.permissionDecision !== undefined && !["allow", "deny", "ask"].includes(hs.permissionDecision as string))
    throw new Invalid('`hookSpecificOutput.permissionDecision` must be "allow", "deny" or "ask"');
  if (hs.decision !== undefined) {
    const d = hs.decision;
    if (!isJsonObject(d) || (d.behavior !== "allow" && d.behavior !== "deny")) throw new Invalid('`hookSpecificOutput.decision` must be an object with `behavior` "allow" or "deny"');
    for (const k of Object.keys(d))
      if (!["behavior", "updatedInput", "updatedPermissions", "message", "interrupt"].includes(k)) throw new Invalid(`\`hookSpecificOutput.decision.${k}\` is not a field`);
    checkType(d, "message", "string", "hookSpecificOutput.decision.");
    checkType(d, "interrupt", "boolean", "hookSpecificOutput.decision.");
  }
}

/** What Codex refuses in a schema-valid answer ("unsupported"): the answer then counts as failed and the action proceeds. */
function unsupported(o: Record<string, unknown>, event: string, rules: Rules): string | null {
  const name = codexName(event);
  if (rules.noStop) {
    if (o.continue === false) return `${name} hook returned unsupported continue:false`;
    if (o.stopReason !== undefined) return `${name} hook returned unsupported stopReason`;
  }
  if ((rules.noStop || event === "post_tool_use") && o.suppressOutput === true) return `${name} hook returned unsupported suppressOutput`;
  const hs = isJsonObject(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  if (event === "pre_tool_use") {
    if (hs.permissionDecision !== undefined || hs.permissionDecisionReason !== undefined || hs.updatedInput !== undefined) {
      if (hs.updatedInput !== undefined && hs.permissionDecision !== "allow") return "PreToolUse hook returned updatedInput without permissionDecision:allow";
      if (hs.permissionDecision === "allow" && hs.updatedInput === undefined) return "PreToolUse hook returned unsupported permissionDecision:allow";
      if (hs.permissionDecision === "ask") return "PreToolUse hook returned unsupported permissionDecision:ask";
      if (hs.permissionDecision === "deny" && !nonEmpty(hs.permissionDecisionReason)) return "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason";
      if (hs.permissionDecision === undefined) return "PreToolUse hook returned permissionDecisionReason without permissionDecision";
    } else if (o.decision === "approve") return "PreToolUse hook returned unsupported decision:approve";
    else if (o.decision === undefined && o.reason !== undefined) return "PreToolUse hook returned reason without decision";
  }
  if (event === "post_tool_use" && o.decision === undefined && o.continue !== false && o.reason !== undefined) return "PostToolUse hook returned reason without decision";
  if (o.decision === "block" && !nonEmpty(o.reason) && o.continue !== false) return `${name} hook returned decision:block without a non-empty reason`;
  const d = isJsonObject(hs.decision) ? hs.decision : null;
  if (d?.updatedInput !== undefined) return "PermissionRequest hook returned unsupported updatedInput";
  if (d?.updatedPermissions !== undefined) return "PermissionRequest hook returned unsupported updatedPermissions";
  if (d?.interrupt === true) return "PermissionRequest hook returned unsupported interrupt:true";
  return null;
}

/** The tool input a codex hook's `updatedInput` makes, in the canonical shape of the call. */
function updatedInput(r: HookResult, value: unknown, base: { tool: unknown; cwd: string; patched: boolean }): unknown {
  if (!base.patched) return value;
  const back = canonicalFromPatch(base.tool, value, base.cwd);
  if (back === null) r.warnings.push(`updatedInput: the rewritten patch does not map back onto the ${String(base.tool)} call it was made from; kept as given`);
  return back ?? value;
}

/**
 * Read a codex hook that exited 0 or 2 (any other code failed before: Codex counts it a failure
 * and goes on) by Codex's rules onto its result `r`.
 */
function readCodex(r: HookResult, hook: ResolvedHook, code: number, _gate: GateKind, call: { tool: unknown; cwd: string; patched: boolean }): HookResult {
  const rules = RULES[hook.event] ?? ANY;
  const name = codexName(hook.event);
  const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
  const fail = (why: string): HookResult => ({ ...r, status: "invalid_output", error: `${why} (Codex counts the hook failed and goes on)` });
  if (code === 2) {
    const reason = nonEmpty(r.stderr);
    if (reason === undefined) return { ...r, status: "failed", error: `${name} hook exited with code 2 but wrote no reason to stderr (Codex counts it failed and goes on)` };
    if (rules.exit2 === "feedback") return { ...r, messages: [...r.messages, message(reason, "feedback")] };
    if (rules.exit2 === "failure") return { ...r, status: "failed", error: `exit code 2 on ${name}, which Codex counts as a failure: ${reason}` };
    return { ...r, status: "blocked", decision: "block", reason };
  }
  const text = r.stdout.trim();
  if (text === "") return r;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!isJsonObject(parsed)) {
    if (text.startsWith("{") || text.startsWith("[")) return fail(`stdout is not a valid ${name} JSON answer`);
    if (rules.plain === "invalid") return fail(`plain stdout is not a valid ${name} answer`);
    if (rules.plain === "context") r.messages.push(message(text));
    return r;
  }
  const o = parsed;
  try {
    checkSchema(o, rules);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    return fail(`output does not match Codex's ${name} answer: ${error.message}`);
  }
  if (typeof o.systemMessage === "string") r.messages.push(message(o.systemMessage, "notice"));
  const why = unsupported(o, hook.event, rules);
  if (why !== null) return fail(why);
  const hs = isJsonObject(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  if (hs.updatedMCPToolOutput !== undefined) {
    setOwn((r.json ??= {}), "hookSpecificOutput", hs);
    r.warnings.push("hookSpecificOutput.updatedMCPToolOutput: not carried by hookrun (kept in the result's json)");
  }
  if (o.continue === false) {
    if (hook.event === "post_tool_use") {
      // Codex puts the reason (else stopReason) in place of the tool's output, and the turn goes on.
      r.messages.push(message(nonEmpty(o.reason) ?? str(o.stopReason) ?? "PostToolUse hook stopped execution", "feedback"));
      return r;
    }
    r.continue = false;
    r.stop_reason = str(o.stopReason) ?? null;
    return r;
  }
  if (typeof hs.additionalContext === "string") r.messages.push(message(hs.additionalContext));
  if (o.decision === "block") {
    const reason = nonEmpty(o.reason) as string;
    if (hook.event === "post_tool_use") return { ...r, messages: [...r.messages, message(reason, "feedback")] };
    return { ...r, status: "blocked", decision: "block", reason };
  }
  if (hook.event === "pre_tool_use") {
    if (hs.permissionDecision === "deny") return { ...r, status: "blocked", decision: "block", reason: nonEmpty(hs.permissionDecisionReason) as string };
    if (hs.permissionDecision === "allow") {
      r.decision = "allow";
      r.updated_input = updatedInput(r, hs.updatedInput, call);
    }
  }
  if (hook.event === "permission_request" && isJsonObject(hs.decision)) {
    if (hs.decision.behavior === "deny") return { ...r, status: "blocked", decision: "block", reason: nonEmpty(hs.decision.message) ?? "PermissionRequest hook denied approval" };
    r.decision = "allow";
  }
  return r;
}

/** The call a codex hook saw: a Write / Edit / MultiEdit fired by another host reached it as apply_patch ({@link codexInput}). */
function callOf(base: Record<string, unknown> | undefined): { tool: unknown; cwd: string; patched: boolean } {
  if (!base) return { tool: undefined, cwd: "", patched: false };
  const fromCodex = firedBy(base, "codex") !== null;
  const cwd = str(base.cwd) ?? "";
  return { tool: base.tool_name, cwd, patched: !fromCodex && patchOf(base.tool_name, base.tool_input, cwd) !== null };
}

/** Codex's dialect: Codex's payload on stdin, the answer read by Codex's rules. */
export const codex: DialectCode = {
  stdin: codexInput,
  readExit: (r, hook, code, gate, base) => readCodex(r, hook, code, gate, callOf(base)),
};
