import { tryParseHookEvent } from "../events/parseHookEvent.js";
import type { ResolvedEventSettings } from "./types.js";

/** `events:` of every layer merged key by key (later layers win), under canonical names. */
export function mergeEventSettings(values: unknown[], custom: readonly string[]): Record<string, ResolvedEventSettings> {
  // No prototype: event names are user text, and a custom event called `constructor` must not
  // find Object.prototype.constructor here (or in any `config.events[name]` downstream).
  const merged: Record<string, ResolvedEventSettings> = Object.create(null);
  for (const value of values) {
    const events = (value as { events?: unknown } | undefined)?.events;
    if (!events || typeof events !== "object" || Array.isArray(events)) continue;
    for (const [key, raw] of Object.entries(events)) {
      if (key.startsWith("x-")) continue;
      const name = tryParseHookEvent(key, custom);
      if (name === null) continue;
      const s = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
      const prev: ResolvedEventSettings = merged[name] ?? { parallel: false, custom: custom.includes(name) };
      const next: ResolvedEventSettings = { ...prev };
      if (typeof s.parallel === "boolean") next.parallel = s.parallel;
      if (typeof s.description === "string") next.description = s.description;
      if (typeof s.gate === "boolean") next.gate = s.gate;
      merged[name] = next;
    }
  }
  return merged;
}
