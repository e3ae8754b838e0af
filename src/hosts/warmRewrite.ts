import type { HostEntry } from "./types.js";

/**
 * The host's command entries rewritten for a warm mode (http entries, `mcp_tool` entries): each
 * hook of each entry becomes what `toHook` makes of it (matchers kept), except on the events in
 * `commandOnly` and on events with an asyncRewake entry, which keep their command entries (that
 * entry runs in the host's background, and the main entry's `--skip-rewake` has no place in a
 * warm call: docs/async.md#rewake).
 */
export function rewriteForWarm(
  entries: Record<string, HostEntry[]>,
  commandOnly: ReadonlySet<string>,
  toHook: (hook: Record<string, unknown>, hostEvent: string) => Record<string, unknown>,
): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const [hostEvent, list] of Object.entries(entries)) {
    const rewakes = list.some((e) => Array.isArray(e.hooks) && (e.hooks as Record<string, unknown>[]).some((h) => h.asyncRewake === true));
    out[hostEvent] = commandOnly.has(hostEvent) || rewakes ? list : list.map((entry) => ({ ...entry, hooks: (entry.hooks as Record<string, unknown>[]).map((h) => toHook(h, hostEvent)) }));
  }
  return out;
}
