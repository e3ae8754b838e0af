import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { matcherRule } from "../config/matcher.js";
import { EVENT_BY_NAME, LOOP_EVENTS } from "../events/catalog.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { blockReason, parseJsonObject, rankedDecision, resultTexts } from "./resultText.js";
import { type FlatConverted, type FlatEntry, importFlatHooks } from "./flatImport.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostAnswer, HostEntry, Payload } from "./types.js";
import { CURSOR_EVENT, CURSOR_TOOLS } from "../events/cursorNames.js";
import { baseRead, canonicalTool, field, POSIX_SHELL, sampleFields, stringField } from "./payload.js";

/**
 * Cursor (the IDE's agent and `cursor-agent`): `.cursor/hooks.json`, `{"version": 1, "hooks":
 * {event: [{command, timeout?, matcher?, failClosed?, loop_limit?}]}}` (flat entries, timeouts in
 * seconds). Facts and sources: docs/hosts/cursor.md; payloads: test/fixtures/hosts/cursor/.
 *
 * Cursor fires a generic pair (preToolUse / postToolUse, every tool, `tool_name` + `tool_input`)
 * and older tool-specific events (beforeShellExecution, beforeReadFile, afterFileEdit, …). Both
 * are read; `hooks install cursor` writes only the generic ones (one dispatch per tool call, and
 * only they carry `updated_input` and `additional_context`).
 */

/** Cursor's event → hookrun's canonical event. */
const EVENTS: Readonly<Record<string, string>> = Object.freeze({
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

/** The tool a tool-specific event is about, as Cursor's generic events name it. */
const EVENT_TOOL: Readonly<Record<string, string>> = Object.freeze({
  beforeShellExecution: "Shell",
  afterShellExecution: "Shell",
  beforeReadFile: "Read",
  afterFileEdit: "Edit",
});

/** Common fields of every payload: kept under `host`, not at the top level. */
const COMMON = ["hook_event_name", "conversation_id", "generation_id", "cursor_version", "workspace_roots", "model", "user_email", "transcript_path"] as const;

function hostEventOf(payload: Payload, event: string): string | undefined {
  const named = stringField(payload, "hook_event_name");
  if (named !== undefined) return named;
  return Object.hasOwn(EVENTS, event) ? event : undefined;
}

/** Moves `keys` of `from` (those present) into a new object. */
function take(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys)
    if (from[k] !== undefined) {
      out[k] = from[k];
      delete from[k];
    }
  return out;
}

function read(payload: Payload, event: string): HookContext {
  const hostEvent = hostEventOf(payload, event);
  // The shared reader: the common fields under `host` (the transcript kept at the top level too).
  const ctx = baseRead(cursor, payload, { hostFields: COMMON, event: hostEvent ?? event });
  const host = ctx.host as Record<string, unknown>;
  delete host.tool_name;
  delete ctx.tool_name;
  if (field(payload, "transcript_path") !== undefined) ctx.transcript_path = payload.transcript_path;
  const workspaceRoots = field(payload, "workspace_roots");
  const roots = Array.isArray(workspaceRoots) ? workspaceRoots.filter((r): r is string => typeof r === "string") : [];
  const sessionId = stringField(payload, "session_id") ?? stringField(payload, "conversation_id");
  if (sessionId !== undefined) ctx.session_id = sessionId;
  if (typeof ctx.cwd !== "string" && roots[0] !== undefined) ctx.cwd = roots[0];

  let hostTool = stringField(payload, "tool_name");
  switch (hostEvent) {
    case "beforeShellExecution":
    case "afterShellExecution": {
      ctx.tool_input = { command: payload.command, ...(typeof payload.cwd === "string" && { cwd: payload.cwd }) };
      delete ctx.command;
      if (hostEvent === "afterShellExecution") ctx.tool_response = take(ctx, ["output", "exit_code", "stdout", "stderr", "duration"]);
      break;
    }
    case "beforeReadFile":
      ctx.tool_input = { file_path: payload.file_path };
      break;
    case "afterFileEdit":
      ctx.tool_input = take(ctx, ["file_path", "edits"]);
      break;
    case "beforeMCPExecution":
    case "afterMCPExecution": {
      // The MCP server's url or command is not the tool's input: it goes under `host`.
      const server = take(ctx, ["url", "command"]);
      if (Object.keys(server).length) host.mcp_server = server;
      hostTool = hostTool === undefined ? undefined : `MCP:${hostTool}`;
      ctx.tool_input = parseJsonObject(payload.tool_input);
      if (hostEvent === "afterMCPExecution") {
        ctx.tool_response = parseJsonObject(payload.result_json ?? payload.tool_result);
        delete ctx.result_json;
        delete ctx.tool_result;
      }
      break;
    }
    case "preToolUse":
    case "postToolUse":
    case "postToolUseFailure":
      ctx.tool_input = parseJsonObject(payload.tool_input);
      if (payload.tool_output !== undefined) {
        ctx.tool_response = parseJsonObject(payload.tool_output);
        delete ctx.tool_output;
      }
      if (hostEvent === "postToolUseFailure" && ctx.error === undefined) {
        const error = payload.error_message ?? payload.failure_type;
        if (error !== undefined) ctx.error = error;
      }
      break;
    case "stop":
    case "subagentStop":
      if (typeof payload.loop_count === "number") ctx.stop_hook_active = payload.loop_count > 0;
      break;
  }
  hostTool ??= hostEvent && Object.hasOwn(EVENT_TOOL, hostEvent) ? EVENT_TOOL[hostEvent] : undefined;
  if (hostTool !== undefined) {
    host.tool_name = hostTool;
    ctx.tool_name = canonicalTool(cursor, hostTool);
  }
  ctx.host = host;
  return ctx;
}

// Where a hookrun notice for the user can go: Cursor shows `user_message` on these events.
const HAS_USER_MESSAGE = new Set(["pre_tool_use", "user_prompt_submit"]);

/**
 * A run as Cursor's hook output (one JSON object on stdout, exit 0). What Cursor cannot take on an
 * event goes to stderr, which Cursor shows in its Hooks output channel: never dropped silently.
 */
function render(result: TriggerResult): HostAnswer {
  const event = result.event;
  const t = resultTexts(result);
  const out: Record<string, unknown> = {};
  const user = [...t.notices, ...t.failures];
  const stderr: string[] = [];
  const lost = (what: string, items: string[]) => {
    if (items.length) stderr.push(`hookrun: Cursor's ${CURSOR_EVENT[event] ?? event} cannot carry ${what}; not delivered: ${items.join(" | ")}`);
  };

  if (event === "pre_tool_use") {
    const ranked = rankedDecision(result);
    // Cursor 2.4.21 and later mishandle `permission: ask` (2.x denies, 3.x allows): ask becomes a deny that says so.
    const denial = result.blocked
      ? blockReason(result)
      : !result.continue
        ? `hookrun: a hook asked to stop the agent (${result.stop_reason ?? "no reason given"}); Cursor cannot stop it from a tool hook, so the call is denied`
        : ranked?.decision === "ask"
          ? `hookrun: Cursor does not honour ask, so this call is denied instead${ranked.reason ? `: ${ranked.reason}` : ""}`
          : null;
    if (denial !== null) {
      out.permission = "deny";
      out.agent_message = denial;
      user.unshift(denial);
    } else if (ranked?.decision === "allow") out.permission = "allow";
    if (!out.agent_message && t.context.length) out.agent_message = t.context.join("\n\n");
    if (result.updated_input !== null && result.updated_input !== undefined && denial === null && ranked?.decision !== "defer") out.updated_input = result.updated_input;
  } else if (event === "user_prompt_submit") {
    if (result.blocked || !result.continue) {
      out.continue = false;
      user.unshift(result.blocked ? blockReason(result) : (result.stop_reason ?? "a hook asked to stop"));
    } else out.continue = true;
    lost("context for the model", t.context);
  } else if (event === "session_start") {
    if (t.context.length) out.additional_context = t.context.join("\n\n");
  } else if (event === "post_tool_use" || event === "post_tool_use_failure") {
    const forModel = [...t.context, ...t.feedback];
    if (result.blocked) forModel.push(blockReason(result));
    if (forModel.length) out.additional_context = forModel.join("\n\n");
  } else if (event === "stop" || event === "subagent_stop") {
    const followup = [...(result.blocked ? [blockReason(result)] : []), ...t.followups];
    if (followup.length) out.followup_message = followup.join("\n\n");
    lost("context for the model (only a follow-up message continues the agent)", t.context);
  } else {
    lost("context for the model", t.context);
  }
  // On stop the agent is stopping anyway: only elsewhere is a stop request something Cursor cannot do.
  if (!result.continue && !["pre_tool_use", "user_prompt_submit", "stop", "subagent_stop"].includes(event))
    stderr.push(`hookrun: a hook asked to stop the agent (${result.stop_reason ?? "no reason given"}); Cursor's ${CURSOR_EVENT[event] ?? event} cannot stop it`);
  if (HAS_USER_MESSAGE.has(event)) {
    if (user.length) out.user_message = user.join("\n");
  } else stderr.push(...user.map((u) => `hookrun: ${u}`));
  return { stdout: `${JSON.stringify(out)}\n`, stderr: stderr.length ? `${stderr.join("\n")}\n` : "", exitCode: 0 };
}

function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const line = `hookrun: the project's hooks did not run: ${forUser}`;
  const out: Record<string, unknown> = {};
  if (HAS_USER_MESSAGE.has(event)) out.user_message = line;
  if (event === "user_prompt_submit") out.continue = true;
  if (event === "session_start") out.additional_context = `hookrun: the project's hooks are not running in this session: ${forModel}`;
  return { stdout: `${JSON.stringify(out)}\n`, stderr: `${line}\n`, exitCode: 0 };
}

// ---- install ------------------------------------------------------------------------------

const TOOL_EVENTS = new Set(["pre_tool_use", "post_tool_use", "post_tool_use_failure"]);

function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = CURSOR_EVENT[event];
    if (!hostEvent) continue;
    const entry: HostEntry = { command: command(event), timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000) };
    if (TOOL_EVENTS.has(event)) {
      const values = matchedValues(config, event, cursor);
      if (values) entry.matcher = values.join("|");
    }
    // A hook that blocks on its own failure asks for fail-closed: so does the dispatch if hookrun itself fails.
    if (EVENT_BY_NAME.get(event)?.gate === "yes" && config.hooks.some((h) => h.event === event && h.enabled && h.onFailure === "block")) entry.failClosed = true;
    // Cursor's own bound (default 5) would cut short a hook's larger or absent `loop_limit`:
    // the dispatch has none, and hookrun enforces each hook's (docs/configuration.md#loop_limit).
    if (LOOP_EVENTS.has(event)) entry.loop_limit = null;
    out[hostEvent] = [entry];
  }
  return out;
}

// ---- import -------------------------------------------------------------------------------

/** The matcher a tool-specific event implies, in canonical names. */
const IMPLIED_MATCHER: Readonly<Record<string, string>> = Object.freeze({
  beforeShellExecution: "Bash",
  afterShellExecution: "Bash",
  beforeReadFile: "Read",
  afterFileEdit: "Write|Edit",
  beforeMCPExecution: "^MCP:",
  afterMCPExecution: "^MCP:",
});
/** A Cursor matcher in canonical tool names: an exact list is mapped name by name; a regex is kept. */
function canonicalMatcher(matcher: string): { matcher?: string; note?: string } {
  const rule = matcherRule(matcher);
  if (rule.kind === "all") return {};
  if (rule.kind === "names") return { matcher: [...rule.names].map((n) => canonicalTool(cursor, n)).join("|") };
  return { matcher, note: "matcher is a regex over Cursor's tool names and hookrun tests it against canonical names (Cursor's Shell is Bash): check it" };
}

/** One Cursor entry's fields (`timeout`, `matcher`, `failClosed`, `loop_limit`) → hookrun's, each carried or noted. */
function convertEntry({ hostEvent, event, command, entry }: FlatEntry): FlatConverted {
  const notes: string[] = [];
  let matcher: string | undefined = Object.hasOwn(IMPLIED_MATCHER, hostEvent) ? IMPLIED_MATCHER[hostEvent] : undefined;
  let timeout: number | undefined;
  let onFailure: "block" | undefined;
  let loopLimit: number | null | undefined;
  for (const [k, v] of Object.entries(entry)) {
    if (k === "type" || k === "command") continue;
    if (k === "timeout") {
      if (typeof v === "number" && v > 0 && v <= 86400) timeout = v;
      else return { refuse: `timeout ${JSON.stringify(v)} is not a number of seconds between 0 and 24 h` };
    } else if (k === "matcher") {
      if (typeof v !== "string") notes.push(`matcher ${JSON.stringify(v)} is not text; not carried`);
      else if (matcher !== undefined) notes.push(`matcher \`${v}\` not carried: ${hostEvent} is about one tool, so the hook is imported with matcher \`${matcher}\``);
      else if (!EVENT_BY_NAME.get(event)?.matchField) notes.push(`matcher \`${v}\` dropped: ${event} has no field to match`);
      else {
        const m = canonicalMatcher(v);
        matcher = m.matcher;
        if (m.note) notes.push(m.note);
      }
    } else if (k === "failClosed") {
      if (v === true) {
        if (event === "stop" || event === "subagent_stop") notes.push(`\`failClosed\` not carried: a failed ${event} hook cannot deny anything (Cursor's stop takes only a follow-up)`);
        else if (EVENT_BY_NAME.get(event)?.gate === "yes") onFailure = "block";
        else notes.push(`\`failClosed\` not carried: ${event} cannot block`);
      } else if (v !== false) notes.push(`failClosed ${JSON.stringify(v)} is not true or false; not carried`);
    } else if (k === "loop_limit") {
      if (event !== "stop" && event !== "subagent_stop") notes.push(`\`loop_limit\` dropped: it bounds only stop and subagentStop follow-ups, and ${hostEvent} has none`);
      else if (v === null || (Number.isSafeInteger(v) && (v as number) > 0)) loopLimit = v as number | null;
      else notes.push(`loop_limit ${JSON.stringify(v)} is not a positive integer or null; not carried (the cursor dialect's default, 5, applies)`);
    } else notes.push(`\`${k}\` is not a field of Cursor's command hooks that hookrun knows; not carried`);
  }
  if (/^\.{0,2}\/|^[\w.-]+\//.test(command.trim()) && !command.trim().startsWith("/"))
    notes.push("relative path: Cursor runs project hooks from the project root, hookrun from the directory of hooks.yaml: check that it still resolves");
  return { matcher, timeout, ...(onFailure && { on_failure: onFailure }), ...(loopLimit !== undefined && { loop_limit: loopLimit }), notes };
}

function importCursor(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Cursor's hooks.json must be a JSON object");
  const imp = importFlatHooks(settings.hooks, existing, { title: "Cursor", events: EVENTS, convert: convertEntry });
  // Written for Cursor: they receive Cursor's payload and are read by Cursor's rules (docs/dialects.md).
  for (const h of imp.hooks) h.hook.dialect = "cursor";
  if (settings.version !== undefined && settings.version !== 1) imp.notes.unshift(`version ${JSON.stringify(settings.version)}: Cursor documents version 1 only; read as version 1`);
  return imp;
}

// ---- the adapter --------------------------------------------------------------------------

export const cursor: HostAdapter = {
  name: "cursor",
  title: "Cursor",
  events: EVENTS,
  tools: CURSOR_TOOLS,
  timeout: { unit: "s", default: 30 },
  detect: (payload) =>
    typeof payload.cursor_version === "string" ||
    (typeof payload.hook_event_name === "string" && Object.hasOwn(EVENTS, payload.hook_event_name) && /^[a-z]/.test(payload.hook_event_name) && Array.isArray(payload.workspace_roots)),
  read,
  render,
  notRun,
  degrade: {
    ask: "a deny whose message says Cursor does not honour ask (since 2.4.21 Cursor denies or allows on ask, depending on the version)",
    defer: "no `permission` field: Cursor's own permission rules decide",
    updated_input: "`updated_input` on preToolUse (the event `hooks install cursor` writes); the tool-specific events cannot rewrite and ignore it",
    context:
      "sessionStart: `additional_context`; preToolUse: `agent_message`; postToolUse / postToolUseFailure: `additional_context`; beforeSubmitPrompt, stop and the rest cannot carry it: written to stderr (Cursor's Hooks output channel), never dropped silently",
    feedback: "postToolUse `additional_context` (the tool already ran)",
    followup: "stop / subagentStop `followup_message`: Cursor submits it as the next user message, at most `loop_limit` times (default 5)",
    stop: "preToolUse: a deny saying so; beforeSubmitPrompt: `continue: false`; elsewhere a stderr line (Cursor cannot stop the agent there)",
    notice: "`user_message` on preToolUse and beforeSubmitPrompt; elsewhere stderr",
  },
  // Cursor's docs say only "spawned processes"; the shell, cwd and variables are assumed (cwd the workspace root,
  // where `${CURSOR_PROJECT_DIR:-$PWD}` in the entries finds the project).
  probe: {
    shell: POSIX_SHELL,
    env: () => ({}),
    payload: (hostEvent, projectDir) => {
      const f = sampleFields(EVENTS[hostEvent] ?? hostEvent, "Shell", projectDir);
      const common = { conversation_id: "hooks-doctor", generation_id: "hooks-doctor", hook_event_name: hostEvent, cursor_version: "hooks-doctor", workspace_roots: [projectDir] };
      if (hostEvent === "beforeShellExecution" || hostEvent === "afterShellExecution") return { ...common, command: "true", cwd: projectDir };
      if (hostEvent === "beforeSubmitPrompt") return { ...common, prompt: f.prompt, attachments: [] };
      if (f.tool_name !== undefined) return { ...common, tool_name: f.tool_name, tool_input: JSON.stringify(f.tool_input) };
      return { ...common, ...(hostEvent === "stop" && { status: "completed", loop_count: 0 }) };
    },
    assumed: "the shell (`/bin/sh -c`), the working directory (the workspace root) and the environment",
  },
  setup: jsonFile({
    projectFile: ".cursor/hooks.json",
    userFile: ".cursor/hooks.json",
    hooksPath: ["hooks"],
    // Project hooks run in the project root, where Cursor also sets CURSOR_PROJECT_DIR (older builds resolved relative paths from .cursor/).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text for the host's command line, not a template
    root: '"${CURSOR_PROJECT_DIR:-$PWD}"',
    skeleton: { version: 1 },
    entries,
  }),
  import: importCursor,
};
