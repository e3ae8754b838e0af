// The table is printed as Markdown so a real run can be pasted into the README unchanged.

function fmt(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  if (unit === "µs") return `${value.toFixed(2)} µs`;
  if (unit === "ms") return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;
  if (unit === "MiB") return `${value.toFixed(1)} MiB`;
  return String(value);
}

/** One printable cell per column for a row result. */
export function cells(row) {
  const r = row.result;
  if (row.status === "n/a" && row.reference?.value !== undefined)
    return [row.measure, `${fmt(row.reference.value, row.reference.unit)} (${row.referenceLabel})`, "n/a (not built yet)", "–", row.targetLabel, "n/a"];
  if (row.status !== "measured")
    return [row.measure, row.referenceLabel, row.status === "n/a" ? `n/a (${row.reason ?? "not built yet"})` : `error: ${row.error}`, "–", row.targetLabel, row.status === "n/a" ? "n/a" : "FAIL"];
  const ref = row.target.kind === "absolute" ? "–" : `${fmt(r.reference, r.unit)} (${row.referenceLabel})`;
  const ratio =
    row.target.kind === "ratio"
      ? `${r.ratio.toFixed(2)}×`
      : row.target.kind === "slack"
        ? `+${r.slack.toFixed(1)} MiB`
        : row.target.kind === "added"
          ? `+${(r.hookrun - r.reference).toFixed(1)} ms`
          : "–";
  return [row.measure, ref, fmt(r.hookrun, r.unit), ratio, row.targetLabel, row.pass ? "PASS" : "FAIL"];
}

export function markdownTable(header, rows) {
  const lines = [header, header.map(() => "---"), ...rows].map((cols) => `| ${cols.join(" | ")} |`);
  return lines.join("\n");
}
