import { parseSize } from "./units.js";

/** Why a size value is unusable (one sentence), or null when it is fine. */
export function sizeProblem(key: string, value: unknown): string | null {
  if (parseSize(value) !== null) return null;
  const shown = typeof value === "string" ? `"${value}"` : String(value);
  return `bad size ${shown} for \`${key}\`: write bytes (1048576) or "64KiB", "1MiB", "1GiB"`;
}
