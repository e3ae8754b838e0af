import path from "node:path";
import type { AsyncJob, AsyncWorkerRecord } from "./asyncJob.js";
import { asyncFileName } from "./asyncFiles.js";
import { writeJsonAtomic } from "../fs/writeFileAtomic.js";
import { parseIdentity } from "../fs/processes.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";

/** Record that an async run started (atomically); returns the record's path, the worker's job. */
export function writeAsyncJob(dir: string, job: AsyncJob): string {
  const file = path.join(dir, asyncFileName(job.id, "started"));
  writeJsonAtomic(file, job);
  return file;
}

const GATES = new Set(["yes", "no", "transform"]);

/**
 * Read a started record (at most READ_LIMITS.state bytes, regular files only) and check its
 * shape: it is read from disk, so hostile until proved otherwise. Throws on a missing (ENOENT
 * in the error's `reason`/`code`), oversized or malformed file.
 */
export function readAsyncJob(file: string): AsyncJob {
  const job = JSON.parse(readBoundedText(file, READ_LIMITS.state, { what: "async run record" })) as unknown;
  const problem = jobProblem(job);
  if (problem) throw new Error(`not an async job record (${problem})`);
  return job as AsyncJob;
}

function jobProblem(value: unknown): string | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "not a JSON object";
  const v = value as Record<string, unknown>;
  for (const key of ["id", "name", "event", "session_id", "project_dir", "started_at", "cwd"]) {
    if (typeof v[key] !== "string") return `field "${key}" is missing or not a string`;
  }
  if (typeof v.gate !== "string" || !GATES.has(v.gate)) return `field "gate" is not one of yes, no, transform`;
  if (typeof v.timeout_ms !== "number" || !Number.isFinite(v.timeout_ms) || v.timeout_ms < 0) return `field "timeout_ms" is not a duration`;
  if (v.run_log !== null && typeof v.run_log !== "string") return `field "run_log" is not a string or null`;
  const hook = v.hook as Record<string, unknown> | null;
  if (!hook || typeof hook !== "object" || Array.isArray(hook) || typeof hook.name !== "string") return `field "hook" is not a hook`;
  if (!v.context || typeof v.context !== "object" || Array.isArray(v.context)) return `field "context" is not an object`;
  return null;
}

/** Write (or replace) the run's worker record. */
export function writeWorkerRecord(dir: string, id: string, record: AsyncWorkerRecord): void {
  writeJsonAtomic(path.join(dir, asyncFileName(id, "worker")), record);
}

/**
 * The run's worker record, or null when there is none yet; throws on an unreadable or malformed
 * one (identities that fail their shape check are never used to signal anything).
 */
export function readWorkerRecord(dir: string, id: string): AsyncWorkerRecord | null {
  const file = path.join(dir, asyncFileName(id, "worker"));
  let text: string;
  try {
    text = readBoundedText(file, READ_LIMITS.state, { what: "async worker record" });
  } catch (error) {
    if ((error as { reason?: string }).reason === "ENOENT") return null;
    throw error;
  }
  const value = JSON.parse(text) as Record<string, unknown> | null;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not an async worker record (not a JSON object)");
  const worker = parseIdentity(value.worker);
  if (!worker) throw new Error(`not an async worker record (field "worker" is not a process identity)`);
  const hook = value.hook === null || value.hook === undefined ? null : parseIdentity(value.hook);
  if (hook === null && value.hook != null) throw new Error(`not an async worker record (field "hook" is not a process identity)`);
  return { version: 1, worker, hook };
}
