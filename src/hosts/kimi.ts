import path from "node:path";
import { isJsonObject } from "../config/scanJson.js";
import { UsageError } from "../errors.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import type { TriggerResult } from "../runner/types.js";
import { claudeHost } from "./claude.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { baseRead, field, POSIX_SHELL, sampleFields, stringField } from "./payload.js";
import { blockReason, hookrunLine, resultTexts } from "./resultText.js";
import { tomlFile } from "./setup.js";
import type { HostAdapter, HostAnswer, HostEntry, HostSetup } from "./types.js";

/**
 * Kimi Code (MoonshotAI's `kimi` CLI, `@moonshot-ai/kimi-code`; docs/hosts/kimi.md) runs the
 * `[[hooks]]` tables of `~/.kimi-code/config.toml` (`$KIMI_CODE_HOME/config.toml`), nowhere else:
 * each table is `event`, `matcher?` (an unanchored regex over the tool name, the prompt, the
 * source…), `command` and `timeout?` (seconds, 1–600, default 30), and a table with any other key
 * makes the whole config fail to load. A command runs through the shell in the session's project
 * directory with a snake_case JSON payload on stdin: `{hook_event_name, session_id, cwd,
 * session_title (once the session has one), client_type: "kimi_code_cli", …}` plus the event's
 * fields (`tool_name`, `tool_input`, `tool_call_id`; `prompt`, as content parts;
 * `stop_hook_active`…), Claude's tool names (`Bash`, `Read`, `Edit`…). Only PreToolUse,
 * UserPromptSubmit and Stop read an answer: exit 2 (stderr the reason) or exit 0 with
 * `{"hookSpecificOutput":{"permissionDecision":"deny", "permissionDecisionReason"}}` blocks; on UserPromptSubmit the stdout of exit 0 is added to the
 * model's context; everything else (another exit code, a crash, a timeout) allows. Read from
 * `@moonshot-ai/kimi-code` 2.1.0's bundle and MoonshotAI/kimi-code's source
 * (packages/agent-core-v2/src/features/externalHooks), and run by test/kimi.e2e.test.ts.
 */

/** Kimi Code's events hookrun has an event for (Claude's names; PermissionRequest, PermissionResult and Interrupt are not read). */
const FIRED = [
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
const EVENTS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(FIRED.map((e) => [e, claudeHost.events[e]])));
const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));

/** Kimi Code's tools that have a canonical name under another name (Bash, Read, Write, Edit, Glob, Grep, WebSearch are Claude's own). */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ FetchURL: "WebFetch" });

/** Where Kimi Code reads a hook's answer. */
const BLOCKING = new Set(["pre_tool_use", "user_prompt_submit", "stop"]);

/** The only keys Kimi Code allows in a `[[hooks]]` table. */
const TABLE_KEYS = new Set(["event", "matcher", "command", "timeout"]);

/** Kimi Code's clamp on a table's `timeout`. */
const MAX_TIMEOUT_S = 600;

/**
 * A submitted prompt's text: Kimi Code sends the prompt as its content parts (`[{type: "text",
 * text}, {type: "image_url", …}]`), and hookrun's `prompt` is a string, so the text parts are
 * joined with a space, as Kimi Code joins them for its own matcher; a string passes unchanged.
 */
function promptText(prompt: unknown): string | undefined {
  if (!Array.isArray(prompt)) return undefined;
  return prompt
    .filter((p): p is { text: string } => isJsonObject(p) && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text)
    .join(" ");
}

const answer = (stdout: string, stderr: string, exitCode = 0): HostAnswer => ({ stdout: stdout ? `${stdout}\n` : "", stderr: stderr ? `${stderr}\n` : "", exitCode });

/**
 * The run as Kimi Code reads a hook: a block (and a Stop follow-up, which Kimi Code reads as "go on
 * with this") is exit 2 with the reason alone on stderr (Kimi Code takes the whole stderr as the
 * reason); a submitted prompt's context is the stdout of exit 0, which Kimi Code adds to the
 * model's context. Everything else has no channel: notices and failures go to stderr, which Kimi
 * Code ignores on exit 0.
 */
export function renderKimi(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const lines = [...t.notices, ...t.failures.map((f) => hookrunLine(f))];
  if (result.blocked && BLOCKING.has(result.event)) return answer("", blockReason(result), 2);
  if (result.event === "stop" && t.followups.length) return answer("", t.followups.join("\n\n"), 2);
  if (result.event === "user_prompt_submit") return answer(t.context.join("\n\n"), lines.join("\n"));
  return answer("", [...t.context, ...lines].join("\n"));
}

function entries(config: Parameters<HostSetup["wanted"]>[0], command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = INSTALL_EVENT[event];
    if (!hostEvent) continue;
    const values = event.includes("tool_use") ? matchedValues(config, event, kimi) : null;
    // Kimi Code's matcher is an unanchored regex: anchored, so a name does not also take a longer one.
    const matcher = values ? `^(${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$` : undefined;
    const timeout = Math.min(MAX_TIMEOUT_S, Math.max(1, Math.ceil(dispatchTimeoutMs(config, event) / 1000)));
    // Keys in the order the file's tables read back (sorted), so an installed entry compares equal.
    out[hostEvent] = [{ command: command(event), ...(matcher && { matcher }), timeout }];
  }
  return out;
}

/** Kimi Code's `[[hooks]]` tables as Claude's settings (`{hooks: {Event: [{matcher, hooks: [{type, command, timeout}]}]}}`), for Claude's importer. */
function importKimi(settings: unknown, existing: Parameters<NonNullable<HostAdapter["import"]>>[1]) {
  if (!isJsonObject(settings)) throw new TypeError("Kimi Code's config must be a TOML table");
  const tables = settings.hooks ?? [];
  if (!Array.isArray(tables)) throw new TypeError("`hooks` must be an array of [[hooks]] tables");
  const hooks: Record<string, unknown[]> = Object.create(null);
  const notes: string[] = [];
  for (const [i, table] of tables.entries()) {
    if (!isJsonObject(table) || typeof table.event !== "string" || typeof table.command !== "string") {
      notes.push(`hooks[${i}]: not a table with an event and a command; skipped`);
      continue;
    }
    const { event, matcher, command, timeout } = table;
    (hooks[event] ??= []).push({ ...(typeof matcher === "string" && { matcher }), hooks: [{ type: "command", command, ...(typeof timeout === "number" && { timeout }) }] });
  }
  const imp = importClaudeSettings({ hooks }, existing);
  imp.notes = [...notes, ...imp.notes.map((n) => n.replace(/Claude Code/g, "Kimi Code"))];
  for (const h of imp.hooks) if (!Object.hasOwn(EVENTS, h.hostEvent)) imp.notes.push(`${h.at}: hookrun does not read Kimi Code's ${h.hostEvent}; imported as ${h.event} for other hosts`);
  if (imp.hooks.length)
    imp.notes.push(
      "imported with `dialect: claude` (exit 2 and `permissionDecision: deny` block as Kimi Code reads them); under hookrun these hooks receive Claude's payload (`tool_use_id`, not Kimi Code's `tool_call_id`)",
    );
  return imp;
}

const fileSetup = tomlFile(
  {
    // Kimi Code has no project layer: the project file is never written (see `plan` below).
    projectFile: ".kimi-code/config.toml",
    userFile: ".kimi-code/config.toml",
    hooksPath: ["hooks"],
    // Kimi Code runs a hook in the session's project directory.
    root: null,
    killAfterMs: MAX_TIMEOUT_S * 1000,
    note: "Kimi Code reads its config when a session starts: entries written now take effect in its next session",
    entries,
    async warnings(_config, at) {
      const home = at.env.KIMI_CODE_HOME;
      return home && path.resolve(home, "config.toml") !== path.resolve(at.file)
        ? [`KIMI_CODE_HOME is set: Kimi Code reads ${path.join(home, "config.toml")} here, not ${at.file}; move the [[hooks]] tables there`]
        : [];
    },
  },
  true,
);

/** Kimi Code reads hooks from the user's config only: a project install is refused, saying so. */
const setup: HostSetup = {
  ...fileSetup,
  // A project never has this file: `hooks install` with no host picks Kimi Code only for --user (~/.kimi-code/config.toml).
  folder: ".kimi-code/config.toml",
  summary: "`~/.kimi-code/config.toml` (`--user` only)",
  userOnly: true,
  plan(wanted, at) {
    if (!at.user) throw new UsageError("kimi: Kimi Code reads [[hooks]] only from ~/.kimi-code/config.toml, never from a project; run `hooks install kimi --user`");
    return fileSetup.plan(wanted, at);
  },
};

export const kimi: HostAdapter = {
  name: "kimi",
  title: "Kimi Code",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  detect: (payload) => {
    const event = stringField(payload, "hook_event_name");
    return event !== undefined && Object.hasOwn(EVENTS, event) && typeof payload.session_id === "string" && payload.client_type === "kimi_code_cli";
  },
  read: (payload) => {
    const ctx = baseRead(kimi, payload, {
      renames: { tool_call_id: "tool_use_id", tool_output: "tool_response" },
      hostFields: ["client_type", "session_title"],
    });
    const prompt = promptText(field(payload, "prompt"));
    if (prompt !== undefined) ctx.prompt = prompt;
    return ctx;
  },
  render: renderKimi,
  // Only a submitted prompt's stdout reaches anyone (the model); elsewhere stderr, which Kimi Code ignores on exit 0.
  notRun: (event, forUser, forModel) => answer(event === "user_prompt_submit" ? forModel : "", `hookrun: the project's hooks did not run: ${forUser}`),
  degrade: {
    ask: "nothing: Kimi Code reads only allow or block (its own permission check follows the hook)",
    defer: "nothing: Kimi Code's own permission check decides",
    updated_input: "nothing: Kimi Code cannot rewrite a call from a hook",
    context: "UserPromptSubmit's stdout, added to the model's context; elsewhere dropped (stderr)",
    feedback: "nothing: Kimi Code reads no answer after a tool ran",
    followup: "Stop: exit 2 with the text, which Kimi Code gives the model to go on with (once per turn)",
    stop: "nothing: Kimi Code has no way for a hook to end the agent",
    notice: "stderr, which Kimi Code ignores on success",
  },
  probe: {
    shell: POSIX_SHELL,
    // Kimi Code sets no variable of its own for a hook from config.toml.
    env: () => ({}),
    payload: (hostEvent, projectDir, tool = "Bash") => {
      const f = sampleFields(EVENTS[hostEvent] ?? hostEvent, tool, projectDir);
      const tools = hostEvent.includes("ToolUse");
      return {
        hook_event_name: hostEvent,
        session_id: f.session_id,
        cwd: projectDir,
        session_title: "hooks doctor",
        client_type: "kimi_code_cli",
        ...(tools && { tool_name: tool, tool_input: f.tool_input, tool_call_id: "hooks-doctor-1" }),
        ...(hostEvent === "UserPromptSubmit" && { prompt: [{ type: "text", text: f.prompt }], is_steer: false }),
        ...(hostEvent === "Stop" && { stop_hook_active: false }),
      };
    },
    assumed: "the shell (Kimi Code spawns the command with `shell: true`) in the session's project directory",
    // Kimi Code refuses the whole config when a [[hooks]] table has a key it does not allow or an event it does not know.
    tables: (tables) =>
      tables.flatMap((t, index) => {
        if (!isJsonObject(t)) return [];
        const extra = Object.keys(t).filter((k) => !TABLE_KEYS.has(k));
        return extra.length
          ? [
              {
                index,
                level: "error" as const,
                what: `key${extra.length > 1 ? "s" : ""} ${extra.join(", ")}: Kimi Code allows only event, matcher, command and timeout in a [[hooks]] table, and refuses to load the whole config otherwise`,
                fix: `remove ${extra.join(", ")}`,
              },
            ]
          : [];
      }),
  },
  setup,
  import: importKimi,
};
