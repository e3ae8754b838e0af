import { detectGemini } from "./detect.js";
import type { HookContext } from "../runner/types.js";
import { geminiNotRun, renderGemini } from "./geminiRender.js";
import { EVENTS, TOOLS } from "../events/geminiNames.js";
import { baseRead } from "./payload.js";
import type { HostRuntime, Payload } from "./types.js";

/**
 * Gemini CLI (`@google/gemini-cli`, read at 0.61.0: packages/core/src/hooks/*, and checked in
 * real runs by test/gemini.e2e.test.ts). docs/hosts/gemini.md is the contract in words.
 *
 * - Config: `.gemini/settings.json` (project: only the one in Gemini's working directory) and
 *   `~/.gemini/settings.json`; `{hooks: {Event: [{matcher?, sequential?, hooks: [{type:
 *   "command", command, name?, description?, timeout?, env?}]}]}}`. Timeouts in milliseconds,
 *   default 60000; on timeout Gemini SIGTERMs the one process it spawned (`bash -c CMD`), nothing
 *   else, and waits for its pipes to close.
 * - Before `bash -c`, Gemini replaces `$GEMINI_PROJECT_DIR` (and `$GEMINI_CWD`, `$CLAUDE_PROJECT_DIR`)
 *   in the command text by its working directory, already shell-quoted.
 * - Payload: `session_id, transcript_path, cwd, hook_event_name, timestamp` + per event.
 * - Answer: stdout (else stderr) is parsed as JSON on every exit code; plain text on exit 0 is a
 *   systemMessage, on exit 1 a warning, on any other code a deny with the text as reason.
 *
 * This module reads a payload and holds the runtime part (gemini.ts the whole adapter); its name tables are in src/events/geminiNames.ts, its
 * answer in geminiRender.ts, its install entries and probe in geminiSetup.ts, its import in
 * geminiImport.ts.
 */

/** Gemini's fields under their canonical names. */
const RENAMES: Readonly<Record<string, string>> = Object.freeze({ prompt_response: "last_assistant_message" });

/**
 * A Gemini payload as hookrun's context (baseRead): `tool_name` in the canonical vocabulary (Gemini's
 * under `host.tool_name`), AfterAgent's `prompt_response` as `last_assistant_message`; every other
 * field (`timestamp`, `mcp_context`, `original_request_name`, …) as Gemini sent it. `tool_input` is
 * Gemini's own (its shell tool's argument is `command`, its file tools' `file_path`, as Claude's).
 */
export function readGemini(payload: Payload): HookContext {
  // A canonical event's declared fields (`stop_hook_active` on stop) are filled once, for every
  // host, when the hook's stdin is built (src/runner/context.ts).
  return baseRead(geminiRun, payload, { renames: RENAMES });
}

export const geminiRun: HostRuntime = {
  name: "gemini",
  title: "Gemini CLI",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "ms", default: 60_000 },
  detect: detectGemini,
  read: readGemini,
  render: renderGemini,
  notRun: geminiNotRun,
  degrade: {
    ask: `pre_tool_use: a deny whose reason says a confirmation was asked for (Gemini's \`ask\` hangs \`gemini -p\`)`,
    defer: "no decision: Gemini applies its own policy",
    updated_input: "pre_tool_use: hookSpecificOutput.tool_input with the whole input (Gemini replaces the arguments); a non-object: a systemMessage, input unchanged",
    context: "hookSpecificOutput.additionalContext on SessionStart, BeforeAgent, AfterTool (the model reads <hook_context>); elsewhere a systemMessage for the user",
    feedback: "AfterTool additionalContext, appended to the tool's result",
    followup: "AfterAgent decision block with the follow-up as reason: the model is prompted with it",
    stop: "continue: false + stopReason",
    notice: "systemMessage",
  },
};

export { detectGemini };
