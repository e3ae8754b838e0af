import os from "node:os";
import { loadConfig } from "../../config/loadConfig.js";
import { displayFile } from "../../errors.js";
import { type Installable, pickHosts } from "../../hosts/installTargets.js";
import { leftoverRegistration, planDenyRule, registersMcp } from "../../hosts/mcpRegistration.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { applyChanges, dryRunText, type InstallFlags } from "./install.js";

/** `hooks uninstall [HOST…]`: hookrun's entries out of each host's setup; a file left with nothing of the user's is removed. */
export async function uninstallHosts(ctx: CliContext, names: string[], flags: InstallFlags): Promise<number> {
  const base = flags.user ? ctx.env.HOME || os.homedir() : await projectDirOf(ctx);
  const user = Boolean(flags.user);
  const hosts = await pickHosts(
    names,
    async (host) => (await host.setup.removal({ base, user, host })).installed || (!user && registersMcp(host.name) && leftoverRegistration(host.name, base) !== null),
  );
  if (hosts.length === 0) {
    ctx.stdout.write(`no hookrun entries in any host's config under ${displayFile(base, ctx.cwd)}\n`);
    return EXIT.ok;
  }
  for (const host of hosts) await removeFrom(ctx, host, base, flags);
  return EXIT.ok;
}

/** hookrun's entries or files out of one host's setup; a config file removed when nothing of the user's is left. */
async function removeFrom(ctx: CliContext, host: Installable, base: string, flags: InstallFlags): Promise<void> {
  const plan = await host.setup.removal({ base, user: Boolean(flags.user), host });
  // Warm MCP mode's server registration goes with the entries.
  const reg = !flags.user && registersMcp(host.name) ? (leftoverRegistration(host.name, base)?.change ?? null) : null;
  if (reg) plan.changes.push(reg);
  if (!flags.user && registersMcp(host.name)) planDenyRule(plan, false);
  const shown = terminalSafe(displayFile(plan.where, ctx.cwd));
  if (!plan.exists && plan.changes.length === 0) {
    ctx.stdout.write(`${shown}: not there; nothing to remove\n`);
    return;
  }
  if (plan.changes.length === 0) {
    ctx.stdout.write(`${shown}: no hookrun entries; left as it is\n`);
    return;
  }
  if (flags.dryRun) {
    for (const c of plan.changes) ctx.stdout.write(dryRunText(ctx, c));
    return;
  }
  // A folder stays (hookrun cannot tell whether it made it): an empty `.codex/` is harmless.
  applyChanges(plan.changes, base);
  for (const c of plan.changes)
    ctx.stdout.write(`${terminalSafe(displayFile(c.file, ctx.cwd))}: ${c.text === null ? `removed (${c.why ?? "hookrun's"})` : "hookrun's entries removed; the rest is as it was"}\n`);
}

async function projectDirOf(ctx: CliContext): Promise<string> {
  try {
    return (await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env })).projectDir;
  } catch {
    // An invalid or missing hooks.yaml must not keep anyone from removing the entries.
    return ctx.cwd;
  }
}
