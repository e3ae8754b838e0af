import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { matcherRule } from "../config/matcher.js";
import { eventGate, orderHooks, runGroups } from "../runner/select.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { HookResult, Message, TriggerResult } from "../runner/types.js";
import type { Payload } from "./types.js";

/**
 * Small helpers the host adapters of Cursor, Factory Droid and Windsurf share for `install.entries`
 * (which events a config uses, the tools its matchers can select, how long an event's run may take)
 * and for `render` (the texts of a result by kind).
 */

/** The enabled sync hooks of a canonical event, in run order. */
export function eventHooks(config: ResolvedConfig, event: string): ResolvedHook[] {
  return orderHooks(config.hooks.filter((h) => h.event === event && h.enabled));
}

/** The canonical events the config has enabled hooks on, in first-declaration order. */
export function configEvents(config: ResolvedConfig): string[] {
  return [...new Set(config.hooks.filter((h) => h.enabled).map((h) => h.event))];
}

/**
 * Milliseconds a dispatch of `event` may take: the sum over the event's run groups of each
 * group's longest timeout (async hooks never hold the dispatch), as claudeDispatchSettings counts.
 */
export function eventRunMs(config: ResolvedConfig, event: string): number {
  const sync = eventHooks(config, event).filter((h) => !h.async);
  return runGroups(sync, config.events[event]?.parallel === true, eventGate(event, config)).reduce((sum, g) => sum + Math.max(...g.map((h) => h.timeoutMs)), 0);
}

/** Seconds a dispatch entry's timeout adds over its hooks' for hookrun itself (as Claude's). */
export const DISPATCH_MARGIN_S = 10;

/**
 * The canonical tool names the matchers of an event's hooks can select, or null when some hook
 * can select any tool (no matcher, `*`, or a regex: a regex is not narrowed, it is passed on whole).
 */
export function selectableTools(config: ResolvedConfig, event: string): Set<string> | null {
  const names = new Set<string>();
  for (const h of eventHooks(config, event)) {
    if (h.matcher === undefined) return null;
    const rule = matcherRule(h.matcher);
    if (rule.kind !== "names") return null;
    for (const n of rule.names) names.add(n);
  }
  return names;
}

/** The host's names of the canonical tools in `canonical` (tools the host does not rename keep their name). */
export function hostToolNames(tools: Readonly<Record<string, string>>, canonical: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const name of canonical) {
    const hostNames = Object.entries(tools)
      .filter(([, c]) => c === name)
      .map(([h]) => h);
    if (hostNames.length === 0) out.add(name);
    for (const h of hostNames) out.add(h);
  }
  return [...out].sort();
}

/** The trimmed, non-empty contents of messages. */
export const texts = (messages: Message[]): string[] => messages.map((m) => m.content.trim()).filter(Boolean);

const tail = (text: string, lines = 1) => text.trimEnd().split("\n").slice(-lines).join("\n").trim();

/** Why a hook failed, in one line for the user (the same words as the Claude render). */
export function failureLine(r: HookResult): string {
  const why = r.error ?? (r.exit_code !== null ? `exit ${r.exit_code}` : r.status.replace("_", " "));
  const err = tail(r.stderr);
  return `hook ${r.name} ${r.status.replace("_", " ")}: ${why}${err && !why.includes(err) ? ` (${err})` : ""}`;
}

/** A result's words by kind: context for the model, notices and failures for the user, feedback, follow-ups. */
export function resultTexts(result: TriggerResult): { context: string[]; notices: string[]; failures: string[]; feedback: string[]; followups: string[] } {
  const shown = result.messages.filter((m) => !m.hide);
  return {
    context: texts(shown.filter((m) => m.kind === undefined)),
    notices: texts(shown.filter((m) => m.kind === "notice")),
    failures: [...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map(failureLine),
    feedback: texts(shown.filter((m) => m.kind === "feedback")),
    followups: texts(shown.filter((m) => m.kind === "followup")),
  };
}

/** The reason of a block, never empty. */
export const blockReason = (result: TriggerResult): string => result.reason ?? `blocked by ${result.blocked_by ?? "a hook"}`;

/** The strongest decision of the run's hooks short of a block: ask over allow (Claude's order). */
export function rankedDecision(result: TriggerResult): { decision: "ask" | "allow" | "defer"; reason: string } | null {
  const ranked = (["defer", "ask", "allow"] as const).find((d) => result.hooks.some((r) => r.decision === d));
  if (!ranked) return null;
  const reason = result.hooks
    .filter((r) => r.decision === ranked)
    .map((r) => r.reason)
    .filter(Boolean)
    .join("; ");
  return { decision: ranked, reason };
}

/** A string field of a payload, or undefined. */
export const str = (p: Payload, key: string): string | undefined => (typeof p[key] === "string" ? (p[key] as string) : undefined);

/** A JSON text that holds an object, parsed; anything else as it is. */
export function parseJsonObject(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === "object" ? parsed : value;
  } catch {
    return value;
  }
}
