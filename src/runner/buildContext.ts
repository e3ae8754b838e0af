import { EVENT_BY_NAME, pascalEventName } from "../events/catalog.js";
import type { HookContext } from "./types.js";

/**
 * The JSON object a hook reads on stdin (SPEC §4), without `hook` (added per hook): the fixed
 * fields first, then the caller's fields untouched, `stop_hook_active` defaulting to false.
 */
export function buildContext(event: string, context: HookContext, cwd: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const { session_id: _s, turn_count, last_assistant_message, cwd: ctxCwd, event: _e, hook_event_name: _h, hook: _hook, ...rest } = context;
  const out: Record<string, unknown> = {
    event,
    hook_event_name: pascalEventName(event),
    session_id: sessionIdOf(context, env),
    turn_count: typeof turn_count === "number" && Number.isInteger(turn_count) && turn_count >= 0 ? turn_count : 0,
    last_assistant_message: typeof last_assistant_message === "string" ? last_assistant_message : null,
    cwd: typeof ctxCwd === "string" && ctxCwd !== "" ? ctxCwd : cwd,
  };
  if (EVENT_BY_NAME.get(event)?.fields.includes("stop_hook_active")) out.stop_hook_active = rest.stop_hook_active ?? false;
  for (const key of Object.keys(rest)) if (!Object.hasOwn(out, key)) setOwn(out, key, rest[key]);
  return out;
}

/**
 * `obj[key] = value` that also works for a key named `__proto__` (a JSON object from a caller or
 * a hook may have one): it becomes an own field, as JSON.parse made it, never the object's prototype.
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One hook's stdin line: the base context plus `hook`, then a newline. */
export function hookInput(base: Record<string, unknown>, name: string, projectDir: string): string {
  return JSON.stringify({ ...base, hook: { name, project_dir: projectDir } }) + "\n";
}

/** The context's session_id, else $HOOKS_SESSION_ID, else "default". */
export function sessionIdOf(context: HookContext, env: NodeJS.ProcessEnv): string {
  const id = context.session_id;
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number") return String(id);
  return env.HOOKS_SESSION_ID || "default";
}
