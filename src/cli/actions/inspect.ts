import { assertConfigFound } from "../../config/discover.js";
import { displayFile, formatDiagnostic } from "../../errors.js";
import { formatDuration as formatTimeout } from "../../config/units.js";
import { loadConfig } from "../../config/loadConfig.js";
import { sortHooks } from "../../config/layers.js";
import type { ResolvedConfig, ResolvedHook, SourceLocation } from "../../config/types.js";
import { ConfigError, UsageError } from "../../errors.js";
import { EVENTS } from "../../events/catalog.js";
import { parseHookEvent } from "../../events/parseHookEvent.js";
import { formatElapsed } from "../../report/formatText.js";
import { configSummary, disabledByEnv, eventJson, hookJson, validationJson } from "../../report/json.js";
import { readRunLog } from "../../runner/runLog.js";
import { listUndeliveredAsync, type UndeliveredAsync } from "../../async/sweep.js";
import { ASYNC_EXPIRY_MS, projectKey } from "../../async/paths.js";
import path from "node:path";
import { runLogFile, type RunLogRecord } from "../../runner/runLog.js";
import { stateDir } from "../../fs/stateDir.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";

// The read-only commands: what the config says (validate, list), the event catalog (events)
// and what ran (log).

/** loadConfig with the global flags of the CLI (-C, --config / HOOKS_CONFIG, --no-user-config). */
export function loadCliConfig(ctx: CliContext): Promise<ResolvedConfig> {
  return loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
}

/** `hooks validate`: every diagnostic of every layer; exit 0 when valid (warnings allowed), else 78. */
export async function validateConfig(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  const here = ctx.cwd;
  try {
    const config = await loadCliConfig(ctx);
    assertConfigFound(config, ctx.cwd);
    // hooks install's entries that no longer match hooks.yaml (an event added, a timeout raised) are warnings.
    const install = await import("./install.js");
    for (const h of install.staleHosts(ctx, config)) {
      const message = `hookrun's entries are stale for ${h.stale.join(", ")} (hooks.yaml changed since \`hooks install ${h.host}\`); run \`hooks install ${h.host}\``;
      config.warnings.push({ file: h.file, line: 1, col: 1, severity: "warning", message });
    }
    // A host's own setup around installed entries (agent-code: a layer hiding them, hooks outlasting its timeout).
    for (const h of await install.hostSetupWarnings(ctx, config)) config.warnings.push({ file: h.file, line: 1, col: 1, severity: "warning", message: h.message });
    // Warm mode with no server: the host refuses every guarded action until one answers.
    for (const h of await install.silentWarmServers(config)) {
      const message = `hookrun's entries call \`hooks serve\` on 127.0.0.1:${h.port} (warm mode) and nothing answers there: guarded actions are refused until \`hooks serve --port ${h.port}\` runs`;
      config.warnings.push({ file: h.file, line: 1, col: 1, severity: "warning", message });
    }
    if (opts.json) {
      ctx.stdout.write(`${JSON.stringify(validationJson(config, null, here), null, 2)}\n`);
      return EXIT.ok;
    }
    for (const w of config.warnings) ctx.stderr.write(`${formatDiagnostic(w, here)}\n`);
    const n = config.hooks.length;
    const files = config.files.map((f) => displayFile(f.path, here));
    const warned = config.warnings.length ? ` (${config.warnings.length} warning${config.warnings.length === 1 ? "" : "s"})` : "";
    ctx.stdout.write(`${terminalSafe(`valid: ${n} hook${n === 1 ? "" : "s"} in ${files.join(", ")}${warned}`)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (opts.json) {
      ctx.stdout.write(`${JSON.stringify(validationJson(null, error, here), null, 2)}\n`);
      return EXIT.config;
    }
    for (const d of error.diagnostics) ctx.stderr.write(`${formatDiagnostic(d, here)}\n`);
    ctx.stderr.write(`${terminalSafe(`hooks: ${configSummary(error, here)}`)}\n`);
    return EXIT.config;
  }
}

/** `hooks list`: the merged hooks in run order, with where each is declared and where its state was decided. */
export async function listHooks(ctx: CliContext, opts: { event?: string; json?: boolean }): Promise<number> {
  const config = await loadCliConfig(ctx);
  assertConfigFound(config, ctx.cwd);
  let hooks = sortHooks(config.hooks);
  if (opts.event !== undefined) {
    const custom = Object.keys(config.events).filter((e) => config.events[e].custom);
    const event = parseHookEvent(opts.event, custom);
    hooks = hooks.filter((h) => h.event === event);
  }
  if (opts.json) {
    ctx.stdout.write(
      `${JSON.stringify(
        hooks.map((h) => hookJson(h, ctx.cwd, ctx.env)),
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  const where = (s: SourceLocation) => `${displayFile(s.file, ctx.cwd)}:${s.line}`;
  // The environment can turn hooks off for one invocation (SPEC §5.1); list shows the state a
  // `hooks run` with this environment would see, and names the variable that decided it.
  const offBy = (h: ResolvedHook): string | null => disabledByEnv(h, ctx.env);
  const run = (h: ResolvedHook) => h.command ?? JSON.stringify(h.args ?? []);
  for (const w of config.warnings) ctx.stderr.write(`${formatDiagnostic(w, ctx.cwd)}\n`);
  if (hooks.length === 0) {
    ctx.stdout.write(opts.event ? `no hooks for ${opts.event}\n` : "no hooks\n");
    return EXIT.ok;
  }
  const head = ["EVENT", "NAME", "PRIO", "ASYNC", "TIMEOUT", "STATE", "SOURCE", "STATE FROM", "COMMAND"];
  const rows = hooks.map((h) =>
    [
      h.event,
      h.name,
      String(h.priority),
      h.async ? "yes" : "no",
      formatTimeout(h.timeoutMs),
      h.enabled && offBy(h) === null ? "enabled" : "disabled",
      where(h.source),
      offBy(h) ?? (h.enabledSource === h.source ? "-" : where(h.enabledSource)),
      oneLine(run(h)),
    ].map((cell) => terminalSafe(cell)),
  );
  ctx.stdout.write(table(head, rows));
  return EXIT.ok;
}

// A multi-line script shows as its first line, so the table stays one row per hook.
function oneLine(command: string): string {
  const lines = command.trim().split("\n");
  return lines.length > 1 ? `${lines[0].trim()} …` : lines[0];
}

// Columns padded to their widest cell; the last column is not padded.
function table(head: string[], rows: string[][]): string {
  const widths = head.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return `${[line(head), ...rows.map(line)].join("\n")}\n`;
}

/** `hooks events`: the catalog, as a table or JSON (same data as the README table). */
export async function printEvents(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  if (opts.json) {
    ctx.stdout.write(
      `${JSON.stringify(
        EVENTS.map((e) => eventJson(e)),
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  const rows = EVENTS.map((e) => [e.name, e.aliases.join(", ") || "-", e.gate, e.matchField ?? "-", e.fields.join(", ") || "-", e.fires]);
  ctx.stdout.write(table(["EVENT", "ALIASES", "GATE", "MATCH", "FIELDS", "FIRES"], rows));
  return EXIT.ok;
}

/** `hooks log`: the last N runs (optionally of one session), as lines or a JSON array. */
export async function printLog(ctx: CliContext, opts: { n?: string; session?: string; json?: boolean; pending?: boolean }): Promise<number> {
  const n = opts.n === undefined ? 20 : Number(opts.n);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`-n ${opts.n}: expected a whole number ≥ 0`);
  const dir = stateDir(ctx.env);
  const log = readRunLog(dir);
  let records = log.records;
  // Malformed lines are not fatal: say how many were skipped, on stderr so --json stays parseable.
  if (log.skipped > 0) ctx.stderr.write(`hooks: skipped ${log.skipped} malformed line${log.skipped === 1 ? "" : "s"} in ${runLogFile(dir)}\n`);
  if (opts.pending) return printPending(ctx, dir, records, opts);
  const deliveredAt = asyncDeliveries(records);
  if (opts.session !== undefined) records = records.filter((r) => r.session_id === opts.session);
  records = n === 0 ? [] : records.slice(-n);
  if (opts.json) {
    ctx.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    return EXIT.ok;
  }
  if (records.length === 0) {
    ctx.stderr.write(`hooks: no runs recorded${opts.session !== undefined ? ` for session ${opts.session}` : ""} in ${runLogFile(dir)}\n`);
    return EXIT.ok;
  }
  const lines = records.map((r) => {
    if (r.async) return asyncLine(r, deliveredAt);
    const hooks = r.hooks.map((h) => `${h.name} ${h.status}${h.exit_code !== null && h.exit_code !== 0 ? `(${h.exit_code})` : ""}`).join(", ");
    const started = r.async_started?.length ? `  async started: ${r.async_started.join(", ")}` : "";
    return `${r.time}  ${r.event}  session ${r.session_id}  ${formatElapsed(r.duration_ms)}${r.blocked ? "  BLOCKED" : ""}  ${hooks}${started}  ${r.project_dir}`;
  });
  // Names, ids and paths in the log came from configs and callers: shown escaped, as hook output is.
  ctx.stdout.write(`${lines.map((l) => terminalSafe(l)).join("\n")}\n`);
  return EXIT.ok;
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

/**
 * `hooks log --pending`: the async runs of every project not delivered yet, from the state dir
 * itself (the run log only says what happened): finished results waiting for their session's
 * next trigger, with their age and when they expire, and runs still without a result. Project
 * directories come from the run log (async dirs are named by a hash of them).
 */
function printPending(ctx: CliContext, dir: string, records: RunLogRecord[], opts: { session?: string; json?: boolean }): number {
  const known = new Map<string, string>();
  for (const r of records) if (!known.has(r.project_dir)) known.set(r.project_dir, projectKey(r.project_dir));
  const projects = new Map([...known].map(([projectDir, key]) => [key, projectDir]));
  const now = Date.now();
  let pending = listUndeliveredAsync(dir, projects);
  if (opts.session !== undefined) pending = pending.filter((p) => p.session_id === opts.session);
  const age = (p: UndeliveredAsync): number => Math.max(0, now - Date.parse(p.finished_at ?? p.started_at) || 0);
  if (opts.json) {
    const json = pending.map((p) => ({ ...p, age_ms: age(p) }));
    ctx.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT.ok;
  }
  if (pending.length === 0) {
    ctx.stderr.write(`hooks: no undelivered async results${opts.session !== undefined ? ` for session ${opts.session}` : ""} in ${path.join(dir, "async")}\n`);
    return EXIT.ok;
  }
  const lines = pending.map((p) => {
    const what =
      p.state === "finished"
        ? `finished ${p.status} ${formatAge(age(p))} ago, ${age(p) > ASYNC_EXPIRY_MS ? "expired: deleted at the project's next trigger" : `expires in ${formatAge(ASYNC_EXPIRY_MS - age(p))}`}`
        : `running for ${formatAge(age(p))}`;
    return `${p.session_id}  ${p.name} (${p.event}): ${what}  ${p.project_dir ?? `project ${p.project_key}`}`;
  });
  const head = `${pending.length} async result${pending.length === 1 ? "" : "s"} not delivered yet (each goes to the next trigger of its session; deleted undelivered 24 h after it finished):`;
  ctx.stdout.write(`${[head, ...lines.map((l) => `session ${terminalSafe(l)}`)].join("\n")}\n`);
  return EXIT.ok;
}

// 45s, 12m, 3h 05m: an age at the precision that matters for a 24 h expiry.
function formatAge(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
