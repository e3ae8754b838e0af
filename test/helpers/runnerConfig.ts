import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach } from "vitest";
import type { ResolvedConfig, ResolvedEventSettings, ResolvedHook } from "../../src/config/types.js";

/** A resolved hook with the loader's defaults, for tests that build configs in code. */
export function hook(name: string, event: string, fields: Partial<ResolvedHook> = {}): ResolvedHook {
  const loc = { file: "/test/hooks.yaml", line: 1, col: 1, layer: "project" as const };
  return {
    name, event, priority: 0, async: false, timeoutMs: 10_000, enabled: true, env: {}, dir: null, shell: "sh",
    onFailure: "continue", maxOutput: 1024 * 1024, order: 0, source: loc, enabledSource: loc, sources: [loc], ...fields,
  };
}

/** A config holding `hooks` (declaration order = array order unless `order` is given). */
export function config(projectDir: string, hooks: ResolvedHook[], events: Record<string, Partial<ResolvedEventSettings>> = {}): ResolvedConfig {
  return {
    projectDir,
    files: [],
    hooks: hooks.map((h, i) => ({ ...h, order: h.order || i, dir: h.dir ?? projectDir })),
    events: Object.fromEntries(Object.entries(events).map(([k, v]) => [k, { parallel: false, custom: false, ...v }])),
    warnings: [],
  };
}

/** A temp dir removed by the returned cleanup. */
export function tempDir(prefix = "hookrun-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

export function writeFile(file: string, text: string): string {
  writeFileSync(file, text);
  return file;
}

/**
 * Mark every process this test file spawns (hooks inherit the variable) and list the live ones
 * still carrying the mark: the suite-level "no hook process left behind" check.
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

/** afterAll check: no process marked by this file survives (waits a little for kills in flight). */
export async function expectNoSurvivors(survivors: () => number[]): Promise<void> {
  const until = Date.now() + 4000;
  let left = survivors();
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = survivors();
  }
  if (left.length) {
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    throw new Error(`hook processes left behind: ${left.join(", ")}`);
  }
}

/**
 * The per-file set-up of the runner tests: a fresh temp dir (its real path, so paths compare
 * equal to what hooks see) for each test, removed after it, and the file-level check that no
 * hook process survives. Call at the top level of a test file.
 */
export function useRunnerSandbox(): { readonly dir: string } {
  const survivors = markProcesses();
  afterAll(() => expectNoSurvivors(survivors));
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    tmp = tempDir();
    tmp.dir = realpathSync(tmp.dir);
  });
  afterEach(() => tmp.cleanup());
  return {
    get dir() {
      return tmp.dir;
    },
  };
}
