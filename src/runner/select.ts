import os from "node:os";
import path from "node:path";
import picomatch from "picomatch";
import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { EVENT_BY_NAME, type GateKind, matchValue } from "../events/catalog.js";
import type { HookContext } from "./types.js";
import { matchesMatcher } from "../config/matcher.js";
import { dialectOf } from "../events/dialects.js";
import { pathsFiles, ifRuleMatches } from "./permissionRule.js";

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
 * enabled, not named in HOOKS_DISABLED, kept by --only/--skip, matcher, `if` and paths passing.
 */
export function selectHooks(candidates: ResolvedHook[], event: string, context: HookContext, config: ResolvedConfig, options: SelectOptions): ResolvedHook[] {
  if (candidates.length === 0 || hooksDisabledByEnv(options.env)) return [];
  const disabled = namesDisabledByEnv(options.env);
  const only = options.only?.length ? new Set(options.only) : null;
  const skip = options.skip?.length ? new Set(options.skip) : null;
  const info = EVENT_BY_NAME.get(event);
  const cwd = typeof context.cwd === "string" && context.cwd ? context.cwd : options.cwd;
  return candidates.filter((h) => {
    if (!h.enabled || disabled?.has(h.name) || (only && !only.has(h.name)) || skip?.has(h.name)) return false;
    if (h.matcher !== undefined && info?.matchField && !matchesMatcher(h.matcher, matchValue(info, context))) return false;
    if (h.if !== undefined && !ifRuleMatches(h.if, event, context, { cwd, projectDir: config.projectDir, home: options.env.HOME || os.homedir() })) return false;
    if (h.paths?.length && !pathsFiles(context).some((f) => matchesPaths(h.paths!, f, cwd, config.projectDir))) return false;
    return true;
  });
}

const cache = new Map<string, (p: string) => boolean>();

/**
 * Whether the context's `path` matches one of the globs, relative to the project dir (a relative
 * `path` is first resolved against the context's cwd). No `path` never matches.
 */
export function matchesPaths(globs: string[], filePath: unknown, cwd: string, projectDir: string): boolean {
  if (typeof filePath !== "string" || filePath === "") return false;
  const rel = path.relative(projectDir, path.resolve(cwd, filePath)).split(path.sep).join("/");
  const key = globs.join("\0");
  let test = cache.get(key);
  if (!test) {
    test = picomatch(globs, { dot: true });
    cache.set(key, test);
  }
  return test(rel);
}

/** Priority descending, then declaration order (user, project, local; file order). */
export function orderHooks(hooks: ResolvedHook[]): ResolvedHook[] {
  return [...hooks].sort((a, b) => b.priority - a.priority || a.order - b.order);
}

/** The hooks a trigger of `event` (canonical) would run for `context`, in run order (for --dry-run). */
export function planHooks(config: ResolvedConfig, event: string, context: HookContext, options: SelectOptions): ResolvedHook[] {
  return orderHooks(
    selectHooks(
      config.hooks.filter((h) => h.event === event),
      event,
      context,
      config,
      options,
    ),
  );
}

/** Gate kind of a canonical event: the catalog's, or for a custom event its `gate` setting. */
export function eventGate(event: string, config: ResolvedConfig): GateKind {
  const info = EVENT_BY_NAME.get(event);
  if (info) return info.gate;
  return config.events[event]?.gate ? "yes" : "no";
}

/**
 * The groups an event's ordered sync hooks run in (docs/running-hooks.md#which-hooks-run-and-in-what-order): one hook each, or, on a
 * `parallel: true` event, the hooks of equal priority; Claude Code runs all matching hooks of an
 * event at once, and all of them even when one blocks, so consecutive hooks of such a dialect
 * (claude, and the hosts that run an event's hooks concurrently) and equal priority form one group too.
 */
export function runGroups(hooks: ResolvedHook[], parallel: boolean, gate: GateKind): ResolvedHook[][] {
  const groups: ResolvedHook[][] = [];
  for (let i = 0; i < hooks.length; ) {
    let j = i + 1;
    if (parallel) while (j < hooks.length && hooks[j].priority === hooks[i].priority) j++;
    else if (dialectOf(hooks[i].dialect).parallel && gate !== "transform") while (j < hooks.length && hooks[j].dialect === hooks[i].dialect && hooks[j].priority === hooks[i].priority) j++;
    groups.push(hooks.slice(i, j));
    i = j;
  }
  return groups;
}
