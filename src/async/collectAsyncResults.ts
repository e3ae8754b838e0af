import fs from "node:fs";
import path from "node:path";
import type { AsyncDelivery } from "../runner/types.js";
import type { AsyncJob } from "./asyncJob.js";
import { asyncFileName, newClaimerId, parseAsyncFileName } from "./asyncFiles.js";
import { ASYNC_EXPIRY_MS, ASYNC_ORPHAN_GRACE_MS } from "./asyncExpiry.js";
import { groupAlive, signalGroup } from "../runner/processGroup.js";
import { isoTime } from "../time/isoTime.js";

/** What one collection found in a session directory. */
export interface AsyncCollection {
  /** Finished results claimed by this caller, oldest start first: deliver them. */
  delivered: AsyncDelivery[];
  /** Results dropped undelivered because they were older than 24 h. */
  expired: Array<{ name: string; event: string; session_id: string; started_at: string }>;
  /** One sentence per problem (expired, corrupt file moved aside, worker died). */
  warnings: string[];
}

export interface CollectOptions {
  now?: number;
  /** Tells whether a worker pid still runs (tests replace it). */
  isAlive?: (pid: number) => boolean;
}

/**
 * Claim and read every finished async result of one session directory, exactly once across
 * concurrent processes: a result is first renamed to a name unique to this claimer (rename of one
 * source succeeds for one process only), then read, then deleted. Expired results are deleted
 * without delivery, corrupt ones moved aside, and runs whose worker died are delivered as failed.
 * Never throws for what it finds on disk.
 */
export function collectAsyncResults(dir: string, options: CollectOptions = {}): AsyncCollection {
  const out: AsyncCollection = { delivered: [], expired: [], warnings: [] };
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") out.warnings.push(`cannot read async results in ${dir}: ${(error as Error).message}`);
    return out;
  }
  const now = options.now ?? Date.now();
  // A worker is started detached, so it leads its own process group: the group lives while it does
  // (zombies count as gone: a killed worker may never be reaped under a PID 1 that does not reap).
  const isAlive = options.isAlive ?? groupAlive;
  const claimer = newClaimerId();
  const ids = new Set<string>();
  for (const name of names) {
    const parsed = parseAsyncFileName(name);
    if (parsed?.kind === "result") ids.add(parsed.id);
  }
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    const parsed = parseAsyncFileName(name);
    if (!parsed) {
      if (name.startsWith(".") && name.endsWith(".tmp")) removeIfOlder(file, now);
      continue;
    }
    if (parsed.kind === "result") claimResult(dir, parsed.id, claimer, now, out);
    else if (parsed.kind === "started" && !ids.has(parsed.id)) reapOrphan(dir, parsed.id, claimer, now, isAlive, out);
    else if (parsed.kind === "claimed" || parsed.kind === "orphan") {
      if (removeIfOlder(file, now)) out.warnings.push(`removed ${file}: a process claimed this async result more than 24 h ago and never delivered it`);
    } else if (parsed.kind === "corrupt") removeIfOlder(file, now);
  }
  out.delivered.sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0));
  if (names.length > 0) tryRemoveDir(dir);
  return out;
}

// Rename first (the claim), read second: a result is read by exactly one process.
function claimResult(dir: string, id: string, claimer: string, now: number, out: AsyncCollection): void {
  const source = path.join(dir, asyncFileName(id, "result"));
  const claimed = path.join(dir, asyncFileName(id, "claimed", claimer));
  if (!tryRename(source, claimed, out)) return;
  let delivery: AsyncDelivery;
  let mtime = now;
  try {
    mtime = fs.statSync(claimed).mtimeMs;
    delivery = parseDelivery(fs.readFileSync(claimed, "utf8"));
  } catch (error) {
    const aside = path.join(dir, asyncFileName(id, "corrupt", String(now)));
    tryRename(claimed, aside, out);
    out.warnings.push(`async result file ${source} is corrupt (${(error as Error).message}); moved it aside to ${aside}`);
    return;
  }
  const finished = Date.parse(delivery.finished_at);
  const age = now - (Number.isFinite(finished) ? Math.min(finished, mtime) : mtime);
  fs.rmSync(claimed, { force: true });
  if (age > ASYNC_EXPIRY_MS) {
    out.expired.push({ name: delivery.name, event: delivery.event, session_id: delivery.session_id, started_at: delivery.started_at });
    out.warnings.push(`async hook "${delivery.name}" (${delivery.event}, started ${delivery.started_at}) expired: its result was not delivered within 24 h and was deleted`);
    return;
  }
  out.delivered.push(delivery);
}

// A started record whose worker is gone and that has no result: the worker crashed or was killed.
function reapOrphan(dir: string, id: string, claimer: string, now: number, isAlive: (pid: number) => boolean, out: AsyncCollection): void {
  const source = path.join(dir, asyncFileName(id, "started"));
  let job: AsyncJob;
  try {
    job = JSON.parse(fs.readFileSync(source, "utf8")) as AsyncJob;
    if (!job || typeof job.name !== "string" || typeof job.started_at !== "string") throw new Error("not an async job record");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // finished meanwhile
    const aside = path.join(dir, asyncFileName(id, "corrupt", String(now)));
    if (tryRename(source, aside, out)) out.warnings.push(`async run record ${source} is corrupt (${(error as Error).message}); moved it aside to ${aside}`);
    return;
  }
  const started = Date.parse(job.started_at);
  const overdue = !Number.isFinite(started) || now > started + (job.timeout_ms ?? 0) + ASYNC_ORPHAN_GRACE_MS;
  const workerGone = job.worker_pid != null && !isAlive(job.worker_pid);
  if (!overdue && !workerGone) return;
  const claimed = path.join(dir, asyncFileName(id, "orphan", claimer));
  if (!tryRename(source, claimed, out)) return;
  // The worker may have published its result just before dying: that result is delivered normally.
  if (fs.existsSync(path.join(dir, asyncFileName(id, "result")))) {
    fs.rmSync(claimed, { force: true });
    claimResult(dir, id, claimer, now, out);
    return;
  }
  if (job.hook_pid) signalGroup(job.hook_pid, "SIGKILL");
  fs.rmSync(claimed, { force: true });
  if (Number.isFinite(started) && now - started > ASYNC_EXPIRY_MS) {
    out.expired.push({ name: job.name, event: job.event, session_id: job.session_id, started_at: job.started_at });
    out.warnings.push(`async hook "${job.name}" (${job.event}, started ${job.started_at}) expired: its worker vanished and the run is older than 24 h`);
    return;
  }
  const error = `the async worker${job.worker_pid ? ` (pid ${job.worker_pid})` : ""} exited without writing a result`;
  out.warnings.push(`async hook "${job.name}" (${job.event}): ${error}`);
  out.delivered.push({
    name: job.name,
    status: "failed",
    exit_code: null,
    signal: null,
    duration_ms: Math.max(0, now - (Number.isFinite(started) ? started : now)),
    stdout: "",
    stderr: "",
    truncated: false,
    messages: [],
    decision: null,
    error,
    warnings: [],
    event: job.event,
    session_id: job.session_id,
    started_at: job.started_at,
    finished_at: isoTime(now),
  });
}

function parseDelivery(text: string): AsyncDelivery {
  const value = JSON.parse(text) as AsyncDelivery;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  for (const key of ["name", "status", "event", "session_id", "started_at", "finished_at"] as const) {
    if (typeof value[key] !== "string") throw new Error(`field "${key}" is missing or not a string`);
  }
  if (!Array.isArray(value.messages)) throw new Error(`field "messages" is not a list`);
  if (!Array.isArray(value.warnings)) value.warnings = [];
  return value;
}

// false when another process renamed the source first (ENOENT); other errors become warnings.
function tryRename(from: string, to: string, out: AsyncCollection): boolean {
  try {
    fs.renameSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") out.warnings.push(`cannot claim ${from}: ${(error as Error).message}`);
    return false;
  }
}

function removeIfOlder(file: string, now: number): boolean {
  try {
    if (now - fs.statSync(file).mtimeMs <= ASYNC_EXPIRY_MS) return false;
    fs.rmSync(file, { force: true });
    return true;
  } catch {
    return false;
  }
}

// Leave no empty session directories behind; fails harmlessly when anything is still in it.
function tryRemoveDir(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty, or removed by a concurrent collector
  }
}
