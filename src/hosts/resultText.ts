import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { HookResult, Message, TriggerResult } from "../runner/types.js";

/**
 * Small helpers the host adapters share to render a result (its texts by kind, a failure in one
 * line, the block reason, the strongest decision) and read a payload.
 */

/** The trimmed, non-empty contents of messages. */
export const texts = (messages: Message[]): string[] => messages.map((m) => m.content.trim()).filter(Boolean);

/** The last `lines` lines of a text (a hook's stderr), trimmed. */
export const tail = (text: string, lines: number): string => text.trimEnd().split("\n").slice(-lines).join("\n").trim();

/** Why a hook failed, in one line for the user (the same words under every host). */
export function failureLine(r: HookResult): string {
  const why = r.error ?? (r.exit_code !== null ? `exit ${r.exit_code}` : r.status.replace("_", " "));
  const err = tail(r.stderr, 1);
  return `hook ${r.name} ${r.status.replace("_", " ")}: ${why}${err && !why.includes(err) ? ` (${err})` : ""}`;
}

/**
 * A result's words by kind: context for the model, notices and failures for the user, feedback
 * (a hook's block after the tool ran, which the dialects make a `feedback` message), follow-ups.
 */
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
/** A line of hookrun's own for the user: `hookrun: ` in front, once (some notices carry it already). */
export const hookrunLine = (text: string): string => (text.startsWith("hookrun: ") ? text : `hookrun: ${text}`);

export const blockReason = (result: TriggerResult): string => result.reason ?? `blocked by ${result.blocked_by ?? "a hook"}`;

/** The strongest decision of the run's hooks short of a block, in Claude's order: defer > ask > allow. */
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
