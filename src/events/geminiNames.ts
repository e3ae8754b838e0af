/**
 * Gemini CLI's names as hookrun's: its events and built-in tools (the tables of the adapter in
 * src/hosts/gemini.ts), and the placeholders it writes into a command before running it. Shared by
 * the host's render, install entries, probe and import (src/hosts/gemini*.ts) and the `gemini`
 * dialect (src/dialects/gemini.ts).
 */

/** Gemini event → canonical event. BeforeToolSelection and AfterModel (fired per streamed chunk) have none. */
export const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  SessionStart: "session_start",
  SessionEnd: "session_end",
  // The user's prompt, before the agent works on it (also fired for a stop-block's continuation).
  BeforeAgent: "user_prompt_submit",
  // The agent's answer is final; a block re-prompts the model with the reason (Claude's Stop).
  AfterAgent: "stop",
  // Before every request to the model (a round-trip).
  BeforeModel: "pre_turn",
  BeforeTool: "pre_tool_use",
  // Also fired after a failed tool (tool_response.error is set): there is no separate failure event.
  AfterTool: "post_tool_use",
  PreCompress: "pre_compact",
  Notification: "notification",
});

/** Gemini's built-in tools → Claude Code's names (the canonical vocabulary); others pass unchanged. */
export const TOOLS: Readonly<Record<string, string>> = Object.freeze({
  run_shell_command: "Bash",
  write_file: "Write",
  replace: "Edit",
  read_file: "Read",
  glob: "Glob",
  grep_search: "Grep",
  web_fetch: "WebFetch",
  google_web_search: "WebSearch",
  write_todos: "TodoWrite",
  invoke_agent: "Agent",
  activate_skill: "Skill",
  ask_user: "AskUserQuestion",
  enter_plan_mode: "EnterPlanMode",
  exit_plan_mode: "ExitPlanMode",
});

/** Canonical → Gemini event name (the first Gemini event mapped to it). */
export const GEMINI_NAME = new Map(Object.entries(EVENTS).map(([g, c]) => [c, g]));

/** Gemini's placeholders, replaced in the command text before `bash -c`; under hookrun the same values come from the environment. */
export const PLACEHOLDERS = /\$(GEMINI_PROJECT_DIR|GEMINI_CWD|CLAUDE_PROJECT_DIR|GEMINI_SESSION_ID|GEMINI_PLANS_DIR)/g;
