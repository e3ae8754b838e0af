import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import type { HookContext } from "../runner/types.js";
import type { ProcessIdentity } from "../fs/processes.js";

/**
 * The "started" record of one detached async run, written once, before its worker is spawned:
 * the worker's job (what to run) and the run's claim token. Whoever renames it away first owns
 * the run's outcome: the worker when it publishes its result, or a collector that declares the
 * worker lost (SPEC §7: delivered exactly once). So nobody rewrites it in place; what the
 * worker learns while running (its pid, the hook's pid) goes to the run's worker record. The
 * environment is not stored (it may hold secrets): the worker inherits it from its spawner.
 */
export interface AsyncJob {
  version: 1;
  id: string;
  name: string;
  event: string;
  /** Gate kind of the event (exit 2 means a block request only on a gate event). */
  gate: GateKind;
  session_id: string;
  project_dir: string;
  started_at: string;
  timeout_ms: number;
  hook: ResolvedHook;
  /** The context of the trigger, as the runner received it. */
  context: HookContext;
  /** Working directory of the trigger's caller. */
  cwd: string;
  /** State dir whose run log the worker appends its record to (null: no run log). */
  run_log: string | null;
}

/**
 * `<id>.worker.json`, written by the worker: who it is, and who the hook's process group leader
 * is once spawned. Identities (pid + start time + boot id), not bare pids: a collector signals
 * the hook's group only if it provably is still that group (processIdentity.ts).
 */
export interface AsyncWorkerRecord {
  version: 1;
  worker: ProcessIdentity;
  hook: ProcessIdentity | null;
}
