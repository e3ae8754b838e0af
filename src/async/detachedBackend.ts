import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { PendingAsync } from "../runner/types.js";
import { type AsyncBackend, type AsyncStart, type AsyncStarted, type AsyncTake, MemoryAsyncBackend } from "./backend.js";
import { type AsyncJob, writeAsyncJob, publishAsyncResult, listAsyncPending } from "./records.js";
import { asyncSessionDir, projectKey, newAsyncId, sessionKey } from "./paths.js";
import { sweepExpiredAsync } from "./sweep.js";
import { collectAsyncResults } from "./collect.js";
import { isoTime } from "../text.js";
import { ensureStateDir, StateDirError } from "../fs/stateDir.js";

export interface DetachedAsyncOptions {
  stateDir: string;
  projectDir: string;
  /** argv that starts a worker (`node …/hooks.js __async-worker`); the job file is appended. */
  workerArgv: string[];
  /** Environment of workers, and so of their hooks. */
  env: NodeJS.ProcessEnv;
  /** The caller's working directory. */
  cwd: string;
  /** Run log the workers append to (null: none). */
  runLog: string | null;
}

const POLL_MS = 50;

/**
 * The CLI's async hooks: each runs in a detached worker process that outlives the CLI, enforces
 * the hook's timeout and writes the result to the state dir; any later process of the same
 * project and session claims it. Hooks of a `wait` trigger run in-process instead.
 */
export class DetachedAsyncBackend implements AsyncBackend {
  private readonly local = new MemoryAsyncBackend();
  constructor(private readonly options: DetachedAsyncOptions) {}

  private dir(sessionId: string): string {
    return asyncSessionDir(this.options.stateDir, this.options.projectDir, sessionId);
  }

  take(sessionId: string): AsyncTake {
    // Nothing was ever started from this state dir: skip hashing the session's dir name (the
    // hash loads node:crypto, which costs a cold `hooks run` milliseconds; docs/performance.md).
    if (!fs.existsSync(path.join(this.options.stateDir, "async"))) return { delivered: [], expired: [], warnings: [] };
    // Results become messages to the agent and records name pids to kill: only from a private dir.
    const refused = this.refusal();
    if (refused) return { delivered: [], expired: [], warnings: [`async results not collected: ${refused}`] };
    const own = collectAsyncResults(this.dir(sessionId));
    // Sessions that never trigger again would keep their results for ever: expire those of the
    // whole project by age, at most every ASYNC_SWEEP_INTERVAL_MS (one lstat otherwise). Their
    // expiries are logged by the runner; problems met there belong to other sessions, not here.
    const swept = sweepExpiredAsync(path.join(this.options.stateDir, "async", projectKey(this.options.projectDir)), sessionKey(sessionId));
    if (swept.expired.length > 0) own.expired.push(...swept.expired);
    return own;
  }

  start(start: AsyncStart): AsyncStarted {
    if (start.wait) return this.local.start(start);
    const dir = this.dir(start.sessionId);
    const names: string[] = [];
    const warnings: string[] = [];
    // Job files are run as commands: never written where someone else could swap them.
    const refused = this.refusal();
    if (refused) return { names, waited: Promise.resolve([]), warnings: start.hooks.map((h) => `async hook ${h.name} was not started: ${refused}`) };
    for (const hook of start.hooks) {
      const id = newAsyncId();
      const job: AsyncJob = {
        version: 1,
        id,
        name: hook.name,
        event: start.event,
        gate: start.gate,
        session_id: start.sessionId,
        project_dir: this.options.projectDir,
        started_at: isoTime(),
        timeout_ms: hook.timeoutMs,
        hook,
        context: start.context,
        cwd: this.options.cwd,
        run_log: this.options.runLog,
      };
      let file: string;
      try {
        file = writeAsyncJob(dir, job);
      } catch (error) {
        warnings.push(`async hook ${hook.name} was not started: cannot write its record in ${dir} (${(error as Error).message}); check that the state dir is writable`);
        continue;
      }
      names.push(hook.name);
      const [command, ...args] = this.options.workerArgv;
      let failure: string | null = null;
      try {
        const child = spawn(command, [...args, file], { detached: true, stdio: "ignore", env: this.options.env, cwd: this.options.cwd });
        child.on("error", () => {});
        if (child.pid === undefined) failure = `could not start the async worker (${command})`;
        child.unref();
      } catch (error) {
        failure = `could not start the async worker: ${(error as Error).message}`;
      }
      if (failure) {
        const now = isoTime();
        publishAsyncResult(dir, id, {
          name: hook.name,
          status: "spawn_error",
          exit_code: null,
          signal: null,
          duration_ms: 0,
          stdout: "",
          stderr: "",
          truncated: false,
          messages: [],
          decision: null,
          error: failure,
          warnings: [],
          event: start.event,
          session_id: start.sessionId,
          started_at: job.started_at,
          finished_at: now,
        });
      }
    }
    return { names, waited: Promise.resolve([]), warnings };
  }

  // The state dir's refusal (another owner, writable by others), as a sentence; null when usable.
  private refusal(): string | null {
    try {
      ensureStateDir(this.options.stateDir);
      return null;
    } catch (error) {
      if (error instanceof StateDirError) return error.message;
      throw error;
    }
  }

  pending(sessionId?: string): PendingAsync[] {
    const local = this.local.pending(sessionId);
    if (sessionId !== undefined) return [...local, ...listAsyncPending(this.dir(sessionId))];
    const projectDir = path.join(this.options.stateDir, "async", projectKey(this.options.projectDir));
    let sessions: string[] = [];
    try {
      sessions = fs.readdirSync(projectDir);
    } catch {
      // nothing started yet
    }
    return [...local, ...sessions.flatMap((s) => listAsyncPending(path.join(projectDir, s)))];
  }

  // Waits for this project's detached workers too, by watching their records disappear.
  async drain(): Promise<void> {
    await this.local.drain();
    while (this.pending().some((p) => p.state === "running")) await new Promise((r) => setTimeout(r, POLL_MS));
  }

  // Detached workers outlive the CLI by design (each bounded by its own timeout): only waited ones die.
  async close(graceMs: number): Promise<void> {
    await this.local.close(graceMs);
  }
}
