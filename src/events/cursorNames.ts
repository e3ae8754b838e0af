/**
 * Cursor's names as hookrun's, shared by the host adapter (src/hosts/cursor.ts: its render and
 * install entries) and the `cursor` dialect (src/dialects/cursor.ts: a hook's stdin).
 */

/** Cursor's generic event for each canonical event: what `hooks install cursor` writes, and what a cursor-dialect hook is told fired. */
export const CURSOR_EVENT: Readonly<Record<string, string>> = Object.freeze({
  session_start: "sessionStart",
  session_end: "sessionEnd",
  user_prompt_submit: "beforeSubmitPrompt",
  pre_tool_use: "preToolUse",
  post_tool_use: "postToolUse",
  post_tool_use_failure: "postToolUseFailure",
  subagent_start: "subagentStart",
  subagent_stop: "subagentStop",
  pre_compact: "preCompact",
  stop: "stop",
});

/** Cursor's tool names that differ from the canonical ones (MCP tools stay `MCP:<tool>`): Cursor → canonical. */
export const CURSOR_TOOLS: Readonly<Record<string, string>> = Object.freeze({ Shell: "Bash" });
