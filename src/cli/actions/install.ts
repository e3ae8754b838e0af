import { existsSync, mkdirSync, realpathSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertConfigFound } from "../../config/discover.js";
import { loadConfig } from "../../config/loadConfig.js";
import type { ResolvedConfig } from "../../config/types.js";
import { displayFile, HookrunError, UsageError, WriteError } from "../../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../../fs/readBounded.js";
import { writeFileAtomic } from "../../fs/writeFileAtomic.js";
import { type DispatchTarget, dispatchCommand } from "../../hosts/dispatch.js";
import { installedEntries, installState, mergeEntries, uninstallText, wantedEntries as hostEntries } from "../../hosts/hostFile.js";
import { ownedScripts, planScripts } from "../../hosts/hostScripts.js";
import { installedPort, TOKEN_VAR, warmCapable } from "../../hosts/warm.js";
import { HOSTS, hostByName } from "../../hosts/table.js";
import type { HostAdapter, HostEntry } from "../../hosts/types.js";
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

/** One host's config file as `hooks install` sees it. */
interface HostFile {
  host: HostAdapter;
  /** The file as named (project-relative or under HOME). */
  file: string;
  /** Where writes go: the symlink's target when the file is a link (the link stays). */
  target: string;
  text: string | null;
}

const installable = (): HostAdapter[] => HOSTS.filter((h) => h.install || h.scripts);

/** The folder whose presence says the project uses a host (`.claude`, `.clinerules`). */
const hostFolder = (h: HostAdapter): string => (h.install ? path.dirname(h.install.projectFile) : h.scripts!.projectDir.split("/")[0]);

function pickHosts(names: string[], base: string, present: (h: HostAdapter, file: string) => boolean): HostAdapter[] {
  if (names.length > 0) {
    return names.map((n) => {
      const host = hostByName(n);
      const others = installable()
        .map((h) => h.name)
        .join(", ");
      if (!host || (!host.install && !host.scripts)) throw new UsageError(`${n}: no such host to install into; use one of ${others}`);
      return host;
    });
  }
  return installable().filter((h) => present(h, path.join(base, h.install ? h.install.projectFile : h.scripts!.projectDir)));
}

function readHostFile(host: HostAdapter, base: string, user: boolean): HostFile {
  const file = path.join(base, user ? host.install!.userFile : host.install!.projectFile);
  let target = file;
  try {
    target = realpathSync(file);
  } catch {
    // not there yet (or a dangling link, refused below when read)
  }
  if (!existsSync(file)) return { host, file, target, text: null };
  try {
    return { host, file, target, text: readBoundedText(file, READ_LIMITS.config, { what: `${host.title} config` }) };
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

/** The bin and project root of the dispatch commands: the project's install, or this hookrun's absolute path for `--user`. */
function dispatchTarget(ctx: CliContext, host: HostAdapter, user: boolean): DispatchTarget {
  if (!user) return { root: host.install?.root ?? null, bin: null, exec: host.install?.exec };
  const bin = ctx.entry && existsSync(ctx.entry) ? ctx.entry : null;
  if (!bin) throw new HookrunError("--user needs hookrun's own path to write into the entries; run the installed `hooks` binary", { code: "install" });
  return { root: null, bin: realpathSync(bin), exec: host.install?.exec };
}

/** The entries the config needs: command entries, or warm mode's http entries on `port`. */
function wantedEntries(ctx: CliContext, config: ResolvedConfig, host: HostAdapter, user: boolean, port: number | null = null): Record<string, HostEntry[]> {
  return hostEntries(host, config, dispatchTarget(ctx, host, user), port);
}

/** The warm port of the entries in a host's file (null: command mode, or nothing installed). */
function filePort(f: HostFile): number | null {
  if (f.text === null || f.text.trim() === "") return null;
  try {
    return installedPort(installedEntries(f.host, f.text, f.file));
  } catch {
    return null;
  }
}

function parseServePort(value: string, hosts: HostAdapter[]): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new UsageError(`--serve ${value}: expected the port \`hooks serve --port\` listens on (1 to 65535)`);
  const cold = hosts.filter((h) => !warmCapable(h.name));
  if (cold.length) throw new UsageError(`--serve: ${cold.map((h) => h.title).join(", ")} cannot call a URL; warm mode is for Claude Code (hooks install claude --serve ${port})`);
  return port;
}

/** Whether anything answers HTTP on 127.0.0.1:port within a second (any status: a token-guarded 401 counts). */
async function serverAnswers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/v1/health`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
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
 * with the user's entries (SPEC §13, docs/hosts.md). No HOST: the hosts whose config folder the
 * project has. `--check`: exit 1 when an entry is missing or stale (for CI); `--dry-run`: print
 * the file as it would be written.
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
  let stale = 0;
  const report: unknown[] = [];
  const warmPorts = new Set<number>();
  for (const host of hosts) {
    if (host.scripts) {
      const r = installScripts(ctx, config, host, base, flags);
      report.push(r);
      if (r.stale.length) stale++;
      continue;
    }
    const f = readHostFile(host, base, Boolean(flags.user));
    // --check checks the mode that is installed unless --serve names one.
    const port = servePort !== null && warmCapable(host.name) ? servePort : flags.check ? filePort(f) : null;
    if (port !== null) warmPorts.add(port);
    const wanted = wantedEntries(ctx, config, host, Boolean(flags.user), port);
    const shown = displayFile(f.file, ctx.cwd);
    for (const w of (await host.install!.warnings?.(config, { file: f.file, text: f.text, user: Boolean(flags.user), env: ctx.env })) ?? [])
      ctx.stderr.write(`${terminalSafe(`hooks install: warning: ${host.title}: ${w}`)}\n`);
    if (flags.check) {
      const state = installState(host, f.text, f.file, wanted);
      if (state.stale.length) stale++;
      report.push({ host: host.name, file: f.file, installed: state.installed, stale: state.stale });
      if (!flags.json)
        ctx.stdout.write(
          terminalSafe(state.stale.length ? `${shown}: ${state.installed ? "stale" : "missing"}: ${state.stale.join(", ")}; run \`hooks install ${host.name}\`` : `${shown}: up to date`) + "\n",
        );
      continue;
    }
    const after = mergeEntries(host, f.text, f.file, wanted);
    const events = Object.keys(wanted);
    report.push({ host: host.name, file: f.file, changed: after !== f.text, events });
    if (flags.dryRun) {
      if (!flags.json) ctx.stdout.write(`# ${shown}\n${after}${after.endsWith("\n") ? "" : "\n"}`);
      continue;
    }
    if (after === f.text) {
      if (!flags.json) ctx.stdout.write(terminalSafe(`${shown}: up to date (${events.join(", ") || "no events"})`) + "\n");
      continue;
    }
    mkdirSync(path.dirname(f.target), { recursive: true });
    writeFileAtomic(f.target, after);
    if (!flags.json) ctx.stdout.write(terminalSafe(`${shown}: ${f.text === null ? "created" : "updated"}; ${host.title} hands ${events.join(", ") || "no events"} to hookrun`) + "\n");
    if (!flags.json && host.install!.note && !flags.user) ctx.stderr.write(`hooks install: note: ${host.install!.note}\n`);
  }
  if (flags.json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  for (const port of warmPorts) {
    const up = await serverAnswers(port);
    if (flags.check) {
      if (!up) ctx.stderr.write(`hooks install: warning: warm mode, and nothing answers on 127.0.0.1:${port}: Claude Code refuses guarded actions until \`hooks serve --port ${port}\` runs\n`);
    } else if (!flags.dryRun) ctx.stderr.write(`${warmNotice(port, up)}\n`);
  }
  return flags.check && stale > 0 ? EXIT.failed : EXIT.ok;
}

/** `hooks uninstall [HOST…]`: hookrun's entries out of each host's config; a file left with nothing of the user's is removed. */
export async function uninstallHosts(ctx: CliContext, names: string[], flags: InstallFlags): Promise<number> {
  const base = flags.user ? ctx.env.HOME || os.homedir() : await projectDirOf(ctx);
  const hosts = pickHosts(names, base, (h) => {
    if (h.scripts) return ownedScripts(scriptDir(h, base, Boolean(flags.user))).length > 0;
    const f = readHostFile(h, base, Boolean(flags.user));
    return f.text !== null && installState(h, f.text, f.file, {}).installed;
  });
  if (hosts.length === 0) {
    ctx.stdout.write(`no hookrun entries in any host's config under ${displayFile(base, ctx.cwd)}\n`);
    return EXIT.ok;
  }
  for (const host of hosts) {
    if (host.scripts) {
      const dir = scriptDir(host, base, Boolean(flags.user));
      for (const file of ownedScripts(dir)) {
        if (!flags.dryRun) unlinkSync(file);
        ctx.stdout.write(`${terminalSafe(displayFile(file, ctx.cwd))}: ${flags.dryRun ? "would be removed" : "removed"} (hookrun's)\n`);
      }
      continue;
    }
    const f = readHostFile(host, base, Boolean(flags.user));
    const shown = displayFile(f.file, ctx.cwd);
    if (f.text === null) {
      ctx.stdout.write(`${terminalSafe(shown)}: not there; nothing to remove\n`);
      continue;
    }
    const after = uninstallText(host, f.text, f.file);
    if (after === f.text) {
      ctx.stdout.write(`${terminalSafe(shown)}: no hookrun entries; left as it is\n`);
      continue;
    }
    if (flags.dryRun) {
      ctx.stdout.write(after === null ? `# ${shown} would be removed\n` : `# ${shown}\n${after}`);
      continue;
    }
    if (after === null) {
      // The folder stays (hookrun cannot tell whether it made it): an empty `.codex/` is harmless.
      unlinkSync(f.target);
      ctx.stdout.write(`${terminalSafe(shown)}: removed (it held only hookrun's entries)\n`);
    } else {
      writeFileAtomic(f.target, after);
      ctx.stdout.write(`${terminalSafe(shown)}: hookrun's entries removed; the rest is as it was\n`);
    }
  }
  return EXIT.ok;
}

const scriptDir = (host: HostAdapter, base: string, user: boolean): string => path.join(base, user ? host.scripts!.userDir : host.scripts!.projectDir);

/**
 * A host with one executable per hook type (Cline): hookrun's scripts written (mode 0755),
 * updated and removed as the config needs; a file of the user's where hookrun would write stops
 * the install, with nothing written, rather than being overwritten.
 */
function installScripts(ctx: CliContext, config: ResolvedConfig, host: HostAdapter, base: string, flags: InstallFlags): { host: string; dir: string; stale: string[] } {
  const dir = scriptDir(host, base, Boolean(flags.user));
  const target = dispatchTarget(ctx, host, Boolean(flags.user));
  const wanted = host.scripts!.files(config, (event) => dispatchCommand(host.name, event, target));
  const plan = planScripts(dir, wanted);
  const stale = [...plan.write.map((w) => path.basename(w.file)), ...plan.remove.map((f) => path.basename(f))];
  const shown = displayFile(dir, ctx.cwd);
  if (plan.foreign.length)
    throw new WriteError(
      `${plan.foreign.map((f) => displayFile(f, ctx.cwd)).join(", ")}: your own ${host.title} hook${plan.foreign.length === 1 ? "" : "s"}, not hookrun's; hookrun will not overwrite ${plan.foreign.length === 1 ? "it" : "them"}: add ${plan.foreign.length === 1 ? "its" : "their"} command to hooks.yaml and remove the file, then run \`hooks install ${host.name}\` again; nothing was written`,
      plan.foreign[0],
    );
  if (flags.check) {
    if (!flags.json) ctx.stdout.write(terminalSafe(stale.length ? `${shown}: stale: ${stale.join(", ")}; run \`hooks install ${host.name}\`` : `${shown}: up to date`) + "\n");
    return { host: host.name, dir, stale };
  }
  if (flags.dryRun) {
    if (!flags.json) for (const w of plan.write) ctx.stdout.write(`# ${displayFile(w.file, ctx.cwd)}\n${w.text}`);
    return { host: host.name, dir, stale };
  }
  if (stale.length === 0) {
    if (!flags.json) ctx.stdout.write(`${terminalSafe(shown)}: up to date\n`);
    return { host: host.name, dir, stale };
  }
  mkdirSync(dir, { recursive: true });
  for (const w of plan.write) writeFileAtomic(w.file, w.text, 0o755, { exactMode: true });
  for (const f of plan.remove) unlinkSync(f);
  if (!flags.json) ctx.stdout.write(terminalSafe(`${shown}: ${host.title} hands ${Object.keys(wanted).join(", ") || "nothing"} to hookrun (one script each)`) + "\n");
  return { host: host.name, dir, stale };
}

async function projectDirOf(ctx: CliContext): Promise<string> {
  try {
    return (await loadProject(ctx)).projectDir;
  } catch {
    // An invalid or missing hooks.yaml must not keep anyone from removing the entries.
    return ctx.cwd;
  }
}

/** Hosts whose entries in the project are stale against `config`: for `hooks validate`. */
export function staleHosts(ctx: CliContext, config: ResolvedConfig): { file: string; host: string; stale: string[] }[] {
  const out: { file: string; host: string; stale: string[] }[] = [];
  for (const host of installable()) {
    if (host.scripts) {
      try {
        const dir = scriptDir(host, config.projectDir, false);
        if (ownedScripts(dir).length === 0) continue;
        const plan = planScripts(
          dir,
          host.scripts.files(config, (event) => dispatchCommand(host.name, event, dispatchTarget(ctx, host, false))),
        );
        const stale = [...plan.write, ...plan.remove.map((file) => ({ file }))].map((x) => path.basename(x.file));
        if (stale.length) out.push({ file: dir, host: host.name, stale });
      } catch {
        // an unreadable hook file is install's to report
      }
      continue;
    }
    let f: HostFile;
    try {
      f = readHostFile(host, config.projectDir, false);
    } catch {
      continue;
    }
    if (f.text === null) continue;
    let state: ReturnType<typeof installState>;
    try {
      state = installState(host, f.text, f.file, wantedEntries(ctx, config, host, false, filePort(f)));
    } catch {
      continue;
    }
    if (state.installed && state.stale.length) out.push({ file: f.file, host: host.name, stale: state.stale });
  }
  return out;
}

/**
 * What hosts whose entries are installed in the project warn about their setup (agent-code: a
 * settings layer hiding the entries, hooks that can outlast its 30 s): for `hooks validate`.
 */
export async function hostSetupWarnings(ctx: CliContext, config: ResolvedConfig): Promise<{ file: string; message: string }[]> {
  const out: { file: string; message: string }[] = [];
  for (const host of installable().filter((h) => h.install?.warnings)) {
    try {
      const f = readHostFile(host, config.projectDir, false);
      if (f.text === null || !installState(host, f.text, f.file, {}).installed) continue;
      for (const w of await host.install!.warnings!(config, { file: f.file, text: f.text, user: false, env: ctx.env })) out.push({ file: f.file, message: `${host.title}: ${w}` });
    } catch {
      // an unreadable host file is install's to report
    }
  }
  return out;
}

/** Hosts installed in warm mode in the project whose server does not answer now: for `hooks validate`. */
export async function silentWarmServers(config: ResolvedConfig): Promise<{ file: string; host: string; port: number }[]> {
  const out: { file: string; host: string; port: number }[] = [];
  for (const host of installable().filter((h) => h.install)) {
    let f: HostFile;
    try {
      f = readHostFile(host, config.projectDir, false);
    } catch {
      continue;
    }
    const port = filePort(f);
    if (port !== null && !(await serverAnswers(port))) out.push({ file: f.file, host: host.name, port });
  }
  return out;
}
