import { normalizeEventName, tryParseHookEvent } from "../events/parseHookEvent.js";

/** Normalised names of the custom events a file declares under `events:` with `custom: true`. */
export function customEvents(value: unknown): string[] {
  const events = (value as { events?: unknown } | undefined)?.events;
  if (!events || typeof events !== "object" || Array.isArray(events)) return [];
  const out: string[] = [];
  for (const [key, settings] of Object.entries(events)) {
    if (key.startsWith("x-") || tryParseHookEvent(key) !== null) continue;
    if ((settings as { custom?: unknown } | null)?.custom === true) out.push(normalizeEventName(key));
  }
  return out;
}
