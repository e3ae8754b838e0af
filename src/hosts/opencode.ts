import { inProcessFile } from "./inProcessFile.js";
import { sampleFields } from "./payload.js";
import type { HostAdapter, Payload } from "./types.js";
import { EVENTS, opencodeRun } from "./opencodeRun.js";

export * from "./opencodeRun.js";

/** The first line of hookrun's plugin file: `hooks install` and `uninstall` touch no file without it. */
export const PLUGIN_MARK = "// hookrun: hands opencode's events to hooks.yaml (written by `hooks install opencode`; `hooks uninstall opencode` removes it)";

/**
 * The plugin `hooks install opencode` writes. It finds hookrun in the project's node_modules when
 * it loads (from opencode's directory up, so the same file works in the user's plugin folder),
 * never throwing there: opencode would skip a plugin that throws, silently leaving every guard
 * open. Without hookrun, every tool call is refused with the reason and the fix. (Named imports
 * only: the build rewrites a line `import x from "node:…"` anywhere in the sources.)
 */
export const PLUGIN_TEXT = `${PLUGIN_MARK}
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

async function loadHookrun(dir) {
  for (let d = resolve(dir); ; d = dirname(d)) {
    const pkg = join(d, "node_modules", "hookrun", "package.json");
    if (existsSync(pkg)) {
      const entry = JSON.parse(readFileSync(pkg, "utf8")).exports?.["."]?.import ?? "./dist/index.js";
      return await import(pathToFileURL(join(dirname(pkg), entry)).href);
    }
    if (dirname(d) === d) throw new Error(\`no node_modules/hookrun in \${dir} or above\`);
  }
}

export const hookrun = async (input) => {
  try {
    const lib = await loadHookrun(input.directory);
    if (typeof lib.opencodeHooks !== "function") throw new Error("the installed hookrun has no opencode bridge (update it)");
    return await lib.opencodeHooks(input);
  } catch (error) {
    const why = \`hookrun could not be loaded (\${error instanceof Error ? error.message : String(error)}), so its hooks (guards included) do not run and this tool call is refused: run \\\`npm install\\\` in the project (hookrun is one of its devDependencies), or \\\`hooks uninstall opencode\\\` to remove hookrun's plugin\`;
    return {
      "tool.execute.before": async () => {
        throw new Error(why);
      },
    };
  }
};
`;

/** What the bridge builds for an event, for `hooks test`, the doctor's probe and the tests. */
function probePayload(hostEvent: string, projectDir: string): Payload {
  const f = sampleFields(Object.hasOwn(EVENTS, hostEvent) ? EVENTS[hostEvent] : hostEvent, "bash", projectDir);
  const tool = f.tool_name !== undefined ? { tool: "bash", call_id: "hooks-doctor-1", args: f.tool_input } : {};
  return {
    hook_event_name: hostEvent,
    session_id: "hooks-doctor",
    cwd: projectDir,
    ...tool,
    ...(f.prompt !== undefined && { prompt: f.prompt }),
    ...(hostEvent === "tool.execute.after" && { output: "" }),
  };
}

/** opencode's whole adapter: its runtime part (opencodeRun.ts) with its plugin file and the payloads of its probe. */
export const opencode: HostAdapter = {
  ...opencodeRun,
  // opencode runs no commands: `hooks doctor` checks the plugin file instead of firing it (src/prove/doctorInProcess.ts);
  // the payloads are what the bridge builds, for `hooks test` and the tests.
  probe: {
    shell: () => [],
    env: () => ({}),
    payload: probePayload,
  },
  setup: inProcessFile({
    projectFile: ".opencode/plugins/hookrun.js",
    userFile: ".config/opencode/plugins/hookrun.js",
    folder: ".opencode",
    noun: "plugin",
    text: PLUGIN_TEXT,
    calls: "opencodeHooks",
    probe: (projectDir) => ({ event: "tool.execute.before", payload: probePayload("tool.execute.before", projectDir) }),
    note: "opencode loads the plugin when it starts (restart a running opencode); it imports hookrun from the project's node_modules",
  }),
};
