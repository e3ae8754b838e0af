import { appendFileSync, chmodSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import type { TriggerResult } from "./types.js";
import { isoTime } from "../time/isoTime.js";
import { ensureStateDir } from "../state/stateDir.js";

/** Rotate runs.jsonl at this size, keeping one old file (SPEC §10). */
export const RUN_LOG_MAX_BYTES = 10 * 1024 * 1024;

/** One line of the run log: what ran, not what it printed. */
export interface RunLogRecord {
  time: string;
  project_dir: string;
  event: string;
  session_id: string;
  duration_ms: number;
  blocked: boolean;
  hooks: { name: string; status: string; exit_code: number | null; duration_ms: number }[];
  /** Async hooks this trigger started (their own lines follow when they finish and are delivered). */
  async_started?: string[];
  /** On an async run's own lines: it finished, its result was delivered, or it expired undelivered. */
  async?: "finished" | "delivered" | "expired";
  /** On async lines: when the run started (with name and session, it identifies the run). */
  started_at?: string;
}

export function runLogFile(stateDir: string): string {
  return path.join(stateDir, "runs.jsonl");
}

export function runLogRecord(result: TriggerResult, projectDir: string, startedMs: number): RunLogRecord {
  return {
    time: isoTime(startedMs),
    project_dir: projectDir,
    event: result.event,
    session_id: result.session_id,
    duration_ms: result.duration_ms,
    blocked: result.blocked,
    hooks: result.hooks.map((h) => ({ name: h.name, status: h.status, exit_code: h.exit_code, duration_ms: h.duration_ms })),
    ...(result.async_started.length > 0 ? { async_started: result.async_started } : {}),
  };
}

/**
 * Append one record, rotating first when the file has reached the limit. The log is private
 * (0600; one made 0644 by an older hookrun is tightened), in a private state dir. Throws on I/O
 * errors and on a state dir hookrun refuses (StateDirError).
 */
export function appendRunLog(stateDir: string, record: RunLogRecord, maxBytes = RUN_LOG_MAX_BYTES): void {
  ensureStateDir(stateDir);
  const file = runLogFile(stateDir);
  const line = JSON.stringify(record) + "\n";
  let size = -1;
  try {
    const st = statSync(file);
    size = st.size;
    if (st.mode & 0o077) chmodSync(file, 0o600);
  } catch {
    // no log yet
  }
  if (size >= 0 && size + line.length > maxBytes) renameSync(file, file + ".1");
  appendFileSync(file, line, { mode: 0o600 });
}
