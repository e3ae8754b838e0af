import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { claudeEntries } from "./claude.js";
import type { ClaudeCloneSpec } from "./claudeCloneRun.js";
import { POSIX_SHELL, sampleFields } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostRuntime } from "./types.js";

export { type ClaudeCloneSpec, claudeCloneRun } from "./claudeCloneRun.js";

/**
 * A HostAdapter for a Claude-shaped clone: its runtime part (`runtime`, claudeCloneRun of the same
 * spec) with Claude Code's entries, probe and import narrowed to the clone's events, files and units.
 */
export function claudeClone(spec: ClaudeCloneSpec, runtime: HostRuntime): HostAdapter {
  const events = runtime.events;
  const fires = new Set(spec.events);
  const adapter: HostAdapter = {
    ...runtime,
    probe: {
      shell: POSIX_SHELL,
      env: (projectDir) => ({ [spec.projectDirVar]: projectDir }),
      payload: (hostEvent, projectDir) => ({
        ...sampleFields(events[hostEvent] ?? hostEvent, "Bash", projectDir),
        transcript_path: `${projectDir}/${spec.transcriptFolder}/hooks-doctor.jsonl`,
        hook_event_name: hostEvent,
        permission_mode: "default",
      }),
      assumed: `the shell (\`/bin/sh -c\`, as Claude Code, whose contract ${spec.title} follows)`,
    },
    setup: jsonFile({
      projectFile: spec.projectFile,
      userFile: spec.userFile,
      hooksPath: ["hooks"],
      root: `"$${spec.projectDirVar}"`,
      ...(spec.note !== undefined && { note: spec.note }),
      entries: (config, command) =>
        claudeEntries(config, command, {
          fires: (name) => fires.has(name),
          timeoutUnit: spec.timeout.unit,
          onFailure: spec.onFailure,
          asyncRewake: spec.asyncRewake,
          skillShell: false,
          readers: adapter,
        }),
    }),
    import: (settings, existing) => {
      const imp = importClaudeSettings(settings, existing);
      imp.notes = imp.notes.map((n) => n.replace(/Claude Code/g, spec.title));
      for (const h of imp.hooks) if (!fires.has(h.hostEvent)) imp.notes.push(`${h.at}: ${spec.title} does not fire ${h.hostEvent}; imported as ${h.event} for other hosts`);
      return imp;
    },
  };
  return adapter;
}
