import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { matcherRule } from "../config/matcher.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { hookNameFromCommand, slug, uniqueName } from "../interop/hookNames.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import type { HookSpec } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import { eventGate, orderHooks, runGroups } from "../runner/select.js";
import type { HookContext, HookResult, TriggerResult } from "../runner/types.js";
import { DISPATCH_MARGIN_MS } from "./install.js";
import { dispatchCommand, hookrunCallNote } from "./dispatch.js";
import { baseRead, sampleFields } from "./payload.js";
import type { HostAdapter, HostAnswer, HostEntry, OffSwitch, Payload } from "./types.js";
import { failureLine, tail, texts } from "./resultText.js";

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
 */

/** Gemini event → canonical event. BeforeToolSelection and AfterModel (fired per streamed chunk) have none. */
const EVENTS: Readonly<Record<string, string>> = Object.freeze({
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
const TOOLS: Readonly<Record<string, string>> = Object.freeze({
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

/** Gemini's events that no other host uses; SessionStart, SessionEnd and Notification are Claude's names too. */
const OWN_EVENTS = new Set(["BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress"]);
/** Every field Gemini sends on its shared-name events: a payload with any other key is not Gemini's. */
const SHARED_FIELDS = new Set(["session_id", "transcript_path", "cwd", "hook_event_name", "timestamp", "source", "reason", "notification_type", "message", "details"]);

/** A payload only Gemini sends: `timestamp` and a Gemini event name (for a name Claude shares, only Gemini's fields). */
export function detectGemini(payload: Payload): boolean {
  const name = payload.hook_event_name;
  if (typeof name !== "string" || typeof payload.timestamp !== "string") return false;
  if (OWN_EVENTS.has(name)) return true;
  return (name === "SessionStart" || name === "SessionEnd" || name === "Notification") && Object.keys(payload).every((k) => SHARED_FIELDS.has(k));
}

/** Gemini's fields under their canonical names. */
const RENAMES: Readonly<Record<string, string>> = Object.freeze({ prompt_response: "last_assistant_message" });

/**
 * A Gemini payload as hookrun's context (baseRead): `tool_name` in the canonical vocabulary (Gemini's
 * under `host.tool_name`), AfterAgent's `prompt_response` as `last_assistant_message`; every other
 * field (`timestamp`, `mcp_context`, `original_request_name`, …) as Gemini sent it. `tool_input` is
 * Gemini's own (its shell tool's argument is `command`, its file tools' `file_path`, as Claude's).
 */
export function readGemini(payload: Payload, event: string): HookContext {
  const context = baseRead(gemini, payload, RENAMES);
  // A canonical event's declared fields always exist, so `hooks run stop` under Gemini sees the same shape.
  if (event === "stop" && context.stop_hook_active === undefined) context.stop_hook_active = false;
  return context;
}

/** What Gemini reads from a command hook (the subset hookrun writes). */
export interface GeminiHookResponse {
  decision?: "deny" | "block";
  reason?: string;
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext?: string; tool_input?: Record<string, unknown> };
}

/** Where Gemini hands `hookSpecificOutput.additionalContext` to the model (`<hook_context>`). */
const CONTEXT_EVENTS = new Set(["session_start", "user_prompt_submit", "post_tool_use"]);
/** Canonical → Gemini event name (the first Gemini event mapped to it). */
const GEMINI_NAME = new Map(Object.entries(EVENTS).map(([g, c]) => [c, g]));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const ASK_DEGRADED = "a hook asked for the user's confirmation, which Gemini CLI cannot be relied on to ask (headless `gemini -p` waits forever), so hookrun denied the call";

/**
 * The run as one Gemini hook answer (JSON on stdout, exit 0: Gemini reads JSON on every code).
 * - a block: `decision: "deny"` + reason (BeforeTool: "Tool execution blocked: reason" is the
 *   tool's result; BeforeAgent: the prompt is refused; AfterAgent: `block` re-prompts the model);
 * - `ask` on pre_tool_use: a deny whose reason says a confirmation was asked for ({@link ASK_DEGRADED});
 * - `updated_input` on pre_tool_use: `hookSpecificOutput.tool_input`, the whole input (Gemini
 *   replaces the arguments with it); a value that is not an object is a systemMessage warning;
 * - context: `hookSpecificOutput.additionalContext` on SessionStart, BeforeAgent and AfterTool
 *   (the model reads it in `<hook_context>`), elsewhere a systemMessage (the user only);
 * - post-tool feedback (and a native hook's exit 2 there): AfterTool additionalContext, next to
 *   the tool's result, which stays;
 * - follow-ups on stop: an AfterAgent block with them as the reason (the model goes on with it);
 * - `continue: false` + stopReason; notices and failures (hookrun fails open): systemMessage.
 */
export function formatGemini(result: TriggerResult): GeminiHookResponse {
  const out: GeminiHookResponse = {};
  const event = result.event;
  const shown = result.messages.filter((m) => !m.hide);
  const context = texts(shown.filter((m) => m.kind === undefined));
  const feedbackExit = (r: HookResult) => event === "post_tool_use" && r.exit_code === 2 && r.status === "failed" && r.dialect !== "claude";
  const feedback = [...texts(shown.filter((m) => m.kind === "feedback")), ...result.hooks.filter(feedbackExit).map((r) => tail(r.stderr, 20) || `hook ${r.name} exited with code 2`)];
  const followups = texts(shown.filter((m) => m.kind === "followup"));
  const finished = [...result.async_delivered, ...result.hooks];
  const system = [...texts(shown.filter((m) => m.kind === "notice")), ...finished.filter((r) => FAILURE_STATUSES.has(r.status) && !feedbackExit(r)).map(failureLine)];
  const modelContext: string[] = [];
  if (CONTEXT_EVENTS.has(event)) modelContext.push(...context);
  else system.unshift(...context);
  if (event === "post_tool_use") modelContext.push(...feedback);
  else if (feedback.length) system.push(...feedback);

  const blockReason = result.reason ?? `blocked by ${result.blocked_by}`;
  if (result.blocked) {
    if (event === "pre_compact") system.push(`hookrun: a hook blocked compaction (${blockReason}), but Gemini CLI cannot stop a compaction; it goes on`);
    else {
      out.decision = event === "stop" ? "block" : "deny";
      out.reason = blockReason;
    }
  } else if (event === "pre_tool_use" && result.hooks.some((r) => r.decision === "ask")) {
    const why = result.hooks
      .filter((r) => r.decision === "ask")
      .map((r) => r.reason)
      .filter(Boolean)
      .join("; ");
    out.decision = "deny";
    out.reason = `${why ? `${why} (` : ""}${ASK_DEGRADED}${why ? ")" : ""}`;
  } else if (event === "stop" && followups.length) {
    out.decision = "block";
    out.reason = followups.join("\n\n");
  }
  if (event !== "stop" && followups.length) system.push(...followups);

  const specific: NonNullable<GeminiHookResponse["hookSpecificOutput"]> = { hookEventName: GEMINI_NAME.get(event) ?? event };
  if (event === "pre_tool_use" && !out.decision && result.updated_input !== null && result.updated_input !== undefined) {
    if (isObject(result.updated_input)) specific.tool_input = result.updated_input;
    else system.push(`hookrun: a hook rewrote the tool input to a value that is not an object, which Gemini CLI cannot take; the call runs with its input unchanged`);
  }
  if (modelContext.length) specific.additionalContext = modelContext.join("\n\n");
  if (!result.continue) {
    out.continue = false;
    out.stopReason = result.stop_reason ?? `stopped by ${result.stopped_by ?? "a hook"}`;
  }
  if (system.length) out.systemMessage = system.join("\n");
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return out;
}

export function renderGemini(result: TriggerResult): HostAnswer {
  return { stdout: `${JSON.stringify(formatGemini(result))}\n`, stderr: "", exitCode: 0 };
}

/** Hooks did not run (untrusted or invalid config): the user is told; on SessionStart / BeforeAgent the model too. Fail open. */
export function geminiNotRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: GeminiHookResponse = { systemMessage: `hookrun: the project's hooks did not run: ${forUser}` };
  if (event === "session_start" || event === "user_prompt_submit")
    out.hookSpecificOutput = { hookEventName: GEMINI_NAME.get(event) ?? event, additionalContext: `hookrun: the project's hooks are not running in this session: ${forModel}` };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

/**
 * The dispatch command of an event. Gemini substitutes `$GEMINI_PROJECT_DIR` with its (shell-quoted)
 * working directory, which is where the project's `.gemini/settings.json` was read from, so it must
 * stay unquoted here. `exec`: the process Gemini kills on its timeout is hookrun itself (no shell
 * between), which ends its hooks' process groups on SIGTERM; a shell would die alone and leave them.
 */
const GEMINI_ROOT = "$GEMINI_PROJECT_DIR";
export const geminiDispatchCommand = (event: string): string => dispatchCommand("gemini", event, { root: GEMINI_ROOT, bin: null, exec: true });

/** Milliseconds an entry's timeout adds per run group for hookrun's SIGTERM→SIGKILL grace on a hook's timeout. */
const KILL_GRACE_MS = 2_000;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The Gemini matcher that selects exactly the tool calls some hook's matcher can select, or
 * undefined (every tool) when one of them is a regex or matches everything. A canonical name
 * selects the Gemini tools mapped to it; any other name is taken as Gemini's own (an MCP tool).
 */
export function narrowToolMatcher(hooks: readonly ResolvedHook[]): string | undefined {
  const names = new Set<string>();
  for (const h of hooks) {
    const rule = matcherRule(h.matcher ?? "");
    if (rule.kind !== "names") return undefined;
    for (const n of rule.names) {
      const hostNames = Object.keys(TOOLS).filter((t) => TOOLS[t] === n);
      if (hostNames.length) for (const t of hostNames) names.add(t);
      else if (!Object.hasOwn(TOOLS, n)) names.add(n);
    }
  }
  return `^(?:${[...names].sort().map(escapeRegex).join("|")})$`;
}

/**
 * `hooks` of `.gemini/settings.json` handing each event of `config` Gemini fires to hookrun: one
 * group per event (tool events: matcher narrowed; SessionStart/SessionEnd/PreCompress, whose
 * matcher Gemini compares for equality: one group per name when every hook names its values),
 * whose timeout (ms) covers the run: each run group's longest hook timeout plus hookrun's kill
 * grace, summed, plus a margin, so hookrun's own timeouts end hooks before Gemini's fires.
 */
export function geminiEntries(config: ResolvedConfig, command: (event: string) => string = geminiDispatchCommand): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  const events = [...new Set(config.hooks.map((h) => h.event))];
  for (const event of events) {
    const geminiName = GEMINI_NAME.get(event);
    if (!geminiName) continue;
    const all = config.hooks.filter((h) => h.event === event);
    const sync = orderHooks(all.filter((h) => h.enabled && !h.async));
    const ms = runGroups(sync, config.events[event]?.parallel === true, eventGate(event, config)).reduce((sum, g) => sum + Math.max(...g.map((h) => h.timeoutMs)) + KILL_GRACE_MS, 0);
    const hook = { type: "command", name: "hookrun", command: command(event), timeout: Math.ceil(ms) + DISPATCH_MARGIN_MS };
    const matchField = EVENT_BY_NAME.get(event)?.matchField;
    if (matchField === "tool_name") {
      const matcher = narrowToolMatcher(all);
      out[geminiName] = [matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] }];
    } else if (geminiName === "SessionStart" || geminiName === "SessionEnd" || geminiName === "PreCompress") {
      const rules = all.map((h) => matcherRule(h.matcher ?? ""));
      const values = rules.every((r) => r.kind === "names") ? [...new Set(rules.flatMap((r) => (r.kind === "names" ? [...r.names] : [])))].sort() : null;
      out[geminiName] = values ? values.map((matcher) => ({ matcher, hooks: [hook] })) : [{ hooks: [hook] }];
    } else out[geminiName] = [{ hooks: [hook] }];
  }
  return out;
}

export const gemini: HostAdapter = {
  name: "gemini",
  title: "Gemini CLI",
  verified: "the real CLI (0.61.0) in `npm test`",
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
  // executeCommandHook: `bash -c` (getShellConfiguration on POSIX), cwd the session's; $GEMINI_PROJECT_DIR is
  // substituted into the command text, shell-quoted, before the shell sees it (expandCommand).
  probe: {
    shell: () => ["bash", "-c"],
    env: (projectDir) => ({ GEMINI_PROJECT_DIR: projectDir, GEMINI_CWD: projectDir, CLAUDE_PROJECT_DIR: projectDir, GEMINI_SESSION_ID: "hooks-doctor" }),
    expand: (command, projectDir) => command.replace(PLACEHOLDERS, (_m, name: string) => (name === "GEMINI_SESSION_ID" ? "hooks-doctor" : `'${projectDir.replaceAll("'", "'\\''")}'`)),
    payload: (hostEvent, projectDir) => ({
      ...sampleFields(EVENTS[hostEvent] ?? hostEvent, "run_shell_command", projectDir),
      transcript_path: "",
      hook_event_name: hostEvent,
      timestamp: new Date().toISOString(),
    }),
    // Gemini CLI's settings schema (hooksConfig): `enabled: false` stops every hook, the value of
    // the file that wins (system defaults < user < project < system); `disabled` (merged as a
    // union) names hooks by their `name`, else their command.
    switches: ({ projectDir, home, env, root }, read, names) => {
      const etc = `${root.replace(/\/$/, "")}/etc/gemini-cli`;
      const files = [
        env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || `${etc}/system-defaults.json`,
        `${home}/.gemini/settings.json`,
        `${projectDir}/.gemini/settings.json`,
        env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || `${etc}/settings.json`,
      ];
      const out: OffSwitch[] = [];
      const config = files.map((file) => ({ file, hooks: read(file)?.hooksConfig }));
      const enabled = config.filter((c) => isJsonObject(c.hooks) && typeof c.hooks.enabled === "boolean").at(-1);
      if (enabled && (enabled.hooks as Record<string, unknown>).enabled === false)
        out.push({
          file: enabled.file,
          key: ["hooksConfig", "enabled"],
          what: "`hooksConfig.enabled: false`: Gemini CLI runs no hook at all, hookrun's entries included",
          fix: `remove "enabled" from hooksConfig in ${enabled.file}`,
        });
      for (const { file, hooks } of config) {
        const disabled = isJsonObject(hooks) && Array.isArray(hooks.disabled) ? hooks.disabled : [];
        disabled.forEach((name, i) => {
          if (typeof name === "string" && names.includes(name))
            out.push({
              file,
              key: ["hooksConfig", "disabled", i],
              what: `\`hooksConfig.disabled\` lists \`${name}\`, the name of hookrun's entries: Gemini CLI skips them`,
              fix: `remove it from hooksConfig.disabled in ${file}`,
            });
        });
      }
      return out;
    },
  },
  install: {
    projectFile: ".gemini/settings.json",
    userFile: ".gemini/settings.json",
    hooksPath: ["hooks"],
    root: GEMINI_ROOT,
    exec: true,
    entries: geminiEntries,
  },
  import: importGeminiSettings,
};

// ---- hooks import gemini ----------------------------------------------------------------------

/** Gemini events hookrun has no event for: imported under a custom event of their snake_case name. */
const LEFT_OUT: Readonly<Record<string, string>> = Object.freeze({
  AfterModel: "it fires once per streamed chunk of the model's answer, and its answer rewrites that chunk (llm_response), which hookrun's result cannot carry",
  BeforeToolSelection: "its answer narrows the tools offered to the model (toolConfig), which hookrun's result cannot carry",
});
/** Settings keys of `hooks` that are not events (Gemini skips them too). */
const NOT_EVENTS = new Set(["enabled", "disabled", "notifications"]);
/** Gemini's placeholders, replaced in the command text before `bash -c`; under hookrun the same values come from the environment. */
const PLACEHOLDERS = /\$(GEMINI_PROJECT_DIR|GEMINI_CWD|CLAUDE_PROJECT_DIR|GEMINI_SESSION_ID|GEMINI_PLANS_DIR)/g;
const ENV_FOR: Readonly<Record<string, string>> = {
  GEMINI_PROJECT_DIR: "HOOK_PROJECT_DIR",
  GEMINI_CWD: "HOOK_PROJECT_DIR",
  CLAUDE_PROJECT_DIR: "HOOK_PROJECT_DIR",
  GEMINI_SESSION_ID: "GEMINI_SESSION_ID",
  GEMINI_PLANS_DIR: "GEMINI_PLANS_DIR",
};

export const GEMINI_OUTPUT_NOTE =
  "Gemini CLI's hook output contract is neither Claude Code's nor hookrun's: the hooks are imported as `dialect: native`, which reads exit 2, JSON `decision` (deny/block/allow/ask) with `reason`, `continue`/`stopReason` and `hookSpecificOutput.additionalContext` as Gemini does; it differs on plain stdout at exit 0 (Gemini: a message for the user; native: context for the model), exit codes above 2 (Gemini: a block; native: a failure), `systemMessage` (native: context) and `hookSpecificOutput.tool_input` (native: `updated_input`): review hooks that rely on those";

/**
 * A command with Gemini's placeholders rewritten for a shell that has them in its environment:
 * `$GEMINI_PROJECT_DIR` (Gemini writes the quoted path in its place) becomes `"$HOOK_PROJECT_DIR"`
 * outside quotes, `$HOOK_PROJECT_DIR` inside double quotes, `'"$HOOK_PROJECT_DIR"'` inside single ones.
 */
export function rewritePlaceholders(command: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    PLACEHOLDERS.lastIndex = i;
    const m = c === "$" ? PLACEHOLDERS.exec(command) : null;
    if (m && m.index === i) {
      const v = `$${ENV_FOR[m[1]]}`;
      out += quote === '"' ? v : quote === "'" ? `'"${v}"'` : `"${v}"`;
      i += m[0].length - 1;
      continue;
    }
    if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = null;
    else if (c === "\\" && quote !== "'" && i + 1 < command.length) {
      out += c + command[++i];
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * A Gemini tool matcher (an unanchored regex over Gemini's tool names; an invalid one is an exact
 * name) as a hookrun matcher over canonical names: a list of names when the known tools it selects
 * are all it can select, else the regex as written, with a note.
 */
function toolMatcher(matcher: string, notes: string[], where: string): string | undefined {
  const m = matcher.trim();
  if (m === "" || m === "*") return undefined;
  const words = m.split("|");
  if (words.every((w) => /^[A-Za-z0-9_-]+$/.test(w))) {
    const out: string[] = [];
    for (const w of words) {
      const known = Object.keys(TOOLS).filter((t) => t.includes(w));
      if (Object.hasOwn(TOOLS, w) || known.length) for (const t of Object.hasOwn(TOOLS, w) ? [w] : known) out.push(TOOLS[t]);
      else out.push(w);
      if (!Object.hasOwn(TOOLS, w) && known.length)
        notes.push(`${where}: matcher part \`${w}\` is a regex in Gemini CLI, matching ${known.map((t) => `\`${t}\``).join(", ")}: imported as those tools`);
    }
    return [...new Set(out)].join("|");
  }
  notes.push(
    `${where}: matcher \`${m}\` is a regex over Gemini's tool names (run_shell_command, write_file, …); it is kept as written, but hookrun tests it against canonical names (Bash, Write, …): rewrite it`,
  );
  return m;
}

/**
 * `hooks import gemini`: the `hooks` object of Gemini CLI settings → hookrun hooks. Pure. Every
 * field of Gemini's command hook and group is carried or noted: `name` (the hook's name), `command`
 * (placeholders rewritten), `timeout` (ms), `description`, `env`, the group's `matcher` (tool
 * names to canonical; SessionStart/SessionEnd/PreCompress compare it for equality) and `sequential`.
 */
export function importGeminiSettings(settings: unknown, existing: ExistingHook[] = []): HookImport {
  const result: HookImport = { hooks: [], customEvents: {}, notes: [] };
  if (!isJsonObject(settings)) throw new TypeError("Gemini CLI settings must be a JSON object");
  const hooks = settings.hooks;
  if (hooks === undefined) {
    result.notes.push("the settings have no `hooks` object; nothing to import");
    return result;
  }
  if (!isJsonObject(hooks)) throw new TypeError("`hooks` in Gemini CLI settings must be an object of events");
  const disabled = isJsonObject(settings.hooksConfig) && Array.isArray(settings.hooksConfig.disabled) ? settings.hooksConfig.disabled.filter((d): d is string => typeof d === "string") : [];
  if (isJsonObject(settings.hooksConfig) && settings.hooksConfig.enabled === false) result.notes.push("hooksConfig.enabled is false: Gemini CLI runs none of these hooks; they are imported enabled");
  const taken = new Set(existing.map((h) => h.name));
  const seen = new Set(existing.map((h) => JSON.stringify([h.event, h.command ?? null, h.matcher ?? null])));
  let imported = 0;
  for (const [geminiEvent, groups] of Object.entries(hooks)) {
    if (NOT_EVENTS.has(geminiEvent)) {
      result.notes.push(`hooks.${geminiEvent}: a setting, not an event (Gemini CLI reads it from \`hooksConfig\`); not carried`);
      continue;
    }
    let event = EVENTS[geminiEvent];
    if (!Object.hasOwn(EVENTS, geminiEvent)) {
      event = slug(geminiEvent.replace(/([a-z0-9])([A-Z])/g, "$1_$2")).replace(/[-.]/g, "_");
      result.customEvents[event] = { custom: true, description: `Gemini CLI's ${geminiEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      const why = LEFT_OUT[geminiEvent] ?? "Gemini CLI 0.61 has no such event";
      result.notes.push(`hooks.${geminiEvent}: hookrun has no event for it (${why}); its hooks are imported under the custom event \`${event}\``);
    }
    if (!Array.isArray(groups)) {
      result.notes.push(`hooks.${geminiEvent}: not a list of hook groups; skipped`);
      continue;
    }
    groups.forEach((group, g) => {
      const where = `hooks.${geminiEvent}[${g}]`;
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) {
        result.notes.push(`${where}: not a group with a \`hooks\` list; skipped (Gemini CLI discards it too)`);
        return;
      }
      const groupNotes: string[] = [];
      let matcher: string | undefined;
      for (const [k, v] of Object.entries(group)) {
        if (k === "hooks") continue;
        if (k === "matcher") {
          if (typeof v !== "string") groupNotes.push(`${where}: matcher ${JSON.stringify(v)} is not text; dropped`);
          else if (EVENT_BY_NAME.get(event)?.matchField === "tool_name") matcher = toolMatcher(v, groupNotes, where);
          else if (geminiEvent === "SessionStart" || geminiEvent === "SessionEnd" || geminiEvent === "PreCompress") {
            const m = v.trim();
            if (m !== "" && m !== "*") matcher = /^[A-Za-z0-9_-]+$/.test(m) ? m : `^${escapeRegex(m)}$`;
          } else if (v.trim() !== "" && v.trim() !== "*") groupNotes.push(`${where}: matcher \`${v}\` dropped: Gemini CLI does not test a matcher on ${geminiEvent}`);
        } else if (k === "sequential") {
          if (v === true) groupNotes.push(`${where}: \`sequential: true\` is hookrun's default (an event's hooks run one after another); not needed`);
        } else groupNotes.push(`${where}: \`${k}\` is not a field of Gemini CLI's hook groups; not carried`);
      }
      result.notes.push(...groupNotes);
      group.hooks.forEach((entry, h) => {
        const at = `${where}.hooks[${h}]`;
        const converted = convertGeminiHook(entry, at, disabled);
        if ("skip" in converted) {
          result.notes.push(converted.skip);
          return;
        }
        const { hook, notes, name } = converted;
        if (matcher !== undefined) hook.matcher = matcher;
        const id = JSON.stringify([event, hook.command ?? null, hook.matcher ?? null]);
        if (seen.has(id)) {
          result.notes.push(`${at}: \`${hook.command}\` is already a ${event} hook; skipped`);
          return;
        }
        seen.add(id);
        hook.name = uniqueName((name && slug(name)) || hookNameFromCommand(hook.command ?? "") || `${event.replace(/_/g, "-")}-hook`, taken);
        result.notes.push(...notes.map((n) => `${at} (\`${hook.name}\`): ${n}`));
        result.hooks.push({ event, hostEvent: geminiEvent, at, hook: orderGeminiKeys(hook) });
        imported++;
      });
    });
  }
  if (imported) result.notes.push(GEMINI_OUTPUT_NOTE);
  return result;
}

type Converted = { hook: HookSpec; notes: string[]; name?: string } | { skip: string };

const MAX_TIMEOUT_MS = 24 * 3_600_000;

function convertGeminiHook(entry: unknown, at: string, disabled: readonly string[]): Converted {
  if (!isJsonObject(entry)) return { skip: `${at}: not an object; skipped` };
  if (entry.type !== "command")
    return {
      skip: `${at}: skipped a hook of type \`${String(entry.type)}\`: hookrun runs only \`command\` hooks${entry.type === undefined ? " (Gemini CLI requires `type` and discards it too)" : ""}`,
    };
  if (typeof entry.command !== "string" || entry.command.trim() === "") return { skip: `${at}: no \`command\`; skipped` };
  const original = entry.command;
  const callsHookrun = hookrunCallNote(original);
  if (callsHookrun) return { skip: `${at}: \`${original}\` ${callsHookrun}` };
  const refuse = (why: string): Converted => ({ skip: `${at} (\`${original}\`): not imported: ${why}` });
  const hook: HookSpec = { name: "", command: rewritePlaceholders(original) };
  const notes: string[] = [];
  if (hook.command !== original) notes.push("Gemini's `$GEMINI_PROJECT_DIR`-style placeholders rewritten to environment variables (`$HOOK_PROJECT_DIR`…)");
  let name: string | undefined;
  for (const [k, v] of Object.entries(entry)) {
    switch (k) {
      case "type":
      case "command":
        break;
      case "name":
        if (typeof v !== "string") return refuse("`name` is not text");
        name = v;
        if (slug(v) !== v) notes.push(`name \`${v}\` is not a hookrun hook name; named \`${slug(v) || "after its command"}\` instead`);
        break;
      case "description":
        if (typeof v === "string" && v.trim()) hook.description = v.trim();
        else notes.push(`description ${JSON.stringify(v)} is not text; not carried`);
        break;
      case "timeout":
        if (typeof v !== "number" || !(v > 0) || v > MAX_TIMEOUT_MS) return refuse(`timeout ${JSON.stringify(v)} is not a number of milliseconds between 0 and 24 h`);
        if (v !== 60_000) hook.timeout = v % 1000 === 0 ? v / 1000 : `${v}ms`;
        break;
      case "env":
        if (!isJsonObject(v) || !Object.values(v).every((x) => typeof x === "string")) return refuse("`env` is not an object of strings");
        hook.env = v as Record<string, string>;
        break;
      default:
        notes.push(`\`${k}\` is not a field of Gemini CLI's command hooks; not carried`);
    }
  }
  // Gemini disables a hook by its name, else its command.
  if (disabled.includes(name || original)) {
    hook.enabled = false;
    notes.push("listed in hooksConfig.disabled: imported disabled");
  }
  hook.dialect = "native";
  return { hook, notes, name };
}

function orderGeminiKeys(h: HookSpec): HookSpec {
  const order = ["name", "description", "matcher", "command", "timeout", "enabled", "env", "dialect"] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (h[k] !== undefined) out[k] = h[k];
  return out as unknown as HookSpec;
}
