import { runAsyncWorker } from "../../async/worker.js";
import { asyncRunLogRecord } from "../../async/backend.js";
import { buildContext } from "../../runner/context.js";
import { runHook } from "../../runner/runHook.js";
import { appendRunLog } from "../../runner/runLog.js";
import type { CliContext } from "../context.js";
import { BACKGROUND_POLL_MS, groupOrigin, isPlausiblePid, terminateGroup } from "../../fs/processes.js";
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
  return 0;
}

/**
 * `hooks __watchdog PGID DEADLINE START`: the background jobs a finished claude-dialect hook left
 * running, handed over by the `hooks run` that started them (it exits at once, as Claude Code
 * needs). Kills the group at the deadline (the hook's timeout), or when told to stop; exits as
 * soon as the group empties. START is the start time of the group's leader: before every signal
 * the group must still be that one (groupOrigin), so an id freed and reused by another group, or
 * a pgid passed by anyone else, is never signalled.
 */
export async function watchdog(_ctx: CliContext, pgidArg: string, deadlineArg: string, startArg: string): Promise<number> {
  const pgid = Number(pgidArg);
  const deadline = Number(deadlineArg);
  if (!isPlausiblePid(pgid) || !Number.isFinite(deadline) || !/^\d{1,20}$/.test(startArg ?? "")) return EXIT.usage;
  let stop = false;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void (stop = true));
  while (groupOrigin(pgid, startArg) === "ours") {
    if (stop || Date.now() >= deadline) {
      await terminateGroup(pgid);
      return 0;
    }
    await new Promise((r) => setTimeout(r, Math.max(1, Math.min(BACKGROUND_POLL_MS, deadline - Date.now()))));
  }
  return 0;
}
