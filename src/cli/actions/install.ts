import { existsSync, mkdirSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertConfigFound } from "../../config/discover.js";
import { loadConfig } from "../../config/loadConfig.js";
import type { ResolvedConfig } from "../../config/types.js";
import { displayFile, UsageError, WriteError } from "../../errors.js";
import { assertInside } from "../../fs/insideDir.js";
import { writeFileAtomic } from "../../fs/writeFileAtomic.js";
import { warmServerState, warmServerWarning } from "../../hosts/installChecks.js";
import { projectHookrun } from "../../hosts/inProcessFile.js";
import { dispatchTarget, type Installable, installable, pickHosts, setupMcp, setupPort, usesHost, wantedFor } from "../../hosts/installTargets.js";
import { leftoverRegistration, planDenyRule, registration } from "../../hosts/mcpRegistration.js";
import { mcpCapable, mcpHosts, whyNotMcp } from "../../hosts/warmMcp.js";
import { TOKEN_VAR, warmCapable, whyNotWarm } from "../../hosts/warm.js";
import type { HostAdapter, SetupChange } from "../../hosts/types.js";
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
  /** Warm mode over MCP: mcp_tool entries calling `hooks mcp`, which the agent starts for its session (hosts with MCP hooks). */
  warm?: boolean;
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
  /** The warm ports of the entries written or checked (each with its hosts), whose server is looked for at the end. */
  warmPorts: Map<number, Set<string>>;
}

function parseServePort(value: string, hosts: HostAdapter[], user: boolean): number {
  // One `hooks serve` runs one project's hooks.yaml: a user entry would send every project's events to it.
  if (user) throw new UsageError("--serve answers one project's hooks from a server started in it; it has no --user form (a user entry would send every project's events to that one server)");
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new UsageError(`--serve ${value}: expected the port \`hooks serve --port\` listens on (1 to 65535)`);
  const cold = hosts.filter((h) => !warmCapable(h.name));
  if (cold.length) {
    const why = cold.map((h) => whyNotWarm(h.name)).filter((w) => w !== null);
    const unable = cold.filter((h) => whyNotWarm(h.name) === null).map((h) => h.title);
    const said = [...why, ...(unable.length ? [`${unable.join(", ")} cannot call a URL`] : [])];
    throw new UsageError(`--serve: ${said.join("; ")}; warm mode is for Claude Code and Copilot CLI (hooks install claude copilot --serve ${port})`);
  }
  return port;
}

/** What `hooks install --serve` says, loudly, about the server, for the hosts whose entries use it. */
function warmNotice(port: number, hosts: ReadonlySet<string>, up: boolean): string {
  const lines = [`hooks install: warm mode: start the server in the project:  ${TOKEN_VAR}=… hooks serve --port ${port}`];
  if (hosts.has("claude"))
    lines.push(
      `  Claude Code POSTs each event (but the session start and stop events, which stay commands) to http://127.0.0.1:${port}, with the bearer token in $${TOKEN_VAR} (the same in Claude Code's environment).`,
      `  While no server answers (or the token is wrong), every guarded action FAILS CLOSED: tool calls and prompts are refused with "[url]: failed; blocking because onFailure is "block"" (the model, or the user for a prompt, sees why); other events' hooks do not run, and \`claude -p\` says nothing about them.`,
    );
  if (hosts.has("copilot"))
    lines.push(
      `  Copilot CLI POSTs each preToolUse to http://127.0.0.1:${port} only with COPILOT_HOOK_ALLOW_LOCALHOST=1 and $${TOKEN_VAR} in its environment; without COPILOT_HOOK_ALLOW_LOCALHOST=1 it skips the http entries and the command entries run hookrun as before. Its other events stay commands.`,
      `  With it, while no server answers (or the token is wrong), every tool call the preToolUse entry's matcher covers is DENIED ("Denied by preToolUse hook … (hook errored)"), guarded or not.`,
    );
  lines.push(up ? `  A server answers on 127.0.0.1:${port} now.` : `  WARNING: nothing answers on 127.0.0.1:${port} now.`);
  return lines.join("\n");
}

const MCP_SERVER_LABEL = "the hookrun MCP server";

/** `--warm`: only for hosts with MCP hooks, in a project, and not with `--serve`. */
function checkWarm(flags: InstallFlags, hosts: HostAdapter[]): void {
  if (flags.serve !== undefined) throw new UsageError("--warm and --serve exclude each other: --warm is over MCP (the agent starts `hooks mcp`), --serve over HTTP (you run `hooks serve`)");
  if (flags.user) throw new UsageError("--warm registers the MCP server in the project's own MCP config; it has no --user form");
  const cold = hosts.filter((h) => !mcpCapable(h.name));
  if (cold.length) {
    const why = cold.map((h) => whyNotMcp(h.name)).filter((w) => w !== null);
    throw new UsageError(
      `--warm: ${cold.map((h) => h.title).join(", ")} cannot be installed warm over MCP${why.length ? ` (${why.join("; ")})` : ""}; warm MCP mode is for ${mcpHosts().join(", ")} (hooks install claude --warm)`,
    );
  }
}

/** What `hooks install --warm` says about the MCP path. */
function warmMcpNotice(host: HostAdapter, where: string): string {
  return [
    `hooks install: warm mode over MCP: ${host.title} starts \`hooks mcp\` (registered as "hookrun" in ${where}) once per session and calls its tool for each event (but SessionStart, Setup, SessionEnd and the stop events, which stay commands).`,
    '  If the server cannot start, fails or times out, every guarded action FAILS CLOSED (the entries say onFailure: block): tool calls and prompts are refused with "[hookrun/hook]: failed; blocking because onFailure is "block"".',
    `  Interactively, ${host.title} asks once whether to use the project's MCP server "hookrun": until it is approved, guarded actions are refused.`,
  ].join("\n");
}

const loadProject = (ctx: CliContext) => loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });

/**
 * `hooks install [HOST…]`: hookrun's dispatch entries into each host's own setup (its config
 * file, or its folder of hook scripts), merged with the user's own (docs/hosts.md). No HOST: the
 * hosts whose config folder the project has. `--check`: exit 1 when an entry is missing or stale
 * (for CI); `--dry-run`: print what would be written.
 */
export async function installHosts(ctx: CliContext, names: string[], flags: InstallFlags): Promise<number> {
  const config = await loadProject(ctx);
  assertConfigFound(config, ctx.cwd);
  const base = flags.user ? ctx.env.HOME || os.homedir() : config.projectDir;
  const hosts = await pickHosts(names, (h) => usesHost(h, base));
  if (hosts.length === 0) {
    throw new UsageError(
      `no host config folder in ${base} (${installable()
        .map((h) => h.setup.folder)
        .join(", ")}); name the hosts: hooks install claude codex …`,
    );
  }
  if (names.length === 0) ctx.stderr.write(`hooks install: found ${hosts.map((h) => h.title).join(", ")} in ${displayFile(base, ctx.cwd)}\n`);
  if (!flags.user) warnMissingHookrun(ctx, config.projectDir, hosts);
  // --serve applies to the hosts that can call a URL; named hosts that cannot are refused.
  const servePort = flags.serve === undefined ? null : parseServePort(flags.serve, names.length > 0 ? hosts : hosts.filter((h) => warmCapable(h.name)), flags.user === true);
  if (flags.warm) checkWarm(flags, names.length > 0 ? hosts : hosts.filter((h) => mcpCapable(h.name)));
  const run: InstallRun = { ctx, config, base, flags, servePort, warmPorts: new Map() };
  let stale = 0;
  const report: unknown[] = [];
  for (const host of hosts) {
    const outcome = await installHost(run, host);
    report.push(outcome.report);
    if (outcome.stale) stale++;
  }
  if (flags.json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  await tellWarmServers(run);
  return flags.check && stale > 0 ? EXIT.failed : EXIT.ok;
}

/**
 * What the hosts' setups need from the project's node_modules and it lacks: entries run
 * node_modules/.bin/hooks; a file loaded in the host's process imports node_modules/hookrun.
 */
function warnMissingHookrun(ctx: CliContext, projectDir: string, hosts: readonly Installable[]): void {
  const fix = "add hookrun to the project (npm install --save-dev hookrun)";
  const bin = path.join(projectDir, "node_modules", ".bin", "hooks");
  if (hosts.some((h) => !h.setup.inProcess) && !existsSync(bin)) ctx.stderr.write(`hooks install: warning: ${displayFile(bin, ctx.cwd)} is missing, and the entries run it: ${fix}\n`);
  const loaded = hosts.filter((h) => h.setup.inProcess);
  if (loaded.length && projectHookrun(projectDir) === null)
    ctx.stderr.write(
      `hooks install: warning: ${displayFile(path.join(projectDir, "node_modules/hookrun"), ctx.cwd)} is missing, and ${loaded.map((h) => h.title).join(" and ")} load${loaded.length === 1 ? "s" : ""} it: until it is there, every tool call is blocked; ${fix}\n`,
    );
}

/** One host's setup: checked (`--check`), printed (`--dry-run`) or written with what the config wants. */
async function installHost(run: InstallRun, host: Installable): Promise<HostOutcome> {
  const { ctx, config, flags } = run;
  const user = Boolean(flags.user);
  // --check checks the mode that is installed unless --serve names one.
  // --warm (or, for --check, warm MCP entries installed) writes mcp_tool entries and the server's registration.
  const mcp = mcpCapable(host.name) && !user && (flags.warm === true || (flags.check === true && run.servePort === null && (await setupMcp(host, run.base, user))));
  const port = mcp ? null : run.servePort !== null && warmCapable(host.name) ? run.servePort : flags.check ? await setupPort(host, run.base, user) : null;
  if (port !== null) run.warmPorts.set(port, (run.warmPorts.get(port) ?? new Set()).add(host.name));
  const wanted = wantedFor(host, config, dispatchTarget(host, user, ctx.entry), port, mcp);
  const plan = await host.setup.plan(wanted, { base: run.base, user, host });
  // Warm MCP mode needs its server registered; any other mode leaves no registration behind.
  const reg = !mcpCapable(host.name) || user ? null : mcp ? registration(host.name, run.base, true) : leftoverRegistration(host.name, run.base);
  if (reg?.change) {
    plan.changes.push(reg.change);
    plan.stale.push(mcp ? `${MCP_SERVER_LABEL} in ${displayFile(reg.file, ctx.cwd)}` : `a leftover registration of ${MCP_SERVER_LABEL} in ${displayFile(reg.file, ctx.cwd)}`);
  }
  // …and the rule that keeps the model from calling hookrun's tool itself.
  if (mcpCapable(host.name) && !user && planDenyRule(plan, mcp)) plan.stale.push("the permission rule that keeps the model from calling hookrun's tool");
  const shown = displayFile(plan.where, ctx.cwd);
  if (plan.foreign.length) throw foreignFiles(ctx, host, plan.foreign);
  for (const w of (await host.setup.warnings?.(config, { file: plan.where, text: plan.before, user, env: ctx.env })) ?? [])
    ctx.stderr.write(`${terminalSafe(`hooks install: warning: ${host.title}: ${w}`)}\n`);
  if (flags.check) {
    if (!flags.json)
      ctx.stdout.write(
        `${terminalSafe(plan.stale.length ? `${shown}: ${plan.installed ? "stale" : "missing"}: ${plan.stale.join(", ")}; run \`hooks install ${host.name}\`` : `${shown}: up to date`)}\n`,
      );
    return { report: { host: host.name, file: plan.where, installed: plan.installed, stale: plan.stale }, stale: plan.stale.length > 0 };
  }
  // An extension in the host's process hands every event the host fires; entries name theirs.
  const events = host.setup.inProcess ? [...new Set(Object.keys(host.events))] : Object.keys(wanted);
  const outcome = { report: { host: host.name, file: plan.where, changed: plan.changes.length > 0, events }, stale: false };
  if (flags.dryRun) {
    if (!flags.json) for (const c of plan.changes) ctx.stdout.write(dryRunText(ctx, c));
    return outcome;
  }
  if (plan.changes.length === 0) {
    if (!flags.json) ctx.stdout.write(`${terminalSafe(`${shown}: up to date (${events.join(", ") || "no events"})`)}\n`);
    return outcome;
  }
  applyChanges(plan.changes, run.base);
  if (!flags.json) ctx.stdout.write(`${terminalSafe(`${shown}: ${plan.exists ? "updated" : "created"}; ${host.title} hands ${events.join(", ") || "no events"} to hookrun`)}\n`);
  if (!flags.json && host.setup.note && !user) ctx.stderr.write(`hooks install: note: ${host.setup.note}\n`);
  if (!flags.json && mcp && reg) for (const line of warmMcpNotice(host, displayFile(reg.file, ctx.cwd)).split("\n")) ctx.stderr.write(`${terminalSafe(line)}\n`);
  return outcome;
}

/**
 * A plan's changes made: each file written atomically (with its exact mode when it has one) or
 * removed. None is made when any of them a symlink takes outside `base` (the project, or HOME
 * for `--user`).
 */
export function applyChanges(changes: readonly SetupChange[], base: string): void {
  for (const c of changes) assertInside(base, c.target, "replace the symlink with a folder or file of its own");
  for (const c of changes) {
    if (c.text === null) unlinkSync(c.target);
    else {
      const dir = path.dirname(c.target);
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new WriteError(`cannot write ${c.file}: cannot create the folder ${dir} (${code}); make it a folder (a symlink loop, or a file in the way?) and run the command again`, c.file, {
          cause: error,
        });
      }
      if (c.mode === undefined) writeFileAtomic(c.target, c.text);
      else writeFileAtomic(c.target, c.text, c.mode, { exactMode: true });
    }
  }
}

/** What `--dry-run` prints for one change: the file as it would be written, or that it would go. */
export const dryRunText = (ctx: CliContext, c: SetupChange): string => {
  const shown = displayFile(c.file, ctx.cwd);
  if (c.text === null) return `${terminalSafe(shown)}: would be removed (${c.why ?? "hookrun's"})\n`;
  return `# ${shown}\n${c.text}${c.text.endsWith("\n") ? "" : "\n"}`;
};

/** The user's own files where hookrun would write: the install stops, with nothing written, rather than overwrite them. */
function foreignFiles(ctx: CliContext, host: HostAdapter, files: string[]): WriteError {
  const one = files.length === 1;
  return new WriteError(
    `${files.map((f) => displayFile(f, ctx.cwd)).join(", ")}: your own ${host.title} hook${one ? "" : "s"}, not hookrun's; hookrun will not overwrite ${one ? "it" : "them"}: add ${one ? "its" : "their"} command to hooks.yaml and remove the file, then run \`hooks install ${host.name}\` again; nothing was written`,
    files[0],
  );
}

/** Warm mode: whether its server answers, a warning for `--check`, the full notice after a write. */
async function tellWarmServers({ ctx, config, flags, warmPorts }: InstallRun): Promise<void> {
  for (const [port, hosts] of warmPorts) {
    const state = await warmServerState(port, ctx.env, config.projectDir);
    const warning = warmServerWarning(port, state, [...hosts]);
    if (flags.check) {
      if (warning) ctx.stderr.write(`hooks install: warning: ${warning}\n`);
    } else if (!flags.dryRun) {
      ctx.stderr.write(`${warmNotice(port, hosts, state !== "down")}\n`);
      if (warning && state !== "down") ctx.stderr.write(`hooks install: warning: ${warning}\n`);
    }
  }
}
