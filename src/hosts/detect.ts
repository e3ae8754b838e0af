import { EVENTS } from "../events/catalog.js";
import { PASCAL_EVENTS } from "../events/copilotNames.js";
import { QWEN_EVENTS } from "../events/qwenNames.js";
import { isJsonObject } from "../config/scanJson.js";
import { stringField } from "./payload.js";
import type { Payload } from "./types.js";

/**
 * How each host's payloads are told apart (`--host auto`, and `--host claude` giving way to
 * another host's payload: src/hosts/table.ts), with the name tables that takes. Each host's
 * runtime part (src/hosts/<host>Run.ts) reads its tables from here, and the host table lists
 * these functions, so a `hooks run` detects the host without loading every host's module
 * (docs/architecture.md).
 */

/** agent-code and pi: no payload of theirs can be told apart (their dispatch names the host). */
export const undetectable = (_payload: Payload): boolean => false;

/**
 * A Claude-shaped clone's payloads (src/hosts/claudeCloneRun.ts): one of its events (Claude's
 * names), a session id, and a transcript path through its own folder, which no other host writes.
 */
export function cloneDetector(events: readonly string[], transcriptFolder: string): (payload: Payload) => boolean {
  const fires = new Set(events);
  const transcript = new RegExp(`[\\\\/]${transcriptFolder.replace(/\./g, "\\.")}[\\\\/]`);
  return (payload) => {
    const event = stringField(payload, "hook_event_name");
    return event !== undefined && fires.has(event) && typeof payload.session_id === "string" && transcript.test(stringField(payload, "transcript_path") ?? "");
  };
}

// Claude Code (src/hosts/claudeRun.ts)
/**
 * Claude Code's event before each shell command a skill or slash command embeds (`!\`cmd\``):
 * hookrun reads it as pre_tool_use (docs/hosts.md#claude-codes-preskillshellcommand). Claude Code runs the command
 * unless a hook stops it.
 */
export const SKILL_SHELL = "PreSkillShellCommand";
/** Claude Code's event names → canonical events (the catalog's `claude` column). */
export const CLAUDE_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(EVENTS.filter((e) => e.claude).map((e) => [e.claude!.name, e.name])),
  // Claude Code 2.1.332: before each shell command a skill embeds. Without an entry for it those
  // commands pass every PreToolUse guard, so it is pre_tool_use to hookrun (the catalog's
  // PreToolUse stays the event's Claude name: the first in this table).
  [SKILL_SHELL]: "pre_tool_use",
});
/** Whether a payload can only have come from Claude Code (`--host auto`). */
export function detectClaude(p: Payload): boolean {
  return typeof p.hook_event_name === "string" && Object.hasOwn(CLAUDE_EVENTS, p.hook_event_name) && typeof p.session_id === "string" && typeof p.transcript_path === "string";
}

// Codex CLI (src/hosts/codexRun.ts)
/**
 * Codex's event name → hookrun's (Claude's names, and Interrupt: the user interrupted a turn of
 * the main thread, which is hookrun's generation_interrupt).
 */
export const CODEX_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  PreToolUse: "pre_tool_use",
  PermissionRequest: "permission_request",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
  PostCompact: "post_compact",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  Stop: "stop",
  SessionEnd: "session_end",
  Interrupt: "generation_interrupt",
});
/** Whether a payload can only have come from Codex CLI (`--host auto`). */
export function detectCodex(payload: Payload): boolean {
  if (typeof payload.hook_event_name !== "string" || !Object.hasOwn(CODEX_EVENTS, payload.hook_event_name)) return false;
  // every event but SessionStart and SessionEnd carries turn_id; their transcript is a rollout file
  return typeof payload.turn_id === "string" || (typeof payload.transcript_path === "string" && /[/\\]rollout-[^/\\]+\.jsonl$/.test(payload.transcript_path));
}

// Copilot CLI (src/hosts/copilotRun.ts)
/** Which of Copilot's dialects a payload is in (PascalCase entries send `hook_event_name`). */
export function copilotDialect(payload: Payload): "camel" | "pascal" {
  return typeof payload.hook_event_name === "string" ? "pascal" : "camel";
}
// Fields only other hosts send (Claude Code, Qwen, Codex, Cursor, Cline, Windsurf, Gemini's `llm_request`).
export const OTHER_HOSTS = ["permission_mode", "tool_use_id", "tool_call_id", "turn_id", "cursor_version", "taskId", "agent_action_name"];
// PascalCase events whose Copilot payload carries a transcript path (Gemini's carry one on every event).
export const WITH_TRANSCRIPT = new Set(["Stop", "SubagentStart", "SubagentStop"]);
/**
 * Whether a payload can only have come from Copilot CLI: camelCase `sessionId` with an epoch-ms
 * `timestamp`; or a PascalCase one with an ISO `timestamp` and none of the fields Claude Code,
 * Qwen Code or Gemini CLI always send (`permission_mode`; a transcript path outside Stop and the
 * subagent events).
 */
export function detectCopilot(payload: Payload): boolean {
  if (OTHER_HOSTS.some((k) => Object.hasOwn(payload, k))) return false;
  if (copilotDialect(payload) === "camel") return typeof payload.sessionId === "string" && typeof payload.timestamp === "number" && payload.session_id === undefined;
  const event = payload.hook_event_name as string;
  if (typeof payload.session_id !== "string" || typeof payload.timestamp !== "string" || Number.isNaN(Date.parse(payload.timestamp))) return false;
  if (!Object.hasOwn(PASCAL_EVENTS, event)) return false;
  return payload.transcript_path === undefined || WITH_TRANSCRIPT.has(event);
}

// Qwen Code (src/hosts/qwenRun.ts)
/** Whether a payload can only be Qwen Code's: a Claude event name with Qwen's `tool_call_id`, or `timestamp` + `permission_mode` (Gemini sends no permission_mode, Claude no timestamp). */
export function detectQwen(p: Payload): boolean {
  if (typeof p.hook_event_name !== "string" || !Object.hasOwn(QWEN_EVENTS, p.hook_event_name) || typeof p.session_id !== "string") return false;
  // Kimi Code's payloads carry tool_call_id too, and its client_type, which Qwen's never do.
  if (p.client_type === "kimi_code_cli") return false;
  return typeof p.tool_call_id === "string" || (typeof p.timestamp === "string" && typeof p.permission_mode === "string");
}

// Cursor (src/hosts/cursorRun.ts)
/** Cursor's event → hookrun's canonical event. */
export const CURSOR_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  sessionStart: "session_start",
  sessionEnd: "session_end",
  beforeSubmitPrompt: "user_prompt_submit",
  // Newer builds' name of the prompt event, beside beforeSubmitPrompt.
  userPromptSubmit: "user_prompt_submit",
  preToolUse: "pre_tool_use",
  postToolUse: "post_tool_use",
  postToolUseFailure: "post_tool_use_failure",
  beforeShellExecution: "pre_tool_use",
  afterShellExecution: "post_tool_use",
  beforeMCPExecution: "pre_tool_use",
  afterMCPExecution: "post_tool_use",
  beforeReadFile: "pre_tool_use",
  afterFileEdit: "post_tool_use",
  subagentStart: "subagent_start",
  subagentStop: "subagent_stop",
  preCompact: "pre_compact",
  stop: "stop",
});
/** Whether a payload can only have come from Cursor (`--host auto`). */
export function detectCursor(payload: Payload): boolean {
  return (
    typeof payload.cursor_version === "string" ||
    (typeof payload.hook_event_name === "string" && Object.hasOwn(CURSOR_EVENTS, payload.hook_event_name) && /^[a-z]/.test(payload.hook_event_name) && Array.isArray(payload.workspace_roots))
  );
}

// Factory Droid (src/hosts/droidRun.ts)
/** Droid's nine events → canonical. */
export const DROID_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "user_prompt_submit",
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  Notification: "notification",
  Stop: "stop",
  SubagentStop: "subagent_stop",
  PreCompact: "pre_compact",
});
/** Tool names only Droid uses: a Claude-shaped payload naming one is Droid's. */
export const DROID_ONLY_TOOLS = new Set(["Execute", "Create", "FetchUrl", "ApplyPatch"]);
/** Whether a payload can only have come from Factory Droid (`--host auto`). */
export function detectDroid(payload: Payload): boolean {
  const event = stringField(payload, "hook_event_name");
  if (event === undefined || !Object.hasOwn(DROID_EVENTS, event) || typeof payload.session_id !== "string") return false;
  const tool = stringField(payload, "tool_name");
  const transcript = stringField(payload, "transcript_path") ?? "";
  return (tool !== undefined && DROID_ONLY_TOOLS.has(tool)) || /[\\/]\.factory[\\/]/.test(transcript);
}

// Windsurf (src/hosts/windsurfRun.ts)

/** Whether a payload can only have come from Windsurf (`--host auto`). */
export function detectWindsurf(payload: Payload): boolean {
  return typeof payload.agent_action_name === "string" && (typeof payload.trajectory_id === "string" || isJsonObject(payload.tool_info));
}

// Cline (src/hosts/clineRun.ts)

/** Whether a payload can only have come from Cline (`--host auto`). */
export function detectCline(payload: Payload): boolean {
  return typeof payload.hookName === "string" && (typeof payload.taskId === "string" || typeof payload.clineVersion === "string");
}

// Crush (src/hosts/crushRun.ts)
/** Crush's tool names → canonical (Claude's). */
export const CRUSH_TOOLS: Readonly<Record<string, string>> = Object.freeze({
  bash: "Bash",
  edit: "Edit",
  multiedit: "MultiEdit",
  write: "Write",
  view: "Read",
  glob: "Glob",
  grep: "Grep",
  ls: "LS",
  fetch: "WebFetch",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
});
/** Whether a payload can only have come from Crush (`--host auto`). */
export function detectCrush(payload: Payload): boolean {
  return payload.event === "PreToolUse" && payload.hook_event_name === undefined && Object.hasOwn(CRUSH_TOOLS, stringField(payload, "tool_name") ?? "");
}

// Letta Code (src/hosts/lettaRun.ts)
/**
 * Letta's events → canonical. PermissionRequest is left out: Letta reads its exit 0 as "allow",
 * so an entry there would approve every permission prompt no hook decided.
 */
export const LETTA_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PostToolUseFailure: "post_tool_use_failure",
  UserPromptSubmit: "user_prompt_submit",
  Notification: "notification",
  Stop: "stop",
  SubagentStop: "subagent_stop",
  PreCompact: "pre_compact",
  SessionStart: "session_start",
  SessionEnd: "session_end",
});
/** Whether a payload can only have come from Letta Code (`--host auto`). */
export function detectLetta(payload: Payload): boolean {
  const event = stringField(payload, "event_type");
  return event !== undefined && Object.hasOwn(LETTA_EVENTS, event) && typeof payload.working_directory === "string" && payload.hook_event_name === undefined;
}

// Goose (src/hosts/gooseRun.ts)
/** Goose's events hookrun has an event for (BeforeReadFile, AfterFileEdit, Before/AfterShellExecution and PreToolUseResult are not read). */
export const GOOSE_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PostToolUseFailure: "post_tool_use_failure",
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "user_prompt_submit",
  Stop: "stop",
});
/** Whether a payload can only have come from Goose (`--host auto`). */
export function detectGoose(payload: Payload): boolean {
  const event = stringField(payload, "event");
  return event !== undefined && Object.hasOwn(GOOSE_EVENTS, event) && payload.hook_event_name === undefined && typeof payload.session_id === "string" && Object.hasOwn(payload, "matcher_context");
}

// Grok Build (src/hosts/grokRun.ts)
/** Grok Build's events (its config keys) hookrun has an event for: Claude's names (StopCancelled is not read). */
export const GROK_FIRED = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionDenied",
  "Stop",
  "StopFailure",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionEnd",
];
export const GROK_EVENTS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(GROK_FIRED.map((e) => [e, CLAUDE_EVENTS[e]])));
/** A config key's name in the envelope's `hookEventName` (`PreToolUse` → `pre_tool_use`). */
export const envelopeName = (hostEvent: string): string => hostEvent.replace(/(?<=[a-z])([A-Z])/g, "_$1").toLowerCase();
/** The envelope's `hookEventName` → the config key. */
export const GROK_ENVELOPE_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(GROK_FIRED.map((e) => [envelopeName(e), e])));
/** Whether a payload can only have come from Grok Build (`--host auto`). */
export function detectGrok(payload: Payload): boolean {
  const event = stringField(payload, "hookEventName");
  return event !== undefined && Object.hasOwn(GROK_ENVELOPE_EVENT, event) && typeof payload.sessionId === "string" && typeof payload.workspaceRoot === "string";
}

// Kimi Code (src/hosts/kimiRun.ts)
/** Kimi Code's events hookrun has an event for (Claude's names; PermissionRequest, PermissionResult and Interrupt are not read). */
export const KIMI_FIRED = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "StopFailure",
  "SessionStart",
  "SessionEnd",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "Notification",
];
export const KIMI_EVENTS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(KIMI_FIRED.map((e) => [e, CLAUDE_EVENTS[e]])));
/** Whether a payload can only have come from Kimi Code (`--host auto`). */
export function detectKimi(payload: Payload): boolean {
  const event = stringField(payload, "hook_event_name");
  return event !== undefined && Object.hasOwn(KIMI_EVENTS, event) && typeof payload.session_id === "string" && payload.client_type === "kimi_code_cli";
}

// opencode (src/hosts/opencodeRun.ts)
/**
 * opencode (`opencode-ai`, checked in real runs of 1.18.33 by test/opencode.e2e.test.ts). It has
 * no hook commands: it loads plugins, modules in `.opencode/plugins/` (or `plugin/`, and the same
 * under `~/.config/opencode/`) run in its own process under Bun, each returning callbacks keyed by
 * hook name. `hooks install opencode` writes one (`.opencode/plugins/hookrun.js`) that imports
 * hookrun from the project's node_modules and calls `opencodeHooks` (src/hosts/opencodeBridge.ts),
 * which builds this adapter's payload from each callback's arguments, sends it through the one path
 * to its answer (src/hosts/inProcess.ts) and applies the JSON answer `render` writes. Contract in
 * words: docs/hosts/opencode.md.
 *
 * The payload (hookrun's own shape, since opencode sends none): `hook_event_name` (the callback's
 * or bus event's name), `session_id`, `cwd`, and per event `tool`, `call_id`, `args` (the tool's
 * arguments, opencode's camelCase: `filePath`, `oldString`…), `output` (the tool's text result),
 * `title`, `prompt`.
 */

export const OPENCODE_EVENTS: Readonly<Record<string, string>> = Object.freeze({
  // bus event, not awaited by opencode: the bridge starts the hooks and the first request of the session waits for them
  "session.created": "session_start",
  // the user's message, before the model sees it; a throw refuses it
  "chat.message": "user_prompt_submit",
  "tool.execute.before": "pre_tool_use",
  "tool.execute.after": "post_tool_use",
  // bus event, not awaited: the session went idle (the turn is over)
  "session.idle": "stop",
});
/** Whether a payload can only have come from opencode (`--host auto`). */
export function detectOpencode(payload: Payload): boolean {
  const name = payload.hook_event_name;
  return typeof name === "string" && Object.hasOwn(OPENCODE_EVENTS, name);
}

// Gemini CLI (src/hosts/geminiRun.ts)
/** Gemini's events that no other host uses; SessionStart, SessionEnd and Notification are Claude's names too. */
export const GEMINI_OWN_EVENTS = new Set(["BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress"]);
/** Every field Gemini sends on its shared-name events: a payload with any other key is not Gemini's. */
export const GEMINI_SHARED_FIELDS = new Set(["session_id", "transcript_path", "cwd", "hook_event_name", "timestamp", "source", "reason", "notification_type", "message", "details"]);
/** A payload only Gemini sends: `timestamp` and a Gemini event name (for a name Claude shares, only Gemini's fields). */
export function detectGemini(payload: Payload): boolean {
  const name = payload.hook_event_name;
  if (typeof name !== "string" || typeof payload.timestamp !== "string") return false;
  if (GEMINI_OWN_EVENTS.has(name)) return true;
  return (name === "SessionStart" || name === "SessionEnd" || name === "Notification") && Object.keys(payload).every((k) => GEMINI_SHARED_FIELDS.has(k));
}

// Qoder CLI (src/hosts/qoderRun.ts)
/** Qoder CLI's events (Claude's names): Claude Code's less UserPromptExpansion, PostToolBatch and PreSkillShellCommand. */
export const QODER_EVENTS: readonly string[] = Object.freeze([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStart",
  "SubagentStop",
  "Notification",
  "SessionStart",
  "Setup",
  "SessionEnd",
  "PreCompact",
  "PostCompact",
  "Stop",
  "StopFailure",
  "UserPromptSubmit",
  "ConfigChange",
  "TeammateIdle",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "Elicitation",
  "ElicitationResult",
  "TaskCreated",
  "TaskCompleted",
  "PermissionRequest",
  "PermissionDenied",
]);
/** A folder in Qoder CLI's transcript paths that no other host writes. */
export const QODER_TRANSCRIPTS = ".qoder";
/** Whether a payload can only have come from Qoder CLI (`--host auto`). */
export const detectQoder = cloneDetector(QODER_EVENTS, QODER_TRANSCRIPTS);
