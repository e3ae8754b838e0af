import { failedResult } from "../runner/runHook.js";
import fs from "node:fs";
import path from "node:path";
import type { AsyncDelivery } from "../runner/types.js";
import { type AsyncJob, type AsyncWorkerRecord, readAsyncJob, readWorkerRecord, readAsyncDelivery } from "./records.js";
import { asyncFileName, newClaimerId, parseAsyncFileName, type AsyncFileKind, ASYNC_EXPIRY_MS, ASYNC_ORPHAN_GRACE_MS } from "./paths.js";
import { processAlive, signalRecordedGroup, type ProcessIdentity } from "../fs/processes.js";
import { isoTime } from "../text.js";

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
  /** The clock (tests move it past a deadline instead of waiting for it). */
  now?: number;
  /** Tells whether a recorded worker still runs (default: same pid and start time, not a zombie). */
  isAlive?: (worker: ProcessIdentity) => boolean;
  /**
   * Touch only what is past the 24 h expiry, and deliver nothing: the sweep of a project's other
   * sessions (sweep.ts), which must leave their live results to their own next trigger.
   */
  expireOnly?: boolean;
}

/**
 * Claim and read every finished async result of one session directory, exactly once across
 * concurrent processes: a result is first renamed to a name unique to this claimer (rename of one
 * source succeeds for one process only), then read, then deleted. Expired results are deleted
 * without delivery, corrupt ones moved aside, and runs whose worker died are delivered as failed.
 * Declaring a run lost takes its started record the same way, which is what stops its worker
 * from publishing later (publishAsyncResult): one outcome per run, whatever the timing. Every
 * file is read bounded and checked: it is hostile input. Never throws for what it finds on disk.
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
  const isAlive = options.isAlive ?? processAlive;
  const claimer = newClaimerId();
  const results = new Set<string>();
  const runs = new Set<string>();
  for (const name of names) {
    const parsed = parseAsyncFileName(name);
    if (parsed?.kind === "result") results.add(parsed.id);
    if (parsed?.kind === "started" || parsed?.kind === "publishing") runs.add(parsed.id);
  }
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    const parsed = parseAsyncFileName(name);
    if (!parsed) {
      if (name.startsWith(".") && name.endsWith(".tmp")) removeIfOlder(file, now);
      continue;
    }
    if (parsed.kind === "result") {
      // A result's file is written once, when it finishes: an mtime within 24 h is a live result.
      if (!options.expireOnly || olderThanExpiry(file, now)) claimResult(dir, parsed.id, claimer, now, out);
    } else if ((parsed.kind === "started" || parsed.kind === "publishing") && !results.has(parsed.id)) reapLost(dir, parsed.id, parsed.kind, claimer, now, isAlive, out, options.expireOnly === true);
    else if (parsed.kind === "claimed" || parsed.kind === "orphan") {
      if (removeIfOlder(file, now)) out.warnings.push(`removed ${file}: a process claimed this async result more than 24 h ago and never delivered it`);
    } else if (parsed.kind === "corrupt" || (parsed.kind === "worker" && !runs.has(parsed.id) && !results.has(parsed.id))) removeIfOlder(file, now);
  }
  // Start order: the files were visited by id (start time, strictly increasing within one
  // `hooks run`), and a stable sort by start keeps that order for runs started in the same ms.
  out.delivered.sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0));
  tryRemoveDir(dir);
  return out;
}

function olderThanExpiry(file: string, now: number): boolean {
  try {
    return now - fs.lstatSync(file).mtimeMs > ASYNC_EXPIRY_MS;
  } catch {
    return false;
  }
}

// Rename first (the claim), read second: a result is read by exactly one process.
function claimResult(dir: string, id: string, claimer: string, now: number, out: AsyncCollection): void {
  const source = path.join(dir, asyncFileName(id, "result"));
  const claimed = path.join(dir, asyncFileName(id, "claimed", claimer));
  if (!tryRename(source, claimed, out)) return;
  // A worker that died between writing its result and cleaning up leaves these behind.
  fs.rmSync(path.join(dir, asyncFileName(id, "publishing")), { force: true });
  fs.rmSync(path.join(dir, asyncFileName(id, "worker")), { force: true });
  let delivery: AsyncDelivery;
  let mtime = now;
  try {
    mtime = fs.statSync(claimed).mtimeMs;
    delivery = readAsyncDelivery(claimed);
  } catch (error) {
    setAside(dir, id, claimed, `async result file ${source}`, error, now, out);
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

/**
 * A run with no result. From its started record: declared lost once its worker is provably gone,
 * or once it is overdue (timeout + grace: the worker may be stopped or its machine suspended;
 * taking the record keeps its late result out). From a publishing marker (the worker won the
 * record and is writing its result): only once the worker is provably gone, never for being late.
 */
function reapLost(dir: string, id: string, kind: AsyncFileKind, claimer: string, now: number, isAlive: (w: ProcessIdentity) => boolean, out: AsyncCollection, expireOnly = false): void {
  const source = path.join(dir, asyncFileName(id, kind));
  // The id starts with the run's start time: a run begun within 24 h is not even read.
  if (expireOnly && !(now - Number.parseInt(id.split("-")[0], 36) > ASYNC_EXPIRY_MS)) return;
  let job: AsyncJob;
  try {
    job = readAsyncJob(source);
  } catch (error) {
    if ((error as { reason?: string }).reason === "ENOENT") return; // finished meanwhile
    const aside = path.join(dir, asyncFileName(id, "corrupt", String(now)));
    if (tryRename(source, aside, out)) out.warnings.push(`async run record ${source} is corrupt (${(error as Error).message}); moved it aside to ${aside}`);
    return;
  }
  let record: AsyncWorkerRecord | null = null;
  try {
    record = readWorkerRecord(dir, id);
  } catch (error) {
    // Its identities are not trusted for anything; the run is judged by its deadline alone.
    setAside(dir, id, path.join(dir, asyncFileName(id, "worker")), `async worker record of ${source}`, error, now, out);
  }
  const started = Date.parse(job.started_at);
  // A sweep only expires: a run whose record says it started within 24 h is its session's business.
  if (expireOnly && Number.isFinite(started) && now - started <= ASYNC_EXPIRY_MS) return;
  const overdue = !Number.isFinite(started) || now > started + job.timeout_ms + ASYNC_ORPHAN_GRACE_MS;
  const workerGone = record !== null && !isAlive(record.worker);
  if (kind === "publishing" && !workerGone) {
    if (removeIfOlder(source, now)) out.warnings.push(`removed ${source}: its async worker started publishing a result more than 24 h ago and never finished`);
    return;
  }
  if (!overdue && !workerGone) return;
  const claimed = path.join(dir, asyncFileName(id, "orphan", claimer));
  if (!tryRename(source, claimed, out)) return;
  // The worker may have published its result just before dying: that result is delivered normally.
  if (fs.existsSync(path.join(dir, asyncFileName(id, "result")))) {
    fs.rmSync(claimed, { force: true });
    claimResult(dir, id, claimer, now, out);
    return;
  }
  // Nothing of a lost run may outlive it, but only its own group is signalled: pid + start time.
  if (record?.hook) {
    const decision = signalRecordedGroup(record.hook, "SIGKILL");
    if (!decision.signal && !decision.gone) out.warnings.push(`async hook "${job.name}": did not signal its process group (pid ${record.hook.pid}): ${decision.reason}`);
  }
  fs.rmSync(claimed, { force: true });
  fs.rmSync(path.join(dir, asyncFileName(id, "worker")), { force: true });
  // (In a sweep, a record without a readable start time is judged by its id's, checked above.)
  if (Number.isFinite(started) ? now - started > ASYNC_EXPIRY_MS : expireOnly) {
    out.expired.push({ name: job.name, event: job.event, session_id: job.session_id, started_at: job.started_at });
    out.warnings.push(`async hook "${job.name}" (${job.event}, started ${job.started_at}) expired: its worker vanished and the run is older than 24 h`);
    return;
  }
  const pid = record ? ` (pid ${record.worker.pid})` : "";
  const error = workerGone
    ? kind === "publishing"
      ? `the async worker${pid} exited while publishing its result`
      : `the async worker${pid} exited without writing a result`
    : `the async worker${pid} did not finish within the hook's timeout plus ${ASYNC_ORPHAN_GRACE_MS / 1000} s (stopped, or its machine suspended?): the run is declared lost and a later result will not be delivered`;
  out.warnings.push(`async hook "${job.name}" (${job.event}): ${error}`);
  out.delivered.push({
    ...failedResult(job.name, error, Math.max(0, now - (Number.isFinite(started) ? started : now))),
    event: job.event,
    session_id: job.session_id,
    started_at: job.started_at,
    finished_at: isoTime(now),
  });
}

// A file that failed its read or shape check: renamed aside (kept 24 h for inspection), reported once.
function setAside(dir: string, id: string, file: string, what: string, error: unknown, now: number, out: AsyncCollection): void {
  const aside = path.join(dir, asyncFileName(id, "corrupt", `${now}-${path.basename(file).split(".")[1]}`));
  tryRename(file, aside, out);
  out.warnings.push(`${what} is corrupt (${(error as Error).message}); moved it aside to ${aside}`);
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
  if (!olderThanExpiry(file, now)) return false;
  try {
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
