import type { AsyncDelivery } from "../runner/types.js";
import type { RunLogRecord } from "../runner/runLog.js";
import { isoTime } from "../text.js";

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
