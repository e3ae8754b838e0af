import { failedResult } from "../runner/runHook.js";
import type { ResolvedHook } from "../config/types.js";
import type { AsyncDelivery, PendingAsync, HookContext, HookResult, Message } from "../runner/types.js";
import { ASYNC_EXPIRY_MS } from "./paths.js";
import { isoTime } from "../text.js";
import type { GateKind } from "../events/catalog.js";
import type { RunLogRecord } from "../runner/runLog.js";

interface Running {
  name: string;
  event: string;
  session_id: string;
  started_at: string;
  /** Start order in this backend: results are delivered in it, whatever order they finish in. */
  seq: number;
  controller: AbortController;
  done: Promise<AsyncDelivery>;
}

const NOTHING: AsyncTake = Object.freeze({ delivered: [], expired: [], warnings: [] }) as AsyncTake;

/**
 * The library's async hooks: they run in this process (with the runner's spawn code, so the same
 * process-group kill on timeout), and finished results wait in memory, per session, until the
 * next trigger of that session takes them.
 */
export class MemoryAsyncBackend implements AsyncBackend {
  private readonly running = new Set<Running>();
  private readonly finished = new Map<string, AsyncDelivery[]>();
  /** Each queued result's start order (Running.seq), to queue it where it started, not where it finished. */
  private readonly order = new WeakMap<AsyncDelivery, number>();
  private started = 0;
  /** Finish time of the oldest queued result, so expiry costs nothing until one can be due. */
  private oldest = Infinity;

  take(sessionId: string): AsyncTake {
    if (this.finished.size === 0) return NOTHING;
    const expired = Date.now() - this.oldest > ASYNC_EXPIRY_MS ? this.expire() : [];
    const delivered = this.finished.get(sessionId);
    if (!delivered && expired.length === 0) return NOTHING;
    this.finished.delete(sessionId);
    const warnings = expired
      .filter((d) => d.session_id === sessionId)
      .map((d) => `async hook "${d.name}" (${d.event}, started ${d.started_at}) expired: its result was not delivered within 24 h and was dropped`);
    return { delivered: delivered ?? [], expired, warnings };
  }

  // Results of sessions that never trigger again must not pile up in a long-lived process.
  private expire(): AsyncDelivery[] {
    const now = Date.now();
    const out: AsyncDelivery[] = [];
    this.oldest = Infinity;
    for (const [session, list] of this.finished) {
      const keep = list.filter((d) => now - Date.parse(d.finished_at) <= ASYNC_EXPIRY_MS);
      for (const d of list) if (!keep.includes(d)) out.push(d);
      for (const d of keep) this.oldest = Math.min(this.oldest, Date.parse(d.finished_at));
      if (keep.length === 0) this.finished.delete(session);
      else this.finished.set(session, keep);
    }
    return out;
  }

  start(start: AsyncStart): AsyncStarted {
    const runs = start.hooks.map((hook) => this.startOne(hook, start));
    const waited = start.wait ? Promise.all(runs.map((r) => r.done)) : Promise.resolve([]);
    return { names: start.hooks.map((h) => h.name), waited, warnings: [] };
  }

  private startOne(hook: ResolvedHook, start: AsyncStart): Running {
    const controller = new AbortController();
    const started = Date.now();
    const entry: Running = {
      name: hook.name,
      event: start.event,
      session_id: start.sessionId,
      started_at: isoTime(started),
      seq: this.started++,
      controller,
      done: undefined as unknown as Promise<AsyncDelivery>,
    };
    entry.done = runToDelivery(start.run, hook, controller.signal, entry).then((delivery) => {
      this.running.delete(entry);
      if (!start.wait) {
        // Delivered in start order (as the CLI's records are): the order the triggers happened.
        this.order.set(delivery, entry.seq);
        const queue = this.finished.get(entry.session_id);
        if (queue) {
          let at = queue.length;
          while (at > 0 && (this.order.get(queue[at - 1]) ?? 0) > entry.seq) at--;
          queue.splice(at, 0, delivery);
        } else this.finished.set(entry.session_id, [delivery]);
        this.oldest = Math.min(this.oldest, Date.parse(delivery.finished_at));
      }
      start.onFinish?.(delivery);
      return delivery;
    });
    this.running.add(entry);
    return entry;
  }

  pending(sessionId?: string): PendingAsync[] {
    const out: PendingAsync[] = [];
    for (const r of this.running) {
      if (sessionId === undefined || r.session_id === sessionId) out.push({ name: r.name, event: r.event, session_id: r.session_id, state: "running", started_at: r.started_at });
    }
    for (const [session, list] of this.finished) {
      if (sessionId !== undefined && session !== sessionId) continue;
      for (const d of list) out.push({ name: d.name, event: d.event, session_id: d.session_id, state: "finished", started_at: d.started_at });
    }
    return out;
  }

  // Loop: a hook's completion may come with new triggers starting more.
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running].map((r) => r.done));
  }

  async close(graceMs: number): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.drain(), grace]);
    clearTimeout(timer);
    for (const r of this.running) r.controller.abort();
    await this.drain();
  }
}

// Whatever happens, a run ends as a delivery (a thrown error becomes a failed result).
async function runToDelivery(run: RunAsyncHook, hook: ResolvedHook, signal: AbortSignal, entry: Running): Promise<AsyncDelivery> {
  const started = Date.parse(entry.started_at);
  let result: ReturnType<typeof neutralizeAsyncResult>;
  try {
    result = neutralizeAsyncResult(await run(hook, signal), hook.rewake === true);
  } catch (error) {
    result = failedResult(hook.name, (error as Error).message, Date.now() - started);
  }
  return { ...result, event: entry.event, session_id: entry.session_id, started_at: entry.started_at, finished_at: isoTime() };
}

/** Runs one hook to completion with the runner's spawn code; aborting the signal kills it. */
export type RunAsyncHook = (hook: ResolvedHook, signal: AbortSignal) => Promise<HookResult>;

/** What the runner tells the backend about the async hooks one trigger starts. */
export interface AsyncStart {
  event: string;
  gate: GateKind;
  sessionId: string;
  hooks: ResolvedHook[];
  /** The trigger's context (after defaults), for workers in other processes. */
  context: HookContext;
  /** In-process execution of one hook (library, and every `wait`). */
  run: RunAsyncHook;
  /** Wait for these in the same trigger (not queued for the session). */
  wait: boolean;
  /** Called once per hook when it finishes (progress events, run log). */
  onFinish?: (delivery: AsyncDelivery) => void;
}

/** Finished results handed to a trigger, and problems met while collecting them. */
export interface AsyncTake {
  delivered: AsyncDelivery[];
  /** Results dropped undelivered because they were older than 24 h. */
  expired: Array<{ name: string; event: string; session_id: string; started_at: string }>;
  warnings: string[];
}

export interface AsyncStarted {
  names: string[];
  waited: Promise<AsyncDelivery[]>;
  warnings: string[];
}

/** Where async hooks run and where their results wait: in memory (library) or detached (CLI). */
export interface AsyncBackend {
  /** Claim the finished results of a session (each is returned exactly once). */
  take(sessionId: string): AsyncTake;
  /**
   * Start the hooks: `names` of those started, `waited` resolves (when `wait` was set) to their
   * deliveries, else at once to []; `warnings` say why a hook could not be started.
   */
  start(start: AsyncStart): AsyncStarted;
  pending(sessionId?: string): PendingAsync[];
  drain(): Promise<void>;
  close(graceMs: number): Promise<void>;
}

/**
 * Async hooks never block, stop or transform (docs/running-hooks.md#which-hooks-run-and-in-what-order): strip those effects from a finished
 * async result, keeping a warning on the result for each one ignored. A `rewake` hook's block is
 * not dropped: its reason becomes context for the model, delivered with the result
 * (docs/async.md#rewake).
 */
export function neutralizeAsyncResult(result: HookResult, rewake = false): HookResult {
  const out: HookResult = { ...result, warnings: [...result.warnings] };
  if (out.decision === "block" || out.status === "blocked") {
    if (rewake && out.reason) out.messages = [...out.messages, { role: "system", content: out.reason, hook: out.name }];
    else out.warnings.push(`async hooks cannot block: the block decision${out.reason ? ` ("${out.reason}")` : ""} was ignored`);
    out.decision = null;
    if (out.status === "blocked") out.status = "ok";
  }
  if (out.stop_propagation) {
    out.warnings.push("async hooks cannot stop propagation: stop_propagation was ignored");
    delete out.stop_propagation;
  }
  if (out.continue === false) {
    out.warnings.push("async hooks cannot stop the agent: continue=false was ignored");
    delete out.continue;
    delete out.stop_reason;
  }
  if (out.updated_input !== undefined && out.updated_input !== null) {
    out.warnings.push("async hooks cannot transform input: updated_input was ignored");
    delete out.updated_input;
  }
  // Delivered later, feedback on a tool call or a follow-up that would keep a stop going is plain
  // context; a notice stays for the user only.
  if (out.messages.some((m) => m.kind === "feedback" || m.kind === "followup")) {
    out.messages = out.messages.map(({ kind, ...m }) => (kind === "notice" ? { ...m, kind } : m));
  }
  return out;
}

/** The top-level messages of delivered async results: each tagged with its hook and `async: true`. */
export function asyncMessages(delivered: AsyncDelivery[]): Message[] {
  if (delivered.length === 0) return [];
  return delivered.flatMap((d) => d.messages.map((m) => ({ ...m, hook: d.name, async: true })));
}

/** What happened to an async run, as a run-log line: it finished, was delivered, or expired. */
export type AsyncPhase = "finished" | "delivered" | "expired";

/** A run-log line for one async run, in the shape of a trigger's line plus `async`. */
export function asyncRunLogRecord(d: Pick<AsyncDelivery, "name" | "event" | "session_id" | "started_at"> & Partial<AsyncDelivery>, projectDir: string, phase: AsyncPhase): RunLogRecord {
  return {
    time: isoTime(),
    project_dir: projectDir,
    event: d.event,
    session_id: d.session_id,
    duration_ms: d.duration_ms ?? 0,
    blocked: false,
    hooks: [{ name: d.name, status: d.status ?? "expired", exit_code: d.exit_code ?? null, duration_ms: d.duration_ms ?? 0 }],
    async: phase,
    started_at: d.started_at,
  };
}
