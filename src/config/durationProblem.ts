import { MAX_TIMEOUT_MS, parseDuration } from "./units.js";

/** Why a duration value is unusable (one sentence), or null when it is fine. */
export function durationProblem(key: string, value: unknown): string | null {
  const shown = typeof value === "string" ? `"${value}"` : String(value);
  const ms = parseDuration(value);
  if (ms === null) return `bad duration ${shown} for \`${key}\`: write seconds (30) or "500ms", "30s", "2m", "1h"`;
  if (ms <= 0) return `\`${key}\` must be positive, not ${shown}`;
  if (ms > MAX_TIMEOUT_MS) return `\`${key}\` ${shown} is above the 24 h maximum: use at most "24h"`;
  return null;
}
