import type { TriggerResult } from "../runner/types.js";
import { claudeNotRun, claudeRun, renderClaude } from "./claudeRun.js";
import { cloneDetector } from "./detect.js";
import { baseRead } from "./payload.js";
import type { HostAnswer, HostRuntime, Payload } from "./types.js";

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
  readonly timeout: HostRuntime["timeout"];
  /** The project's settings file, relative to the project root, and the user's, relative to HOME. */
  readonly projectFile: string;
  readonly userFile: string;
  /** The variable the clone sets to the project root in a hook's environment (`QODER_PROJECT_DIR`). */
  readonly projectDirVar: string;
  /** A folder in the clone's transcript paths that no other host writes (`.qoder`): how `--host auto` tells its payloads from Claude Code's. */
  readonly transcriptFolder: string;
  /** Its detect when the host table lists it (src/hosts/detect.ts: the same function); absent: made from `events` and `transcriptFolder`. */
  readonly detect?: (payload: Payload) => boolean;
  /** Entry fields of Claude's it honours: `onFailure`, `asyncRewake` (docs/async.md#rewake). */
  readonly onFailure: boolean;
  readonly asyncRewake: boolean;
  readonly degrade?: HostRuntime["degrade"];
  /** Said after `hooks install` writes the entries: what the user must still do. */
  readonly note?: string;
}

/** The runtime part of a Claude-shaped clone (HostRuntime): Claude Code's reading and answers, narrowed to the clone's events. */
export function claudeCloneRun(spec: ClaudeCloneSpec): HostRuntime {
  const events: Record<string, string> = {};
  for (const name of spec.events) {
    const canonical = claudeRun.events[name];
    if (canonical === undefined) throw new Error(`${spec.name}: ${name} is not one of Claude Code's events`);
    events[name] = canonical;
  }
  Object.freeze(events);
  const runtime: HostRuntime = {
    name: spec.name,
    title: spec.title,
    events,
    tools: spec.tools ?? {},
    timeout: spec.timeout,
    detect: spec.detect ?? cloneDetector(spec.events, spec.transcriptFolder),
    read: (payload) => baseRead(runtime, payload),
    // The clone reads Claude's answers: Claude Code's render, byte for byte.
    render: (result: TriggerResult): HostAnswer => renderClaude(result),
    notRun: claudeNotRun,
    degrade: { ...claudeRun.degrade, ...spec.degrade },
  };
  return runtime;
}
