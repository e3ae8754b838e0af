import path from "node:path";
import type { AsyncDelivery, HookResult } from "../runner/types.js";
import type { AsyncJob } from "./asyncJob.js";
import { readAsyncJob } from "./writeAsyncJob.js";
import { writeAsyncResult } from "./writeAsyncResult.js";
import { writeJsonAtomic } from "./writeJsonAtomic.js";
import { neutralizeAsyncResult } from "./neutralizeAsyncResult.js";
import { isoTime } from "../time/isoTime.js";

/** Runs the job's hook with the runner's spawn code; `onSpawn` receives the hook's pid. */
export type RunJobHook = (job: AsyncJob, signal: AbortSignal, onSpawn: (pid: number) => void) => Promise<HookResult>;

/**
 * The body of a detached async worker: run one hook (its timeout enforced by the spawn code: the
 * process group gets SIGTERM, then SIGKILL after 2 s), publish the result durably, return it.
 * `signal` (the worker's own SIGTERM) cancels the hook; the result is written all the same.
 */
export async function runAsyncWorker(jobFile: string, runHook: RunJobHook, signal: AbortSignal): Promise<{ job: AsyncJob; delivery: AsyncDelivery }> {
  const dir = path.dirname(jobFile);
  const job = readAsyncJob(jobFile);
  job.worker_pid = process.pid;
  writeJsonAtomic(jobFile, job);
  let result: HookResult;
  try {
    result = neutralizeAsyncResult(
      await runHook(job, signal, (pid) => {
        job.hook_pid = pid;
        writeJsonAtomic(jobFile, job);
      }),
    );
  } catch (error) {
    result = {
      name: job.name, status: "failed", exit_code: null, signal: null, duration_ms: Date.now() - Date.parse(job.started_at),
      stdout: "", stderr: "", truncated: false, messages: [], decision: null, error: (error as Error).message, warnings: [],
    };
  }
  const delivery: AsyncDelivery = { ...result, event: job.event, session_id: job.session_id, started_at: job.started_at, finished_at: isoTime() };
  writeAsyncResult(dir, job.id, delivery);
  return { job, delivery };
}
