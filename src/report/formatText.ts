import type { AsyncDelivery, HookResult, HookStatus, Message, TriggerResult } from "../runner/types.js";
import { terminalSafe, terminalSafeLines } from "../text.js";

// Every string below that came from a hook's output or from config (names, reasons, errors,
// messages, stderr, warnings) goes through terminalSafe: a hook must not be able to clear the
// screen, overwrite a line or write the clipboard (OSC 52) through our report. This is done
// whether or not stdout is a terminal, since a saved log is later `cat`-ed to one; the exact
// bytes are in `--output json`.
const safe = (text: string): string => terminalSafe(text, { keepTabs: true });

export interface TextStyle {
  color: boolean;
}

const MARK: Record<HookStatus, string> = {
  ok: "✓",
  blocked: "■",
  failed: "✗",
  timed_out: "⏱",
  spawn_error: "✗",
  invalid_output: "✗",
  skipped: "-",
  cancelled: "⊘",
};
const COLOR: Record<HookStatus, number> = { ok: 32, blocked: 31, failed: 31, timed_out: 31, spawn_error: 31, invalid_output: 31, skipped: 90, cancelled: 33 };

const STDERR_TAIL_LINES = 10;

/**
 * A measured time, to the precision a reader wants: "12ms", "2.30s", "61.0s". Not config/units'
 * formatDuration, which writes a configured duration back as users write it ("30s", "2m").
 */
export function formatElapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
}

function paint(style: TextStyle, code: number, text: string): string {
  return style.color ? `\x1b[${code}m${text}\x1b[0m` : text;
}

// What a hook line says after its name: the exit code, or why it did not succeed.
function detail(r: HookResult): string {
  switch (r.status) {
    case "ok":
      return r.exit_code === 0 || r.exit_code === null ? "" : `exit ${r.exit_code}`;
    case "blocked":
      return `blocked: ${safe(r.reason ?? "")}`.trim();
    case "skipped":
      return "skipped";
    default:
      return r.decision === "block" ? `${safe(r.error ?? r.status)}; blocks (on_failure: block)` : safe(r.error ?? r.status);
  }
}

function formatMessage(m: Message): string {
  // A kind says who the message is for (docs/dialects.md); plain context has none.
  const role = (m.role === "system" ? "" : `[${m.role}] `) + (m.kind ? `(${m.kind}) ` : "");
  return terminalSafeLines(m.content)
    .map((line, i) => (i === 0 ? `    » ${role}${line}` : `      ${line}`))
    .join("\n");
}

/** One line for a hook: mark, name, duration, exit code or reason. */
export function formatHookLine(r: HookResult, style: TextStyle): string {
  const parts = [paint(style, COLOR[r.status], MARK[r.status]), safe(r.name)];
  if (r.status !== "skipped") parts.push(paint(style, 90, formatElapsed(r.duration_ms)));
  const d = detail(r);
  if (d) parts.push(r.status === "ok" ? d : paint(style, COLOR[r.status], d));
  return parts.join("  ");
}

/** A hook's block: its line, its Messages, its warnings, and the tail of its stderr when it failed. */
export function formatHookBlock(r: HookResult, style: TextStyle): string {
  const lines = [formatHookLine(r, style) + asyncNote(r, style)];
  for (const m of r.messages) if (!m.hide) lines.push(formatMessage(m));
  for (const w of r.warnings) lines.push(`    ${paint(style, 33, "warning:")} ${safe(w)}`);
  if (r.status !== "ok" && r.status !== "skipped" && r.status !== "blocked" && r.stderr.trim()) {
    const tail = terminalSafeLines(r.stderr.trimEnd()).slice(-STDERR_TAIL_LINES);
    for (const line of tail) lines.push(`    ${paint(style, 90, "│")} ${line}`);
  }
  return `${lines.join("\n")}\n`;
}

// Async results say so, and which event started them (they may come from an earlier run).
function asyncNote(r: HookResult, style: TextStyle): string {
  const event = (r as Partial<AsyncDelivery>).event;
  return typeof event === "string" && "finished_at" in r ? `  ${paint(style, 90, `(async, from ${safe(event)})`)}` : "";
}

/** What follows the hook blocks: the trigger's warnings and the summary line. */
export function formatFooter(result: TriggerResult, style: TextStyle): string {
  const lines = result.warnings.map((w) => `${paint(style, 33, "warning:")} ${safe(w)}`);
  lines.push(formatSummary(result, style));
  return `${lines.join("\n")}\n`;
}

/** The text report of a trigger (docs/cli.md#output-formats): a block per hook, then warnings and a summary. */
export function formatText(result: TriggerResult, style: TextStyle): string {
  return [...result.async_delivered, ...result.hooks].map((r) => formatHookBlock(r, style)).join("") + formatFooter(result, style);
}

/** The summary line: counts by status, the block or stop, total time. */
export function formatSummary(result: TriggerResult, style: TextStyle): string {
  const counts = new Map<HookStatus, number>();
  for (const r of result.hooks) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const order: HookStatus[] = ["ok", "blocked", "failed", "timed_out", "spawn_error", "invalid_output", "cancelled", "skipped"];
  const parts = order.filter((s) => counts.has(s)).map((s) => `${counts.get(s)} ${s.replace("_", " ")}`);
  const n = result.hooks.length;
  let text = `${safe(result.event)}: ${n === 0 ? "no hooks ran" : `${n} hook${n === 1 ? "" : "s"}`}${parts.length ? ` (${parts.join(", ")})` : ""} in ${formatElapsed(result.duration_ms)}`;
  if (result.blocked) text += ` — blocked by ${safe(result.blocked_by ?? "")}${result.reason ? `: ${safe(result.reason)}` : ""}`;
  if (!result.continue) text += ` — ${safe(result.stopped_by ?? "")} asks to stop${result.stop_reason ? `: ${safe(result.stop_reason)}` : ""}`;
  if (result.async_started.length > 0) text += `; async started: ${result.async_started.map(safe).join(", ")}`;
  if (result.async_delivered.length > 0) text += `; async delivered: ${result.async_delivered.length}`;
  return result.blocked ? paint(style, 31, text) : text;
}
