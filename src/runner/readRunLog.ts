import { statSync } from "node:fs";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { ensureStateDir } from "../state/stateDir.js";
import { runLogFile, type RunLogRecord } from "./runLog.js";

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
  for (const f of [file + ".1", file]) {
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
