import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Readable } from "node:stream";
import { main } from "../../src/cli/main.js";
import { cleanEnv } from "./sandbox.js";
import { waitFor } from "./waitFor.js";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const CLI = path.join(ROOT, "dist/bin/hooks.js");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Merged over a clean base (see cleanEnv); an undefined value removes a variable. */
  env?: Record<string, string | undefined>;
  input?: string;
  /** runMain only: stdin as a stream the test writes and ends (instead of `input`). */
  stdin?: NodeJS.ReadableStream;
  /** runMain only: each piece of stdout as it is written. */
  onStdout?: (text: string) => void;
  timeoutMs?: number;
}

/**
 * The environment of a CLI run: the outer CI/HOOKS* variables dropped, NO_COLOR set, then the
 * test's own variables. The V8 code cache is off (a run with a cold per-test cache is slower than
 * one without); test/cli.codeCache.test.ts turns it on with `HOOKS_CODE_CACHE: undefined`. A
 * sandbox's env also gives each run its own XDG_CACHE_HOME, so no test shares a cache file.
 */
export function cliEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return cleanEnv({ NO_COLOR: "1", HOOKS_CODE_CACHE: "0", ...env });
}

/**
 * Run the CLI in this process: `main(argv, io)` of src/cli/main.ts with in-memory stdout/stderr
 * (not terminals), `input` as stdin, and the built CLI as `entry` so async hooks still start
 * their detached workers. What needs a real process (signals, stdin descriptors, exit flushing,
 * the code cache, terminals, workers outliving the CLI) uses runCli.
 */
export async function runMain(args: string[], options: CliOptions = {}): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const text = (chunk: string | Uint8Array): string => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
  const code = await main(args, {
    stdout: { isTTY: false, write: (c) => ((stdout += text(c)), options.onStdout?.(text(c)), true) },
    stderr: { isTTY: false, write: (c) => ((stderr += text(c)), true) },
    stdin: options.stdin ?? Readable.from(options.input ? [Buffer.from(options.input)] : []),
    env: cliEnv(options.env),
    cwd: options.cwd ?? ROOT,
    entry: CLI,
  });
  return { code, signal: null, stdout, stderr };
}

/** Run the built CLI (dist/bin/hooks.js) as a real process, as users and agents do. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env: cliEnv(options.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.on("error", () => {});
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface CliProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the exit once the process is gone and its stdout and stderr are read to the end. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawn the built CLI (`hooks serve`, `hooks watch`, `hooks run` to signal, …) as a long-lived process. */
export function spawnCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exited, closed };
}

/** Wait until `p` printed what `match` finds on stderr (or fail early when it died). */
export async function untilStderr(p: CliProcess, match: RegExp, what: string, timeoutMs = 15_000): Promise<RegExpExecArray> {
  return waitFor(
    () => {
      const m = match.exec(p.stderr());
      if (!m && p.child.exitCode !== null) throw new Error(`exited ${p.child.exitCode}: ${p.stderr()}`);
      return m;
    },
    { timeoutMs, what },
  );
}
