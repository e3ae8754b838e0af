/** Types of what a trigger takes and returns (docs/running-hooks.md#what-a-hook-receives, docs/running-hooks.md#what-a-hook-prints-and-decisions, docs/running-hooks.md#the-result). */

export type Role = "system" | "user" | "assistant";

/** gptme's Message. */
export interface Message {
  role: Role;
  content: string;
  hide?: boolean;
  pinned?: boolean;
  /** Name of the hook that produced it (set in results). */
  hook?: string;
  /** Set on messages of delivered async results. */
  async?: boolean;
  /**
   * Absent: context for the model. `notice`: for the user only, never the model (Claude Code's
   * systemMessage). `feedback`: for the model about the tool call that just ran (Claude's
   * post-tool block). `followup`: on stop / subagent_stop, the agent goes on with it instead of
   * stopping (Claude's Stop additionalContext, Cursor's followup_message).
   */
  kind?: "notice" | "feedback" | "followup";
}

/** What the caller passes to a trigger; any other field passes through untouched. */
export interface HookContext {
  session_id?: string;
  turn_count?: number;
  last_assistant_message?: string | null;
  cwd?: string;
  [field: string]: unknown;
}

export type HookStatus = "ok" | "blocked" | "failed" | "timed_out" | "spawn_error" | "invalid_output" | "skipped" | "cancelled";

/** `defer` (claude dialect): leave the call to the agent's own permission check. */
export type Decision = "block" | "allow" | "ask" | "defer";

/** One hook's outcome. The same shape whatever happened. */
export interface HookResult {
  name: string;
  status: HookStatus;
  exit_code: number | null;
  signal: string | null;
  duration_ms: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  messages: Message[];
  decision: Decision | null;
  reason?: string | null;
  error: string | null;
  warnings: string[];
  /** Unknown fields of the hook's JSON output, kept as is. */
  json?: Record<string, unknown>;
  /** The host dialect whose rules read the hook (`claude`, `cursor`, …; docs/dialects.md); absent for native hooks. */
  dialect?: string;
  stop_propagation?: boolean;
  continue?: boolean;
  stop_reason?: string | null;
  updated_input?: unknown;
}

/** A finished async hook delivered on a later trigger (or waited for with --wait). */
export interface AsyncDelivery extends HookResult {
  event: string;
  session_id: string;
  started_at: string;
  finished_at: string;
}

/** The result of one trigger: one shape for the library, the CLI and the server. */
export interface TriggerResult {
  event: string;
  session_id: string;
  duration_ms: number;
  messages: Message[];
  blocked: boolean;
  blocked_by: string | null;
  reason: string | null;
  continue: boolean;
  stop_reason: string | null;
  stopped_by: string | null;
  updated_input: unknown;
  hooks: HookResult[];
  async_started: string[];
  async_delivered: AsyncDelivery[];
  warnings: string[];
}

/** Options of createRunner (library) — the CLI and the server pass the same ones. */
export interface RunnerOptions {
  /** "all": run project/local hooks without checking `hooks trust` (library default: "checked"). */
  trust?: "all" | "checked";
  /** Base environment of hooks (default process.env). HOOKS=0 / HOOKS_DISABLED are read from it. */
  env?: NodeJS.ProcessEnv;
  /** The caller's working directory (default process.cwd()). */
  cwd?: string;
  /** Concurrency cap for parallel groups (default: CPUs × 2). */
  maxParallel?: number;
  /** Append to the run log (default true). */
  runLog?: boolean;
  /** State directory (default $HOOKS_STATE_DIR, else $XDG_STATE_HOME/hookrun). */
  stateDir?: string;
  /**
   * Where async hooks run: "memory" (default: in this process, results kept in memory) or
   * "detached" (the CLI: each in a worker process that outlives this one, results in the state dir).
   */
  asyncMode?: "memory" | "detached";
  /** For asyncMode "detached": the argv that starts a worker; the job file's path is appended. */
  asyncWorker?: string[];
}

export interface CloseOptions {
  /** How long running async hooks may go on before they are killed (default 5000 ms). */
  graceMs?: number;
  /** Leave the background jobs of finished claude-dialect hooks running, no longer watched (the caller handed them on: leftovers()). */
  keepBackground?: boolean;
}

/** Per-trigger options (CLI flags --only/--skip/--dry-run/--wait). */
export interface TriggerOptions {
  only?: string[];
  skip?: string[];
  /** Wait for async hooks started by this trigger and report them in async_delivered. */
  wait?: boolean;
  /**
   * `rewake` hooks (docs/async.md#rewake): "skip" leaves them out (the host runs them from an
   * entry of their own); "foreground" runs only them, and in the foreground, since the host's
   * entry that runs them is already in the background (Claude Code's `asyncRewake`).
   */
  rewake?: "skip" | "foreground";
  signal?: AbortSignal;
  /** What the run log keeps of this trigger besides its outcome (docs/cli.md#hooks-log). */
  log?: TriggerLogOptions;
}

/** The run-log side of a trigger: where it came from, and whether its context is recorded. */
export interface TriggerLogOptions {
  /** The agent whose payload this trigger came from (its adapter's name). */
  host?: string;
  /**
   * Record the context in the run log: true or false for this trigger (`hooks run --record`);
   * unset: $HOOKS_LOG_CONTEXT (1 or 0), else the config's `log.context` (default off).
   */
  record?: boolean;
  /** With `host`: the payload as the host sent it, recorded instead of the context it was read into. */
  payload?: unknown;
  /**
   * With `host` and `payload`: the variables of the dispatch's environment the host's adapter read
   * (HostAdapter.readEnv, those set), recorded with the payload.
   */
  env?: Readonly<Record<string, string>>;
  /**
   * Log the trigger even when it runs nothing (no hook matched, nothing async): the CLI and a
   * host's warm route do, so `hooks log --follow` shows that an agent's event reached hookrun
   * when the answer to "why did my hook not fire" is "it matched nothing". The library leaves
   * a no-match trigger off the disk (docs/running-hooks.md#from-a-program-library).
   */
  always?: boolean;
}

export type RunnerEvent = "hook:start" | "hook:end";

export interface HookStartEvent {
  event: string;
  session_id: string;
  name: string;
  async: boolean;
}

export interface HookEndEvent extends HookStartEvent {
  result: HookResult;
}

/** What outstanding async work a runner holds. */
export interface PendingAsync {
  name: string;
  event: string;
  session_id: string;
  /** "running" or "finished" (finished, not yet delivered). */
  state: "running" | "finished";
  started_at: string;
}

export interface Runner {
  trigger(event: string, context?: HookContext, options?: TriggerOptions): Promise<TriggerResult>;
  on(event: "hook:start", fn: (e: HookStartEvent) => void): Runner;
  on(event: "hook:end", fn: (e: HookEndEvent) => void): Runner;
  off(event: RunnerEvent, fn: (...args: never[]) => void): Runner;
  /** Wait until every async hook has finished. */
  drain(): Promise<void>;
  /** Outstanding async hooks, for one session or all. */
  pending(sessionId?: string): PendingAsync[];
  /**
   * Background jobs of finished `dialect: claude` hooks still running (each hook's process group
   * and the time its timeout kills it, epoch ms). close() kills them; `hooks run` hands them to a
   * detached watchdog before it exits.
   */
  leftovers(): import("./spawnHook.js").Leftover[];
  /** Kill every running hook (sync and async, after a short grace for async) and refuse new triggers. */
  close(options?: CloseOptions): Promise<void>;
  /** Swap the config (hot reload); running hooks are not affected. */
  setConfig(config: import("../config/types.js").ResolvedConfig): void;
  readonly config: import("../config/types.js").ResolvedConfig;
}
