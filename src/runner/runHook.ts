import path from "node:path";
import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import { hookInput } from "./buildContext.js";
import { hookEnv } from "./hookEnv.js";
import { FAILURE_STATUSES, hookResult } from "./hookResult.js";
import { spawnHook, type SpawnedHook } from "./spawnHook.js";
import type { HookResult } from "./types.js";

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
  const dir = hook.dir ?? callerCwd;
  const useShell = hook.command !== undefined;
  const argv = hook.args ?? [];
  const spawned = spawnHook({
    file: useShell ? hook.shell : argv[0],
    args: useShell ? ["-c", hook.command as string] : argv.slice(1),
    viaShell: useShell,
    cwd: hook.cwd ? path.resolve(dir, hook.cwd) : dir,
    env: hookEnv(options.env, hook, base, options.projectDir),
    input: hookInput(base, hook.name, options.projectDir),
    timeoutMs: hook.timeoutMs,
    maxOutput: hook.maxOutput,
  });
  options.onSpawn?.(spawned);
  const cancel = (): void => spawned.cancel();
  options.signal?.addEventListener("abort", cancel, { once: true });
  if (options.signal?.aborted) cancel();
  const outcome = await spawned.outcome;
  options.signal?.removeEventListener("abort", cancel);
  const result = hookResult(hook, outcome, options.gate);
  if (options.gate === "yes" && hook.onFailure === "block" && FAILURE_STATUSES.has(result.status)) {
    result.decision = "block";
    result.reason = `hook ${hook.name} ${result.status === "timed_out" ? "timed out" : result.status === "spawn_error" ? "could not run" : "failed"} and has on_failure: block (${result.error})`;
  }
  return result;
}
