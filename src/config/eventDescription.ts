import type { EventInfo } from "../events/catalog.js";

/** The schema's description of an event key, so editors explain each event on completion. */
export function eventDescription(e: EventInfo): string {
  const gate = e.gate === "yes" ? "can block" : e.gate === "transform" ? "transform: hooks chain updated_input" : "cannot block";
  const match = e.matchField ? `matcher tests \`${e.matchField}\`` : "no match field";
  const fields = e.fields.length ? `context fields: ${e.fields.join(", ")}` : "no event fields";
  const aliases = e.aliases.length ? `; aliases: ${e.aliases.join(", ")}` : "";
  return `Fires: ${e.fires}. Gate: ${gate}; ${match}; ${fields}${aliases}.`;
}
