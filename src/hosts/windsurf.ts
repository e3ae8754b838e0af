import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import { type FlatConverted, type FlatEntry, importFlatHooks } from "./flatImport.js";
import { configEvents, matchedValues } from "./install.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { POSIX_SHELL } from "./payload.js";
import { windsurfRun, EVENTS, action } from "./windsurfRun.js";

export * from "./windsurfRun.js";

// ---- install ------------------------------------------------------------------------------

/** The Windsurf events that carry a tool the canonical names in `tools` can select (null: all). */
function toolEvents(prefix: "pre" | "post", values: string[] | null): string[] {
  const tools = values && new Set(values);
  const all = ["read_code", "write_code", "run_command", "mcp_tool_use"];
  const wanted = (kind: string) => {
    if (tools === null) return true;
    if (kind === "run_command") return tools.has("Bash");
    if (kind === "read_code") return tools.has("Read");
    if (kind === "write_code") return tools.has("Write") || tools.has("Edit") || tools.has("MultiEdit");
    return [...tools].some((t) => t.startsWith("mcp__"));
  };
  return all.filter(wanted).map((k) => `${prefix}_${k}`);
}

function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvents =
      event === "pre_tool_use"
        ? toolEvents("pre", matchedValues(config, event))
        : event === "post_tool_use"
          ? toolEvents("post", matchedValues(config, event))
          : event === "user_prompt_submit"
            ? ["pre_user_prompt"]
            : event === "stop"
              ? ["post_cascade_response"]
              : [];
    for (const h of hostEvents) out[h] = [{ command: command(event), show_output: true }];
  }
  return out;
}

// ---- import -------------------------------------------------------------------------------

const IMPLIED_MATCHER: Readonly<Record<string, string>> = Object.freeze({
  read_code: "Read",
  write_code: "Write|Edit",
  run_command: "Bash",
  mcp_tool_use: "^mcp__",
});

/** One Windsurf entry: the matcher its event implies; `show_output: true` is what the dialect does, anything else is noted. */
function convertEntry({ hostEvent, event, entry }: FlatEntry): FlatConverted {
  const notes: string[] = [];
  for (const [k, v] of Object.entries(entry)) {
    if (k === "command") continue;
    if (k === "show_output") {
      if (v !== true) notes.push(`\`show_output: ${JSON.stringify(v)}\` not carried: what the hook prints is shown to the user under hookrun (as with show_output: true); it never reaches the model`);
    } else notes.push(`\`${k}\` is not a field of Windsurf's hooks that hookrun knows; not carried`);
  }
  const matcher = (event === "pre_tool_use" || event === "post_tool_use") && Object.hasOwn(IMPLIED_MATCHER, action(hostEvent)) ? IMPLIED_MATCHER[action(hostEvent)] : undefined;
  return { matcher, notes };
}

function importWindsurf(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Windsurf's hooks.json must be a JSON object");
  const imp = importFlatHooks(settings.hooks, existing, { title: "Windsurf", events: EVENTS, convert: convertEntry });
  // Written for Windsurf: they receive Windsurf's payload and only their exit code decides (docs/dialects.md).
  for (const h of imp.hooks) h.hook.dialect = "windsurf";
  return imp;
}

/** Windsurf's whole adapter: its runtime part (windsurfRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const windsurf: HostAdapter = {
  ...windsurfRun,
  // Windsurf's docs name no project-dir variable; workspace hooks are taken to run in the workspace root.
  // Windsurf's docs say nothing of the shell, cwd or variables: assumed `/bin/sh -c` in the workspace root.
  probe: {
    shell: POSIX_SHELL,
    env: () => ({}),
    payload: (hostEvent, projectDir) => ({
      agent_action_name: hostEvent,
      trajectory_id: "hooks-doctor",
      execution_id: "hooks-doctor",
      timestamp: new Date().toISOString(),
      tool_info: hostEvent.endsWith("run_command") ? { command_line: "true", cwd: projectDir } : hostEvent.endsWith("user_prompt") ? { user_prompt: "hooks doctor" } : {},
    }),
    assumed: "the shell (`/bin/sh -c`), the working directory (the workspace root) and the environment",
  },
  setup: jsonFile({ projectFile: ".windsurf/hooks.json", userFile: ".codeium/windsurf/hooks.json", hooksPath: ["hooks"], root: null, entries }),
  import: importWindsurf,
};
