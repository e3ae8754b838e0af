import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { matcherRule } from "../config/matcher.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { renderClaude } from "./claude.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostAnswer, HostEntry, Payload } from "./types.js";
import { baseRead, canonicalTool, POSIX_SHELL, sampleFields, stringField } from "./payload.js";

/**
 * Factory Droid (`droid`, `droid exec`): Claude Code's hook contract (same settings shape, same
 * snake_case payloads, same JSON answers and exit codes) with Droid's own tool names (`Execute`
 * for the shell, `Create` for new files, `FetchUrl`) and nine events. The answer is Claude's
 * render (src/hosts/claude.ts); this module maps names. Facts and sources: docs/hosts/droid.md.
 *
 * Config file: the `hooks` key of `.factory/settings.json` (and `~/.factory/settings.json`).
 * Factory's docs name `.factory/hooks.json` as the primary file, but droid 0.186 was reported to
 * never read it (Factory-AI/factory#3) while the `settings.json` key works in every version
 * reported; the docs also disagree on that file's shape. See docs/hosts/droid.md.
 */

/** Droid's nine events → canonical. */
const EVENTS: Readonly<Record<string, string>> = Object.freeze({
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
const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));

/** Droid's tool names that differ from the canonical (Claude's) ones. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ Execute: "Bash", Create: "Write", FetchUrl: "WebFetch" });
/** Tool names only Droid uses: a Claude-shaped payload naming one is Droid's. */
const DROID_ONLY_TOOLS = new Set(["Execute", "Create", "FetchUrl", "ApplyPatch"]);

/** A Droid payload is Claude's shape with Droid's tool names: the shared reader, its event name under `host` only. */
function read(payload: Payload, event: string): HookContext {
  const ctx = baseRead(droid, payload, { event });
  delete ctx.hook_event_name;
  return ctx;
}

/** Droid reads a hook's answer as Claude Code does: the Claude render, byte for byte. */
const render = (result: TriggerResult): HostAnswer => renderClaude(result);

// Where Droid gives hookSpecificOutput.additionalContext to the model before it answers.
const NOT_RUN_CONTEXT = new Set(["session_start", "user_prompt_submit"]);

function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: Record<string, unknown> = { systemMessage: `hookrun: the project's hooks did not run: ${forUser}` };
  if (NOT_RUN_CONTEXT.has(event)) out.hookSpecificOutput = { hookEventName: INSTALL_EVENT[event], additionalContext: `hookrun: the project's hooks are not running in this session: ${forModel}` };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = INSTALL_EVENT[event];
    if (!hostEvent) continue;
    const values = event === "pre_tool_use" || event === "post_tool_use" ? matchedValues(config, event, droid) : null;
    out[hostEvent] = [{ ...(values && { matcher: values.join("|") }), hooks: [{ type: "command", command: command(event), timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000) }] }];
  }
  return out;
}

/** The event map of a Droid file: the `hooks` key (settings.json), or the file itself (a standalone hooks.json). */
function eventMap(settings: Record<string, unknown>): { map: unknown; standalone: boolean } {
  if (settings.hooks !== undefined) return { map: settings.hooks, standalone: false };
  if (Object.keys(settings).some((k) => Object.hasOwn(EVENTS, k))) return { map: settings, standalone: true };
  return { map: undefined, standalone: false };
}

function importDroid(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Droid settings must be a JSON object");
  const { map, standalone } = eventMap(settings);
  if (map === undefined) return { hooks: [], customEvents: {}, notes: ["the file has no `hooks` object and names no Droid event; nothing to import"] };
  // A key that names no event of Droid or hookrun is not a hook list (Droid ignores it): named, not imported.
  const notes: string[] = [];
  const events = isJsonObject(map)
    ? Object.fromEntries(
        Object.entries(map).filter(([ev]) => {
          if (Object.hasOwn(EVENTS, ev) || tryParseHookEvent(ev) !== null || Array.isArray(map[ev])) return true;
          notes.push(`${standalone ? "" : "hooks."}${ev}: not an event of Droid (Droid ignores it); not imported`);
          return false;
        }),
      )
    : map;
  // Droid's matchers name Droid's tools; hookrun's name canonical ones (Execute is Bash).
  const mapped = isJsonObject(events)
    ? Object.fromEntries(
        Object.entries(events).map(([ev, groups]) => [
          ev,
          Array.isArray(groups)
            ? groups.map((g) => {
                if (!isJsonObject(g) || typeof g.matcher !== "string") return g;
                const rule = matcherRule(g.matcher);
                return rule.kind === "names" ? { ...g, matcher: [...rule.names].map((n) => canonicalTool(droid, n)).join("|") } : g;
              })
            : groups,
        ]),
      )
    : events;
  const imp = importClaudeSettings({ hooks: mapped }, existing);
  imp.notes = [...notes, ...imp.notes.map((n) => n.replace(/Claude Code/g, "Droid"))];
  if (standalone) imp.notes.unshift("read as a standalone hooks.json (events at the top level)");
  for (const h of imp.hooks) {
    h.hook.dialect = "droid";
    if (!Object.hasOwn(EVENTS, h.hostEvent)) imp.notes.push(`${h.at}: Droid does not fire ${h.hostEvent} (it has nine events); imported as ${h.event} for other hosts`);
    const text = h.hook.command ?? (h.hook.args ?? []).join(" ");
    if (/\$\{?FACTORY_PROJECT_DIR\b/.test(text))
      imp.notes.push(`${h.at} (\`${h.hook.name}\`): uses $FACTORY_PROJECT_DIR in its command line; hookrun sets it to the project's directory for droid-dialect hooks under every host`);
    const matcher = h.hook.matcher;
    if (matcher !== undefined && matcherRule(matcher).kind === "regex")
      imp.notes.push(
        `${h.at} (\`${h.hook.name}\`): matcher \`${matcher}\` is a regex over Droid's tool names; hookrun matches canonical names (Execute is Bash, Create is Write, FetchUrl is WebFetch): check it`,
      );
  }
  return imp;
}

export const droid: HostAdapter = {
  name: "droid",
  title: "Factory Droid",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 60 },
  detect: (payload) => {
    const event = stringField(payload, "hook_event_name");
    if (event === undefined || !Object.hasOwn(EVENTS, event) || typeof payload.session_id !== "string") return false;
    const tool = stringField(payload, "tool_name");
    const transcript = stringField(payload, "transcript_path") ?? "";
    return (tool !== undefined && DROID_ONLY_TOOLS.has(tool)) || /[\\/]\.factory[\\/]/.test(transcript);
  },
  read,
  render,
  notRun,
  degrade: {
    ask: "passed on as Claude's `permissionDecision: ask` (Droid asks the user; in `droid exec` it cannot, see docs/hosts/droid.md)",
    defer: "passed on as Claude's `permissionDecision: defer`; Droid documents allow/deny/ask only, so Droid's own rules decide",
    updated_input: "Claude's `hookSpecificOutput.updatedInput` on PreToolUse",
    context: "Claude's `additionalContext` (SessionStart, UserPromptSubmit, PostToolUse); elsewhere `systemMessage` (shown to the user)",
    feedback: "PostToolUse `decision: block` + reason (fed to the model next to the tool result)",
    followup: "Stop / SubagentStop `additionalContext` (the turn goes on)",
    stop: "`continue: false` + `stopReason`",
    notice: "`systemMessage`",
  },
  // Droid runs hooks from its current directory, which may change: the project root comes from FACTORY_PROJECT_DIR.
  // Factory's docs: Claude's contract (so `/bin/sh -c`), FACTORY_PROJECT_DIR set, cwd Droid's own (the project here).
  probe: {
    shell: POSIX_SHELL,
    env: (projectDir) => ({ FACTORY_PROJECT_DIR: projectDir }),
    payload: (hostEvent, projectDir) => ({
      ...sampleFields(EVENTS[hostEvent] ?? hostEvent, "Execute", projectDir),
      transcript_path: `${projectDir}/.factory/sessions/hooks-doctor.jsonl`,
      hook_event_name: hostEvent,
      permission_mode: "default",
    }),
    assumed: "the shell (`/bin/sh -c`, as Claude Code, whose contract Droid follows)",
  },
  setup: jsonFile({ projectFile: ".factory/settings.json", userFile: ".factory/settings.json", hooksPath: ["hooks"], root: '"$FACTORY_PROJECT_DIR"', entries }),
  import: importDroid,
};
