import { isJsonObject } from "../config/scanJson.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { asksFailClosed } from "./failClosed.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { POSIX_SHELL } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { gooseRun, EVENTS } from "./gooseRun.js";

export * from "./gooseRun.js";

const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));

/** The plugin hookrun installs: `.agents/plugins/hookrun/`. */
export const GOOSE_PLUGIN_DIR = ".agents/plugins/hookrun";

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

/** Goose's whole adapter: its runtime part (gooseRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const goose: HostAdapter = {
  ...gooseRun,
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
