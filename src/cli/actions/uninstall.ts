import { unlinkSync } from "node:fs";
import os from "node:os";
import { loadConfig } from "../../config/loadConfig.js";
import { displayFile } from "../../errors.js";
import { writeFileAtomic } from "../../fs/writeFileAtomic.js";
import { installState, uninstallText } from "../../hosts/hostFile.js";
import { ownedScripts } from "../../hosts/hostScripts.js";
import { pickHosts, readHostFile, scriptDir } from "../../hosts/installTargets.js";
import type { HostAdapter } from "../../hosts/types.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import type { InstallFlags } from "./install.js";

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
    if (host.scripts) removeScripts(ctx, host, base, flags);
    else removeEntries(ctx, host, base, flags);
  }
  return EXIT.ok;
}

/** A script host's (Cline's) hook scripts that are hookrun's, removed. */
function removeScripts(ctx: CliContext, host: HostAdapter, base: string, flags: InstallFlags): void {
  const dir = scriptDir(host, base, Boolean(flags.user));
  for (const file of ownedScripts(dir)) {
    if (!flags.dryRun) unlinkSync(file);
    ctx.stdout.write(`${terminalSafe(displayFile(file, ctx.cwd))}: ${flags.dryRun ? "would be removed" : "removed"} (hookrun's)\n`);
  }
}

/** hookrun's entries out of a host's config file; the file removed when nothing of the user's is left. */
function removeEntries(ctx: CliContext, host: HostAdapter, base: string, flags: InstallFlags): void {
  const f = readHostFile(host, base, Boolean(flags.user));
  const shown = displayFile(f.file, ctx.cwd);
  if (f.text === null) {
    ctx.stdout.write(`${terminalSafe(shown)}: not there; nothing to remove\n`);
    return;
  }
  const after = uninstallText(host, f.text, f.file);
  if (after === f.text) {
    ctx.stdout.write(`${terminalSafe(shown)}: no hookrun entries; left as it is\n`);
    return;
  }
  if (flags.dryRun) {
    ctx.stdout.write(after === null ? `# ${shown} would be removed\n` : `# ${shown}\n${after}`);
    return;
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

async function projectDirOf(ctx: CliContext): Promise<string> {
  try {
    return (await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env })).projectDir;
  } catch {
    // An invalid or missing hooks.yaml must not keep anyone from removing the entries.
    return ctx.cwd;
  }
}
