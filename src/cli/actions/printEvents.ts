import { EVENTS } from "../../events/catalog.js";
import type { CliContext } from "../context.js";

/** `hooks events`: the catalog, as a table or JSON (same data as the README table). */
export async function printEvents(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  if (opts.json) {
    ctx.stdout.write(
      JSON.stringify(
        EVENTS.map((e) => ({ name: e.name, aliases: e.aliases, fires: e.fires, gate: e.gate, match_field: e.matchField, fields: e.fields })),
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  const rows = EVENTS.map((e) => [e.name, e.aliases.join(", ") || "-", e.gate, e.matchField ?? "-", e.fields.join(", ") || "-", e.fires]);
  const head = ["EVENT", "ALIASES", "GATE", "MATCH", "FIELDS", "FIRES"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  ctx.stdout.write([line(head), ...rows.map(line)].join("\n") + "\n");
  return 0;
}
