import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { removeTree } from "./removeTree.js";

/**
 * The machinery every real-agent helper (claudeCode.ts, codexCli.ts, copilotCli.ts, geminiCli.ts,
 * qwenCli.ts) shares: a limit on concurrent runs, the outer variables a run keeps, a temp user
 * root (HOME, XDG dirs) per run, and spawning the agent in its own process group, killed at a
 * timeout, when an AbortSignal aborts, or by the pool's killAll() (for afterAll).
 */

/** Whether CI is set the way CI systems set it (anything but empty, false or 0). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

/** Variables of the outer environment a run keeps; the rest (API keys, the agents' own variables, proxies…) is dropped. */
export const KEEP = /^(PATH|LANG|LC_[A-Z]+|TZ|TMPDIR|HOOKRUN_TEST_MARK)$/;

/** Kill a child's whole process group (else the child itself), unless it already exited. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // gone
    }
  }
}

/** A fresh temp dir `<tmp>/<prefix>XXXXXX` (its real path) to hold one run's HOME and XDG dirs. */
export function makeUserRoot(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeUserRoot(userRoot: string): void {
  removeTree(userRoot);
}

/**
 * The start of a run's environment: the outer variables `keep` matches, and one variable per
 * entry of `dirs` naming a new dir under `userRoot` (`{ HOME: "home" }` → HOME=<userRoot>/home).
 */
export function userEnv(userRoot: string, dirs: Record<string, string>, keep: RegExp = KEEP): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (keep.test(k)) env[k] = v;
  for (const [k, d] of Object.entries(dirs)) {
    env[k] = path.join(userRoot, d);
    mkdirSync(env[k]!);
  }
  return env;
}

/** `env` with `vars` merged over it, every undefined value removed (in place). */
export function finishEnv(env: Record<string, string | undefined>, vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  Object.assign(env, vars);
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as NodeJS.ProcessEnv;
}

export interface SpawnAgentOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Kill the process group after this long; default 60 s. */
  timeoutMs?: number;
  /** Kills the process group when aborted. */
  signal?: AbortSignal;
  /** Called once the agent is started, with a function that kills it (the run then reports `stopped`). */
  onStart?: (stop: () => void) => void;
  /**
   * At the timeout, kill the group even when the agent itself already exited (its children may
   * still hold the pipes open); the default leaves an exited agent's group alone.
   */
  killExitedAtTimeout?: boolean;
  /** Write `input` on the agent's stdin, and end it once `endWhen(stdout so far)` holds (default: stdin is /dev/null). */
  stdin?: { input: string; endWhen: (stdout: string) => boolean };
}

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the run was killed at timeoutMs. */
  timedOut: boolean;
  /** Whether onStart's stop ended it. */
  stopped: boolean;
  /** From the spawn to the close of its pipes. */
  durationMs: number;
}

export interface AgentPool {
  /** Wait for a free slot; call the returned function to free it. */
  slot(): Promise<() => void>;
  /** Spawn `command args` detached (its own process group), collect stdout and stderr, resolve at close. */
  spawn(command: string, args: string[], options: SpawnAgentOptions): Promise<AgentExit>;
  /** Kill every run of this pool still going (for afterAll: a test that timed out leaves its run behind). */
  killAll(): void;
}

/** A pool of agent runs: at most `maxConcurrent` slots taken at once, every live process known to killAll(). */
export function agentPool(maxConcurrent: number): AgentPool {
  let running = 0;
  const waiting: (() => void)[] = [];
  const live = new Set<ChildProcess>();

  async function slot(): Promise<() => void> {
    if (running >= maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  }

  function spawnAgent(command: string, args: string[], options: SpawnAgentOptions): Promise<AgentExit> {
    const started = Date.now();
    return new Promise<AgentExit>((resolve, reject) => {
      const c = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe"], detached: true });
      if (options.stdin) {
        c.stdin!.on("error", () => {}); // the agent may exit before reading it all
        c.stdin!.write(options.stdin.input);
      }
      live.add(c);
      const abort = () => killGroup(c);
      options.signal?.addEventListener("abort", abort);
      if (options.signal?.aborted) killGroup(c);
      let stopped = false;
      options.onStart?.(() => {
        stopped = true;
        killGroup(c);
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      c.stdout!.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
        if (options.stdin && !c.stdin!.writableEnded && options.stdin.endWhen(stdout)) c.stdin!.end();
      });
      c.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const timer = setTimeout(() => {
        timedOut = true;
        if (options.killExitedAtTimeout && c.pid !== undefined) {
          try {
            process.kill(-c.pid, "SIGKILL");
          } catch {
            // already gone
          }
        } else killGroup(c);
      }, options.timeoutMs ?? 60_000);
      const done = () => {
        clearTimeout(timer);
        live.delete(c);
        options.signal?.removeEventListener("abort", abort);
      };
      c.on("error", (e) => {
        done();
        killGroup(c);
        reject(e);
      });
      c.on("close", (code, signal) => {
        done();
        resolve({ code, signal, stdout, stderr, timedOut, stopped, durationMs: Date.now() - started });
      });
    });
  }

  return {
    slot,
    spawn: spawnAgent,
    killAll: () => {
      for (const c of live) killGroup(c);
    },
  };
}

/** A run's outcome, as every helper's run result reports it. */
export interface AgentRunFields {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the run was killed at timeoutMs. */
  timedOut: boolean;
  durationMs: number;
}

export function runFields(run: AgentExit): AgentRunFields {
  return { exitCode: run.code, signal: run.signal, stdout: run.stdout, stderr: run.stderr, timedOut: run.timedOut, durationMs: run.durationMs };
}

/** An agent's CLI as found in node_modules. */
export interface AgentBinary {
  /** Absolute path of the binary (or the JS entry run with this Node), or null when it is not installed. */
  path: string | null;
  /** Its package version. */
  version: string | null;
  /** Why there is no binary (for a skip message). */
  reason: string | null;
}

/** The options every helper's run takes (each adds its project's doc, script, model and own switches). */
export interface AgentRunOptions {
  /** The project directory: the agent's cwd, where it reads the project's hook settings. */
  project: string;
  prompt: string;
  /** Merged over the run's environment (an undefined value removes a variable). */
  env?: Record<string, string | undefined>;
  /** Kill the agent (its whole process group) after this long; default 60 s. */
  timeoutMs?: number;
  /**
   * Kills the run when aborted: pass the test context's `signal` (aborted when the test times out).
   * Runs started outside a test (beforeAll) are ended by the helper's kill…Runs() in afterAll.
   */
  signal?: AbortSignal;
  /** Called with the run's environment (temp HOME, XDG dirs) before the agent starts, e.g. to run `hooks trust` as that user. */
  setup?: (env: NodeJS.ProcessEnv) => void | Promise<void>;
  /** Called with the same environment after the agent exited, before the temp HOME is removed (to read what was left there). */
  afterRun?: (env: NodeJS.ProcessEnv) => void | Promise<void>;
}

/** Whether /proc holds a live (not zombie) process `pid`. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The live processes with `arg` among their arguments: `pid: cmdline`. */
export function processesWithArg(arg: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    if (argv.includes(arg) && alive(Number(pid))) out.push(`${pid}: ${argv.join(" ").trim()}`);
  }
  return out;
}
