import path from "node:path";
import { graceOf } from "../fs/processes.js";
import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import { hookInput, hookEnv } from "./context.js";
import { spawnHook, type SpawnedHook, type SpawnOutcome } from "./spawnHook.js";
import type { HookResult, HookStatus } from "./types.js";
import { type DialectCode, loadDialect } from "../dialects/load.js";
import { type DialectInfo, type DialectName, dialectOf } from "../events/dialects.js";

export interface RunHookOptions {
  /** Base environment (the runner's). */
  env: NodeJS.ProcessEnv;
  projectDir: string;
  gate: GateKind;
  /** Aborting it kills the hook's process group (status `cancelled`). */
  signal?: AbortSignal;
  /** Sees the spawned process right away (to cancel it, or wait for its leftovers). */
  onSpawn?: (spawned: SpawnedHook) => void;
}

/**
 * Run one hook to its result: spawn in its own process group with the context on stdin, its
 * timeout enforced, output parsed; a failure under `on_failure: block` on a gate event blocks.
 * The one spawn path of sync hooks, in-process async hooks and detached async workers.
 */
export async function runHook(hook: ResolvedHook, base: Record<string, unknown>, options: RunHookOptions): Promise<HookResult> {
  const callerCwd = base.cwd as string;
  const dialect = dialectOf(hook.dialect);
  const code = await loadDialect(dialect.name as DialectName);
  // A hook's `cwd` is relative to its declaring file's directory; without one, Claude Code (and
  // the hosts built on its contract) runs a hook in the session's working directory, hookrun in the declaring file's.
  const dir = hook.dir ?? callerCwd;
  const cwd = hook.cwd ? path.resolve(dir, hook.cwd) : dialect.sessionCwd ? callerCwd : dir;
  const useShell = hook.command !== undefined;
  const input = code.stdin(base, hook.event);
  const argv = hook.args ?? [];
  const spawned = spawnHook({
    file: useShell ? hook.shell : argv[0],
    args: useShell ? ["-c", hook.command as string] : argv.slice(1),
    viaShell: useShell,
    cwd,
    env: dialectEnv(hookEnv(options.env, hook, base, options.projectDir), code.env?.(input, hook.event, options.projectDir, base)),
    input: hookInput(input, hook.name, options.projectDir),
    timeoutMs: hook.timeoutMs,
    maxOutput: hook.maxOutput,
    // Claude Code lets a hook's background jobs finish; hookrun bounds them by the hook's timeout.
    keepBackground: dialect.keepBackground === true,
  });
  options.onSpawn?.(spawned);
  const cancel = (): void => spawned.cancel(graceOf(options.signal));
  options.signal?.addEventListener("abort", cancel, { once: true });
  if (options.signal?.aborted) cancel();
  const outcome = await spawned.outcome;
  // A claude hook's background jobs outlive its process: an abort still reaches them until they end.
  void spawned.reaped.then(() => options.signal?.removeEventListener("abort", cancel));
  const result = hookResult(hook, outcome, options.gate, { info: dialect, code }, base);
  if (dialect.host !== null) result.dialect = dialect.name;
  const failsClosed = hook.onFailure === "block" || dialect.failsClosedOn?.includes(hook.event) === true;
  if (options.gate === "yes" && failsClosed && FAILURE_STATUSES.has(result.status)) {
    result.decision = "block";
    const why = hook.onFailure === "block" ? "has on_failure: block" : `is written for ${dialect.title}, which refuses the call when a hook fails here`;
    result.reason = `hook ${hook.name} ${result.status === "timed_out" ? "timed out" : result.status === "spawn_error" ? "could not run" : "failed"} and ${why} (${result.error})`;
  }
  return result;
}

/** The hook's environment with its dialect's host variables added (those already set are kept). */
function dialectEnv(env: NodeJS.ProcessEnv, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  if (extra) for (const [k, v] of Object.entries(extra)) if (env[k] === undefined) env[k] = v;
  return env;
}

/** Statuses that count as a failure of the hook (docs/running-hooks.md#when-a-hook-fails). */
export const FAILURE_STATUSES: ReadonlySet<HookStatus> = new Set(["failed", "timed_out", "spawn_error", "invalid_output"]);

/** The result of a hook that did not run (status skipped or cancelled). */
export function notRunResult(name: string, status: "skipped" | "cancelled", error: string | null = null): HookResult {
  return { name, status, exit_code: null, signal: null, duration_ms: 0, stdout: "", stderr: "", truncated: false, messages: [], decision: null, error, warnings: [] };
}

/** The result of a hook whose run failed outside the hook (its runner threw, its worker was lost). */
export function failedResult(name: string, error: string, durationMs: number): HookResult {
  return { ...notRunResult(name, "skipped", error), status: "failed", duration_ms: durationMs };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n").pop() ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Turn how a hook's process ended into its result (docs/running-hooks.md#when-a-hook-fails): a timeout, a signal or a shell's
 * 127/126 (a spawn error) is a failure in every dialect; the exit code and the output are read by
 * the hook's dialect (src/dialects/): hookrun's reads exit 0 and 2 (any other code fails), Claude
 * Code's reads JSON on every code.
 */
export function hookResult(hook: ResolvedHook, outcome: SpawnOutcome, gate: GateKind, dialect: { info: DialectInfo; code: DialectCode }, base?: Record<string, unknown>): HookResult {
  const r = readOutcome(hook, outcome, gate, dialect, base);
  // No bound opens a guard (docs/limits.md): on a gate event, output cut at max_output may have
  // lost the decision after the cut, so a hook that otherwise passed failed (on_failure: block blocks).
  if (gate === "yes" && r.truncated && r.status === "ok" && r.decision !== "block")
    return {
      ...r,
      status: "invalid_output",
      error: `its output passed max_output (${hook.maxOutput} bytes) on a gate event, so a decision after the cut would be lost: print less, or raise max_output`,
    };
  return r;
}

function readOutcome(hook: ResolvedHook, outcome: SpawnOutcome, gate: GateKind, dialect: { info: DialectInfo; code: DialectCode }, base?: Record<string, unknown>): HookResult {
  const r: HookResult = {
    name: hook.name,
    status: "ok",
    exit_code: outcome.exitCode,
    signal: outcome.signal,
    duration_ms: outcome.durationMs,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    truncated: outcome.truncated,
    messages: [],
    decision: null,
    error: null,
    warnings: [],
  };
  if (outcome.end === "spawn_error") return { ...r, status: "spawn_error", error: outcome.error };
  if (outcome.end === "timed_out") return { ...r, status: "timed_out", error: `timed out after ${seconds(hook.timeoutMs)}` };
  if (outcome.end === "cancelled") return { ...r, status: "cancelled", error: "cancelled: the runner was closed" };
  if (outcome.signal) return { ...r, status: "failed", error: `killed by ${outcome.signal}` };
  const code = outcome.exitCode ?? 0;
  if (hook.command !== undefined && (code === 127 || code === 126) && !dialect.info.readsShellCodes) {
    const what = code === 127 ? "command not found" : "command not executable";
    const detail = firstLine(outcome.stderr);
    return { ...r, status: "spawn_error", error: `${what} (exit ${code})${detail ? `: ${detail}` : ""}` };
  }
  // Claude Code reads a hook's JSON whatever its exit code; hookrun's own rules read it on 0 and 2.
  if (code !== 0 && code !== 2 && !dialect.info.readsEveryExit) {
    const detail = firstLine(outcome.stderr);
    return { ...r, status: "failed", error: `exit code ${code}${detail ? `: ${detail}` : ""}` };
  }
  return dialect.code.readExit(r, hook, code, gate, base);
}
