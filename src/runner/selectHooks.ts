import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import type { HookContext } from "./types.js";
import { matchesMatcher } from "../config/matcher.js";
import { matchesPaths } from "./matchesPaths.js";

export interface SelectOptions {
  env: NodeJS.ProcessEnv;
  /** Where a relative context `path` is resolved when the context has no `cwd`. */
  cwd: string;
  only?: string[];
  skip?: string[];
}

/** HOOKS=0 / false / off disables every hook for one invocation. */
export function hooksDisabledByEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env.HOOKS?.trim().toLowerCase();
  return v === "0" || v === "false" || v === "off";
}

/** The names HOOKS_DISABLED=a,b turns off for one invocation, or null. */
export function namesDisabledByEnv(env: NodeJS.ProcessEnv): Set<string> | null {
  return env.HOOKS_DISABLED ? new Set(env.HOOKS_DISABLED.split(",").map((s) => s.trim())) : null;
}

/**
 * The hooks of `candidates` (already those of the canonical event) that run for this context:
 * enabled, not named in HOOKS_DISABLED, kept by --only/--skip, matcher and paths passing.
 */
export function selectHooks(candidates: ResolvedHook[], event: string, context: HookContext, config: ResolvedConfig, options: SelectOptions): ResolvedHook[] {
  if (candidates.length === 0 || hooksDisabledByEnv(options.env)) return [];
  const disabled = namesDisabledByEnv(options.env);
  const only = options.only?.length ? new Set(options.only) : null;
  const skip = options.skip?.length ? new Set(options.skip) : null;
  const matchField = EVENT_BY_NAME.get(event)?.matchField ?? null;
  const cwd = typeof context.cwd === "string" && context.cwd ? context.cwd : options.cwd;
  return candidates.filter((h) => {
    if (!h.enabled || disabled?.has(h.name) || (only && !only.has(h.name)) || skip?.has(h.name)) return false;
    if (h.matcher !== undefined && matchField !== null && !matchesMatcher(h.matcher, context[matchField])) return false;
    if (h.paths?.length && !matchesPaths(h.paths, context.path, cwd, config.projectDir)) return false;
    return true;
  });
}
