import type { ResolvedConfig } from "../config/types.js";
import { EVENTS } from "../events/catalog.js";

/** GET /v1/events: the built-in catalog (as `hooks events --json`) plus the config's custom events. */
export function describeEvents(config: ResolvedConfig): Record<string, unknown>[] {
  const builtin = EVENTS.map((e) => ({ name: e.name, aliases: e.aliases, fires: e.fires, gate: e.gate, match_field: e.matchField, fields: e.fields, custom: false }));
  const custom = Object.entries(config.events)
    .filter(([, s]) => s.custom)
    .map(([name, s]) => ({ name, aliases: [], fires: s.description ?? "", gate: s.gate ? "yes" : "no", match_field: null, fields: [], custom: true }));
  return [...builtin, ...custom];
}
