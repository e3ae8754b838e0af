import { runAsyncWorker } from "../../async/worker.js";
import { asyncRunLogRecord } from "../../async/backend.js";
import { buildContext } from "../../runner/context.js";
import { runHook } from "../../runner/runHook.js";
import { appendRunLog } from "../../runner/runLog.js";
import type { CliContext } from "../context.js";

/**
 * Run one detached async hook to its end and publish the result, then exit. The worker is
 * started detached (its own session, no terminal), so only an explicit signal reaches it: that
 * cancels the hook (its group is killed) and the result is still written.
 */
export async function asyncWorker(ctx: CliContext, jobFile: string): Promise<number> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, cancel);
  const leftovers: Promise<void>[] = [];
  const outcome = await runAsyncWorker(
    jobFile,
    (job, signal, onSpawn) =>
      runHook(job.hook, buildContext(job.event, job.context, job.cwd, ctx.env), {
        env: ctx.env,
        projectDir: job.project_dir,
        gate: job.gate,
        signal,
        onSpawn: (spawned) => {
          if (spawned.pid !== undefined) onSpawn(spawned.pid);
          leftovers.push(spawned.reaped);
        },
      }),
    controller.signal,
  );
  // Background children of a finished hook are killed too: nothing of it outlives the worker.
  await Promise.all(leftovers);
  // Null or unpublished: a collector declared this run lost (and delivered that) first.
  if (!outcome?.published) return 0;
  const { job, delivery } = outcome;
  if (job.run_log) {
    try {
      appendRunLog(job.run_log, asyncRunLogRecord(delivery, job.project_dir, "finished"));
    } catch {
      // the result is delivered all the same; the run log is informational
    }
  }
  return 0;
}
