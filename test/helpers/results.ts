import os from "node:os";
import { createRunner } from "../../src/runner/createRunner.js";
import type { AsyncDelivery, HookResult, TriggerResult } from "../../src/runner/types.js";
import { config, hook } from "./runnerConfig.js";

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

/**
 * The two ways a native hook blocks after the tool ran, each run by the runner on `event`: exit 2
 * with `reason` on stderr, and a JSON `{"decision":"block","reason":…}` on exit 0. Both are
 * feedback for the model, so every host must answer them alike.
 */
export async function afterToolBlocks(reason: string, event = "post_tool_use"): Promise<{ exit2: TriggerResult; json: TriggerResult }> {
  const dir = os.tmpdir();
  const run = async (command: string) => {
    const runner = createRunner(config(dir, [hook("lint", event, { command })]), { runLog: false, cwd: dir });
    try {
      return await runner.trigger(event, { session_id: "s1", tool_name: "Edit", tool_input: { file_path: "src/a.ts" } });
    } finally {
      await runner.close();
    }
  };
  const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  return {
    exit2: await run(`printf '%s\\n' ${quoted(reason)} >&2; exit 2`),
    json: await run(`printf '%s' ${quoted(JSON.stringify({ decision: "block", reason }))}`),
  };
}
