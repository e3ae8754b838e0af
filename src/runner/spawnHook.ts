import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { statSync } from "node:fs";
import type { Readable } from "node:stream";
import { BACKGROUND_POLL_MS, groupAlive, hastenGroup, KILL_GRACE_MS, readProcStat, terminateGroup } from "../fs/processes.js";

// node:child_process (with net and stream) is loaded at the first spawn, not when this module is:
// commands that import the runner without running a hook (`hooks validate` reaches it through its
// check of installed host entries) would pay for it at start (docs/performance.md#what-each-start-up-measure-buys).
let loaded: typeof import("node:child_process") | undefined;
function childProcess(): typeof import("node:child_process") {
  loaded ??= createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  return loaded;
}

/** What to run: a file with its argv (a shell for `command`, the program itself for `args`). */
export interface SpawnRequest {
  file: string;
  args: string[];
  /** True when `file` is a shell running `command` (exit 127/126 then mean "could not run"). */
  viaShell: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed. */
  input: string;
  timeoutMs: number;
  /** Cap per stream, in bytes. */
  maxOutput: number;
  /**
   * Leave what the process started in the background (`notify-send … &`) running when it exits,
   * as Claude Code does, until the timeout (counted from the start) or a cancel; by default the
   * group is killed when the process exits.
   */
  keepBackground?: boolean;
}

export type SpawnEnd = "exited" | "timed_out" | "spawn_error" | "cancelled";

/** How a process ended; the same shape whatever happened. */
export interface SpawnOutcome {
  end: SpawnEnd;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** Why it could not be spawned (end "spawn_error"). */
  error: string | null;
  durationMs: number;
}

export interface SpawnedHook {
  /** pid of the hook's process, which leads its process group (undefined when it did not start). */
  readonly pid: number | undefined;
  readonly outcome: Promise<SpawnOutcome>;
  /** Kill the whole group (SIGKILL `graceMs` after SIGTERM, default KILL_GRACE_MS); the outcome becomes "cancelled". */
  cancel(graceMs?: number): void;
  /** Settles when leftover members of the group are gone (or were SIGKILLed). */
  readonly reaped: Promise<void>;
  /**
   * With keepBackground: the process group still running after the process exited, when its
   * timeout kills it (epoch ms), and the start time of its leader (ticks since boot, null without
   * /proc) by which a watchdog tells it from a later group with the same id; null when nothing is left.
   */
  leftover(): Leftover | null;
  /** Stop watching a leftover group (another process took it over: `hooks __watchdog`); `reaped` settles. */
  release(): void;
}

/** A finished hook's process group left running (keepBackground). */
export interface Leftover {
  pgid: number;
  deadline: number;
  start: string | null;
}

/** After the hook's process exits, how long its pipes may stay open before we stop reading. */
const DRAIN_GRACE_MS = 150;

// Keeps at most `cap` bytes of a stream; the rest is dropped so memory stays bounded. `onFull`
// is called once, when the cap is first passed.
class Capture {
  chunks: Buffer[] = [];
  size = 0;
  truncated = false;
  constructor(
    private readonly cap: number,
    private readonly onFull: () => void,
  ) {}
  push = (chunk: Buffer): void => {
    const room = this.cap - this.size;
    if (chunk.length > room) {
      // Also when the cap was met exactly by earlier chunks (room 0): every byte from here is dropped.
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.cap;
      if (!this.truncated) {
        this.truncated = true;
        this.onFull();
      }
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  };
  text(): string {
    return this.chunks.length === 1 ? this.chunks[0].toString("utf8") : Buffer.concat(this.chunks, this.size).toString("utf8");
  }
}

/**
 * Past its cap, a stream is handed to a `cat` that reads and drops the rest outside this process:
 * every read here is a fresh 64 KiB Buffer that lives until V8's external-memory GC, which let a
 * 200 MB flood grow the process by 50-64 MiB. Returns the drainer, or null (no `cat`: the caller
 * keeps reading and dropping).
 */
function drainElsewhere(stream: Readable, push: (chunk: Buffer) => void): ChildProcess | null {
  let drainer: ChildProcess;
  try {
    drainer = childProcess().spawn("cat", [], { stdio: [stream, "ignore", "ignore"] });
  } catch {
    return null;
  }
  drainer.on("error", () => {});
  if (drainer.pid === undefined) return null;
  // The drainer holds its own copy of the pipe now; ours closes (and counts as closed).
  stream.off("data", push);
  stream.destroy();
  return drainer;
}

function spawnFailure(message: string, started: number): SpawnOutcome {
  return { end: "spawn_error", exitCode: null, signal: null, stdout: "", stderr: "", truncated: false, error: message, durationMs: Date.now() - started };
}

function describeSpawnError(error: NodeJS.ErrnoException, request: SpawnRequest): string {
  const what = request.viaShell ? `shell \`${request.file}\`` : `\`${request.file}\``;
  if (error.code === "ENOENT") return `${what} not found`;
  if (error.code === "EACCES") return `${what} is not executable (permission denied)`;
  return `cannot run ${what}: ${error.message}`;
}

/**
 * Run one hook process in its own process group with bounded capture and a timeout. Resolves
 * when the process has exited and its pipes drained (or a short grace passed: an escaped
 * descendant holding them is not waited for). Never rejects.
 */
export function spawnHook(request: SpawnRequest): SpawnedHook {
  const started = Date.now();
  const badCwd = cwdProblem(request.cwd);
  if (badCwd) return settled(spawnFailure(badCwd, started));
  let child: ChildProcess;
  try {
    child = childProcess().spawn(request.file, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    return settled(spawnFailure(describeSpawnError(error as NodeJS.ErrnoException, request), started));
  }
  const hook = new HookProcess(request, child, started);
  return {
    pid: hook.pid,
    outcome: hook.outcome,
    reaped: hook.reaped,
    cancel: (graceMs) => hook.kill("cancelled", graceMs),
    leftover: () => hook.leftover(),
    release: () => hook.endBackground(false),
  };
}

/** Why the hook cannot run in `cwd`, or null. */
function cwdProblem(cwd: string): string | null {
  try {
    if (!statSync(cwd).isDirectory()) return `working directory ${cwd} is not a directory`;
  } catch {
    return `working directory ${cwd} does not exist`;
  }
  return null;
}

/**
 * A spawned hook process and its group, from the spawn to the outcome: capture of both streams,
 * the timeout, the kill, the reaping of what the process left behind, and with keepBackground
 * the group kept until its deadline.
 */
class HookProcess {
  readonly pid: number | undefined;
  readonly outcome: Promise<SpawnOutcome>;
  readonly reaped: Promise<void>;
  private reapResolve!: () => void;
  private readonly drainers: ChildProcess[] = [];
  private readonly out: Capture;
  private readonly err: Capture;
  private end: SpawnEnd = "exited";
  private spawnError: string | null = null;
  private killing: Promise<void> | null = null;
  private exited = false;
  // keepBackground: the group outlives the process until this deadline (or a cancel). The timers
  // hold the event loop: a caller that waits (drain, an async worker) is not cut short; one that
  // exits first hands the group on and release()s it.
  private background: { timer: NodeJS.Timeout; poll: NodeJS.Timeout } | null = null;
  private readonly deadline: number;
  private readonly leaderStart: string | null;
  // The outcome's state, until finish() resolves it.
  private resolve!: (outcome: SpawnOutcome) => void;
  private done = false;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  private open = 2;
  private graceTimer: NodeJS.Timeout | undefined;
  private timer!: NodeJS.Timeout;

  constructor(
    private readonly request: SpawnRequest,
    private readonly child: ChildProcess,
    private readonly started: number,
  ) {
    this.out = new Capture(
      request.maxOutput,
      this.handOff(child.stdout as Readable, () => this.out),
    );
    this.err = new Capture(
      request.maxOutput,
      this.handOff(child.stderr as Readable, () => this.err),
    );
    this.reaped = new Promise<void>((r) => (this.reapResolve = r));
    this.pid = child.pid;
    this.deadline = started + request.timeoutMs;
    // Read while the leader is surely alive (it cannot be reaped before the exit event).
    this.leaderStart = request.keepBackground && this.pid !== undefined ? (readProcStat(this.pid)?.start ?? null) : null;
    this.outcome = new Promise<SpawnOutcome>((resolve) => this.watch(resolve));
  }

  private handOff(stream: Readable, capture: () => Capture): () => void {
    return () => {
      const drainer = drainElsewhere(stream, capture().push);
      if (drainer) this.drainers.push(drainer);
    };
  }

  leftover(): Leftover | null {
    return this.background && this.pid !== undefined ? { pgid: this.pid, deadline: this.deadline, start: this.leaderStart } : null;
  }

  endBackground(killIt: boolean): void {
    if (!this.background || this.pid === undefined) return;
    clearTimeout(this.background.timer);
    clearInterval(this.background.poll);
    this.background = null;
    if (killIt) void terminateGroup(this.pid).then(this.reapResolve);
    else this.reapResolve();
  }

  kill(why: SpawnEnd, graceMs = KILL_GRACE_MS): void {
    if (this.background) {
      this.endBackground(true);
      return;
    }
    if (this.exited || this.pid === undefined) return;
    // Already being killed (its timeout): a shorter grace asked now still holds.
    if (this.end !== "exited") {
      hastenGroup(this.pid, graceMs);
      return;
    }
    this.end = why;
    this.killing = terminateGroup(this.pid, graceMs);
    // Safety net: a process stuck even after SIGKILL (uninterruptible I/O) must not hold the result.
    void this.killing.then(() => setTimeout(() => void this.finish(), 500).unref());
  }

  private watch(resolve: (outcome: SpawnOutcome) => void): void {
    const { child } = this;
    this.resolve = resolve;
    this.timer = setTimeout(() => this.kill("timed_out"), this.request.timeoutMs);
    const streamClosed = (): void => {
      this.open -= 1;
      if (this.open === 0 && this.exited) void this.finish();
    };
    (child.stdout as Readable).on("data", this.out.push).once("close", streamClosed);
    (child.stderr as Readable).on("data", this.err.push).once("close", streamClosed);
    child.stdin?.on("error", () => {});
    child.once("error", (error: NodeJS.ErrnoException) => {
      // Only spawn failures arrive here (we never kill through the ChildProcess object).
      if (!this.exited && this.pid === undefined) {
        this.spawnError = describeSpawnError(error, this.request);
        this.exited = true;
        this.reapResolve();
        void this.finish();
      }
    });
    child.once("exit", (code, signal) => this.onExit(code, signal));
    child.stdin?.end(this.request.input);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    this.exitCode = code;
    this.exitSignal = signal;
    this.reapGroup();
    if (this.open === 0) void this.finish();
    // The grace is measured in time AND at least one I/O poll: on a loop blocked for longer than
    // the grace (50 concurrent spawns under load), the timer can fire before the poll phase has
    // read what the hook wrote before exiting. setImmediate runs after that poll phase.
    else this.graceTimer = setTimeout(() => setImmediate(() => void this.finish()), DRAIN_GRACE_MS);
  }

  /**
   * Leftover members of the group (a backgrounded `cmd &`) must not outlive a sync hook, or, with
   * keepBackground, its timeout; polling notices when the group empties by itself.
   */
  private reapGroup(): void {
    const pid = this.pid;
    if (!this.killing && pid !== undefined && this.request.keepBackground && groupAlive(pid)) {
      this.background = {
        timer: setTimeout(() => this.endBackground(true), Math.max(0, this.deadline - Date.now())),
        poll: setInterval(() => {
          if (!groupAlive(pid)) this.endBackground(false);
        }, BACKGROUND_POLL_MS),
      };
    } else if (!this.killing && pid !== undefined && groupAlive(pid)) {
      void terminateGroup(pid).then(this.reapResolve);
    } else if (this.killing) {
      void this.killing.then(this.reapResolve);
    } else {
      this.reapResolve();
    }
  }

  private async finish(): Promise<void> {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.child.stdin?.destroy();
    // Like our own pipe ends: an escaped descendant still writing gets EPIPE, nothing lingers.
    for (const d of this.drainers) d.kill("SIGKILL");
    if (this.killing) await this.killing;
    this.resolve({
      end: this.spawnError ? "spawn_error" : this.end,
      exitCode: this.spawnError ? null : this.exitCode,
      signal: this.spawnError ? null : this.exitSignal,
      stdout: this.out.text(),
      stderr: this.err.text(),
      truncated: this.out.truncated || this.err.truncated,
      error: this.spawnError,
      durationMs: Date.now() - this.started,
    });
  }
}

function settled(outcome: SpawnOutcome): SpawnedHook {
  return { pid: undefined, outcome: Promise.resolve(outcome), reaped: Promise.resolve(), cancel: () => {}, leftover: () => null, release: () => {} };
}
