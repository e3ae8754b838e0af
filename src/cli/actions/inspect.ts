import { assertConfigFound } from "../../config/discover.js";
import { displayFile, formatDiagnostic } from "../../errors.js";
import { formatDuration as formatTimeout } from "../../config/units.js";
import { loadConfig } from "../../config/loadConfig.js";
import { sortHooks } from "../../config/layers.js";
import type { ResolvedConfig, ResolvedHook, SourceLocation } from "../../config/types.js";
import { ConfigError } from "../../errors.js";
import { EVENTS } from "../../events/catalog.js";
import { parseHookEvent } from "../../events/parseHookEvent.js";
import { configSummary, disabledByEnv, eventJson, hookJson, validationJson } from "../../report/json.js";
import { readRunLog } from "../../runner/runLog.js";
import { listUndeliveredAsync, type UndeliveredAsync } from "../../async/sweep.js";
import { ASYNC_EXPIRY_MS, projectKey } from "../../async/paths.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { HOST_TABLE } from "../../hosts/table.js";
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

/** Warnings about hooks install's entries in the project (stale entries, a host's setup around them, warm servers), added to config.warnings. */
async function installWarnings(ctx: CliContext, config: ResolvedConfig): Promise<void> {
  const checks = await import("../../hosts/installChecks.js");
  const hosts = checks.hostsIn(config.projectDir);
  for (const h of await checks.staleHosts(config, hosts)) {
    const message = h.inProcess
      ? `hookrun's ${h.stale.join(", ")} is not the one this hookrun writes (written by another version of hookrun, or edited); run \`hooks install ${h.host}\``
      : `hookrun's entries are stale for ${h.stale.join(", ")} (hooks.yaml changed since \`hooks install ${h.host}\`); run \`hooks install ${h.host}\``;
    config.warnings.push({ file: h.file, line: 1, col: 1, severity: "warning", message });
  }
  // A host's own setup around installed entries (agent-code: a layer hiding them, hooks outlasting its timeout).
  for (const h of await checks.hostSetupWarnings(config, hosts, ctx.env)) config.warnings.push({ file: h.file, line: 1, col: 1, severity: "warning", message: h.message });
  // Warm mode with no server (the host refuses every guarded action), or a listener that is not the user's own `hooks serve`.
  for (const h of await checks.unprovenWarmServers(config, hosts, ctx.env)) {
    const message = `hookrun's entries call \`hooks serve\` on 127.0.0.1:${h.port}: ${checks.warmServerWarning(h.port, h.state, [h.host])}`;
    config.warnings.push({ file: h.file, line: 1, col: 1, severity: "warning", message });
  }
}

/** `hooks validate`: every diagnostic of every layer; exit 0 when valid (warnings allowed), else 78. */
export async function validateConfig(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  const here = ctx.cwd;
  try {
    const config = await loadCliConfig(ctx);
    assertConfigFound(config, ctx.cwd);
    // hooks install's entries that no longer match hooks.yaml (an event added, a timeout raised), or a
    // generated in-process file of another hookrun version, are warnings. A project with no agent's
    // folder holds none, and skips loading every adapter to look (docs/performance.md).
    if (HOST_TABLE.some((row) => existsSync(path.join(config.projectDir, row.folder)))) await installWarnings(ctx, config);
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
  // The environment can turn hooks off for one invocation (docs/running-hooks.md#which-hooks-run-and-in-what-order); list shows the state a
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

/** `hooks events`: the catalog, as a table or JSON (same data as the table in docs/configuration.md#events). */
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

/** `hooks log --pending` (the rest of `hooks log` is in log.ts). */
export async function printLog(ctx: CliContext, opts: { session?: string; json?: boolean }): Promise<number> {
  const dir = stateDir(ctx.env);
  const log = readRunLog(dir);
  if (log.skipped > 0) ctx.stderr.write(`hooks: skipped ${log.skipped} malformed line${log.skipped === 1 ? "" : "s"} in ${runLogFile(dir)}\n`);
  return printPending(ctx, dir, log.records, opts);
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
