import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import type { HookContext } from "../runner/types.js";

/**
 * The "started" record of one detached async run, written before its worker is spawned; it is
 * also the worker's job (what to run). The worker fills in its pid and the hook's pid (= its
 * process group) and deletes the record once the result is written. The environment is not
 * stored (it may hold secrets): the worker inherits it from the process that spawns it.
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
  worker_pid: number | null;
  /** pid of the hook's process, which leads its process group. */
  hook_pid: number | null;
  hook: ResolvedHook;
  /** The context of the trigger, as the runner received it. */
  context: HookContext;
  /** Working directory of the trigger's caller. */
  cwd: string;
  /** State dir whose run log the worker appends its record to (null: no run log). */
  run_log: string | null;
}
