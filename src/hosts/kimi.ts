import path from "node:path";
import { isJsonObject } from "../config/scanJson.js";
import { UsageError } from "../errors.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { POSIX_SHELL, sampleFields } from "./payload.js";
import { tomlFile } from "./setup.js";
import type { HostAdapter, HostEntry, HostSetup } from "./types.js";
import { kimiRun, EVENTS } from "./kimiRun.js";

export * from "./kimiRun.js";

const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));

/** The only keys Kimi Code allows in a `[[hooks]]` table. */
const TABLE_KEYS = new Set(["event", "matcher", "command", "timeout"]);

/** Kimi Code's clamp on a table's `timeout`. */
const MAX_TIMEOUT_S = 600;

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

/** Kimi Code's whole adapter: its runtime part (kimiRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const kimi: HostAdapter = {
  ...kimiRun,
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
