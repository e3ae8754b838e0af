import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { claudeEntries } from "./claude.js";
import { POSIX_SHELL, sampleFields } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter } from "./types.js";
import { lettaRun, EVENTS } from "./lettaRun.js";

export * from "./lettaRun.js";

/** Letta Code's whole adapter: its runtime part (lettaRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const letta: HostAdapter = {
  ...lettaRun,
  probe: {
    shell: POSIX_SHELL,
    env: (projectDir, hostEvent) => ({ LETTA_HOOK_EVENT: hostEvent, LETTA_WORKING_DIR: projectDir, USER_CWD: projectDir }),
    payload: (hostEvent, projectDir) => {
      const { session_id, cwd, tool_use_id, ...rest } = sampleFields(EVENTS[hostEvent] ?? hostEvent, "Bash", projectDir);
      return { event_type: hostEvent, working_directory: cwd, session_id, ...(tool_use_id !== undefined && { tool_call_id: tool_use_id }), ...rest };
    },
    assumed: "the shell: Letta runs a hook with the first of its shell launchers that starts (`/bin/sh -c` stands in)",
  },
  setup: jsonFile({
    projectFile: ".letta/settings.json",
    userFile: ".letta/settings.json",
    hooksPath: ["hooks"],
    root: '"$LETTA_WORKING_DIR"',
    entries: (config, command) => claudeEntries(config, command, { fires: (name) => Object.hasOwn(EVENTS, name), timeoutUnit: "ms", onFailure: false, asyncRewake: false, skillShell: false }),
  }),
  import: (settings, existing) => {
    const imp = importClaudeSettings(settings, existing);
    imp.notes = imp.notes.map((n) => n.replace(/Claude Code/g, "Letta Code"));
    for (const h of imp.hooks) {
      // Letta's timeouts are milliseconds; importClaudeSettings read them as seconds.
      if (typeof h.hook.timeout === "number") h.hook.timeout = `${h.hook.timeout}ms`;
      if (!Object.hasOwn(EVENTS, h.hostEvent)) imp.notes.push(`${h.at}: hookrun does not install into Letta's ${h.hostEvent}; imported as ${h.event} for other hosts`);
    }
    if (imp.hooks.length) imp.notes.push("imported with `dialect: claude`: these hooks receive Claude's payload (hook_event_name, cwd) under hookrun, not Letta's (event_type, working_directory)");
    return imp;
  },
};
