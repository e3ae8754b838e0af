import { existsSync, mkdirSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertConfigFound } from "../../config/discover.js";
import { loadConfig } from "../../config/loadConfig.js";
import type { ResolvedConfig } from "../../config/types.js";
import { displayFile, UsageError, WriteError } from "../../errors.js";
import { writeFileAtomic } from "../../fs/writeFileAtomic.js";
import { dispatchCommand } from "../../hosts/dispatch.js";
import { installState, mergeEntries } from "../../hosts/hostFile.js";
import { planScripts } from "../../hosts/hostScripts.js";
import { serverAnswers } from "../../hosts/installChecks.js";
import { dispatchTarget, filePort, hostFolder, installable, pickHosts, readHostFile, scriptDir, wantedEntries } from "../../hosts/installTargets.js";
import { TOKEN_VAR, warmCapable } from "../../hosts/warm.js";
import type { HostAdapter } from "../../hosts/types.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";

export interface InstallFlags {
  user?: boolean;
  dryRun?: boolean;
  check?: boolean;
  json?: boolean;
  /** Warm mode: http entries calling `hooks serve --port PORT` on 127.0.0.1 (hosts with http hooks). */
  serve?: string;
}

/** What `hooks install` did for one host (its `--json` report), and whether its entries were stale. */
interface HostOutcome {
  report: unknown;
  stale: boolean;
}

/** One install run's settings, shared by every host it installs into. */
interface InstallRun {
  ctx: CliContext;
  config: ResolvedConfig;
  base: string;
  flags: InstallFlags;
  /** `--serve PORT`, for the hosts that can call a URL. */
  servePort: number | null;
  /** The warm ports of the entries written or checked, whose server is looked for at the end. */
  warmPorts: Set<number>;
}

function parseServePort(value: string, hosts: HostAdapter[]): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new UsageError(`--serve ${value}: expected the port \`hooks serve --port\` listens on (1 to 65535)`);
  const cold = hosts.filter((h) => !warmCapable(h.name));
  if (cold.length) throw new UsageError(`--serve: ${cold.map((h) => h.title).join(", ")} cannot call a URL; warm mode is for Claude Code (hooks install claude --serve ${port})`);
  return port;
}

/** What `hooks install --serve` says, loudly, about the server. */
function warmNotice(port: number, up: boolean): string {
  return [
    `hooks install: warm mode: Claude Code POSTs each event (but SessionStart, which it never sends to a URL) to http://127.0.0.1:${port}, with the bearer token in $${TOKEN_VAR}.`,
    `  Start the server in the project, with the same $${TOKEN_VAR} in Claude Code's environment:  ${TOKEN_VAR}=… hooks serve --port ${port}`,
    `  While no server answers (or the token is wrong), every guarded action FAILS CLOSED: tool calls and prompts are refused with "[url]: failed; blocking because onFailure is "block"" (the model, or the user for a prompt, sees why); other events' hooks do not run, and \`claude -p\` says nothing about them.`,
    up ? `  A server answers on 127.0.0.1:${port} now.` : `  WARNING: nothing answers on 127.0.0.1:${port} now.`,
  ].join("\n");
}

const loadProject = (ctx: CliContext) => loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });

/**
 * `hooks install [HOST…]`: hookrun's dispatch entries into each host's own config file, merged
 * with the user's entries (docs/hosts.md). No HOST: the hosts whose config folder the project
 * has. `--check`: exit 1 when an entry is missing or stale (for CI); `--dry-run`: print the file
 * as it would be written.
 */
export async function installHosts(ctx: CliContext, names: string[], flags: InstallFlags): Promise<number> {
  const config = await loadProject(ctx);
  assertConfigFound(config, ctx.cwd);
  const base = flags.user ? ctx.env.HOME || os.homedir() : config.projectDir;
  const hosts = pickHosts(names, base, (h) => existsSync(path.join(base, hostFolder(h))));
  if (hosts.length === 0) {
    throw new UsageError(`no host config folder in ${base} (${installable().map(hostFolder).join(", ")}); name the hosts: hooks install claude codex …`);
  }
  if (names.length === 0) ctx.stderr.write(`hooks install: found ${hosts.map((h) => h.title).join(", ")} in ${displayFile(base, ctx.cwd)}\n`);
  if (!flags.user && !existsSync(path.join(config.projectDir, "node_modules", ".bin", "hooks")))
    ctx.stderr.write(
      `hooks install: warning: ${displayFile(path.join(config.projectDir, "node_modules/.bin/hooks"), ctx.cwd)} is missing, and the entries run it: add hookrun to the project (npm install --save-dev hookrun)\n`,
    );
  // --serve applies to the hosts that can call a URL; named hosts that cannot are refused.
  const servePort = flags.serve === undefined ? null : parseServePort(flags.serve, names.length > 0 ? hosts : hosts.filter((h) => warmCapable(h.name)));
  const run: InstallRun = { ctx, config, base, flags, servePort, warmPorts: new Set() };
  let stale = 0;
  const report: unknown[] = [];
  for (const host of hosts) {
    const outcome = host.scripts ? installScripts(run, host) : await installHostFile(run, host);
    report.push(outcome.report);
    if (outcome.stale) stale++;
  }
  if (flags.json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  await tellWarmServers(run);
  return flags.check && stale > 0 ? EXIT.failed : EXIT.ok;
}

/** One host's config file: checked (`--check`), printed (`--dry-run`) or written with the entries the config wants. */
async function installHostFile(run: InstallRun, host: HostAdapter): Promise<HostOutcome> {
  const { ctx, config, flags } = run;
  const f = readHostFile(host, run.base, Boolean(flags.user));
  // --check checks the mode that is installed unless --serve names one.
  const port = run.servePort !== null && warmCapable(host.name) ? run.servePort : flags.check ? filePort(f) : null;
  if (port !== null) run.warmPorts.add(port);
  const wanted = wantedEntries(config, host, Boolean(flags.user), ctx.entry, port);
  const shown = displayFile(f.file, ctx.cwd);
  for (const w of (await host.install!.warnings?.(config, { file: f.file, text: f.text, user: Boolean(flags.user), env: ctx.env })) ?? [])
    ctx.stderr.write(`${terminalSafe(`hooks install: warning: ${host.title}: ${w}`)}\n`);
  if (flags.check) {
    const state = installState(host, f.text, f.file, wanted);
    if (!flags.json)
      ctx.stdout.write(
        terminalSafe(state.stale.length ? `${shown}: ${state.installed ? "stale" : "missing"}: ${state.stale.join(", ")}; run \`hooks install ${host.name}\`` : `${shown}: up to date`) + "\n",
      );
    return { report: { host: host.name, file: f.file, installed: state.installed, stale: state.stale }, stale: state.stale.length > 0 };
  }
  const after = mergeEntries(host, f.text, f.file, wanted);
  const events = Object.keys(wanted);
  const outcome = { report: { host: host.name, file: f.file, changed: after !== f.text, events }, stale: false };
  if (flags.dryRun) {
    if (!flags.json) ctx.stdout.write(`# ${shown}\n${after}${after.endsWith("\n") ? "" : "\n"}`);
    return outcome;
  }
  if (after === f.text) {
    if (!flags.json) ctx.stdout.write(terminalSafe(`${shown}: up to date (${events.join(", ") || "no events"})`) + "\n");
    return outcome;
  }
  mkdirSync(path.dirname(f.target), { recursive: true });
  writeFileAtomic(f.target, after);
  if (!flags.json) ctx.stdout.write(terminalSafe(`${shown}: ${f.text === null ? "created" : "updated"}; ${host.title} hands ${events.join(", ") || "no events"} to hookrun`) + "\n");
  if (!flags.json && host.install!.note && !flags.user) ctx.stderr.write(`hooks install: note: ${host.install!.note}\n`);
  return outcome;
}

/** Warm mode: whether its server answers, a warning for `--check`, the full notice after a write. */
async function tellWarmServers({ ctx, flags, warmPorts }: InstallRun): Promise<void> {
  for (const port of warmPorts) {
    const up = await serverAnswers(port);
    if (flags.check) {
      if (!up) ctx.stderr.write(`hooks install: warning: warm mode, and nothing answers on 127.0.0.1:${port}: Claude Code refuses guarded actions until \`hooks serve --port ${port}\` runs\n`);
    } else if (!flags.dryRun) ctx.stderr.write(`${warmNotice(port, up)}\n`);
  }
}

/**
 * A host with one executable per hook type (Cline): hookrun's scripts written (mode 0755),
 * updated and removed as the config needs; a file of the user's where hookrun would write stops
 * the install, with nothing written, rather than being overwritten.
 */
function installScripts({ ctx, config, base, flags }: InstallRun, host: HostAdapter): HostOutcome {
  const dir = scriptDir(host, base, Boolean(flags.user));
  const target = dispatchTarget(host, Boolean(flags.user), ctx.entry);
  const wanted = host.scripts!.files(config, (event) => dispatchCommand(host.name, event, target));
  const plan = planScripts(dir, wanted);
  const stale = [...plan.write.map((w) => path.basename(w.file)), ...plan.remove.map((f) => path.basename(f))];
  const shown = displayFile(dir, ctx.cwd);
  const outcome = { report: { host: host.name, dir, stale }, stale: stale.length > 0 };
  if (plan.foreign.length)
    throw new WriteError(
      `${plan.foreign.map((f) => displayFile(f, ctx.cwd)).join(", ")}: your own ${host.title} hook${plan.foreign.length === 1 ? "" : "s"}, not hookrun's; hookrun will not overwrite ${plan.foreign.length === 1 ? "it" : "them"}: add ${plan.foreign.length === 1 ? "its" : "their"} command to hooks.yaml and remove the file, then run \`hooks install ${host.name}\` again; nothing was written`,
      plan.foreign[0],
    );
  if (flags.check) {
    if (!flags.json) ctx.stdout.write(terminalSafe(stale.length ? `${shown}: stale: ${stale.join(", ")}; run \`hooks install ${host.name}\`` : `${shown}: up to date`) + "\n");
    return outcome;
  }
  if (flags.dryRun) {
    if (!flags.json) for (const w of plan.write) ctx.stdout.write(`# ${displayFile(w.file, ctx.cwd)}\n${w.text}`);
    return outcome;
  }
  if (stale.length === 0) {
    if (!flags.json) ctx.stdout.write(`${terminalSafe(shown)}: up to date\n`);
    return outcome;
  }
  mkdirSync(dir, { recursive: true });
  for (const w of plan.write) writeFileAtomic(w.file, w.text, 0o755, { exactMode: true });
  for (const f of plan.remove) unlinkSync(f);
  if (!flags.json) ctx.stdout.write(terminalSafe(`${shown}: ${host.title} hands ${Object.keys(wanted).join(", ") || "nothing"} to hookrun (one script each)`) + "\n");
  return outcome;
}
