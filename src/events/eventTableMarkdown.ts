import { EVENTS } from "./catalog.js";

/** The README's event table (SPEC §3 layout), generated from the catalog so the two cannot drift. */
export function eventTableMarkdown(): string {
  const rows = EVENTS.map((e) =>
    [e.name, e.aliases.join(", "), e.fires, e.gate, e.matchField ?? "–", e.fields.join(", ")].join(" | "),
  );
  return ["| event | aliases | fires | gate | match field | event fields |", "|---|---|---|---|---|---|", ...rows.map((r) => `| ${r} |`.replace(/ {2,}/g, " "))].join("\n");
}
