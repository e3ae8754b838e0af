// Row 8: a hook that prints 200 MiB must not cost 200 MiB: bytes past max_output are dropped as
// they arrive (on an event that cannot block: on a gate event a cut output fails the hook, docs/limits.md). Peak RSS of a process running one trigger, against an idle Node plus max_output.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fileURLToPath } from "node:url";
import { median, summarize, alternate } from "../lib/stats.mjs";
import { project } from "../lib/fixtures.mjs";
import { cliPath } from "../lib/cli.mjs";
import { timeProcess } from "../lib/timeProcess.mjs";

const BYTES = 200 * 1024 * 1024;
const MAX_OUTPUT = 1024 * 1024;
const SLACK_MIB = 64;
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "../lib/rssChild.mjs");

export async function bigOutput({ root, quick }) {
  const command = `yes hookrun-bench-output-line | head -c ${BYTES}`;
  const fixture = project(`version: 1\ndefaults: { max_output: ${MAX_OUTPUT} }\nhooks:\n  notification:\n    - name: flood\n      command: ${JSON.stringify(command)}\n`);
  const idle = async () => {
    const r = await timeProcess(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"], { env: fixture.env });
    return Number(r.stdout) / 1024;
  };
  const libUrl = pathToFileURL(path.join(root, "dist/index.js")).href;
  const runs = [];
  const peak = async () => {
    const r = await timeProcess(process.execPath, [CHILD, libUrl, fixture.dir, fixture.state], { env: fixture.env, cwd: fixture.dir });
    let out;
    try {
      out = JSON.parse(r.stdout);
    } catch {
      throw new Error(`RSS child exited ${r.code}: ${r.stderr.trim().slice(-500)}`);
    }
    if (out.status !== "ok" || !out.truncated) throw new Error(`flood hook: status ${out.status}, truncated ${out.truncated}, ${out.error ?? ""}`);
    runs.push({ ...out, ms: r.ms });
    return out.max_rss_kib / 1024;
  };
  const [ref, sub] = await alternate(quick ? 1 : 5, idle, peak, 0);
  const allowed = median(ref) + MAX_OUTPUT / 1024 / 1024 + SLACK_MIB;
  const detail = { node_idle_mib: summarize(ref), hookrun_peak_mib: summarize(sub), bytes_printed: BYTES, max_output: MAX_OUTPUT, runs };
  // For context: the same hook through the CLI, peak RSS as /usr/bin/time reports it.
  if (existsSync("/usr/bin/time")) {
    const r = await timeProcess("/usr/bin/time", ["-f", "%M", process.execPath, cliPath(root), "--no-user-config", "--trust", "run", "notification"], { env: fixture.env, cwd: fixture.dir });
    const kib = Number(r.stderr.trim().split("\n").pop());
    if (Number.isFinite(kib)) detail.cli_peak_mib = kib / 1024;
  }
  return {
    reference: median(ref) + MAX_OUTPUT / 1024 / 1024,
    // A peak is a worst case: the row reports (and judges) the highest of the runs.
    hookrun: Math.max(...sub),
    unit: "MiB",
    slack: Math.max(...sub) - (median(ref) + MAX_OUTPUT / 1024 / 1024),
    pass: Math.max(...sub) <= allowed,
    detail,
    note: `highest of ${sub.length} runs (median ${median(sub).toFixed(1)} MiB); allowed ${allowed.toFixed(1)} MiB${detail.cli_peak_mib ? `; via CLI ${detail.cli_peak_mib.toFixed(1)} MiB` : ""}`,
  };
}
