import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, onTestFinished } from "vitest";
import { ConfigError, loadConfig, type Diagnostic, type LoadConfigOptions } from "../../src/index.js";
import { removeTree } from "./removeTree.js";
import { waitFor } from "./waitFor.js";

export { removeTree };

/**
 * The one temp-dir maker of the suite. A sandbox is a fresh directory (its real path, so paths
 * compare equal to what hooks see) holding a project dir and every per-user dir hookrun reads:
 *
 *   <root>/project   the project (cwd of CLI runs; `write` and `path` are relative to it)
 *   <root>/home      HOME
 *   <root>/config    XDG_CONFIG_HOME (the user layer is <root>/config/hookrun)
 *   <root>/state     XDG_STATE_HOME; HOOKS_STATE_DIR is <root>/state/hookrun
 *   <root>/cache     XDG_CACHE_HOME: each spawned CLI's V8 code cache stays in its own test
 */
export interface Sandbox {
  root: string;
  /** The project directory. */
  dir: string;
  /** The isolated per-user variables only; runCli/runMain merge them over a clean environment. */
  env: Record<string, string>;
  /** The whole environment a process of this sandbox gets (for library calls that spawn hooks). */
  processEnv: NodeJS.ProcessEnv;
  /** Absolute path of `rel` in the project (an absolute `rel` is kept). */
  path(rel: string): string;
  /** Write a file (parents created); returns its absolute path. */
  write(rel: string, text: string | Buffer): string;
  /** Path of a file in the user layer ($XDG_CONFIG_HOME/hookrun). */
  userPath(rel: string): string;
  /** loadConfig from the project dir with this sandbox's env. */
  load(options?: LoadConfigOptions): ReturnType<typeof loadConfig>;
  /** The diagnostics loadConfig throws (fails the test when it does not throw). */
  diagnostics(options?: LoadConfigOptions): Promise<Diagnostic[]>;
  /** Remove the sandbox (retries: a detached worker may still be writing into its state dir). */
  cleanup(): void;
}

const OUTER = /^(CI|GITHUB_ACTIONS)$|^HOOKS/;

/**
 * The outer environment without CI, GITHUB_ACTIONS and HOOKS* (so tests decide trust, layers and
 * the code cache themselves), with `extra` merged over it; an undefined value removes a variable.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!OUTER.test(k)) out[k] = v;
  Object.assign(out, extra);
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as NodeJS.ProcessEnv;
}

/**
 * A fresh sandbox; the project dir is a copy of `fixture` when given. Made inside a test, it is
 * removed when the test finishes; elsewhere (beforeAll, useSandbox) the caller calls cleanup().
 */
export function sandbox(options: { fixture?: string; prefix?: string /** written to hooks.yaml */; config?: string } = {}): Sandbox {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), options.prefix ?? "hookrun-test-")));
  const dir = path.join(root, "project");
  if (options.fixture) cpSync(options.fixture, dir, { recursive: true });
  else mkdirSync(dir);
  const env = {
    HOME: path.join(root, "home"),
    XDG_CONFIG_HOME: path.join(root, "config"),
    XDG_STATE_HOME: path.join(root, "state"),
    HOOKS_STATE_DIR: path.join(root, "state", "hookrun"),
    XDG_CACHE_HOME: path.join(root, "cache"),
  };
  mkdirSync(env.HOME);
  mkdirSync(env.XDG_CONFIG_HOME);
  const p = (rel: string): string => path.resolve(dir, rel);
  const sb: Sandbox = {
    root,
    dir,
    env,
    processEnv: cleanEnv(env),
    path: p,
    write(rel, text) {
      mkdirSync(path.dirname(p(rel)), { recursive: true });
      writeFileSync(p(rel), text);
      return p(rel);
    },
    userPath: (rel) => path.join(env.XDG_CONFIG_HOME, "hookrun", rel),
    load: (opts = {}) => loadConfig({ cwd: dir, env, ...opts }),
    async diagnostics(opts = {}) {
      try {
        await sb.load(opts);
      } catch (e) {
        if (e instanceof ConfigError) return e.diagnostics;
        throw e;
      }
      throw new Error("expected loadConfig to throw ConfigError");
    },
    cleanup: () => removeTree(root),
  };
  if (options.config !== undefined) sb.write("hooks.yaml", options.config);
  try {
    onTestFinished(() => sb.cleanup());
  } catch {
    // not inside a test: the caller cleans up
  }
  return sb;
}

/**
 * A bare project for an agent's e2e run: a fresh temp dir (its real path) holding `files`, parents
 * created, `*.sh` files made executable. The caller removes it (the e2e files keep a list for
 * afterAll, since their runs start in beforeAll, outside any test).
 */
export function writeProject(prefix: string, files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (rel.endsWith(".sh")) chmodSync(file, 0o755);
  }
  return dir;
}

/**
 * The per-file set-up: a fresh sandbox for each test, removed after it. With `survivors`, every
 * process the file starts is marked (hooks inherit the variable) and the file fails when a
 * marked process outlives it: the suite's "no hook process left behind" check. Call at the top
 * level of a test file; `current` is the running test's sandbox.
 */
export function useSandbox(options: { survivors?: boolean; prefix?: string } = {}): { readonly current: Sandbox; survivors: () => number[] } {
  const survivors = options.survivors ? markProcesses() : () => [];
  if (options.survivors) afterAll(() => expectNoSurvivors(survivors));
  let sb: Sandbox | undefined;
  beforeEach(() => {
    sb = sandbox({ prefix: options.prefix });
  });
  // Also removed by onTestFinished when made in the test's context; cleanup is idempotent.
  afterEach(() => {
    sb?.cleanup();
    sb = undefined;
  });
  return {
    get current() {
      if (!sb) throw new Error("useSandbox: no test is running");
      return sb;
    },
    survivors,
  };
}

/** Whether a process still lives (a zombie counts as dead: PID 1 here may never reap it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return process.platform !== "linux";
  }
}

/** Poll until `pid` is gone or `ms` passed; returns whether it is gone. */
export async function waitGone(pid: number, ms = 5000): Promise<boolean> {
  try {
    await waitFor(() => !alive(pid), { timeoutMs: ms, what: `process ${pid} to exit` });
    return true;
  } catch {
    return !alive(pid);
  }
}

/** The PID a hook wrote into `file`. */
export function readPid(file: string): number {
  return Number(readFileSync(file, "utf8").trim());
}

/**
 * Mark every process this test file spawns (hooks inherit the variable) and list the live ones
 * still carrying the mark.
 */
export function markProcesses(): () => number[] {
  const mark = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  process.env.HOOKRUN_TEST_MARK = mark;
  const needle = `HOOKRUN_TEST_MARK=${mark}\0`;
  return () => {
    const found: number[] = [];
    if (process.platform !== "linux") return found;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(needle) && alive(Number(entry))) found.push(Number(entry));
      } catch {
        // gone, or not ours
      }
    }
    return found;
  };
}

/** afterAll check: no marked process survives (waits a little for kills in flight). */
export async function expectNoSurvivors(survivors: () => number[]): Promise<void> {
  let left: number[] = [];
  try {
    await waitFor(() => (left = survivors()).length === 0, { timeoutMs: 4000, intervalMs: 100, what: "no marked process left" });
  } catch {
    const named = left.map((pid) => {
      let cmd = "?";
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim();
      } catch {
        // gone
      }
      return `${pid} (${cmd})`;
    });
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    throw new Error(`hook processes left behind: ${named.join(", ")}`);
  }
}
