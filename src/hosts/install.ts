import type { ResolvedConfig } from "../config/types.js";
import { matcherRule } from "../config/matcher.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { eventGate, orderHooks, runGroups } from "../runner/select.js";
import { hostToolNames } from "./payload.js";
import { DISPATCH_URL, isDispatchCommand } from "./dispatch.js";
import type { HostAdapter } from "./types.js";
import { MCP_SERVER } from "./warmMcp.js";

/**
 * What every host's dispatch entries are made of, beyond the command line (src/hosts/dispatch.ts):
 * the timeout covering an event's run, the narrowed matcher values, and which entries are hookrun's. Which
 * entries a host needs is the host module's business (`install.entries`); writing them into the
 * host's file is src/hosts/hostFile.ts's (loaded only by the commands that edit files, so a cold
 * `hooks run` does not load a JSON editor).
 */

/** Seconds a dispatch entry's timeout adds over its hooks' for hookrun itself (start-up, output). */
export const DISPATCH_MARGIN_MS = 10_000;

/**
 * Milliseconds a dispatch of `event` may take: over the event's run groups (hooks that run
 * together), the sum of each group's longest timeout, async hooks left out (they never hold the
 * dispatch), plus DISPATCH_MARGIN_MS.
 */
export function dispatchTimeoutMs(config: ResolvedConfig, event: string): number {
  const sync = orderHooks(config.hooks.filter((h) => h.event === event && !h.async));
  const groups = runGroups(sync, config.events[event]?.parallel === true, eventGate(event, config));
  return groups.reduce((sum, g) => sum + Math.max(...g.map((h) => h.timeoutMs)), 0) + DISPATCH_MARGIN_MS;
}

/** The canonical events of the config's hooks, in catalog order (custom events last). */
export function configEvents(config: ResolvedConfig): string[] {
  const used = new Set(config.hooks.map((h) => h.event));
  const known = [...EVENT_BY_NAME.keys()].filter((e) => used.has(e));
  return [...known, ...[...used].filter((e) => !EVENT_BY_NAME.has(e))];
}

/**
 * The values of the event's match field that some hook can select, or null when a hook takes
 * any (no matcher, `*`, or a regex: the host cannot be told less than everything). Tool names
 * are spelled as the host spells them (every host name of each canonical tool).
 */
export function matchedValues(config: ResolvedConfig, event: string, adapter?: Pick<HostAdapter, "tools">): string[] | null {
  const names = new Set<string>();
  for (const hook of config.hooks.filter((h) => h.event === event)) {
    const rule = matcherRule(hook.matcher ?? "");
    if (rule.kind !== "names") return null;
    for (const n of rule.names) names.add(n);
  }
  if (names.size === 0) return null;
  const toolEvent = EVENT_BY_NAME.get(event)?.matchField === "tool_name";
  return [...names].flatMap((n) => (toolEvent && adapter ? hostToolNames(adapter, n) : [n])).filter((v, i, all) => all.indexOf(v) === i);
}

/**
 * Whether one entry of a host's config (any shape) is hookrun's: every command in it dispatches to
 * hookrun, and so does every URL (warm mode's http hooks).
 */
export function ownsEntry(entry: unknown): boolean {
  const { commands, urls, mcpServers } = entryCommands(entry);
  return commands.length + urls.length + mcpServers.length > 0 && commands.every(isDispatchCommand) && urls.every((u) => DISPATCH_URL.test(u)) && mcpServers.every((s) => s === MCP_SERVER);
}

/**
 * The commands (`command`, Cursor's `bash`), URLs and MCP servers (of `mcp_tool` hooks, warm MCP
 * mode's) of one host entry, flat or a matcher group.
 */
export function entryCommands(entry: unknown): { commands: string[]; urls: string[]; mcpServers: string[] } {
  const commands: string[] = [];
  const urls: string[] = [];
  const mcpServers: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    if (o.type === "mcp_tool") return void mcpServers.push(typeof o.server === "string" ? o.server : "");
    for (const [k, x] of Object.entries(v)) {
      if ((k === "command" || k === "bash") && typeof x === "string") commands.push(x);
      else if (k === "url" && typeof x === "string") urls.push(x);
      else walk(x, depth + 1);
    }
  };
  walk(entry, 0);
  return { commands, urls, mcpServers };
}
