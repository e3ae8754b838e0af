import { getNodeValue, type Node } from "jsonc-parser";
import type { DispatchTarget } from "../hosts/dispatch.js";
import { wantedFor } from "../hosts/installTargets.js";
import { staleNames } from "../hosts/setup.js";
import { configEvents, entryCommands, ownsEntry } from "../hosts/install.js";
import type { HostAdapter, HostEntry, HostSetup } from "../hosts/types.js";
import { installedPort } from "../hosts/warm.js";
import { installedMcp } from "../hosts/warmMcp.js";
import { warmServerState, warmServerWarning } from "../hosts/installChecks.js";
import { canonicalOf, type DoctorRun, isList, type Layer, lineOf } from "./doctorReport.js";
import { probeEntry } from "./doctorFire.js";
import { sameCommand } from "./hookCommands.js";

// hookrun's entries in a host's file: current with hooks.yaml, each fired as the host fires it;
// hooks.yaml's events the host never fires; the host's own entries that run a hook a second time.

/** hookrun's entries: current with hooks.yaml, each fired as the host fires it; the host's own entries that duplicate a hook. */
export async function checkEntries(d: DoctorRun, host: HostAdapter, setup: HostSetup, layer: Layer, text: string, file: string, owned: Record<string, HostEntry[]>, map?: Node): Promise<void> {
  const base = { host: host.name, layer };
  const where = d.shown(file);
  const target: DispatchTarget | null =
    layer === "user"
      ? d.options.selfBin
        ? { root: null, bin: d.options.selfBin, exec: setup.exec }
        : null
      : { root: setup.root, bin: null, exec: setup.exec, walkUp: setup.walkUp ? setup.folder : undefined };
  // The doctor runs a command from the host's file only when it is byte for byte one that `hooks
  // install` writes now: the file is the project's, and a command that merely looks like a
  // dispatch (`curl … | sh; hooks run stop`) must never run because someone asked for a check.
  const ours = new Set<string>();
  if (target) {
    const mcp = layer === "project" && installedMcp(owned);
    const wanted = wantedFor({ ...host, setup }, d.config, target, mcp ? null : installedPort(owned), mcp) as Record<string, HostEntry[]>;
    for (const list of Object.values(wanted)) for (const entry of list) for (const c of entryCommands(entry).commands) ours.add(c);
    const stale = staleNames(owned, wanted);
    for (const e of stale) {
      const canonical = canonicalOf(host, e) ?? e;
      // Own keys only: an event named "constructor" in the file is not Object's.
      const what = !Object.hasOwn(owned, e)
        ? `hooks.yaml has hooks for ${canonical} but ${where} has no hookrun entry for ${e}: they never run under ${host.title}`
        : !Object.hasOwn(wanted, e)
          ? `hookrun's entry for ${e} is left over: hooks.yaml has no hook for ${canonical} any more`
          : `hookrun's entry for ${e} is stale: hooks.yaml changed since \`hooks install\` (matcher or timeout differ), so some hooks may not fire or be cut short`;
      d.add({ ...base, event: e, level: Object.hasOwn(wanted, e) ? "error" : "warning", what, where, fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}` });
    }
    if (stale.length === 0) d.add({ ...base, level: "ok", what: `${where}: hookrun's entries are current with hooks.yaml (${Object.keys(owned).join(", ")})`, where });
  } else d.add({ ...base, level: "warning", what: `${where}: not compared with hooks.yaml (run the installed \`hooks\` binary to compare user entries)`, where });
  if (layer === "project") checkUnfired(d, host);
  for (const w of (await setup.warnings?.(d.config, { file, text, user: layer === "user", env: d.options.env })) ?? []) d.add({ ...base, level: "warning", what: w, where });
  sayAssumed(d, host, layer);
  // Each distinct command of an event is fired once, however many entries repeat it.
  // Warm MCP entries: the server they call, started and probed as the agent would (once per host).
  const mcpEvent = layer === "project" ? Object.keys(owned).find((e) => installedMcp({ [e]: owned[e] })) : undefined;
  if (mcpEvent !== undefined) await (await import("./doctorMcp.js")).checkMcpServer(d, base, host, mcpEvent);
  const fired = new Map<string, number>();
  for (const [event, list] of Object.entries(owned)) {
    for (const entry of list) {
      const { commands, urls } = entryCommands(entry);
      if (urls.length) await checkWarmServer(d, base, event, urls[0], host.title);
      for (const command of commands) {
        const tool = host.probe?.entryTool?.(entry);
        const key = JSON.stringify([event, command, tool ?? null]);
        if (fired.has(key)) {
          fired.set(key, fired.get(key)! + 1);
          continue;
        }
        fired.set(key, 1);
        if (ours.has(command)) await probeEntry(d, host, layer, event, command, false, tool);
        else
          d.add({
            ...base,
            event,
            level: "warning",
            what: `${event}: not fired: its command is not the one \`hooks install ${host.name}\` writes now (the doctor runs no other command from ${where})`,
            where,
            fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
          });
      }
    }
  }
  for (const [key, n] of fired) {
    if (n < 2) continue;
    const [event] = JSON.parse(key) as [string];
    d.add({
      ...base,
      event,
      level: "warning",
      what: `${event}: ${n} entries run the same command, so ${host.title} runs hookrun ${n} times for each ${event} (fired once here)`,
      where,
      fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
    });
  }
  if (layer === "project" && map?.type === "object") checkDuplicates(d, host, text, file, map);
}

/** A warm entry's server: fired never, but asked to prove it is the user's own `hooks serve` (src/hosts/warm.ts healthProof). */
async function checkWarmServer(d: DoctorRun, base: { host: string; layer: Layer }, event: string, url: string, title: string): Promise<void> {
  const port = Number(new URL(url).port);
  const state = await warmServerState(port, d.options.env, d.config.projectDir);
  const warning = warmServerWarning(port, state, [base.host]);
  if (!warning) d.add({ ...base, event, level: "ok", what: `warm mode: ${title} POSTs ${event} to ${url}, and your \`hooks serve\` answers there (it proved it knows the token); not fired` });
  else d.add({ ...base, event, level: state === "foreign" || state === "elsewhere" ? "error" : "warning", what: warning });
}

/** What the probe assumes of a host no source describes fully, said once. */
export function sayAssumed(d: DoctorRun, host: HostAdapter, layer: Layer): void {
  if (host.probe?.assumed) d.add({ host: host.name, layer, level: "ok", what: `fired as ${host.title} is assumed to run hooks: ${host.probe.assumed} (no source states it)` });
}

/** hooks.yaml events this host never fires: their hooks never run under it. */
export function checkUnfired(d: DoctorRun, host: HostAdapter): void {
  const fired = new Set(Object.values(host.events));
  for (const event of configEvents(d.config))
    if (!fired.has(event))
      d.add({ host: host.name, layer: "project", event, level: "warning", what: `${host.title} has no event hookrun reads as ${event}: hooks.yaml's ${event} hooks never run under it` });
}

/** The host's own entries that run what a hook of hooks.yaml runs for the same event: it would run twice. */
export function checkDuplicates(d: DoctorRun, host: HostAdapter, text: string, file: string, map: Node): void {
  for (const prop of map.children ?? []) {
    const key = prop.children![0].value as string;
    const list = prop.children![1];
    if (!isList(list)) continue;
    for (const node of list.children ?? []) {
      const entry = getNodeValue(node);
      if (ownsEntry(entry)) continue;
      checkDuplicate(d, host, key, entry, d.shown(file, lineOf(text, node.offset)), file);
    }
  }
}

/** One of the host's own entries for its event `key`: a warning when it runs what a hook of hooks.yaml runs for that event. */
export function checkDuplicate(d: DoctorRun, host: HostAdapter, key: string, entry: unknown, where: string, file: string): void {
  const canonical = canonicalOf(host, key);
  if (!canonical) return;
  for (const command of entryCommands(entry).commands) {
    const hook = d.config.hooks.find((h) => h.event === canonical && h.enabled && sameCommand(command, h, d.config.projectDir));
    if (hook)
      d.add({
        host: host.name,
        layer: "project",
        event: key,
        level: "warning",
        what: `${host.title}'s own ${key} entry runs \`${command}\`, as hooks.yaml's hook ${hook.name} does: it would run twice`,
        where,
        fix: `remove the entry from ${d.shown(file)} (hooks.yaml's ${hook.name} at ${d.shown(hook.source.file, hook.source.line)} runs it)`,
      });
  }
}
