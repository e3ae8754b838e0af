import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import type { Readable } from "node:stream";
import { BACKGROUND_POLL_MS, groupAlive, KILL_GRACE_MS, readProcStat, terminateGroup } from "../fs/processes.js";

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
  /** Kill the whole group; the outcome becomes "cancelled". */
  cancel(): void;
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
    drainer = spawn("cat", [], { stdio: [stream, "ignore", "ignore"] });
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
  try {
    if (!statSync(request.cwd).isDirectory()) {
      return settled(spawnFailure(`working directory ${request.cwd} is not a directory`, started));
    }
  } catch {
    return settled(spawnFailure(`working directory ${request.cwd} does not exist`, started));
  }
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    return settled(spawnFailure(describeSpawnError(error as NodeJS.ErrnoException, request), started));
  }
  const drainers: ChildProcess[] = [];
  const handOff = (stream: Readable, capture: () => Capture) => () => {
    const drainer = drainElsewhere(stream, capture().push);
    if (drainer) drainers.push(drainer);
  };
  const out: Capture = new Capture(
    request.maxOutput,
    handOff(child.stdout as Readable, () => out),
  );
  const err: Capture = new Capture(
    request.maxOutput,
    handOff(child.stderr as Readable, () => err),
  );
  let end: SpawnEnd = "exited";
  let spawnError: string | null = null;
  let reapResolve!: () => void;
  const reaped = new Promise<void>((r) => (reapResolve = r));
  let killing: Promise<void> | null = null;
  const pid = child.pid;
  let exited = false;

  let afterKill: (() => void) | null = null;
  // keepBackground: the group outlives the process until this deadline (or a cancel). The timers
  // hold the event loop: a caller that waits (drain, an async worker) is not cut short; one that
  // exits first hands the group on and release()s it.
  let background: { timer: NodeJS.Timeout; poll: NodeJS.Timeout } | null = null;
  const deadline = started + request.timeoutMs;
  // Read while the leader is surely alive (it cannot be reaped before the exit event).
  const leaderStart = request.keepBackground && pid !== undefined ? (readProcStat(pid)?.start ?? null) : null;
  const endBackground = (killIt: boolean): void => {
    if (!background || pid === undefined) return;
    clearTimeout(background.timer);
    clearInterval(background.poll);
    background = null;
    if (killIt) void terminateGroup(pid).then(reapResolve);
    else reapResolve();
  };
  const kill = (why: SpawnEnd): void => {
    if (background) {
      endBackground(true);
      return;
    }
    if (end !== "exited" || exited || pid === undefined) return;
    end = why;
    killing = terminateGroup(pid, KILL_GRACE_MS);
    // Safety net: a process stuck even after SIGKILL (uninterruptible I/O) must not hold the result.
    void killing.then(() => setTimeout(() => afterKill?.(), 500).unref());
  };

  const outcome = new Promise<SpawnOutcome>((resolve) => {
    let done = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let open = 2;
    let graceTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => kill("timed_out"), request.timeoutMs);

    const finish = async (): Promise<void> => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      // Like our own pipe ends: an escaped descendant still writing gets EPIPE, nothing lingers.
      for (const d of drainers) d.kill("SIGKILL");
      if (killing) await killing;
      resolve({
        end: spawnError ? "spawn_error" : end,
        exitCode: spawnError ? null : exitCode,
        signal: spawnError ? null : exitSignal,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        error: spawnError,
        durationMs: Date.now() - started,
      });
    };
    afterKill = () => void finish();
    const streamClosed = (): void => {
      open -= 1;
      if (open === 0 && exited) void finish();
    };
    (child.stdout as Readable).on("data", out.push).once("close", streamClosed);
    (child.stderr as Readable).on("data", err.push).once("close", streamClosed);
    child.stdin?.on("error", () => {});
    child.once("error", (error: NodeJS.ErrnoException) => {
      // Only spawn failures arrive here (we never kill through the ChildProcess object).
      if (!exited && pid === undefined) {
        spawnError = describeSpawnError(error, request);
        exited = true;
        reapResolve();
        void finish();
      }
    });
    child.once("exit", (code, signal) => {
      exited = true;
      exitCode = code;
      exitSignal = signal;
      // Leftover members of the group (a backgrounded `cmd &`) must not outlive a sync hook, or,
      // with keepBackground, its timeout; polling notices when the group empties by itself.
      if (!killing && pid !== undefined && request.keepBackground && groupAlive(pid)) {
        background = {
          timer: setTimeout(() => endBackground(true), Math.max(0, deadline - Date.now())),
          poll: setInterval(() => {
            if (!groupAlive(pid)) endBackground(false);
          }, BACKGROUND_POLL_MS),
        };
      } else if (!killing && pid !== undefined && groupAlive(pid)) {
        void terminateGroup(pid).then(reapResolve);
      } else if (killing) {
        void killing.then(reapResolve);
      } else {
        reapResolve();
      }
      if (open === 0) void finish();
      // The grace is measured in time AND at least one I/O poll: on a loop blocked for longer than
      // the grace (50 concurrent spawns under load), the timer can fire before the poll phase has
      // read what the hook wrote before exiting. setImmediate runs after that poll phase.
      else graceTimer = setTimeout(() => setImmediate(() => void finish()), DRAIN_GRACE_MS);
    });
    child.stdin?.end(request.input);
  });

  return {
    pid,
    outcome,
    reaped,
    cancel: () => kill("cancelled"),
    leftover: () => (background && pid !== undefined ? { pgid: pid, deadline, start: leaderStart } : null),
    release: () => endBackground(false),
  };
}

function settled(outcome: SpawnOutcome): SpawnedHook {
  return { pid: undefined, outcome: Promise.resolve(outcome), reaped: Promise.resolve(), cancel: () => {}, leftover: () => null, release: () => {} };
}
