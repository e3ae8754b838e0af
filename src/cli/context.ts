import { statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import type { CliOutput } from "./stdioWriter.js";

/** What every command gets: streams, environment and the resolved global options. */
export interface CliContext {
  stdout: CliOutput;
  stderr: CliOutput;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Set when `stdin` is the process's own: its descriptor, read directly (see readFdText). */
  stdinFd?: number;
  env: NodeJS.ProcessEnv;
  /** Working directory after `-C`. */
  cwd: string;
  /** `--config` or HOOKS_CONFIG. */
  configPath?: string;
  userConfig: boolean;
  trust: boolean;
  color: boolean;
  verbose: boolean;
  /** Path of the CLI's entry script (for detached async workers). */
  entry?: string;
}

export interface GlobalOptions {
  config?: string;
  cwd?: string;
  userConfig?: boolean;
  trust?: boolean;
  color?: boolean;
  verbose?: boolean;
}

/** Normalise the global flags once, at the edge. */
export function makeCliContext(
  globals: GlobalOptions,
  base: Pick<CliContext, "stdout" | "stderr" | "stdin" | "stdinFd" | "env" | "entry"> & { cwd: string },
): CliContext {
  const cwd = globals.cwd ? path.resolve(base.cwd, globals.cwd) : base.cwd;
  // A mistyped -C must not run nothing and exit 0 (no config found there is not an error for run).
  if (globals.cwd && !statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`-C ${globals.cwd}: ${cwd} is not a directory; name an existing directory`);
  }
  const configFromEnv = base.env.HOOKS_CONFIG || undefined;
  const configPath = globals.config ?? configFromEnv;
  return {
    stdout: base.stdout,
    stderr: base.stderr,
    // A getter, not a copy: creating process.stdin costs a cold start a few ms, and most
    // commands never read it.
    get stdin() {
      return base.stdin;
    },
    stdinFd: base.stdinFd,
    entry: base.entry,
    env: base.env,
    cwd,
    configPath: configPath ? path.resolve(cwd, configPath) : undefined,
    userConfig: globals.userConfig !== false,
    trust: globals.trust === true,
    color: globals.color !== false && !base.env.NO_COLOR && Boolean(base.stdout.isTTY),
    verbose: globals.verbose === true,
  };
}
