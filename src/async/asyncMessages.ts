import type { AsyncDelivery, Message } from "../runner/types.js";

/** The top-level messages of delivered async results: each tagged with its hook and `async: true`. */
export function asyncMessages(delivered: AsyncDelivery[]): Message[] {
  if (delivered.length === 0) return [];
  return delivered.flatMap((d) => d.messages.map((m) => ({ ...m, hook: d.name, async: true })));
}
