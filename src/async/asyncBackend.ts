import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import type { AsyncDelivery, HookContext, HookResult, PendingAsync } from "../runner/types.js";

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
