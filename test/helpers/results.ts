import type { AsyncDelivery, HookResult, TriggerResult } from "../../src/runner/types.js";

/** A hook result with every field filled: tests say only what matters to them. */
export function hookResult(name: string, fields: Partial<HookResult> = {}): HookResult {
  return {
    name,
    status: "ok",
    exit_code: 0,
    signal: null,
    duration_ms: 12,
    stdout: "",
    stderr: "",
    truncated: false,
    messages: [],
    decision: null,
    error: null,
    warnings: [],
    ...fields,
  };
}

/** A trigger result with every field filled. */
export function triggerResult(event: string, hooks: HookResult[], fields: Partial<TriggerResult> = {}): TriggerResult {
  return {
    event,
    session_id: "s1",
    duration_ms: 40,
    messages: hooks.flatMap((h) => h.messages.map((m) => ({ ...m, hook: h.name }))),
    blocked: false,
    blocked_by: null,
    reason: null,
    continue: true,
    stop_reason: null,
    stopped_by: null,
    updated_input: null,
    hooks,
    async_started: [],
    async_delivered: [],
    warnings: [],
    ...fields,
  };
}

/** A finished async result of session s1 on stop, with one message (its name), finished now. */
export function asyncDelivery(name: string, fields: Partial<AsyncDelivery> = {}): AsyncDelivery {
  const now = new Date().toISOString();
  return { ...hookResult(name, { duration_ms: 5, messages: [{ role: "system", content: name }] }), event: "stop", session_id: "s1", started_at: now, finished_at: now, ...fields };
}
