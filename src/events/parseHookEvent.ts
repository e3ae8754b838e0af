import { UsageError } from "../errors.js";
import { closestMatches } from "../text.js";
import { EVENTS, type EventInfo } from "./catalog.js";

/**
 * Normalise any spelling to the key used for lookup: PascalCase split, case folded,
 * `-`, `.` and spaces turned into `_` (so `PreToolUse`, `pre-tool-use`, `tool.execute.pre` work).
 */
export function normalizeEventName(input: string): string {
  return input
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[-.\s]+/g, "_")
    .replace(/_+/g, "_");
}

const builtinIndex = new Map<string, string>();
for (const e of EVENTS) {
  builtinIndex.set(normalizeEventName(e.name), e.name);
  for (const a of e.aliases) builtinIndex.set(normalizeEventName(a), e.name);
}

/** Every accepted spelling in canonical form plus aliases, for suggestions. */
function knownNames(custom: Iterable<string>): string[] {
  const names: string[] = [];
  for (const e of EVENTS) names.push(e.name, ...e.aliases);
  names.push(...custom);
  return names;
}

/**
 * Resolve a user-given event name to its canonical name. `custom` holds the names of custom
 * events declared in the config. Throws UsageError naming the closest events when unknown.
 */
export function parseHookEvent(input: string, custom: Iterable<string> = []): string {
  const found = tryParseHookEvent(input, custom);
  if (found !== null) return found;
  const suggestions = closestMatches(
    normalizeEventName(input),
    knownNames(custom).map((n) => n),
    3,
  )
    .map((n) => builtinIndex.get(normalizeEventName(n)) ?? n)
    .filter((n, i, all) => all.indexOf(n) === i);
  const hint = suggestions.length ? `; did you mean ${suggestions.map((s) => `\`${s}\``).join(" or ")}?` : "; run `hooks events` for the list";
  throw new UsageError(`unknown event \`${input}\`${hint}`, suggestions);
}

/** Like parseHookEvent but returns null for an unknown name. */
export function tryParseHookEvent(input: string, custom: Iterable<string> = []): string | null {
  const key = normalizeEventName(input);
  const builtin = builtinIndex.get(key);
  if (builtin) return builtin;
  for (const c of custom) if (normalizeEventName(c) === key) return c;
  return null;
}

/** Catalog entry of a built-in event, or null (custom events have none). */
export function eventInfo(name: string): EventInfo | null {
  return EVENTS.find((e) => e.name === name) ?? null;
}
