import type { ResolvedConfig } from "../config/types.js";
import { EVENT_BY_NAME, type GateKind } from "../events/catalog.js";

/** Gate kind of a canonical event: the catalog's, or for a custom event its `gate` setting. */
export function eventGate(event: string, config: ResolvedConfig): GateKind {
  const info = EVENT_BY_NAME.get(event);
  if (info) return info.gate;
  return config.events[event]?.gate ? "yes" : "no";
}
