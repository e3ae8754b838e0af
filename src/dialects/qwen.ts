/**
 * The qwen dialect: hooks written for Qwen Code (0.24.4; `dialect: qwen`, what `hooks import qwen`
 * writes). Qwen took Claude Code's contract and changed it in places: this module is Claude's
 * reader (src/dialects/claude.ts) with those places (docs/dialects.md lists them).
 */
import type { GateKind } from "../events/catalog.js";
import { QWEN_TOOLS } from "../events/qwenNames.js";
import type { ResolvedHook } from "../config/types.js";
import type { HookResult } from "../runner/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { claudeInput, claudeRules, readClaude } from "./claude.js";
import { firedBy, hostTool } from "./shape.js";
import type { DialectCode } from "./types.js";

/**
 * The hook's stdin as Qwen Code sends it: Claude's field set (claudeInput) with Qwen's tool ids
 * (`run_shell_command`, `write_file`, `edit`, …), an ISO `timestamp` (now, when unknown) and on
 * tool events `tool_call_id` (the call's `tool_use_id`). Fired by Qwen, its own values are kept.
 */
export function qwenInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const out = { ...claudeInput(base, event) };
  const own = firedBy(base, "qwen");
  if (Object.hasOwn(base, "tool_name")) {
    out.tool_name = own && own.tool_name !== undefined ? own.tool_name : hostTool(QWEN_TOOLS, base.tool_name);
    if (out.tool_call_id === undefined) out.tool_call_id = typeof out.tool_use_id === "string" ? out.tool_use_id : "";
  }
  if (typeof out.timestamp !== "string") out.timestamp = new Date().toISOString();
  return out;
}

const AFTER_TOOL = new Set(["post_tool_use", "post_tool_use_failure"]);
const STOPS = new Set(["stop", "subagent_stop"]);

/**
 * What Qwen would read, in Claude's shape: Qwen checks no schema (a top-level `decision: "deny"`
 * blocks as "block" does, `allow` approves, a `hookEventName` of another event is not refused),
 * and knows no `defer`.
 */
function asClaude(o: Record<string, unknown>, hook: ResolvedHook, gate: GateKind): Record<string, unknown> {
  const out = { ...o };
  if (out.decision === "deny") out.decision = "block";
  else if (out.decision === "allow") out.decision = "approve";
  else if (out.decision !== undefined && out.decision !== "block" && out.decision !== "approve") delete out.decision;
  if (isJsonObject(out.hookSpecificOutput)) {
    const hs: Record<string, unknown> = { ...out.hookSpecificOutput, hookEventName: claudeRules(hook.event, gate).name };
    if (hs.permissionDecision !== "allow" && hs.permissionDecision !== "deny" && hs.permissionDecision !== "ask") delete hs.permissionDecision;
    out.hookSpecificOutput = hs;
  }
  return out;
}

/**
 * Read a hook by Qwen Code's rules: Claude's (readClaude), except that
 * - exit 2 blocks with stderr alone (stdout is not read);
 * - stdout that starts with `{` but is not JSON is ignored (a warning; the hook did not fail);
 * - plain stdout on exit 0 where Claude keeps it in the transcript is a message for the user;
 * - PreToolUse `allow` and `updatedInput` are ignored (Qwen applies neither);
 * - PostToolUse / PostToolUseFailure blocks (`decision: "block"`, exit 2) are ignored: their reason
 *   never reaches the model (`additionalContext` does);
 * - Stop / SubagentStop `additionalContext` is dropped (only `decision: "block"` continues).
 */
export function readQwen(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult {
  const stdout = r.stdout.trim();
  let json: Record<string, unknown> | null = null;
  if (code !== 2 && stdout.startsWith("{")) {
    try {
      const v: unknown = JSON.parse(stdout);
      if (isJsonObject(v)) json = v;
    } catch {
      r.warnings.push("stdout starts like a JSON object but is not valid JSON: ignored (as by Qwen Code)");
      return code === 0 ? r : readClaude({ ...r, stdout: "" }, hook, code, gate);
    }
  }
  const seen = code === 2 ? "" : json ? JSON.stringify(asClaude(json, hook, gate)) : r.stdout;
  let result = { ...readClaude({ ...r, stdout: seen }, hook, code, gate), stdout: r.stdout };
  const rules = claudeRules(hook.event, gate);
  if (code === 0 && json === null && stdout !== "" && !rules.stdoutIsContext) result.messages.push({ role: "system", content: stdout, kind: "notice", hook: hook.name });
  if (hook.event === "pre_tool_use") {
    if (result.decision === "allow") {
      result.decision = null;
      delete result.reason;
    }
    if (result.updated_input !== undefined) {
      delete result.updated_input;
      result.warnings.push("updatedInput ignored: Qwen Code does not rewrite a tool call's input");
    }
  }
  if (AFTER_TOOL.has(hook.event)) {
    const feedback = result.messages.filter((m) => m.kind === "feedback");
    if (feedback.length) {
      result = { ...result, messages: result.messages.filter((m) => m.kind !== "feedback") };
      result.warnings.push(`block ignored: Qwen Code does not give a ${rules.name} block's reason to the model (${feedback.map((m) => m.content).join("; ")})`);
    }
  }
  if (STOPS.has(hook.event)) result = { ...result, messages: result.messages.filter((m) => m.kind !== "followup") };
  return result;
}

/** Qwen Code's dialect: Qwen's payload on stdin, the output read by Qwen's rules. */
export const qwen: DialectCode = { stdin: qwenInput, readExit: readQwen };
