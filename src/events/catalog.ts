/**
 * The event catalog (docs/configuration.md#events): the one table every other list of events is derived from
 * (the schema's event names, `hooks events`, the event table of docs/configuration.md, alias resolution).
 */
export type GateKind = "yes" | "no" | "transform";

export interface EventInfo {
  /** Canonical snake_case name. */
  readonly name: string;
  /** Other accepted names (gptme's dotted names, older spellings). */
  readonly aliases: readonly string[];
  /** When the event fires. */
  readonly fires: string;
  /** "yes": a block decision is honoured; "transform": hooks chain updated_input. */
  readonly gate: GateKind;
  /** Context field that `matcher` tests, or null when the event has none. */
  readonly matchField: string | null;
  /** The matcher tests the base name of the match field's path, not the whole value (Claude's FileChanged). */
  readonly matchBaseName?: boolean;
  /** Event fields of the context, as the caller passes them. */
  readonly fields: readonly string[];
  /** How Claude Code reads a hook's answer on this event; null when Claude Code has no such event. */
  readonly claude: ClaudeEventRules | null;
}

/**
 * Claude Code's rules for one event (read from its 2.1.330 source; docs/dialects.md), used by the
 * `claude` dialect to read a hook's output and by the Claude host to render a result.
 */
export interface ClaudeEventRules {
  /** Claude Code's name of the event. */
  readonly name: string;
  /** Plain stdout on exit 0 becomes model context (else it goes to the transcript only). */
  readonly stdoutIsContext: boolean;
  /** `hookSpecificOutput.additionalContext` is accepted (and reaches the model). */
  readonly additionalContext: boolean;
  /**
   * What a block (exit 2, or `decision: "block"`) does: `deny` the action with the reason to the
   * model; `feedback` to the model next to the tool result (the tool already ran); `continue` the
   * turn with the reason (Stop); `user`: stderr is shown to the user only, nothing is blocked.
   */
  readonly block: "deny" | "feedback" | "continue" | "user";
}

const C = (name: string, block: ClaudeEventRules["block"], additionalContext: boolean, stdoutIsContext = false): ClaudeEventRules => Object.freeze({ name, stdoutIsContext, additionalContext, block });

const E = (name: string, aliases: string[], fires: string, gate: GateKind, matchField: string | null, fields: string[], claude: ClaudeEventRules | null = null, matchBaseName = false): EventInfo =>
  Object.freeze({ name, aliases: Object.freeze(aliases), fires, gate, matchField, ...(matchBaseName && { matchBaseName }), fields: Object.freeze(fields), claude });

export const EVENTS: readonly EventInfo[] = Object.freeze([
  E("session_start", [], "session begins or resumes", "no", "source", ["source"], C("SessionStart", "user", true, true)),
  E("session_end", [], "session ends", "no", "reason", ["reason"], C("SessionEnd", "user", false)),
  E("setup", [], "repository setup (init) or maintenance", "no", "trigger", ["trigger"], C("Setup", "user", true)),
  E("user_prompt_submit", ["message_pre_process"], "user message received, before processing", "yes", null, ["prompt"], C("UserPromptSubmit", "deny", true, true)),
  E(
    "user_prompt_expansion",
    [],
    "a slash command the user typed expands into a prompt",
    "yes",
    "command_name",
    ["expansion_type", "command_name", "command_args", "command_source", "prompt"],
    C("UserPromptExpansion", "deny", true, true),
  ),
  E("message_post_process", [], "after a user message is fully handled", "no", null, []),
  E("message_transform", [], "transform a message before processing", "transform", null, ["message"]),
  E("pre_turn", ["turn.pre", "step.pre"], "before each model round-trip", "no", null, []),
  E("post_turn", ["turn.post", "step.post"], "after each model round-trip", "no", null, []),
  E("generation_pre", [], "before generating a response", "no", null, []),
  E("generation_post", [], "after generating a response", "no", null, []),
  E("generation_interrupt", [], "generation interrupted", "no", null, []),
  E("pre_tool_use", ["tool_pre_execute", "tool.execute.pre"], "before a tool runs", "yes", "tool_name", ["tool_name", "tool_input", "tool_use_id"], C("PreToolUse", "deny", true)),
  E("post_tool_use", ["tool_post_execute", "tool.execute.post"], "after a tool succeeded", "no", "tool_name", ["tool_name", "tool_input", "tool_response"], C("PostToolUse", "feedback", true)),
  E("post_tool_use_failure", [], "after a tool failed", "no", "tool_name", ["tool_name", "tool_input", "error"], C("PostToolUseFailure", "feedback", true)),
  E("post_tool_batch", [], "every tool call of a batch resolved, before the next model request", "yes", null, ["tool_calls"], C("PostToolBatch", "deny", true)),
  E("tool_transform", [], "transform a tool call before it runs", "transform", "tool_name", ["tool_name", "tool_input"]),
  E("permission_request", [], "a tool call needs permission", "yes", "tool_name", ["tool_name", "tool_input"], C("PermissionRequest", "deny", false)),
  E("permission_denied", [], "auto mode denied a tool call", "no", "tool_name", ["tool_name", "tool_input", "tool_use_id", "reason"], C("PermissionDenied", "user", false)),
  E("file_pre_save", ["file.save.pre"], "before a file is written", "yes", "path", ["path", "content", "created"]),
  E("file_post_save", ["file.save.post"], "after a file was written", "no", "path", ["path", "created"]),
  E("file_pre_patch", ["file.patch.pre"], "before a file is patched", "yes", "path", ["path", "patch"]),
  E("file_post_patch", ["file.patch.post"], "after a file was patched", "no", "path", ["path"]),
  E("stop", [], "once per response, when the agent yields to the user", "yes", null, ["stop_hook_active"], C("Stop", "continue", true)),
  E("stop_failure", [], "the turn ended on an API error (instead of stop)", "no", "error", ["error", "error_details"], C("StopFailure", "user", false)),
  E("subagent_start", [], "a subagent starts", "no", "agent_type", ["agent_id", "agent_type"], C("SubagentStart", "user", true)),
  E("subagent_stop", [], "a subagent finished", "yes", "agent_type", ["agent_type"], C("SubagentStop", "continue", true)),
  E("teammate_idle", [], "a teammate is about to go idle", "yes", null, ["teammate_name", "team_name"], C("TeammateIdle", "continue", false)),
  E("task_created", [], "a task is being created", "yes", null, ["task_id", "task_subject", "task_description", "teammate_name", "team_name"], C("TaskCreated", "deny", false)),
  E("task_completed", [], "a task is being marked completed", "yes", null, ["task_id", "task_subject", "task_description", "teammate_name", "team_name"], C("TaskCompleted", "deny", false)),
  E("notification", [], "the agent notifies the user", "no", "notification_type", ["message", "notification_type"], C("Notification", "user", false)),
  E("elicitation", [], "an MCP server asks the user for input", "yes", "mcp_server_name", ["mcp_server_name", "message", "mode", "requested_schema"], C("Elicitation", "deny", false)),
  E("elicitation_result", [], "the user answered an MCP server's request for input", "yes", "mcp_server_name", ["mcp_server_name", "action", "content", "mode"], C("ElicitationResult", "deny", false)),
  E("pre_compact", [], "before context compaction", "yes", "trigger", ["trigger"], C("PreCompact", "deny", false)),
  E("post_compact", [], "after context compaction", "no", "trigger", ["trigger"], C("PostCompact", "user", false)),
  E("pre_model_switch", [], "before a requested model switch", "yes", "to_model", ["from_model", "to_model", "requested_model", "source"], C("PreModelSwitch", "deny", false)),
  E("post_model_switch", [], "after the session's model changed", "no", "to_model", ["from_model", "to_model", "requested_model", "source"], C("PostModelSwitch", "user", true, true)),
  E("cwd_changed", [], "the working directory changed", "no", null, ["old_cwd", "new_cwd"], C("CwdChanged", "user", false)),
  E("directory_added", [], "a working directory was added to the session", "no", "source", ["directory", "source"], C("DirectoryAdded", "user", false)),
  E("file_changed", [], "a watched file changed (the matcher tests its base name)", "no", "file_path", ["file_path", "event"], C("FileChanged", "user", false), true),
  E("instructions_loaded", [], "an instruction file (CLAUDE.md or a rule) was loaded", "no", "load_reason", ["file_path", "memory_type", "load_reason"], C("InstructionsLoaded", "user", false)),
  E("config_change", [], "a config file changed", "yes", "source", ["source", "path"], C("ConfigChange", "deny", false)),
  E("loop_continue", [], "the loop decides whether to go on", "no", null, []),
  E("error", [], "the agent hit an error", "no", null, ["error"]),
]);

/** The value `matcher` tests for this event in `context`: the match field, or its path's base name. */
export function matchValue(e: EventInfo, context: Record<string, unknown>): unknown {
  const v = e.matchField === null ? undefined : context[e.matchField];
  return e.matchBaseName && typeof v === "string" ? (v.split(/[\\/]/).pop() ?? v) : v;
}

export const EVENT_BY_NAME: ReadonlyMap<string, EventInfo> = new Map(EVENTS.map((e) => [e.name, e]));

/**
 * The events with a tool call, where a hook's `if` (Claude's permission rule) can be tested: Claude
 * Code's PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest and PermissionDenied.
 */
export const TOOL_CALL_EVENTS: ReadonlySet<string> = new Set(EVENTS.filter((e) => e.claude && e.matchField === "tool_name").map((e) => e.name));

/**
 * The events that fire after the tool ran (their Claude rule says a block is `feedback`): there a
 * hook's block, by exit 2 or by a JSON block decision, is feedback for the model next to the
 * tool's result, whichever dialect the hook is written in (docs/running-hooks.md).
 */
/** Events whose block (or follow-up) keeps the turn going: the only ones a hook's `loop_limit` applies to. */
export const LOOP_EVENTS: ReadonlySet<string> = new Set(["stop", "subagent_stop"]);

export const FEEDBACK_EVENTS: ReadonlySet<string> = new Set(EVENTS.filter((e) => e.claude?.block === "feedback").map((e) => e.name));

/** Claude Code's spelling of an event name: `pre_tool_use` → `PreToolUse`. */
export function pascalEventName(name: string): string {
  return name
    .split("_")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
}

/** The event table of docs/configuration.md#events, generated from the catalog so the two cannot drift. */
export function eventTableMarkdown(): string {
  const rows = EVENTS.map((e) => [e.name, e.aliases.join(", "), e.fires, e.gate, e.matchField ?? "–", e.fields.join(", ")].join(" | "));
  return ["| event | aliases | fires | gate | match field | event fields |", "|---|---|---|---|---|---|", ...rows.map((r) => `| ${r} |`.replace(/ {2,}/g, " "))].join("\n");
}

/** The schema's description of an event key, so editors explain each event on completion. */
export function eventDescription(e: EventInfo): string {
  const gate = e.gate === "yes" ? "can block" : e.gate === "transform" ? "transform: hooks chain updated_input" : "cannot block";
  const match = e.matchField ? `matcher tests \`${e.matchField}\`` : "no match field";
  const fields = e.fields.length ? `context fields: ${e.fields.join(", ")}` : "no event fields";
  const aliases = e.aliases.length ? `; aliases: ${e.aliases.join(", ")}` : "";
  return `Fires: ${e.fires}. Gate: ${gate}; ${match}; ${fields}${aliases}.`;
}
