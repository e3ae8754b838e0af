import fs from "node:fs";
import path from "node:path";
import type { AsyncDelivery, Message, HookContext, PendingAsync } from "../runner/types.js";
import { asyncFileName, parseAsyncFileName } from "./paths.js";
import { writeJsonAtomic } from "../fs/writeFileAtomic.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import { type ProcessIdentity, parseIdentity } from "../fs/processes.js";

/**
 * Write a result file as is (atomically). Only publishAsyncResult may call it for a run that has
 * a started record; anything else (tests, fixtures) creates results that no worker contends for.
 */
export function writeAsyncResult(dir: string, id: string, delivery: AsyncDelivery): string {
  const file = path.join(dir, asyncFileName(id, "result"));
  writeJsonAtomic(file, delivery);
  return file;
}

/**
 * Publish a finished run, exactly once: first take the run's started record (rename it to
 * `<id>.publishing.json`; renaming one source succeeds for one process only), then write the
 * result (atomic rename), then drop the publishing marker and the worker record. If a collector
 * took the started record first, it has declared the run lost and delivered that instead: the
 * result is dropped (false), so a worker that was stopped past its deadline and resumes later
 * can never cause a second delivery.
 */
export function publishAsyncResult(dir: string, id: string, delivery: AsyncDelivery): boolean {
  const publishing = path.join(dir, asyncFileName(id, "publishing"));
  try {
    fs.renameSync(path.join(dir, asyncFileName(id, "started")), publishing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // Lost: the collector removed the worker record when it claimed the run; a late update
    // of ours may have written it again.
    fs.rmSync(path.join(dir, asyncFileName(id, "worker")), { force: true });
    return false;
  }
  writeAsyncResult(dir, id, delivery);
  fs.rmSync(publishing, { force: true });
  fs.rmSync(path.join(dir, asyncFileName(id, "worker")), { force: true });
  return true;
}

const ROLES = new Set(["system", "user", "assistant"]);
// "blocked" never survives neutralizeAsyncResult, nor "skipped" a worker: not async outcomes.
const STATUSES = new Set(["ok", "failed", "timed_out", "spawn_error", "invalid_output", "cancelled"]);

/**
 * Read a result file (at most READ_LIMITS.state bytes, regular files only) and rebuild it from
 * checked fields: it comes from disk, and its messages go to the agent, so nothing of an
 * unexpected shape passes. Async results never block, stop or transform (docs/running-hooks.md#which-hooks-run-and-in-what-order): such
 * fields are not carried over. Throws with the offending field.
 */
export function readAsyncDelivery(file: string): AsyncDelivery {
  const value = JSON.parse(readBoundedText(file, READ_LIMITS.state, { what: "async result" })) as Record<string, unknown> | null;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  const str = (key: string): string => {
    if (typeof value[key] !== "string") throw new Error(`field "${key}" is missing or not a string`);
    return value[key] as string;
  };
  const strOrNull = (key: string): string | null => {
    const v = value[key] ?? null;
    if (v !== null && typeof v !== "string") throw new Error(`field "${key}" is not a string or null`);
    return v as string | null;
  };
  const num = (key: string, nullable: boolean): number | null => {
    const v = value[key] ?? null;
    if (v === null && nullable) return null;
    if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`field "${key}" is not a number`);
    return v;
  };
  if (!Array.isArray(value.messages)) throw new Error(`field "messages" is not a list`);
  const messages: Message[] = value.messages.map((m: unknown, i: number) => {
    const msg = m as Record<string, unknown> | null;
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) throw new Error(`messages[${i}] is not an object`);
    if (typeof msg.content !== "string") throw new Error(`messages[${i}].content is not a string`);
    const role = msg.role ?? "system";
    if (typeof role !== "string" || !ROLES.has(role)) throw new Error(`messages[${i}].role is not system, user or assistant`);
    const out: Message = { role: role as Message["role"], content: msg.content };
    for (const flag of ["hide", "pinned"] as const) {
      if (msg[flag] === undefined) continue;
      if (typeof msg[flag] !== "boolean") throw new Error(`messages[${i}].${flag} is not a boolean`);
      out[flag] = msg[flag] as boolean;
    }
    // Only a notice survives an async delivery (neutralizeAsyncResult): a message for the user.
    if (msg.kind === "notice") out.kind = "notice";
    return out;
  });
  const warnings = value.warnings ?? [];
  if (!Array.isArray(warnings) || warnings.some((w) => typeof w !== "string")) throw new Error(`field "warnings" is not a list of strings`);
  if (value.truncated !== undefined && typeof value.truncated !== "boolean") throw new Error(`field "truncated" is not a boolean`);
  if (!STATUSES.has(str("status"))) throw new Error(`field "status" is not an async hook status`);
  const delivery: AsyncDelivery = {
    name: str("name"),
    status: str("status") as AsyncDelivery["status"],
    exit_code: num("exit_code", true),
    signal: strOrNull("signal"),
    duration_ms: num("duration_ms", false) as number,
    stdout: strOrNull("stdout") ?? "",
    stderr: strOrNull("stderr") ?? "",
    truncated: value.truncated === true,
    messages,
    decision: value.decision === "allow" || value.decision === "ask" ? value.decision : null,
    error: strOrNull("error"),
    warnings: warnings as string[],
    event: str("event"),
    session_id: str("session_id"),
    started_at: str("started_at"),
    finished_at: str("finished_at"),
  };
  if (value.json && typeof value.json === "object" && !Array.isArray(value.json)) delivery.json = value.json as Record<string, unknown>;
  return delivery;
}

/**
 * The "started" record of one detached async run, written once, before its worker is spawned:
 * the worker's job (what to run) and the run's claim token. Whoever renames it away first owns
 * the run's outcome: the worker when it publishes its result, or a collector that declares the
 * worker lost (docs/async.md#expiry-and-guarantees: delivered exactly once). So nobody rewrites it in place; what the
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

/** What one session directory holds that is not delivered yet: running (or publishing) and finished runs. */
export function listAsyncPending(dir: string): PendingAsync[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
  const finished = new Set(
    names
      .map(parseAsyncFileName)
      .filter((p) => p?.kind === "result")
      .map((p) => p!.id),
  );
  const out: PendingAsync[] = [];
  for (const name of names) {
    const parsed = parseAsyncFileName(name);
    if (!parsed || (parsed.kind !== "result" && parsed.kind !== "started" && parsed.kind !== "publishing")) continue;
    if (parsed.kind !== "result" && finished.has(parsed.id)) continue;
    try {
      const record = JSON.parse(readBoundedText(path.join(dir, name), READ_LIMITS.state, { what: "async record" })) as Record<string, unknown> | null;
      if (!record || typeof record !== "object") continue;
      const { name: hook, event, session_id, started_at } = record;
      if (typeof hook !== "string" || typeof event !== "string" || typeof session_id !== "string" || typeof started_at !== "string") continue;
      out.push({ name: hook, event, session_id, state: parsed.kind === "result" ? "finished" : "running", started_at });
    } catch {
      // claimed or corrupt meanwhile: the next collection reports it
    }
  }
  return out;
}
