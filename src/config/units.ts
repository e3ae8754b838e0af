const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parse a duration: seconds as a number, or "500ms" | "30s" | "2m" | "1h". Returns ms or null. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value * 1000 : null;
  if (typeof value !== "string") return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? "s";
  return n * DURATION_UNIT_MS[unit]!;
}

/** Parse a size: bytes as a number, or "64KiB" | "1MiB" | "1GiB" (also KB/MB/GB, B). Returns bytes or null. */
export function parseSize(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value !== "string") return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|KB|MB|GB|K|M|G)?\s*$/i.exec(value);
  if (!m) return null;
  const unit = (m[2] ?? "B").toLowerCase();
  const mult: Record<string, number> = { b: 1, kib: 1024, k: 1024, kb: 1000, mib: 1024 ** 2, m: 1024 ** 2, mb: 1000 ** 2, gib: 1024 ** 3, g: 1024 ** 3, gb: 1000 ** 3 };
  return Math.floor(Number(m[1]) * mult[unit]!);
}

export const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * Claude Code's default timeout for a command hook on an event, kept for hooks in its dialect:
 * 600 s, but 30 s on UserPromptSubmit and 1.5 s on SessionEnd (read from Claude Code 2.1.330).
 */
export function claudeDefaultTimeoutMs(event: string): number {
  return event === "user_prompt_submit" ? 30_000 : event === "session_end" ? 1_500 : 600_000;
}
export const MAX_TIMEOUT_MS = 24 * 3_600_000;
export const DEFAULT_MAX_OUTPUT = 1024 * 1024;

/** Why a duration value is unusable (one sentence), or null when it is fine. */
export function durationProblem(key: string, value: unknown): string | null {
  const ms = parseDuration(value);
  if (ms !== null && ms > 0 && ms <= MAX_TIMEOUT_MS) return null;
  const shown = typeof value === "string" ? `"${value}"` : String(value);
  if (ms === null) return `bad duration ${shown} for \`${key}\`: write seconds (30) or "500ms", "30s", "2m", "1h"`;
  if (ms <= 0) return `\`${key}\` must be positive, not ${shown}`;
  if (ms > MAX_TIMEOUT_MS) return `\`${key}\` ${shown} is above the 24 h maximum: use at most "24h"`;
  return null;
}

/** Why a size value is unusable (one sentence), or null when it is fine. */
export function sizeProblem(key: string, value: unknown): string | null {
  if (parseSize(value) !== null) return null;
  const shown = typeof value === "string" ? `"${value}"` : String(value);
  return `bad size ${shown} for \`${key}\`: write bytes (1048576) or "64KiB", "1MiB", "1GiB"`;
}

/** Milliseconds as users write them: "500ms", "30s", "2m", "1h" (or seconds with a fraction). */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}
