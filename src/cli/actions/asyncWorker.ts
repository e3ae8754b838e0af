import { runDetachedJob } from "../../async/worker.js";
import type { CliContext } from "../context.js";
import { BACKGROUND_POLL_MS, groupOrigin, isPlausiblePid, terminateGroup } from "../../fs/processes.js";
import { EXIT } from "../exitCodes.js";

/** `hooks __async-worker JOB`: a detached async worker; a signal cancels its hook (the result is still written). */
export async function asyncWorker(ctx: CliContext, jobFile: string): Promise<number> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, cancel);
  await runDetachedJob(jobFile, ctx.env, controller.signal);
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
