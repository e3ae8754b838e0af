/**
 * Types of the config file as written (checked against schema/hooks.schema.json by
 * test/schemaTypes.test.ts, so the two cannot drift) and of the resolved, merged config.
 */
import type { Diagnostic } from "../errors.js";

/** A duration: seconds as a number, or "500ms" | "30s" | "2m" | "1h". */
export type DurationSpec = number | string;
/** A size in bytes, or "64KiB" | "1MiB" | "1GiB". */
export type SizeSpec = number | string;

/** One hook as written under `hooks.<event>` in a config file. */
export interface HookSpec {
  name: string;
  command?: string;
  args?: string[];
  description?: string;
  priority?: number;
  async?: boolean;
  /** With `async: true`: a block's reason wakes the model (Claude Code's `asyncRewake`, docs/async.md#rewake). */
  rewake?: boolean;
  timeout?: DurationSpec;
  enabled?: boolean;
  matcher?: string;
  /** Claude Code's permission-rule filter (`Bash(git *)`), tested on tool events. */
  if?: string;
  paths?: string[];
  env?: Record<string, string>;
  cwd?: string;
  shell?: string;
  on_failure?: "continue" | "block";
  max_output?: SizeSpec;
  dialect?: Dialect;
  /** On stop / subagent_stop: how many stops in a row the hook may keep the agent going; null: no limit (docs/configuration.md#loop_limit). */
  loop_limit?: number | null;
}

/** Whose rules read a hook's output and run it: hookrun's (docs/running-hooks.md#what-a-hook-prints-and-decisions) or a host's, a name of src/dialects/table.ts (docs/dialects.md). */
export type Dialect = string;

/** `defaults:` of a config file. */
export interface DefaultsSpec {
  timeout?: DurationSpec;
  shell?: string;
  env?: Record<string, string>;
  max_output?: SizeSpec;
}

/** One entry under `events:`. */
export interface EventSettingsSpec {
  parallel?: boolean;
  custom?: boolean;
  description?: string;
  gate?: boolean;
}

/** A whole config file as written. */
export interface ConfigFileSpec {
  $schema?: string;
  version?: 1;
  defaults?: DefaultsSpec;
  events?: Record<string, EventSettingsSpec>;
  hooks?: Record<string, HookSpec[]>;
  log?: LogSpec;
}

/** `log:` of a config file: what the run log keeps (docs/cli.md#hooks-log). */
export interface LogSpec {
  /** Record each run's context (or host payload) in the run log, for `hooks log --fixture`. Private data: off by default. */
  context?: boolean;
}

export type Layer = "user" | "project" | "local";

/** Where something was declared. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
  layer: Layer;
}

/** A hook after layers are merged and defaults applied: what the runner executes. */
export interface ResolvedHook {
  name: string;
  /** Canonical event name. */
  event: string;
  command?: string;
  args?: string[];
  description?: string;
  priority: number;
  async: boolean;
  /** true: an async hook whose block wakes the model with its reason (docs/async.md#rewake). */
  rewake?: boolean;
  timeoutMs: number;
  enabled: boolean;
  matcher?: string;
  /** Claude Code's permission-rule filter (`Bash(git *)`): the hook runs only for a tool call it matches. */
  if?: string;
  paths?: string[];
  /** defaults.env merged with the hook's env. */
  env: Record<string, string>;
  /** The hook's `cwd` as written (relative to `dir`), if any. */
  cwd?: string;
  /** Directory of the file that declares the hook; null for the user layer (caller's cwd). */
  dir: string | null;
  shell: string;
  onFailure: "continue" | "block";
  maxOutput: number;
  dialect: Dialect;
  /** On stop / subagent_stop: continuations in a row honoured before the next is refused; absent: no limit. */
  loopLimit?: number;
  /** Declaration order across layers (user, project, local; file order). */
  order: number;
  /** Where the hook is first declared. */
  source: SourceLocation;
  /** Where the effective `enabled` value was decided (an override, or the declaration). */
  enabledSource: SourceLocation;
  /** Every place that contributed to this hook, declaration first. */
  sources: SourceLocation[];
}

/** Settings of one event after merging. */
export interface ResolvedEventSettings {
  parallel: boolean;
  custom: boolean;
  description?: string;
  /** For custom events: whether a block is honoured. */
  gate?: boolean;
}

export interface ConfigFileInfo {
  path: string;
  layer: Layer;
  /** sha256 of the file's bytes, for trust. */
  sha256: string;
}

/** The merged config of every layer, as returned by loadConfig. */
export interface ResolvedConfig {
  /** Directory of the project config file (or the cwd when there is none). */
  projectDir: string;
  files: ConfigFileInfo[];
  hooks: ResolvedHook[];
  events: Record<string, ResolvedEventSettings>;
  /** `log:` merged over layers (later wins); absent in configs built by hand. */
  log?: { context: boolean };
  /** Warnings found while loading (valid but likely wrong). */
  warnings: Diagnostic[];
}
