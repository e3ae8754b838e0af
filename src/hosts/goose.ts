import { isJsonObject } from "../config/scanJson.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { TriggerResult } from "../runner/types.js";
import { asksFailClosed } from "./failClosed.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { baseRead, POSIX_SHELL, stringField } from "./payload.js";
import { failureLine, texts } from "./resultText.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostAnswer, HostEntry } from "./types.js";

/**
 * Goose (block/goose; docs/hosts/goose.md) runs the hooks of Open Plugins: every folder under
 * `.agents/plugins/` is a plugin (no manifest needed) and its `hooks/hooks.json` holds
 * `{hooks: {Event: [{matcher?, hooks: [{type: "command", command, timeout?, on_failure?}]}]}}`,
 * the matcher an unanchored regex over the event's `matcher_context` (the tool name for tool
 * events), timeouts in seconds (default 30), `on_failure: "block"` honoured on PreToolUse only,
 * unknown events ignored. A command runs as `sh -c` with `PLUGIN_ROOT` set and `${PLUGIN_ROOT}`
 * replaced in its text. Stdin: `{event, session_id, matcher_context, tool_call_id?, tool_name?,
 * tool_input?, tool_output?, message?, last_assistant_message?, working_dir?}`. On the blocking
 * events a hook answers only: exit 2 (stderr the reason) or `{"decision":"block","reason"}`
 * blocks; exit 0 with nothing, or `{"decision":"allow"}`, allows; anything else on stdout is a
 * hook that could not decide. Read from Goose's source (crates/goose/src/hooks/mod.rs,
 * crates/goose/src/plugins/discovery.rs).
 */

/** Goose's events hookrun has an event for (BeforeReadFile, AfterFileEdit, Before/AfterShellExecution and PreToolUseResult are not read). */
const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PostToolUseFailure: "post_tool_use_failure",
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "user_prompt_submit",
  Stop: "stop",
});
const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));

/** Goose's tools (extension `__` tool) that have a canonical name. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ developer__shell: "Bash" });

/** Where Goose reads a hook's decision (its blocking chain). */
const BLOCKING = new Set(["pre_tool_use", "stop"]);

/** The plugin hookrun installs: `.agents/plugins/hookrun/`. */
export const GOOSE_PLUGIN_DIR = ".agents/plugins/hookrun";

const answer = (stdout: string, stderr: string): HostAnswer => ({ stdout: stdout ? `${stdout}\n` : "", stderr: stderr ? `${stderr}\n` : "", exitCode: 0 });

/**
 * The run as Goose reads a hook: a block (and a Stop follow-up) is `{"decision":"block","reason"}`;
 * everything else is an empty stdout (Goose's "allow": any other stdout would be a hook that could
 * not decide, which a PreToolUse entry with `on_failure: block` turns into a denial). Goose gives a
 * hook no channel to the model or the user: context, notices and failures go to stderr, which
 * Goose ignores on exit 0 (docs/hosts/goose.md says what is lost).
 */
export function renderGoose(result: TriggerResult): HostAnswer {
  const shown = result.messages.filter((m) => !m.hide);
  const followups = texts(shown.filter((m) => m.kind === "followup"));
  const lines = [
    ...texts(shown.filter((m) => m.kind !== "followup")),
    ...[...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map((r) => `hookrun: ${failureLine(r)}`),
  ];
  if (result.blocked && BLOCKING.has(result.event)) return answer(JSON.stringify({ decision: "block", reason: result.reason ?? `blocked by ${result.blocked_by}` }), lines.join("\n"));
  if (result.event === "stop" && followups.length) return answer(JSON.stringify({ decision: "block", reason: followups.join("\n\n") }), lines.join("\n"));
  return answer("", lines.join("\n"));
}

function entries(config: Parameters<NonNullable<HostAdapter["setup"]>["wanted"]>[0], command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = INSTALL_EVENT[event];
    if (!hostEvent) continue;
    const values = event === "pre_tool_use" || event === "post_tool_use" || event === "post_tool_use_failure" ? matchedValues(config, event, goose) : null;
    // Goose's matcher is an unanchored regex: anchored, so a name does not also take a longer one.
    const matcher = values ? `^(${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$` : undefined;
    const hook = {
      type: "command",
      command: command(event),
      timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000),
      // Goose denies the call when a PreToolUse hook with on_failure: block cannot decide (killed at its timeout, crashed).
      ...(event === "pre_tool_use" && asksFailClosed(config, event) && { on_failure: "block" }),
    };
    out[hostEvent] = [{ ...(matcher && { matcher }), hooks: [hook] }];
  }
  return out;
}

function importGoose(settings: unknown, existing: Parameters<NonNullable<HostAdapter["import"]>>[1]) {
  if (!isJsonObject(settings)) throw new TypeError("a plugin's hooks.json must be a JSON object");
  // Goose's handler field is on_failure; Claude's (which the shared reader knows) is onFailure.
  const hooks = isJsonObject(settings.hooks)
    ? Object.fromEntries(
        Object.entries(settings.hooks).map(([ev, groups]) => [
          ev,
          Array.isArray(groups)
            ? groups.map((g) =>
                isJsonObject(g) && Array.isArray(g.hooks)
                  ? {
                      ...g,
                      hooks: g.hooks.map((h) => (isJsonObject(h) && h.on_failure !== undefined ? Object.fromEntries(Object.entries(h).map(([k, v]) => [k === "on_failure" ? "onFailure" : k, v])) : h)),
                    }
                  : g,
              )
            : groups,
        ]),
      )
    : settings.hooks;
  const imp = importClaudeSettings({ hooks }, existing);
  imp.notes = imp.notes.map((n) => n.replace(/Claude Code/g, "Goose"));
  for (const h of imp.hooks) {
    const text = h.hook.command ?? "";
    if (text.includes("PLUGIN_ROOT")) imp.notes.push(`${h.at} (\`${h.hook.name}\`): uses \${PLUGIN_ROOT}, the plugin's folder, which hookrun does not set: write the path relative to hooks.yaml`);
    const matcher = h.hook.matcher;
    if (matcher?.includes("developer__shell")) h.hook.matcher = matcher.replace(/\bdeveloper__shell\b/g, "Bash");
  }
  if (imp.hooks.length)
    imp.notes.push(
      "imported with `dialect: claude` (exit 2 and `decision: block` read as Goose reads them); under hookrun these hooks receive Claude's payload, not Goose's (`event`, `working_dir`, `developer__shell`)",
    );
  return imp;
}

export const goose: HostAdapter = {
  name: "goose",
  title: "Goose",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  detect: (payload) => {
    const event = stringField(payload, "event");
    return event !== undefined && Object.hasOwn(EVENTS, event) && payload.hook_event_name === undefined && typeof payload.session_id === "string" && Object.hasOwn(payload, "matcher_context");
  },
  read: (payload) => {
    const ctx = baseRead(goose, payload, {
      renames: { working_dir: "cwd", tool_call_id: "tool_use_id", tool_output: "tool_response" },
      hostFields: ["event", "matcher_context"],
      event: stringField(payload, "event"),
    });
    // Goose names the submitted prompt `message`.
    if (payload.event === "UserPromptSubmit" && typeof payload.message === "string" && ctx.prompt === undefined) ctx.prompt = payload.message;
    return ctx;
  },
  render: renderGoose,
  notRun: (_event, forUser) => answer("", `hookrun: the project's hooks did not run: ${forUser}`),
  degrade: {
    ask: "nothing: Goose reads only allow or block",
    defer: "nothing: Goose reads only allow or block",
    updated_input: "nothing: Goose cannot rewrite a call from a hook",
    context: "nothing: Goose gives a hook no channel to the model (stderr only, which it ignores on success)",
    feedback: "nothing: Goose reads no answer after a tool ran",
    followup: 'Stop `{"decision":"block","reason"}`',
    stop: "nothing: Goose has no way for a hook to end the agent",
    notice: "stderr, which Goose ignores on success",
  },
  probe: {
    shell: POSIX_SHELL,
    env: (projectDir) => ({ PLUGIN_ROOT: `${projectDir}/${GOOSE_PLUGIN_DIR}` }),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Goose's placeholder, replaced in the command's text
    expand: (command, projectDir) => command.split("${PLUGIN_ROOT}").join(`${projectDir}/${GOOSE_PLUGIN_DIR}`),
    payload: (hostEvent, projectDir, tool) => {
      const tools = EVENTS[hostEvent]?.includes("tool");
      const name = tool ?? "developer__shell";
      return {
        event: hostEvent,
        session_id: "hooks-doctor",
        matcher_context: tools ? name : null,
        ...(tools && { tool_call_id: "hooks-doctor-1", tool_name: name, tool_input: { command: "true" } }),
        ...(hostEvent === "UserPromptSubmit" && { message: "hooks doctor" }),
        working_dir: projectDir,
      };
    },
    assumed: "the working directory: Goose sets none for a hook (its own cwd); the entry finds the project from PLUGIN_ROOT",
  },
  // The plugin's root is <project>/.agents/plugins/hookrun: the project is three folders up.
  setup: jsonFile({ projectFile: `${GOOSE_PLUGIN_DIR}/hooks/hooks.json`, userFile: `${GOOSE_PLUGIN_DIR}/hooks/hooks.json`, hooksPath: ["hooks"], root: '"$PLUGIN_ROOT/../../.."', entries }),
  import: importGoose,
};
