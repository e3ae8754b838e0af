import { UsageError } from "../../errors.js";
import { formatDuration } from "../../report/formatText.js";
import { readRunLog } from "../../runner/readRunLog.js";
import { runLogFile } from "../../runner/runLog.js";
import { stateDir } from "../../state/stateDir.js";
import type { CliContext } from "../context.js";

/** `hooks log`: the last N runs (optionally of one session), as lines or a JSON array. */
export async function printLog(ctx: CliContext, opts: { n?: string; session?: string; json?: boolean }): Promise<number> {
  const n = opts.n === undefined ? 20 : Number(opts.n);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`-n ${opts.n}: expected a whole number ≥ 0`);
  const dir = stateDir(ctx.env);
  let records = readRunLog(dir);
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
    const hooks = r.hooks.map((h) => `${h.name} ${h.status}${h.exit_code !== null && h.exit_code !== 0 ? `(${h.exit_code})` : ""}`).join(", ");
    return `${r.time}  ${r.event}  session ${r.session_id}  ${formatDuration(r.duration_ms)}${r.blocked ? "  BLOCKED" : ""}  ${hooks}  ${r.project_dir}`;
  });
  ctx.stdout.write(lines.join("\n") + "\n");
  return 0;
}
