import { appendFileSync, chmodSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import type { TriggerResult } from "./types.js";
import { isoTime } from "../text.js";
import { ensureStateDir } from "../fs/stateDir.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";

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
  const line = `${JSON.stringify(record)}\n`;
  let size = -1;
  try {
    const st = statSync(file);
    size = st.size;
    if (st.mode & 0o077) chmodSync(file, 0o600);
  } catch {
    // no log yet
  }
  if (size >= 0 && size + line.length > maxBytes) renameSync(file, `${file}.1`);
  appendFileSync(file, line, { mode: 0o600 });
}

/** What the run log holds: its records, oldest first, and how many lines were not records. */
export interface RunLogContents {
  records: RunLogRecord[];
  /** Lines skipped: cut by a crash, not JSON, or not the shape of a record. */
  skipped: number;
}

/**
 * Every record of the run log, oldest first (the rotated file, then the current one). Only each
 * file's last READ_LIMITS.state bytes are read (the log rotates at 10 MiB, so that is all of a
 * healthy one); a line cut at that edge is dropped. The log is read back from disk, so every
 * line is checked for the shape `hooks log` prints, and skipped (counted) when it is not one.
 * Throws a StateDirError for a state dir hookrun refuses.
 */
export function readRunLog(stateDir: string): RunLogContents {
  ensureStateDir(stateDir, { create: false });
  const file = runLogFile(stateDir);
  const out: RunLogContents = { records: [], skipped: 0 };
  for (const f of [`${file}.1`, file]) {
    let text: string;
    let cut = false;
    try {
      cut = statSync(f).size > READ_LIMITS.state;
      text = readBoundedText(f, READ_LIMITS.state, { what: "run log", tail: true });
    } catch {
      continue;
    }
    const lines = text.split("\n");
    if (cut) lines.shift();
    for (const line of lines) {
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        out.skipped++;
        continue;
      }
      if (isRunLogRecord(value)) out.records.push(value);
      else out.skipped++;
    }
  }
  return out;
}

const PHASES = new Set(["finished", "delivered", "expired"]);

function isRunLogRecord(value: unknown): value is RunLogRecord {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  for (const key of ["time", "project_dir", "event", "session_id"]) if (typeof r[key] !== "string") return false;
  if (typeof r.duration_ms !== "number" || typeof r.blocked !== "boolean" || !Array.isArray(r.hooks)) return false;
  for (const h of r.hooks as unknown[]) {
    const hook = h as Record<string, unknown> | null;
    if (!hook || typeof hook !== "object" || typeof hook.name !== "string" || typeof hook.status !== "string") return false;
    if (hook.exit_code !== null && typeof hook.exit_code !== "number") return false;
    if (typeof hook.duration_ms !== "number") return false;
  }
  if (r.async_started !== undefined && (!Array.isArray(r.async_started) || r.async_started.some((n) => typeof n !== "string"))) return false;
  if (r.async !== undefined && (typeof r.async !== "string" || !PHASES.has(r.async))) return false;
  if (r.started_at !== undefined && typeof r.started_at !== "string") return false;
  return true;
}
