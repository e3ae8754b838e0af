/**
 * The gemini dialect: hooks written for Gemini CLI (0.61; `dialect: gemini`, what `hooks import
 * gemini` writes). They receive Gemini's payload and their exit code and output are read as Gemini
 * reads them (docs/dialects.md lists every field and exit code).
 */
import { FEEDBACK_EVENTS, type GateKind } from "../events/catalog.js";
import { GEMINI_NAME, TOOLS } from "../events/geminiNames.js";
import type { ResolvedHook } from "../config/types.js";
import type { HookResult, Message } from "../runner/types.js";
import { setOwn } from "../runner/context.js";
import { isJsonObject } from "../config/scanJson.js";
import { copyOf, firedBy, hostTool } from "./shape.js";
import type { DialectCode } from "./types.js";

/** Where Gemini hands `hookSpecificOutput.additionalContext` to the model (SessionStart, BeforeAgent, AfterTool). */
const CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit", "post_tool_use"]);
/** Where a Gemini block (`decision` deny/block, or exit ≥ 2 with text) stops the action: BeforeTool, BeforeAgent, AfterAgent (the turn goes on). */
const BLOCK_EVENTS = new Set(["pre_tool_use", "user_prompt_submit", "stop"]);
/** The output fields Gemini reads on the events hookrun maps; anything else is kept in `json`. */
const TOP_LEVEL = new Set(["continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"]);
/** hookSpecificOutput fields hookrun carries (the rest, e.g. AfterAgent's clearContext or BeforeModel's llm_request, is kept in `json` with a warning). */
const CARRIED_SPECIFIC = new Set(["hookEventName", "additionalContext", "tool_input"]);

/**
 * The hook's stdin as Gemini CLI sends it: `hook_event_name` Gemini's (BeforeTool, AfterAgent, …),
 * `tool_name` Gemini's (`run_shell_command`, `write_file`, `replace`, …), `transcript_path` ("" when
 * unknown), an ISO `timestamp` (now, when unknown); AfterAgent's `prompt_response` (the agent's last
 * message) and `prompt` (""); AfterTool's `tool_response` as Gemini's `{llmContent, returnDisplay}`
 * when the firing host gave text. Fired by Gemini, its own names and values are kept. The tool
 * arguments are Claude's field names, which Gemini's built-in tools share (`command`, `file_path`,
 * `content`, `old_string`, `new_string`).
 */
export function geminiInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const out = copyOf(base);
  const own = firedBy(base, "gemini");
  out.hook_event_name = own && typeof own.event === "string" ? own.event : (GEMINI_NAME.get(event) ?? base.hook_event_name);
  if (Object.hasOwn(base, "tool_name")) out.tool_name = own && own.tool_name !== undefined ? own.tool_name : hostTool(TOOLS, base.tool_name);
  if (typeof out.transcript_path !== "string") out.transcript_path = "";
  if (typeof out.timestamp !== "string") out.timestamp = new Date().toISOString();
  if ((event === "pre_tool_use" || event === "post_tool_use") && out.tool_input === undefined) out.tool_input = {};
  if (event === "post_tool_use" && typeof out.tool_response === "string") out.tool_response = { llmContent: out.tool_response, returnDisplay: out.tool_response };
  if (event === "stop") {
    if (out.prompt_response === undefined) out.prompt_response = typeof base.last_assistant_message === "string" ? base.last_assistant_message : "";
    if (out.prompt === undefined) out.prompt = "";
  }
  return out;
}

/** What Gemini makes of the hook's text: stdout, else stderr; JSON (also a JSON string of JSON) or plain text. */
function parse(r: HookResult): { json: Record<string, unknown> } | { text: string } | null {
  const text = r.stdout.trim() || r.stderr.trim();
  if (text === "") return null;
  try {
    let value: unknown = JSON.parse(text);
    if (typeof value === "string") value = JSON.parse(value);
    return isJsonObject(value) ? { json: value } : null;
  } catch {
    return { text };
  }
}

/**
 * Read a hook that exited with any code (126/127 included) by Gemini CLI's rules onto `r`:
 * - stdout (else stderr) that is JSON is read whatever the exit code; a JSON value that is not an
 *   object is ignored;
 * - plain text: on exit 0 a message for the user (not model context), on exit 1 a warning for the
 *   user, on any other code a block with the text as reason; a non-zero exit without output is a
 *   failure (Gemini goes on);
 * - `decision` "deny" or "block" blocks BeforeTool and BeforeAgent, keeps AfterAgent going, and on
 *   AfterTool replaces the tool's result with the reason (feedback); `reason` (or `stopReason`) is
 *   the reason; `ask` on BeforeTool asks; `allow` changes nothing;
 * - `continue: false` stops the agent (`stopReason`, else `reason`);
 * - `systemMessage` is for the user (unless `suppressOutput`);
 * - `hookSpecificOutput.additionalContext` reaches the model on SessionStart, BeforeAgent and
 *   AfterTool; a top-level `additionalContext` is ignored, as by Gemini;
 * - `hookSpecificOutput.tool_input` on BeforeTool replaces the tool's input.
 */
export function readGemini(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind): HookResult {
  const event = hook.event;
  const message = (content: string, kind?: Message["kind"]): Message => (kind ? { role: "system", content, kind, hook: hook.name } : { role: "system", content, hook: hook.name });
  const parsed = parse(r);
  if (parsed === null) {
    if (code === 0) return r;
    const line = r.stderr.trim().split("\n").pop() ?? "";
    return { ...r, status: "failed", error: `exit code ${code}${line ? `: ${line}` : ""}, no output Gemini CLI reads (it goes on)` };
  }
  if ("text" in parsed) {
    if (code === 0) r.messages.push(message(parsed.text, "notice"));
    else if (code === 1) r.messages.push(message(`Warning: ${parsed.text}`, "notice"));
    else return block(r, hook, gate, parsed.text, message);
    return r;
  }
  const o = parsed.json;
  for (const key of Object.keys(o)) if (!TOP_LEVEL.has(key)) setOwn((r.json ??= {}), key, o[key]);
  const hs = isJsonObject(o.hookSpecificOutput) ? o.hookSpecificOutput : {};
  const dropped = Object.keys(hs).filter((k) => !CARRIED_SPECIFIC.has(k));
  if (dropped.length > 0) {
    setOwn((r.json ??= {}), "hookSpecificOutput", hs);
    r.warnings.push(`hookSpecificOutput.${dropped.join(", ")}: not carried by hookrun (kept in the result's json)`);
  }
  if (typeof o.systemMessage === "string" && o.systemMessage !== "" && o.suppressOutput !== true) r.messages.push(message(o.systemMessage, "notice"));
  if (typeof hs.additionalContext === "string" && hs.additionalContext !== "" && CONTEXT_EVENTS.has(event)) r.messages.push(message(hs.additionalContext));
  const why = (typeof o.stopReason === "string" && o.stopReason) || (typeof o.reason === "string" && o.reason) || "No reason provided";
  if (o.continue === false) {
    r.continue = false;
    r.stop_reason = why;
  }
  if (event === "pre_tool_use" && isJsonObject(hs.tool_input)) r.updated_input = hs.tool_input;
  if (o.decision === "deny" || o.decision === "block") return block(r, hook, gate, why, message);
  if (o.decision === "ask" && event === "pre_tool_use") {
    r.decision = "ask";
    if (typeof o.reason === "string") r.reason = o.reason;
  }
  return r;
}

/** A Gemini block on this event: blocked where Gemini blocks, feedback after the tool ran, else ignored with a warning. */
function block(r: HookResult, hook: ResolvedHook, gate: GateKind, reason: string, message: (content: string, kind?: Message["kind"]) => Message): HookResult {
  if (FEEDBACK_EVENTS.has(hook.event)) return { ...r, messages: [...r.messages, message(reason, "feedback")] };
  if (BLOCK_EVENTS.has(hook.event) && gate === "yes") return { ...r, status: "blocked", decision: "block", reason };
  r.warnings.push(`block ignored: Gemini CLI does not block ${GEMINI_NAME.get(hook.event) ?? hook.event} (${reason})`);
  return r;
}

/** Gemini CLI's dialect: Gemini's payload on stdin, the output read by Gemini's rules. */
export const gemini: DialectCode = { stdin: geminiInput, readExit: readGemini };
