import type { ResolvedHook } from "../config/types.js";
import type { AsyncDelivery, PendingAsync } from "../runner/types.js";
import type { AsyncBackend, AsyncStart, AsyncTake, RunAsyncHook } from "./asyncBackend.js";
import { neutralizeAsyncResult } from "./neutralizeAsyncResult.js";

interface Running {
  name: string;
  event: string;
  session_id: string;
  started_at: string;
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

  take(sessionId: string): AsyncTake {
    if (this.finished.size === 0) return NOTHING;
    const delivered = this.finished.get(sessionId);
    if (!delivered) return NOTHING;
    this.finished.delete(sessionId);
    return { delivered, expired: [], warnings: [] };
  }

  start(start: AsyncStart): { names: string[]; waited: Promise<AsyncDelivery[]> } {
    const runs = start.hooks.map((hook) => this.startOne(hook, start));
    const waited = start.wait ? Promise.all(runs.map((r) => r.done)) : Promise.resolve([]);
    return { names: start.hooks.map((h) => h.name), waited };
  }

  private startOne(hook: ResolvedHook, start: AsyncStart): Running {
    const controller = new AbortController();
    const started = Date.now();
    const entry: Running = {
      name: hook.name,
      event: start.event,
      session_id: start.sessionId,
      started_at: new Date(started).toISOString(),
      controller,
      done: undefined as unknown as Promise<AsyncDelivery>,
    };
    entry.done = runToDelivery(start.run, hook, controller.signal, entry).then((delivery) => {
      this.running.delete(entry);
      if (!start.wait) {
        const queue = this.finished.get(entry.session_id);
        if (queue) queue.push(delivery);
        else this.finished.set(entry.session_id, [delivery]);
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
  let result;
  try {
    result = neutralizeAsyncResult(await run(hook, signal));
  } catch (error) {
    result = {
      name: hook.name, status: "failed" as const, exit_code: null, signal: null, duration_ms: Date.now() - started,
      stdout: "", stderr: "", truncated: false, messages: [], decision: null, error: (error as Error).message, warnings: [],
    };
  }
  return { ...result, event: entry.event, session_id: entry.session_id, started_at: entry.started_at, finished_at: new Date().toISOString() };
}
