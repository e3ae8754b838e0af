import { existsSync, realpathSync } from "node:fs";
import os from "node:os";
import { assertConfigFound } from "../../config/discover.js";
import { loadConfig } from "../../config/loadConfig.js";
import { UsageError } from "../../errors.js";
import { installable } from "../../hosts/installTargets.js";
import { hostByName } from "../../hosts/adapters.js";
import { doctor } from "../../prove/doctor.js";
import type { DoctorReport, Finding } from "../../prove/doctorReport.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT, signalExitCode } from "../exitCodes.js";
import { onTerminatingSignal } from "../signals.js";

const MARK: Record<Finding["level"], string> = { error: "✗", warning: "!", ok: "✓" };

/** The report as text: one block per host and layer, the shared checks last, a verdict line. */
function formatReport(r: DoctorReport): string {
  const lines: string[] = [];
  const groups = new Map<string, Finding[]>();
  for (const f of r.findings) {
    const key = f.host === "*" ? "*" : `${f.host} (${f.layer})`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const order = [...groups.keys()].sort((a, b) => (a === "*" ? 1 : b === "*" ? -1 : 0));
  for (const key of order) {
    const title =
      key === "*"
        ? "hooks.yaml (every agent)"
        : (() => {
            const [name, layer] = key.split(" ");
            return `${hostByName(name)?.title ?? name} ${layer}`;
          })();
    lines.push(title);
    for (const f of groups.get(key)!) {
      lines.push(`  ${MARK[f.level]} ${f.event && !f.what.startsWith(f.event) ? `${f.event}: ` : ""}${f.what}${f.where && !f.what.includes(f.where) ? `  (${f.where})` : ""}`);
      if (f.fix && f.level !== "ok") lines.push(`      fix: ${f.fix}`);
    }
  }
  const errors = r.findings.filter((f) => f.level === "error").length;
  const warnings = r.findings.filter((f) => f.level === "warning").length;
  lines.push(
    errors
      ? `${errors} ${errors === 1 ? "problem keeps" : "problems keep"} hooks from running${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}`
      : `every installed entry reaches hookrun${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

/** `hooks doctor [HOST…]`: whether each agent installed in the project would run hooks.yaml's hooks, and what to do where not. */
export async function doctorCommand(ctx: CliContext, names: string[], opts: { user?: boolean; json?: boolean }): Promise<number> {
  for (const n of names) {
    const host = hostByName(n);
    if (!host?.setup)
      throw new UsageError(
        `${n}: no such host; use one of ${installable()
          .map((h) => h.name)
          .join(", ")}`,
      );
  }
  const config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  assertConfigFound(config, ctx.cwd);
  const selfBin = ctx.entry && existsSync(ctx.entry) ? realpathSync(ctx.entry) : null;
  // SIGINT, SIGTERM, SIGHUP…: each probe leads a process group of its own, out of reach of a
  // terminal's Ctrl-C; abort kills the running probe's group, fires nothing more, and the doctor
  // exits 128+n without a report (it would be partial).
  const abort = new AbortController();
  let interrupted: NodeJS.Signals | null = null;
  const stopSignals = onTerminatingSignal((signal) => {
    interrupted ??= signal;
    abort.abort();
  });
  let report: DoctorReport;
  try {
    report = await doctor(config, { hosts: names, user: opts.user, env: ctx.env, cwd: ctx.cwd, home: ctx.env.HOME || os.homedir(), selfBin, signal: abort.signal });
  } finally {
    stopSignals();
  }
  if (interrupted) {
    ctx.stderr.write(`hooks: doctor interrupted by ${interrupted}: its probes were killed, no report\n`);
    return signalExitCode(interrupted);
  }
  const noHost = report.installed === 0 && names.length === 0;
  const failed = noHost || report.findings.some((f) => f.level === "error");
  if (opts.json) {
    const count = (c: (typeof report.checked)[number], level: Finding["level"]) => report.findings.filter((f) => f.host === c.host && f.layer === c.layer && f.level === level).length;
    const hosts = report.checked.map((c) => ({
      ...c,
      errors: count(c, "error"),
      warnings: count(c, "warning"),
      events: report.events.filter((e) => e.host === c.host && e.layer === c.layer).map((e) => e.event),
    }));
    const body = { ok: !failed, installed: report.installed, hosts, events: report.events, findings: report.findings };
    ctx.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    if (report.findings.length) ctx.stdout.write(terminalSafe(formatReport(report), { keepNewlines: true }));
    if (noHost)
      ctx.stdout.write(
        "no agent in this project has hookrun's entries, so no hook of hooks.yaml runs under any: run `hooks install` (it finds the agents' folders: .claude, .gemini, .codex, …) or name them: `hooks install claude gemini`\n",
      );
  }
  return failed ? EXIT.failed : EXIT.ok;
}
