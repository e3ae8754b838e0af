import { DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT_MS, parseDuration, parseSize } from "./units.js";

export interface MergedDefaults {
  timeoutMs: number;
  shell: string;
  env: Record<string, string>;
  maxOutput: number;
}

/** `defaults:` of every layer, merged key by key and `env` variable by variable (later wins). */
export function mergeDefaults(values: unknown[]): MergedDefaults {
  const merged: MergedDefaults = { timeoutMs: DEFAULT_TIMEOUT_MS, shell: "sh", env: {}, maxOutput: DEFAULT_MAX_OUTPUT };
  for (const value of values) {
    const d = (value as { defaults?: unknown } | undefined)?.defaults as Record<string, unknown> | null | undefined;
    if (!d || typeof d !== "object") continue;
    merged.timeoutMs = parseDuration(d.timeout) ?? merged.timeoutMs;
    merged.maxOutput = parseSize(d.max_output) ?? merged.maxOutput;
    if (typeof d.shell === "string") merged.shell = d.shell;
    // Spread, not Object.assign: a variable named __proto__ stays a variable (assign would set the prototype).
    if (d.env && typeof d.env === "object") merged.env = { ...merged.env, ...d.env };
  }
  return merged;
}
