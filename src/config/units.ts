/** Parse a duration: seconds as a number, or "500ms" | "30s" | "2m" | "1h". Returns ms or null. */
export function parseDuration(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value * 1000 : null;
  if (typeof value !== "string") return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? "s";
  return n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!;
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
export const MAX_TIMEOUT_MS = 24 * 3_600_000;
export const DEFAULT_MAX_OUTPUT = 1024 * 1024;
