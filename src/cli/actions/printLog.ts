import { UsageError } from "../../errors.js";
import { formatElapsed } from "../../report/formatText.js";
import { readRunLog, runLogFile, type RunLogRecord } from "../../runner/runLog.js";
import { stateDir } from "../../fs/stateDir.js";
import type { CliContext } from "../context.js";
import { terminalSafe } from "../../text.js";

/** `hooks log`: the last N runs (optionally of one session), as lines or a JSON array. */
export async function printLog(ctx: CliContext, opts: { n?: string; session?: string; json?: boolean }): Promise<number> {
  const n = opts.n === undefined ? 20 : Number(opts.n);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`-n ${opts.n}: expected a whole number ≥ 0`);
  const dir = stateDir(ctx.env);
  const log = readRunLog(dir);
  let records = log.records;
  // Malformed lines are not fatal: say how many were skipped, on stderr so --json stays parseable.
  if (log.skipped > 0) ctx.stderr.write(`hooks: skipped ${log.skipped} malformed line${log.skipped === 1 ? "" : "s"} in ${runLogFile(dir)}\n`);
  const deliveredAt = asyncDeliveries(records);
  if (opts.session !== undefined) records = records.filter((r) => r.session_id === opts.session);
  records = n === 0 ? [] : records.slice(-n);
  if (opts.json) {
    ctx.stdout.write(JSON.stringify(records, null, 2) + "\n");
    return 0;
  }
  if (records.length === 0) {
    ctx.stderr.write(`hooks: no runs recorded${opts.session !== undefined ? ` for session ${opts.session}` : ""} in ${runLogFile(dir)}\n`);
    return 0;
  }
  const lines = records.map((r) => {
    if (r.async) return asyncLine(r, deliveredAt);
    const hooks = r.hooks.map((h) => `${h.name} ${h.status}${h.exit_code !== null && h.exit_code !== 0 ? `(${h.exit_code})` : ""}`).join(", ");
    const started = r.async_started?.length ? `  async started: ${r.async_started.join(", ")}` : "";
    return `${r.time}  ${r.event}  session ${r.session_id}  ${formatElapsed(r.duration_ms)}${r.blocked ? "  BLOCKED" : ""}  ${hooks}${started}  ${r.project_dir}`;
  });
  // Names, ids and paths in the log came from configs and callers: shown escaped, as hook output is.
  ctx.stdout.write(lines.map((l) => terminalSafe(l)).join("\n") + "\n");
  return 0;
}

// An async run's line: it finished (status, exit code, duration), was delivered, or expired undelivered.
function asyncLine(r: RunLogRecord, deliveredAt: Map<string, string>): string {
  const h = r.hooks[0] ?? { name: "?", status: "?", exit_code: null, duration_ms: 0 };
  const delivered = deliveredAt.get(asyncKey(r));
  const what =
    r.async === "finished"
      ? `finished ${h.status}${h.exit_code !== null && h.exit_code !== 0 ? `(${h.exit_code})` : ""} in ${formatElapsed(h.duration_ms)}, ${delivered ? `delivered ${delivered}` : "not delivered yet"}`
      : r.async === "delivered"
        ? `delivered (${h.status})`
        : "expired undelivered after 24 h";
  return `${r.time}  ${r.event}  session ${r.session_id}  async ${h.name}: ${what}  (started ${r.started_at ?? "?"})  ${r.project_dir}`;
}

function asyncKey(r: RunLogRecord): string {
  return `${r.project_dir}\0${r.session_id}\0${r.hooks[0]?.name}\0${r.started_at}`;
}

// When each async run's result was delivered, from the log's "delivered" lines.
function asyncDeliveries(records: RunLogRecord[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of records) if (r.async === "delivered") out.set(asyncKey(r), r.time);
  return out;
}
