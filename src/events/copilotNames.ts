/**
 * Copilot CLI's names as hookrun's: its events in both spellings of its config (camelCase, its
 * own; PascalCase, Claude's) and its tool names. Shared by the host (src/hosts/copilot.ts) and the
 * `copilot` / `copilot-pascal` dialects (src/dialects/copilot.ts).
 */

/** The camelCase events (Copilot's own config spelling) → canonical; the dialect hookrun installs in. */
export const CAMEL_EVENTS: Readonly<Record<string, string>> = {
  sessionStart: "session_start",
  sessionEnd: "session_end",
  userPromptSubmitted: "user_prompt_submit",
  preToolUse: "pre_tool_use",
  postToolUse: "post_tool_use",
  postToolUseFailure: "post_tool_use_failure",
  agentStop: "stop",
  subagentStart: "subagent_start",
  subagentStop: "subagent_stop",
  errorOccurred: "error",
  preCompact: "pre_compact",
  notification: "notification",
  permissionRequest: "permission_request",
};

/** The PascalCase (Claude-compatible) events → canonical. */
export const PASCAL_EVENTS: Readonly<Record<string, string>> = {
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "user_prompt_submit",
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PostToolUseFailure: "post_tool_use_failure",
  Stop: "stop",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  PreCompact: "pre_compact",
  Notification: "notification",
  PermissionRequest: "permission_request",
};

/** Copilot's tool names (camelCase payloads) → canonical; its PascalCase payloads already carry these. */
export const COPILOT_TOOLS: Readonly<Record<string, string>> = {
  bash: "Bash",
  create: "Write",
  edit: "Edit",
  view: "Read",
  grep: "Grep",
  glob: "Glob",
  task: "Agent",
  web_fetch: "WebFetch",
};

/** Copilot's argument names of the tools whose arguments differ from Claude's (canonical → Copilot's). */
export const COPILOT_ARGS: Readonly<Record<string, string>> = Object.freeze({ file_path: "path", content: "file_text", old_string: "old_str", new_string: "new_str" });
