import { EVENTS } from "../events/catalog.js";
import type { ResolvedHook } from "./types.js";

const EVENT_RANK = new Map(EVENTS.map((e, i) => [e.name, i]));

/** Hooks by event (catalog order, then custom events by name), then run order: priority high first, ties in declaration order. */
export function sortHooks(hooks: readonly ResolvedHook[]): ResolvedHook[] {
  return [...hooks].sort(
    (a, b) =>
      (EVENT_RANK.get(a.event) ?? EVENTS.length) - (EVENT_RANK.get(b.event) ?? EVENTS.length) ||
      a.event.localeCompare(b.event) ||
      b.priority - a.priority ||
      a.order - b.order,
  );
}
