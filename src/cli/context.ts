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
  /** `--color WHEN` ("auto", "always", "never"); false for `--no-color`. */
  color?: string | boolean;
  verbose?: boolean;
}

export const COLOR_WHEN = ["auto", "always", "never"] as const;

/**
 * Whether to colour the output. The first that says something decides: the flag (`--color
 * always|never`, `--no-color`), then NO_COLOR (set and not empty: never), then FORCE_COLOR (set
 * and not empty: "0" or "false" never, anything else always), then whether stdout is a terminal.
 */
export function useColor(flag: string | boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (flag === false || flag === "never") return false;
  if (flag === "always") return true;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR?.trim().toLowerCase();
  if (force) return force !== "0" && force !== "false";
  return Boolean(isTTY);
}

/** Normalise the global flags once, at the edge. */
export function makeCliContext(globals: GlobalOptions, base: Pick<CliContext, "stdout" | "stderr" | "stdin" | "stdinFd" | "env" | "entry"> & { cwd: string }): CliContext {
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
    color: useColor(globals.color, base.env, base.stdout.isTTY),
    verbose: globals.verbose === true,
  };
}
