import path from "node:path";
import { buildContext } from "../runner/context.js";
import { failedResult, runHook } from "../runner/runHook.js";
import { appendRunLog } from "../runner/runLog.js";
import type { AsyncDelivery, HookResult } from "../runner/types.js";
import { asyncRunLogRecord, neutralizeAsyncResult } from "./backend.js";
import { type AsyncJob, type AsyncWorkerRecord, readAsyncJob, writeWorkerRecord, publishAsyncResult } from "./records.js";
import { isoTime } from "../text.js";
import { assertPrivateStatePath } from "../fs/stateDir.js";
import { captureIdentity } from "../fs/processes.js";

// The detached worker process that DetachedAsyncBackend starts (`hooks __async-worker JOB`): it
// runs one async hook to its end and publishes the result for a later trigger to collect.

/**
 * Run one detached async hook to its end and publish the result. The worker is started detached
 * (its own session, no terminal), so only an explicit signal reaches it: the caller turns that
 * into `signal`, which cancels the hook (its group is killed); the result is still written.
 * Resolves once the hook's background children have ended too.
 */
export async function runDetachedJob(jobFile: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<void> {
  const leftovers: Promise<void>[] = [];
  const outcome = await runAsyncWorker(
    jobFile,
    (job, signal, onSpawn) =>
      runHook(job.hook, buildContext(job.event, job.context, job.cwd, env), {
        env,
        projectDir: job.project_dir,
        gate: job.gate,
        signal,
        onSpawn: (spawned) => {
          if (spawned.pid !== undefined) onSpawn(spawned.pid);
          leftovers.push(spawned.reaped);
        },
      }),
    signal,
  );
  // Null or unpublished: a collector declared this run lost (and delivered that) first.
  if (outcome?.published && outcome.job.run_log) {
    try {
      appendRunLog(outcome.job.run_log, asyncRunLogRecord(outcome.delivery, outcome.job.project_dir, "finished"));
    } catch {
      // the result is delivered all the same; the run log is informational
    }
  }
  // Background children of a finished hook end with the worker: a native hook's are killed at
  // once, a claude hook's at its timeout (the worker lives until then).
  await Promise.all(leftovers);
}

/** Runs the job's hook with the runner's spawn code; `onSpawn` receives the hook's pid. */
export type RunJobHook = (job: AsyncJob, signal: AbortSignal, onSpawn: (pid: number) => void) => Promise<HookResult>;

/** What the worker did: `published` is false when a collector had declared the run lost first. */
export interface AsyncWorkerOutcome {
  job: AsyncJob;
  delivery: AsyncDelivery;
  published: boolean;
}

/**
 * The body of a detached async worker: run one hook (its timeout enforced by the spawn code: the
 * process group gets SIGTERM, then SIGKILL after 2 s), publish the result durably, return it.
 * `signal` (the worker's own SIGTERM) cancels the hook; the result is written all the same.
 * Returns null, running nothing, when the job is already gone: a collector declared the worker
 * lost before it got to run (it was stopped, or the machine suspended, past the deadline).
 * Throws, running nothing, when the job file or its state dir is not private to this user:
 * the job names a command to run.
 */
export async function runAsyncWorker(jobFile: string, runHook: RunJobHook, signal: AbortSignal): Promise<AsyncWorkerOutcome | null> {
  const dir = path.dirname(jobFile);
  assertPrivateStatePath(jobFile);
  let job: AsyncJob;
  try {
    job = readAsyncJob(jobFile);
  } catch (error) {
    if ((error as { reason?: string }).reason === "ENOENT") return null;
    throw error;
  }
  const record: AsyncWorkerRecord = { version: 1, worker: captureIdentity(process.pid), hook: null };
  writeWorkerRecord(dir, job.id, record);
  let result: HookResult;
  try {
    result = neutralizeAsyncResult(
      await runHook(job, signal, (pid) => {
        // Read now, before this child can be reaped: the identity is surely the hook's.
        record.hook = captureIdentity(pid);
        writeWorkerRecord(dir, job.id, record);
      }),
      job.hook.rewake === true,
    );
  } catch (error) {
    result = failedResult(job.name, (error as Error).message, Date.now() - Date.parse(job.started_at));
  }
  const delivery: AsyncDelivery = { ...result, event: job.event, session_id: job.session_id, started_at: job.started_at, finished_at: isoTime() };
  return { job, delivery, published: publishAsyncResult(dir, job.id, delivery) };
}
