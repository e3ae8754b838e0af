import path from "node:path";
import type { AsyncDelivery, HookResult } from "../runner/types.js";
import type { AsyncJob, AsyncWorkerRecord } from "./asyncJob.js";
import { readAsyncJob, writeWorkerRecord } from "./writeAsyncJob.js";
import { publishAsyncResult } from "./writeAsyncResult.js";
import { neutralizeAsyncResult } from "./neutralizeAsyncResult.js";
import { captureIdentity } from "../fs/processes.js";
import { assertPrivateStatePath } from "../fs/stateDir.js";
import { isoTime } from "../text.js";

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
    );
  } catch (error) {
    result = {
      name: job.name, status: "failed", exit_code: null, signal: null, duration_ms: Date.now() - Date.parse(job.started_at),
      stdout: "", stderr: "", truncated: false, messages: [], decision: null, error: (error as Error).message, warnings: [],
    };
  }
  const delivery: AsyncDelivery = { ...result, event: job.event, session_id: job.session_id, started_at: job.started_at, finished_at: isoTime() };
  return { job, delivery, published: publishAsyncResult(dir, job.id, delivery) };
}
