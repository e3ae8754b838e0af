import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { HookrunError, UsageError } from "../errors.js";
import { type DispatchTarget, dispatchCommand } from "./dispatch.js";
import { asksFailClosed } from "./failClosed.js";
import { dispatchTimeoutMs } from "./install.js";
import { cannotStartAnswer } from "./runHostEvent.js";
import { HOSTS, hostByName } from "./adapters.js";
import type { HostAdapter, HostEntry, HostSetup } from "./types.js";
import { installedPort, warmEntries } from "./warm.js";
import { installedMcp, mcpEntries } from "./warmMcp.js";

// Where `hooks install` writes for each host, and what it would write there: the hosts it can
// install into and the entries a config wants in their setup (src/hosts/setup.ts). `hooks
// install`, `uninstall`, `validate` and `doctor` ask the same questions the same way.

/** A host hookrun can install into, with its setup. */
export type Installable = HostAdapter & { readonly setup: HostSetup };

/** The hosts `hooks install` can write into. */
export const installable = (): Installable[] => HOSTS.filter((h): h is Installable => h.setup !== undefined);

/** The hosts named (each one hookrun can install into), or with no names those for which `present` holds. */
export async function pickHosts(names: string[], present: (h: Installable) => boolean | Promise<boolean>): Promise<Installable[]> {
  if (names.length > 0) {
    return names.map((n) => {
      const host = hostByName(n);
      const others = installable()
        .map((h) => h.name)
        .join(", ");
      if (!host?.setup) throw new UsageError(`${n}: no such host to install into; use one of ${others}`);
      return host as Installable;
    });
  }
  const out: Installable[] = [];
  for (const h of installable()) if (await present(h)) out.push(h);
  return out;
}

/**
 * The bin and project root of the dispatch commands: the project's install, or for `user` the
 * absolute path of this hookrun (`entry`, the running CLI's script).
 */
export function dispatchTarget(host: Installable, user: boolean, entry: string | undefined): DispatchTarget {
  if (!user) return { root: host.setup.root, bin: null, exec: host.setup.exec, walkUp: host.setup.walkUp ? host.setup.folder : undefined };
  const bin = entry && existsSync(entry) ? entry : null;
  if (!bin) throw new HookrunError("--user needs hookrun's own path to write into the entries; run the installed `hooks` binary", { code: "install" });
  return { root: null, bin: realpathSync(bin), exec: host.setup.exec };
}

/**
 * What the config wants in a host's setup, running hookrun at `target`: command entries, or warm
 * mode's http entries on `port`. `hooks install`, `--check`, `validate` and `doctor` hold the
 * setup against them.
 */
export function wantedFor(host: Installable, config: ResolvedConfig, target: DispatchTarget, port: number | null = null, mcp = false): Record<string, unknown> {
  // An event with an `on_failure: block` hook fails closed even when hookrun cannot start; without
  // one, under a host that would read a command that cannot start as a block, it fails open
  // (docs/fail-closed.md).
  const command = (event: string) =>
    dispatchCommand(
      host.name,
      event,
      asksFailClosed(config, event)
        ? { ...target, failClosed: cannotStartAnswer(host, event), deadlineSeconds: killSeconds(host, config, event) }
        : host.setup.blocksOnStartFailure
          ? { ...target, failOpen: cannotStartAnswer(host, event, false) }
          : target,
    );
  const wanted = host.setup.wanted(config, command);
  const canonical = (hostEvent: string): string => host.events[hostEvent] ?? hostEvent;
  if (mcp) return mcpEntries(host.name, wanted as Record<string, HostEntry[]>, (hostEvent) => asksFailClosed(config, canonical(hostEvent)));
  if (port === null) return wanted;
  // A fail-closed event's http entry carries the command's `--deadline`, as a query.
  const deadline = (hostEvent: string): number | null => (asksFailClosed(config, canonical(hostEvent)) ? killSeconds(host, config, canonical(hostEvent)) : null);
  return warmEntries(host.name, wanted as Record<string, HostEntry[]>, port, deadline);
}

/** When the host kills the entry of `event`, in whole seconds: the entry's timeout (what `hooks install` writes), or the host's own fixed kill when sooner. */
function killSeconds(host: Installable, config: ResolvedConfig, event: string): number {
  return Math.ceil(Math.min(dispatchTimeoutMs(config, event), host.setup.killAfterMs ?? Number.POSITIVE_INFINITY) / 1000);
}

/** The warm port of hookrun's entries in a host's setup under `base` (null: command mode, nothing installed, or unreadable). */
export async function setupPort(host: Installable, base: string, user: boolean): Promise<number | null> {
  try {
    return installedPort(await host.setup.installed(base, user));
  } catch {
    return null;
  }
}

/** Whether hookrun's entries in a host's setup under `base` are warm MCP entries (false: another mode, nothing installed, or unreadable). */
export async function setupMcp(host: Installable, base: string, user: boolean): Promise<boolean> {
  try {
    return installedMcp(await host.setup.installed(base, user));
  } catch {
    return false;
  }
}

/** Whether a project under `base` uses the host: its folder (`.claude`) is there. */
export const usesHost = (host: Installable, base: string): boolean => existsSync(path.join(base, host.setup.folder));
