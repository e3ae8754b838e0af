import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import type { TriggerResult } from "../runner/types.js";
import { claudeEntries, claudeHost, claudeNotRun, renderClaude } from "./claude.js";
import { baseRead, POSIX_SHELL, sampleFields, stringField } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostAnswer } from "./types.js";

/**
 * An agent that reads Claude Code's hook contract (the settings shape, the snake_case payloads,
 * the JSON answers and exit codes) with differences that are data: its own config files, the
 * subset of Claude's events it fires, its timeout unit, its variable for the project directory,
 * the entry fields it honours. Reading and answering are Claude Code's (src/hosts/claude.ts);
 * each clone's facts and sources are in docs/hosts/<name>.md.
 */
export interface ClaudeCloneSpec {
  readonly name: string;
  readonly title: string;
  /** Claude's names of the events the clone fires (a subset of Claude Code's). */
  readonly events: readonly string[];
  /** The clone's tool names that differ from Claude's → Claude's. */
  readonly tools?: Readonly<Record<string, string>>;
  readonly timeout: HostAdapter["timeout"];
  /** The project's settings file, relative to the project root, and the user's, relative to HOME. */
  readonly projectFile: string;
  readonly userFile: string;
  /** The variable the clone sets to the project root in a hook's environment (`QODER_PROJECT_DIR`). */
  readonly projectDirVar: string;
  /** A folder in the clone's transcript paths that no other host writes (`.qoder`): how `--host auto` tells its payloads from Claude Code's. */
  readonly transcriptFolder: string;
  /** Entry fields of Claude's it honours: `onFailure`, `asyncRewake` (docs/async.md#rewake). */
  readonly onFailure: boolean;
  readonly asyncRewake: boolean;
  readonly degrade?: HostAdapter["degrade"];
  /** Said after `hooks install` writes the entries: what the user must still do. */
  readonly note?: string;
}

/** A HostAdapter for a Claude-shaped clone: Claude Code's adapter narrowed to the clone's events, files and units. */
export function claudeClone(spec: ClaudeCloneSpec): HostAdapter {
  const events: Record<string, string> = {};
  for (const name of spec.events) {
    const canonical = claudeHost.events[name];
    if (canonical === undefined) throw new Error(`${spec.name}: ${name} is not one of Claude Code's events`);
    events[name] = canonical;
  }
  Object.freeze(events);
  const fires = new Set(spec.events);
  const transcript = new RegExp(`[\\\\/]${spec.transcriptFolder.replace(/\./g, "\\.")}[\\\\/]`);
  const adapter: HostAdapter = {
    name: spec.name,
    title: spec.title,
    events,
    tools: spec.tools ?? {},
    timeout: spec.timeout,
    detect: (payload) => {
      const event = stringField(payload, "hook_event_name");
      return event !== undefined && fires.has(event) && typeof payload.session_id === "string" && transcript.test(stringField(payload, "transcript_path") ?? "");
    },
    read: (payload) => baseRead(adapter, payload),
    // The clone reads Claude's answers: Claude Code's render, byte for byte.
    render: (result: TriggerResult): HostAnswer => renderClaude(result),
    notRun: claudeNotRun,
    degrade: { ...claudeHost.degrade, ...spec.degrade },
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
