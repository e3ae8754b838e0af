import path from "node:path";
import { findProjectFile } from "../../config/discover.js";
import { HookrunError, UsageError } from "../../errors.js";
import { normalizeEventName, tryParseHookEvent } from "../../events/parseHookEvent.js";
import { stateDir } from "../../fs/stateDir.js";
import { formatElapsed } from "../../report/formatText.js";
import { FAILURE_STATUSES } from "../../runner/runHook.js";
import { readRunLog, runLogFile, type RunLogRecord } from "../../runner/runLog.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { untilSignal } from "../signals.js";

// `hooks log`: what ran (docs/cli.md#hooks-log). The list of recent runs, one run in full
// (`hooks log ID`), a run as a `hooks test` fixture (`--fixture ID`), and runs as they happen
// (`--follow`), with the same filters for the list and the stream.

/** The options of `hooks log` (see the command table). */
export interface LogFlags {
  n?: string;
  session?: string;
  event?: string;
  host?: string;
  hook?: string;
  status?: string[];
  allProjects?: boolean;
  json?: boolean;
  pending?: boolean;
  fixture?: string;
  follow?: boolean;
}

/**
 * What `--status` accepts: a run's outcome (ok: every hook ran ok; blocked: the run blocked;
 * failed: a hook failed, timed out, could not start or gave invalid output), any hook status, or
 * expired: an async run whose result expired undelivered. An expired line matches only `expired`:
 * it may carry its result's own status (the library's and `hooks serve`'s in-memory backend keeps
 * it), but that outcome is the run's `finished` line, which the other statuses match.
 */
const STATUS_WORDS = ["ok", "blocked", "failed", "timeout", "timed_out", "spawn_error", "invalid_output", "skipped", "cancelled", "expired"];

type Filter = (r: RunLogRecord) => boolean;

export async function logCommand(ctx: CliContext, id: string | undefined, flags: LogFlags): Promise<number> {
  const modes = [id !== undefined && "ID", flags.fixture !== undefined && "--fixture", flags.follow && "--follow", flags.pending && "--pending"].filter(Boolean);
  if (modes.length > 1) throw new UsageError(`${modes.join(" and ")} cannot be combined: pick one`);
  const dir = stateDir(ctx.env);
  if (flags.pending) return (await import("./inspect.js")).printLog(ctx, flags);
  if (id !== undefined) return showRun(ctx, dir, id, flags);
  if (flags.fixture !== undefined) return printFixture(ctx, dir, flags.fixture);
  const n = flags.n === undefined ? (flags.follow ? 0 : 20) : Number(flags.n);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`-n ${flags.n}: expected a whole number ≥ 0`);
  const filter = runFilter(ctx, flags);
  if (flags.follow) return follow(ctx, dir, n, filter, flags);
  const { all, deliveredAt, records } = recentRuns(ctx, dir, n, filter);
  if (flags.json) {
    ctx.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    return EXIT.ok;
  }
  if (records.length === 0) {
    const filtered = all > 0 ? " matching the filters (this project's only; --all-projects for every project's)" : "";
    ctx.stderr.write(`hooks: no runs recorded${filtered} in ${runLogFile(dir)}\n`);
    return EXIT.ok;
  }
  // Names, ids and paths in the log came from configs and callers: shown escaped, as hook output is.
  ctx.stdout.write(`${records.map((r) => terminalSafe(runLine(r, deliveredAt, flags.allProjects === true))).join("\n")}\n`);
  return EXIT.ok;
}

/** The last `n` records that pass `filter`, how many records the log holds, and when each async run was delivered. */
function recentRuns(ctx: CliContext, dir: string, n: number, filter: Filter): { all: number; records: RunLogRecord[]; deliveredAt: Map<string, string> } {
  const log = readRunLog(dir);
  // Malformed lines are not fatal: say how many were skipped, on stderr so --json stays parseable.
  if (log.skipped > 0) ctx.stderr.write(`hooks: skipped ${log.skipped} malformed line${log.skipped === 1 ? "" : "s"} in ${runLogFile(dir)}\n`);
  return { all: log.records.length, records: n === 0 ? [] : log.records.filter(filter).slice(-n), deliveredAt: asyncDeliveries(log.records) };
}

/** The filters of the list and the stream: this project unless --all-projects, then each flag given. */
function runFilter(ctx: CliContext, flags: LogFlags): Filter {
  const tests: Filter[] = [];
  if (!flags.allProjects) {
    const projectDir = projectDirOf(ctx);
    tests.push((r) => r.project_dir === projectDir);
  }
  if (flags.session !== undefined) tests.push((r) => r.session_id === flags.session);
  if (flags.event !== undefined) {
    // Any spelling; a custom event (not in the catalog) matches by its normalised name.
    const want = tryParseHookEvent(flags.event) ?? normalizeEventName(flags.event);
    tests.push((r) => r.event === want || normalizeEventName(r.event) === want);
  }
  if (flags.host !== undefined) tests.push((r) => r.host === flags.host);
  if (flags.hook !== undefined) tests.push((r) => r.hooks.some((h) => h.name === flags.hook) || (r.async_started ?? []).includes(flags.hook as string));
  if (flags.status !== undefined) {
    const bad = flags.status.find((s) => !STATUS_WORDS.includes(s));
    if (bad !== undefined) throw new UsageError(`--status ${bad}: use ${STATUS_WORDS.join(", ")} (comma-separated or repeated: any of them)`);
    const expired = flags.status.includes("expired");
    const wanted = flags.status.map((s): Filter => {
      if (s === "expired") return () => false;
      if (s === "ok") return (r) => !r.blocked && r.hooks.length > 0 && r.hooks.every((h) => h.status === "ok");
      if (s === "blocked") return (r) => r.blocked;
      if (s === "failed") return (r) => r.hooks.some((h) => FAILURE_STATUSES.has(h.status as never));
      const status = s === "timeout" ? "timed_out" : s;
      return (r) => r.hooks.some((h) => h.status === status);
    });
    tests.push((r) => (r.async === "expired" ? expired : wanted.some((w) => w(r))));
  }
  return (r) => tests.every((t) => t(r));
}

/** The project dir runs of this project are logged under: where its hooks.yaml is (as the runner says), else the cwd. */
function projectDirOf(ctx: CliContext): string {
  try {
    const project = findProjectFile({ cwd: ctx.cwd, configPath: ctx.configPath, env: ctx.env });
    return project ? path.dirname(project) : ctx.cwd;
  } catch {
    // A --config or HOOKS_CONFIG that names no file: the log is still readable, for the cwd.
    return ctx.cwd;
  }
}

/** A run in one line: id, time, event, host, session, decision, duration, hooks (and project with --all-projects). */
function runLine(r: RunLogRecord, deliveredAt: Map<string, string>, withProject: boolean): string {
  const project = withProject ? `  ${r.project_dir}` : "";
  const id = r.id ?? "-";
  if (r.async) return `${id}  ${asyncLine(r, deliveredAt)}${project}`;
  const hooks = r.hooks.map((h) => `${h.name} ${h.status}${h.exit_code !== null && h.exit_code !== 0 ? `(${h.exit_code})` : ""}`).join(", ");
  const started = r.async_started?.length ? `  async started: ${r.async_started.join(", ")}` : "";
  const decision = r.decision ?? (r.blocked ? "block" : "-");
  return `${id}  ${r.time}  ${r.event}  ${r.host ?? "-"}  session ${r.session_id}  ${decision === "block" ? "BLOCKED" : decision}  ${formatElapsed(r.duration_ms)}  ${hooks || "-"}${started}${project}`;
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
  return `${r.time}  ${r.event}  session ${r.session_id}  async ${h.name}: ${what}  (started ${r.started_at ?? "?"})`;
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

/** The one record whose id is `id` or starts with it; a clear error when none or several are. */
function findRun(ctx: CliContext, dir: string, id: string): RunLogRecord {
  const log = readRunLog(dir);
  if (log.skipped > 0) ctx.stderr.write(`hooks: skipped ${log.skipped} malformed line${log.skipped === 1 ? "" : "s"} in ${runLogFile(dir)}\n`);
  const want = id.toLowerCase();
  const found = want === "" ? [] : log.records.filter((r) => r.id?.startsWith(want));
  if (found.length === 1) return found[0];
  const shown = terminalSafe(id);
  if (found.length === 0) throw new HookrunError(`no run ${shown} in ${runLogFile(dir)} (nor in the rotated runs.jsonl.1); \`hooks log\` lists runs with their ids`, { code: "run-log" });
  throw new HookrunError(`${found.length} runs have ids starting with ${shown} (${found.map((r) => r.id).join(", ")}); give more of the id`, { code: "run-log" });
}

/** `hooks log ID`: one run in full, as text or as its record (`--json`). */
function showRun(ctx: CliContext, dir: string, id: string, flags: LogFlags): number {
  const r = findRun(ctx, dir, id);
  if (flags.json) {
    ctx.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    return EXIT.ok;
  }
  const rows: [string, string][] = [
    ["run", r.id ?? "-"],
    ["time", r.time],
    ["project", r.project_dir],
    ["event", r.event],
    ["host", r.host ?? "- (not from an agent's payload)"],
    ["session", r.session_id],
    ["duration", formatElapsed(r.duration_ms)],
  ];
  if (r.async) rows.push(["async", `${r.async} (started ${r.started_at ?? "?"})`]);
  else rows.push(["decision", r.decision ?? (r.blocked ? "block" : "- (recorded by an older hookrun)")]);
  if (r.reason) rows.push(["reason", r.reason]);
  if (r.async_started?.length) rows.push(["async started", r.async_started.join(", ")]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => terminalSafe(`${k.padEnd(width)}  ${v}`));
  lines.push(r.hooks.length > 0 ? "hooks (in run order):" : "hooks: none ran");
  const nameWidth = Math.max(0, ...r.hooks.map((h) => h.name.length));
  const statusWidth = Math.max(0, ...r.hooks.map((h) => h.status.length));
  for (const h of r.hooks)
    lines.push(terminalSafe(`  ${h.name.padEnd(nameWidth)}  ${h.status.padEnd(statusWidth)}  ${h.exit_code === null ? "no exit code" : `exit ${h.exit_code}`}  ${formatElapsed(h.duration_ms)}`));
  if (r.context !== undefined) {
    lines.push(r.host ? `context (the payload ${terminalSafe(r.host)} sent):` : "context:");
    lines.push(
      ...JSON.stringify(r.context, null, 2)
        .split("\n")
        .map((l) => terminalSafe(`  ${l}`)),
    );
    if (r.env && Object.keys(r.env).length > 0) {
      lines.push(terminalSafe(`env (read by ${r.host ?? "the host"}'s adapter):`));
      for (const [name, value] of Object.entries(r.env)) lines.push(terminalSafe(`  ${name}=${value}`));
    }
  } else if (r.context_omitted) lines.push(terminalSafe(`context: not kept (${r.context_omitted})`));
  else lines.push("context: not recorded (opt-in: log.context in hooks.yaml, HOOKS_LOG_CONTEXT=1 or hooks run --record)");
  ctx.stdout.write(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

/** `hooks log --fixture ID`: the run as a `hooks test` fixture in YAML, on stdout. */
async function printFixture(ctx: CliContext, dir: string, id: string): Promise<number> {
  const r = findRun(ctx, dir, id);
  const { fixtureFromRun } = await import("../../prove/recordedFixture.js");
  const yaml = fixtureFromRun(r);
  // Meant for a file; shown on a terminal, it is escaped like everything else printed there.
  ctx.stdout.write(ctx.stdout.isTTY ? terminalSafe(yaml, { keepNewlines: true }) : yaml);
  return EXIT.ok;
}

/**
 * `hooks log --follow`: the last -n runs (none by default), then every run appended, one line
 * each (or one JSON object per line), until SIGINT/SIGTERM or until stdout is gone (a closed pipe:
 * `| head -1`). Runs of every agent and session of the project (every project with --all-projects).
 */
async function follow(ctx: CliContext, dir: string, n: number, filter: Filter, flags: LogFlags): Promise<number> {
  const { followRunLog } = await import("../../runner/followRunLog.js");
  let closed!: () => void;
  const stdoutGone = new Promise<void>((resolve) => (closed = resolve));
  const listed = new Set<string>();
  let deliveredAt = new Map<string, string>();
  const print = (r: RunLogRecord): void => {
    if (r.async === "delivered") {
      // Kept for the "delivered TIME" of finished lines; bounded, as a follow may run for days.
      if (deliveredAt.size >= 10_000) deliveredAt.delete(deliveredAt.keys().next().value as string);
      deliveredAt.set(asyncKey(r), r.time);
    }
    const line = flags.json ? JSON.stringify(r) : terminalSafe(runLine(r, deliveredAt, flags.allProjects === true));
    // A false write on a pipe is a reader gone (stdioWriter drops what follows): time to stop.
    if (!ctx.stdout.write(`${line}\n`) && !ctx.stdout.isTTY) closed();
  };
  const { signal, dispose } = untilSignal();
  // Started before the list is read: a run appended in between is then in both, and shown once.
  const follower = followRunLog(dir, {
    onRecord: (r) => {
      if (filter(r) && !(r.id !== undefined && listed.has(r.id))) print(r);
    },
  });
  try {
    const recent = recentRuns(ctx, dir, n, filter);
    deliveredAt = recent.deliveredAt;
    for (const r of recent.records) {
      if (r.id !== undefined) listed.add(r.id);
      print(r);
    }
    ctx.stderr.write(`hooks log: following ${runLogFile(dir)}${flags.allProjects ? "" : " (this project's runs)"}; Ctrl-C to stop\n`);
    await Promise.race([signal, stdoutGone]);
    return EXIT.ok;
  } finally {
    follower.stop();
    dispose();
  }
}
