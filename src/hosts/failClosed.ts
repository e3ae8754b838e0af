import type { ResolvedConfig } from "../config/types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { dialectOf } from "../events/dialects.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { notRunResult } from "../runner/runHook.js";
import { eventGate } from "../runner/select.js";
import type { TriggerResult } from "../runner/types.js";

/**
 * Fail closed by choice (docs/fail-closed.md): on a gate event with a hook that asked
 * `on_failure: block`, anything that keeps hookrun from running that hook as configured blocks
 * the call, in the host's own contract, with a reason naming the cause and the fix. Without
 * such a hook, hookrun fails open and tells the user, as before.
 */

/** The flag `hooks install` adds to a dispatch entry of an event with such a hook: it fails closed even when the config cannot be read. */
export const FAIL_CLOSED_FLAG = "--fail-closed";

/** The name a block of hookrun's own goes by (in `blocked_by`, the run log, a host's "blocked by …"). */
export const HOOKRUN_GUARD = "hookrun";

/** Whether `event` can block at all (a gate event of the catalog, or a custom one declared `gate: true`). */
export function isGateEvent(event: string, config: ResolvedConfig | null): boolean {
  if (config) return eventGate(event, config) === "yes";
  return EVENT_BY_NAME.get(event)?.gate === "yes";
}

/**
 * Whether the config asks to fail closed on `event`: a gate event with an enabled hook of
 * `on_failure: block`, or of a dialect whose host fails closed there (agent-code's pre_tool_use).
 */
export function asksFailClosed(config: ResolvedConfig, event: string): boolean {
  return isGateEvent(event, config) && config.hooks.some((h) => h.event === event && h.enabled && (h.onFailure === "block" || dialectOf(h.dialect).failsClosedOn?.includes(event) === true));
}

/**
 * Whether files that do not load ask for `on_failure: block` anywhere in their text: a config that
 * no longer parses cannot say which hook asked, so any such line counts. A file that cannot be
 * read at all says nothing: the entry's `--fail-closed` (written while the config could be read)
 * and the file's last trusted version are what guard then.
 */
export function textAsksFailClosed(files: readonly string[]): boolean {
  for (const file of files) {
    let text: string;
    try {
      text = readBoundedText(file, READ_LIMITS.config, { what: "config file" });
    } catch {
      continue;
    }
    if (/\bon_failure["']?\s*:\s*["']?block\b/.test(text)) return true;
  }
  return false;
}

/** The reason of hookrun's own block: what kept it from running the hooks, and what fixes that. */
export function closedReason(cause: string, fix: string): string {
  return `hookrun blocked this because a hook asks to fail closed (on_failure: block) and it could not run: ${cause}; ${fix}`;
}

/** A result that blocks `event` with `reason`, made by hookrun itself: what a host renders when hookrun fails closed. */
export function failedClosedResult(event: string, sessionId: string, reason: string): TriggerResult {
  return {
    event,
    session_id: sessionId,
    duration_ms: 0,
    messages: [],
    blocked: true,
    blocked_by: HOOKRUN_GUARD,
    reason,
    continue: true,
    stop_reason: null,
    stopped_by: null,
    updated_input: null,
    hooks: [{ ...notRunResult(HOOKRUN_GUARD, "skipped"), status: "blocked", decision: "block", reason }],
    async_started: [],
    async_delivered: [],
    warnings: [],
  };
}
