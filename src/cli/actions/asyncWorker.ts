import { runAsyncWorker } from "../../async/worker.js";
import { asyncRunLogRecord } from "../../async/backend.js";
import { buildContext } from "../../runner/context.js";
import { runHook } from "../../runner/runHook.js";
import { appendRunLog } from "../../runner/runLog.js";
import type { CliContext } from "../context.js";
import { groupAlive, isPlausiblePid, terminateGroup } from "../../fs/processes.js";
import { EXIT } from "../exitCodes.js";

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

/**
 * `hooks __watchdog PGID DEADLINE`: the background jobs a finished claude-dialect hook left
 * running, handed over by the `hooks run` that started them (it exits at once, as Claude Code
 * needs). Kills the group at the deadline (the hook's timeout), or when told to stop; exits as
 * soon as the group empties. It polls from the moment it was handed a live group, so a group id
 * freed and reused later is never taken for this one (that needs every pid to cycle in 100 ms).
 */
export async function watchdog(_ctx: CliContext, pgidArg: string, deadlineArg: string): Promise<number> {
  const pgid = Number(pgidArg);
  const deadline = Number(deadlineArg);
  if (!isPlausiblePid(pgid) || pgid === process.pid || !Number.isFinite(deadline)) return EXIT.usage;
  let stop = false;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void (stop = true));
  while (groupAlive(pgid)) {
    if (stop || Date.now() >= deadline) {
      await terminateGroup(pgid);
      return 0;
    }
    await new Promise((r) => setTimeout(r, Math.max(1, Math.min(100, deadline - Date.now()))));
  }
  return 0;
}
