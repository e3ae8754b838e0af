import { LOOP_EVENTS } from "../events/catalog.js";
import { dialectOf } from "../events/dialects.js";
import os from "node:os";
import path from "node:path";
import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { InterruptedError } from "../errors.js";
import type { GateKind } from "../events/catalog.js";
import { parseHookEvent } from "../events/parseHookEvent.js";
import { stateDir as defaultStateDir } from "../fs/stateDir.js";
import { graceOf } from "../fs/processes.js";
import { assertTrusted } from "../trust/store.js";
import { buildContext, sessionIdOf } from "./context.js";
import { applyLoopLimits, storedLoopCount } from "./loopLimit.js";
import { eventGate, orderHooks, runGroups, selectHooks } from "./select.js";
import { notRunResult, runHook } from "./runHook.js";
import { appendRunLog, runLogRecord, type RunLogExtras } from "./runLog.js";
import { checkContext } from "./context.js";
import type { Leftover, SpawnedHook } from "./spawnHook.js";
import { type AsyncBackend, MemoryAsyncBackend, asyncMessages, asyncRunLogRecord, type AsyncPhase } from "../async/backend.js";
import { DetachedAsyncBackend } from "../async/detachedBackend.js";
import { DEFAULT_ASYNC_CLOSE_GRACE_MS } from "../async/paths.js";
import type { AsyncDelivery, CloseOptions, HookContext, HookEndEvent, HookResult, HookStartEvent, PendingAsync, Runner, RunnerEvent, RunnerOptions, TriggerOptions, TriggerResult } from "./types.js";

/** Context field a transform event chains through its hooks (docs/configuration.md#events). */
const TRANSFORM_FIELD: Record<string, string> = { tool_transform: "tool_input", message_transform: "message" };

// One trigger in flight: what close() or an abort signal must cancel.
interface TriggerRun {
  cancelled: boolean;
  active: Set<SpawnedHook>;
}

type Listener = (e: never) => void;

/** A trigger's result before anything ran. */
function emptyResult(event: string, sessionId: string): TriggerResult {
  return {
    event,
    session_id: sessionId,
    duration_ms: 0,
    messages: [],
    blocked: false,
    blocked_by: null,
    reason: null,
    continue: true,
    stop_reason: null,
    stopped_by: null,
    updated_input: null,
    hooks: [],
    async_started: [],
    async_delivered: [],
    warnings: [],
  };
}

class HookRunner implements Runner {
  config!: ResolvedConfig;
  private byEvent = new Map<string, ResolvedHook[]>();
  private eventNames = new Map<string, string>();
  private customEvents: string[] = [];
  /** Read live for HOOKS / HOOKS_DISABLED / HOOKS_SESSION_ID. */
  private readonly env: NodeJS.ProcessEnv;
  /** Plain copy of the base environment of hooks: copying process.env per spawn is slow. */
  private readonly baseEnv: Record<string, string | undefined>;
  private readonly cwd: string;
  private readonly maxParallel: number;
  private readonly runLog: boolean;
  private readonly stateDir: string;
  private readonly runs = new Set<TriggerRun>();
  private readonly reapers = new Set<Promise<void>>();
  /** Spawned sync hooks until their group is gone: close() kills background jobs left running. */
  private readonly spawned = new Set<SpawnedHook>();
  private readonly listeners: Record<RunnerEvent, Set<Listener>> = { "hook:start": new Set(), "hook:end": new Set() };
  private closed = false;
  private readonly trust: "all" | "checked";
  // Set once the loaded config passed the trust check; a new config is checked again.
  private trusted = false;
  private readonly async: AsyncBackend;

  constructor(config: ResolvedConfig, options: RunnerOptions) {
    this.env = options.env ?? process.env;
    this.baseEnv = { ...this.env };
    this.cwd = path.resolve(options.cwd ?? process.cwd());
    this.maxParallel = Math.max(1, options.maxParallel ?? os.availableParallelism() * 2);
    this.runLog = options.runLog !== false;
    this.stateDir = options.stateDir ?? defaultStateDir(this.env);
    this.trust = options.trust ?? "checked";
    this.setConfig(config);
    this.async =
      options.asyncMode === "detached"
        ? new DetachedAsyncBackend({
            stateDir: this.stateDir,
            projectDir: config.projectDir,
            workerArgv: options.asyncWorker ?? [],
            env: this.baseEnv,
            cwd: this.cwd,
            runLog: this.runLog ? this.stateDir : null,
          })
        : new MemoryAsyncBackend();
  }

  setConfig(config: ResolvedConfig): void {
    this.config = config;
    this.trusted = false;
    this.byEvent = new Map();
    for (const hook of config.hooks) {
      const list = this.byEvent.get(hook.event);
      if (list) list.push(hook);
      else this.byEvent.set(hook.event, [hook]);
    }
    this.customEvents = Object.keys(config.events).filter((e) => config.events[e].custom);
    this.eventNames = new Map();
  }

  on(event: "hook:start", fn: (e: HookStartEvent) => void): Runner;
  on(event: "hook:end", fn: (e: HookEndEvent) => void): Runner;
  on(event: RunnerEvent, fn: Listener): Runner {
    this.listeners[event].add(fn);
    return this;
  }

  off(event: RunnerEvent, fn: (...args: never[]) => void): Runner {
    this.listeners[event].delete(fn as Listener);
    return this;
  }

  private emit(event: RunnerEvent, payload: HookStartEvent | HookEndEvent): void {
    for (const fn of this.listeners[event]) (fn as (e: typeof payload) => void)(payload);
  }

  // Canonical name of an event in any accepted spelling; cached so the no-match path stays cheap.
  private canonical(input: string): string {
    let name = this.eventNames.get(input);
    if (name === undefined) {
      name = parseHookEvent(input, this.customEvents);
      this.eventNames.set(input, name);
    }
    return name;
  }

  async trigger(eventInput: string, context: HookContext = {}, options: TriggerOptions = {}): Promise<TriggerResult> {
    if (this.closed) throw new InterruptedError("the runner is closed; create a new one to fire more events");
    const started = Date.now();
    const event = this.canonical(eventInput);
    checkContext(context, `of \`${event}\``);
    const result = emptyResult(event, sessionIdOf(context, this.env));
    const selected = this.select(event, context, options);
    // Finished async results of this session come first, whatever hooks this event has (taken
    // after the trust check, so a refused run cannot swallow them).
    // A rewake entry's run (the host's background process) leaves them to the session's next event.
    if (options.rewake !== "foreground") this.takeAsync(result);
    if (selected.length === 0) return this.finishEarly(result, started, this.logExtras(context, options), options.log?.always === true);
    // Built only once something will run: a matcher miss stays on the no-match fast path.
    const base = buildContext(event, context, this.cwd, this.env);
    // The one place async hooks leave the sync path: all start at once, before the sync hooks.
    const sync: ResolvedHook[] = [];
    const background: ResolvedHook[] = [];
    for (const hook of selected) (hook.async && options.rewake !== "foreground" ? background : sync).push(hook);
    const waited = background.length > 0 ? this.startAsync(result, background, context, base, options) : null;
    if (sync.length === 0) {
      if (waited) this.deliverWaited(result, await waited);
      return this.finishEarly(result, started, this.logExtras(context, options));
    }
    result.hooks = await this.runCancellable(sync, event, base, options.signal);
    if (waited) this.deliverWaited(result, await waited);
    applyLoopLimits(result, sync, this.stateDir, this.config.projectDir);
    this.collect(result);
    result.duration_ms = Date.now() - started;
    if (this.runLog) {
      try {
        appendRunLog(this.stateDir, runLogRecord(result, this.config.projectDir, started, this.logExtras(context, options)));
      } catch (error) {
        result.warnings.push(`run log not written: ${(error as Error).message}`);
      }
    }
    return result;
  }

  /** The event's hooks that run for this context, in order; the config's trust checked once something would run. */
  private select(event: string, context: HookContext, options: TriggerOptions): ResolvedHook[] {
    const candidates = this.byEvent.get(event);
    const rewake = options.rewake;
    const pool = rewake && candidates ? candidates.filter((h) => (h.rewake === true) === (rewake === "foreground")) : candidates;
    const selected = pool ? orderHooks(selectHooks(pool, event, context, this.config, { env: this.env, cwd: this.cwd, only: options.only, skip: options.skip })) : [];
    // Only when something would run: untrusted project/local config never spawns (docs/trust.md).
    if (selected.length > 0 && !this.trusted && this.trust !== "all") {
      assertTrusted(this.config, { env: this.env, stateDir: this.stateDir });
      this.trusted = true;
    }
    return selected;
  }

  /** The session's finished async results into `result` (and the run log), with the expired ones logged. */
  private takeAsync(result: TriggerResult): void {
    const taken = this.async.take(result.session_id);
    if (taken.delivered.length > 0) {
      result.async_delivered = taken.delivered;
      for (const d of taken.delivered) this.logAsync(d, "delivered");
    }
    for (const e of taken.expired) this.logAsync(e, "expired");
    if (taken.warnings.length > 0) result.warnings.push(...taken.warnings);
  }

  /** Start the async hooks; with `options.wait`, what resolves to their results (else null). */
  private startAsync(result: TriggerResult, hooks: ResolvedHook[], context: HookContext, base: Record<string, unknown>, options: TriggerOptions): Promise<AsyncDelivery[]> | null {
    const event = result.event;
    const gate = eventGate(event, this.config);
    const startedAsync = this.async.start({
      event,
      gate,
      sessionId: result.session_id,
      hooks,
      context,
      wait: options.wait === true,
      // Called only for hooks run in this process: detached workers report nothing back live.
      run: (hook, signal) => {
        this.emit("hook:start", { event, session_id: result.session_id, name: hook.name, async: true });
        return runHook(hook, base, { env: this.baseEnv, projectDir: this.config.projectDir, gate, signal, onSpawn: (s) => this.track(s) });
      },
      onFinish: (d) => {
        this.emit("hook:end", { event, session_id: d.session_id, name: d.name, async: true, result: d });
        this.logAsync(d, "finished");
      },
    });
    result.async_started = startedAsync.names;
    if (startedAsync.warnings.length > 0) result.warnings.push(...startedAsync.warnings);
    return options.wait ? startedAsync.waited : null;
  }

  /** The sync hooks, as one run that close() or `signal` cancels. */
  private async runCancellable(sync: ResolvedHook[], event: string, base: Record<string, unknown>, signal: AbortSignal | undefined): Promise<HookResult[]> {
    const run: TriggerRun = { cancelled: false, active: new Set() };
    this.runs.add(run);
    const onAbort = (): void => this.cancelRun(run, graceOf(signal));
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      return await this.runSync(sync, event, base, run);
    } finally {
      this.runs.delete(run);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  // Run sync hooks in order (or by equal-priority groups on a parallel event); stop on a block or stop_propagation.
  private async runSync(hooks: ResolvedHook[], event: string, base: Record<string, unknown>, run: TriggerRun): Promise<HookResult[]> {
    const gate = eventGate(event, this.config);
    const parallel = gate !== "transform" && this.config.events[event]?.parallel === true;
    const transformField = gate === "transform" ? TRANSFORM_FIELD[event] : undefined;
    const results: HookResult[] = [];
    let stopped = false;
    for (const group of runGroups(hooks, parallel, gate)) {
      if (stopped || run.cancelled) {
        for (const h of group) results.push(notRunResult(h.name, run.cancelled ? "cancelled" : "skipped", run.cancelled ? "cancelled: the runner was closed" : null));
        continue;
      }
      const groupResults = group.length === 1 ? [await this.runOne(group[0], base, gate, run)] : await this.runGroup(group, base, gate, run);
      for (const r of groupResults) {
        results.push(r);
        // decision "block" survives only on a gate event (a block, or a failure under on_failure: block).
        // A hook of a dialect whose host runs every hook of the event (agent-code) leaves later hooks running after its block.
        if ((r.decision === "block" && dialectOf(r.dialect).runsAll !== true) || r.stop_propagation) stopped = true;
        if (transformField && r.updated_input !== undefined) base = { ...base, [transformField]: r.updated_input };
      }
    }
    return results;
  }

  // A parallel group: at most maxParallel at once, results in declaration order.
  private async runGroup(group: ResolvedHook[], base: Record<string, unknown>, gate: GateKind, run: TriggerRun): Promise<HookResult[]> {
    const results: HookResult[] = new Array(group.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < group.length) {
        const k = next++;
        results[k] = run.cancelled ? notRunResult(group[k].name, "cancelled", "cancelled: the runner was closed") : await this.runOne(group[k], base, gate, run);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.maxParallel, group.length) }, worker));
    return results;
  }

  private async runOne(hook: ResolvedHook, given: Record<string, unknown>, gate: GateKind, run: TriggerRun): Promise<HookResult> {
    const session_id = given.session_id as string;
    const base = this.withLoopCount(hook, given);
    this.emit("hook:start", { event: hook.event, session_id, name: hook.name, async: false });
    let spawned: SpawnedHook | undefined;
    const result = await runHook(hook, base, {
      env: this.baseEnv,
      projectDir: this.config.projectDir,
      gate,
      onSpawn: (s) => {
        spawned = s;
        run.active.add(s);
        this.track(s);
      },
    });
    if (spawned) run.active.delete(spawned);
    this.emit("hook:end", { event: hook.event, session_id, name: hook.name, async: false, result });
    return result;
  }

  // Until its group is gone: drain() waits for it, close() kills what a finished hook left running.
  private track(s: SpawnedHook): void {
    const reaped = s.reaped;
    this.reapers.add(reaped);
    this.spawned.add(s);
    void reaped.then(() => {
      this.reapers.delete(reaped);
      this.spawned.delete(s);
    });
  }

  /** A cursor-dialect stop hook fired by another host gets its own stored count as Cursor's `loop_count` (Cursor's payload carries its own). */
  private withLoopCount(hook: ResolvedHook, base: Record<string, unknown>): Record<string, unknown> {
    if (hook.dialect !== "cursor" || !LOOP_EVENTS.has(hook.event) || base.loop_count !== undefined) return base;
    const host = base.host as { name?: unknown } | undefined;
    if (host && typeof host === "object" && host.name === "cursor") return base;
    return { ...base, loop_count: storedLoopCount(this.stateDir, this.config.projectDir, base.session_id as string, hook) };
  }

  // Fill the trigger-level fields from the hook results (docs/running-hooks.md#the-result).
  private collect(result: TriggerResult): void {
    result.messages = asyncMessages(result.async_delivered);
    for (const r of result.hooks) {
      for (const m of r.messages) result.messages.push(m);
      if (!result.blocked && r.decision === "block") {
        result.blocked = true;
        result.blocked_by = r.name;
        result.reason = r.reason ?? null;
      } else if (r.decision === "block" && r.reason && result.reason && joinsReasons(result, r)) result.reason = `${result.reason}\n\n${r.reason}`;
      if (r.continue === false && result.continue) {
        result.continue = false;
        result.stop_reason = r.stop_reason ?? null;
        result.stopped_by = r.name;
      }
      if (r.updated_input !== undefined) result.updated_input = r.updated_input;
    }
  }

  private cancelRun(run: TriggerRun, graceMs?: number): void {
    run.cancelled = true;
    for (const s of run.active) s.cancel(graceMs);
  }

  async drain(): Promise<void> {
    await this.async.drain();
    await Promise.all([...this.reapers]);
  }

  pending(sessionId?: string): PendingAsync[] {
    return this.async.pending(sessionId);
  }

  leftovers(): Leftover[] {
    return [...this.spawned].map((s) => s.leftover()).filter((l): l is Leftover => l !== null);
  }

  // Async hooks waited for in their own trigger are delivered by it (`wait`, CLI --wait / CI).
  private deliverWaited(result: TriggerResult, waited: AsyncDelivery[]): void {
    result.async_delivered = [...result.async_delivered, ...waited];
    for (const d of waited) this.logAsync(d, "delivered");
  }

  // A trigger that ran no sync hook: async deliveries still get their messages and a run-log line.
  private finishEarly(result: TriggerResult, started: number, extras: RunLogExtras, always = false): TriggerResult {
    result.messages = asyncMessages(result.async_delivered);
    result.duration_ms = Date.now() - started;
    if (this.runLog && (always || result.async_started.length > 0 || result.async_delivered.length > 0)) {
      try {
        appendRunLog(this.stateDir, runLogRecord(result, this.config.projectDir, started, extras));
      } catch (error) {
        result.warnings.push(`run log not written: ${(error as Error).message}`);
      }
    }
    return result;
  }

  /**
   * The host and, when recording is on, what to record: the host's payload, else the context as
   * the trigger got it. The trigger's `log.record` wins, then $HOOKS_LOG_CONTEXT, then the
   * config's `log.context`: contexts hold prompts, file contents and commands, so it is opt-in.
   */
  private logExtras(context: HookContext, options: TriggerOptions): RunLogExtras {
    const log = options.log ?? {};
    const fromEnv = this.env.HOOKS_LOG_CONTEXT;
    const record = log.record ?? (fromEnv === "1" ? true : fromEnv === "0" ? false : this.config.log?.context === true);
    const host = log.host !== undefined ? { host: log.host } : {};
    if (!record) return host;
    if (log.host === undefined || log.payload === undefined) return { ...host, context };
    return { ...host, context: log.payload, ...(log.env && Object.keys(log.env).length > 0 ? { env: { ...log.env } } : {}) };
  }

  // One run-log line per async run finishing, being delivered, or expiring (docs/cli.md#hooks-log).
  private logAsync(d: Parameters<typeof asyncRunLogRecord>[0], phase: AsyncPhase): void {
    if (!this.runLog) return;
    try {
      appendRunLog(this.stateDir, asyncRunLogRecord(d, this.config.projectDir, phase));
    } catch {
      // informational only: a result is delivered whether or not it was logged
    }
  }

  async close(options: CloseOptions = {}): Promise<void> {
    const asyncClosed = this.async.close(options.graceMs ?? DEFAULT_ASYNC_CLOSE_GRACE_MS);
    this.closed = true;
    const outcomes: Promise<unknown>[] = [];
    for (const run of this.runs) {
      for (const s of run.active) outcomes.push(s.outcome);
      this.cancelRun(run);
    }
    // Handed on (keepBackground) or killed: either way nothing below waits for a background job.
    for (const s of this.spawned) if (s.leftover()) options.keepBackground ? s.release() : s.cancel();
    await Promise.all(outcomes);
    await asyncClosed;
    await Promise.all([...this.reapers]);
  }
}

/** Create a runner for a resolved config (docs/running-hooks.md#from-a-program-library). */
export function createRunner(config: ResolvedConfig, options: RunnerOptions = {}): Runner {
  return new HookRunner(config, options);
}

/**
 * Whether hook result `r`'s block reason joins the run's: on a stop, when it and the first block
 * are both of a dialect whose host gives the model every Stop hook's reason, joined by a blank line (Codex).
 */
function joinsReasons(result: TriggerResult, r: HookResult): boolean {
  if (result.event !== "stop" && result.event !== "subagent_stop") return false;
  const first = result.hooks.find((h) => h.name === result.blocked_by);
  return dialectOf(r.dialect).joinsStopReasons === true && dialectOf(first?.dialect).joinsStopReasons === true;
}
