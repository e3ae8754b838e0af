/**
 * Qwen Code's event and tool names as hookrun's. Shared by the host (src/hosts/qwen.ts) and the
 * `qwen` dialect (src/dialects/qwen.ts).
 */

/** Qwen Code's events that hookrun has (its own SessionDelete, MessageDisplay, TodoCreated, TodoCompleted it has not). */
export const QWEN_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PostToolUseFailure: "post_tool_use_failure",
  PostToolBatch: "post_tool_batch",
  UserPromptSubmit: "user_prompt_submit",
  UserPromptExpansion: "user_prompt_expansion",
  SessionStart: "session_start",
  SessionEnd: "session_end",
  Stop: "stop",
  StopFailure: "stop_failure",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  PreCompact: "pre_compact",
  PostCompact: "post_compact",
  Notification: "notification",
  PermissionRequest: "permission_request",
  PermissionDenied: "permission_denied",
  InstructionsLoaded: "instructions_loaded",
});

/** Qwen's tool ids (and legacy ids) → Claude's names (Qwen's own alias table, packages/core/src/permissions/rule-parser.ts). */
export const QWEN_TOOLS: Readonly<Record<string, string>> = Object.freeze({
  run_shell_command: "Bash",
  write_file: "Write",
  edit: "Edit",
  replace: "Edit",
  read_file: "Read",
  grep_search: "Grep",
  search_file_content: "Grep",
  glob: "Glob",
  list_directory: "LS",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
  todo_write: "TodoWrite",
  notebook_edit: "NotebookEdit",
  agent: "Agent",
  task: "Agent",
  skill: "Skill",
  exit_plan_mode: "ExitPlanMode",
  enter_plan_mode: "EnterPlanMode",
  ask_user_question: "AskUserQuestion",
  lsp: "LSP",
  monitor: "Monitor",
  cron_create: "CronCreate",
  cron_list: "CronList",
  cron_delete: "CronDelete",
});
