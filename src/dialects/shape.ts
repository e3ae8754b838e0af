/**
 * Small helpers the host dialects share to shape a hook's stdin from hookrun's context: the
 * firing host's own spelling (`base.host`), a host's name of a canonical tool, a field copied as
 * data, a file edit as the `edits` list some hosts send.
 */
import { setOwn } from "../runner/context.js";

/** `base.host` when the event was fired by host `name` (its own event and tool names), else null. */
export function firedBy(base: Record<string, unknown>, name: string): Record<string, unknown> | null {
  const host = Object.hasOwn(base, "host") ? base.host : undefined;
  return typeof host === "object" && host !== null && !Array.isArray(host) && (host as Record<string, unknown>).name === name ? (host as Record<string, unknown>) : null;
}

/** The host's name of canonical tool `name` (the first in its table mapped to it); unknown names pass unchanged. */
export function hostTool(tools: Readonly<Record<string, string>>, name: unknown): unknown {
  if (typeof name !== "string") return name;
  for (const [host, canonical] of Object.entries(tools)) if (canonical === name) return host;
  return name;
}

/** A copy of `base` (own fields only, `__proto__` kept as data). */
export function copyOf(base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) setOwn(out, key, base[key]);
  return out;
}

/** An object's keys renamed by `names` (other keys kept); a value that is not an object passes unchanged. */
export function renameKeys(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const to = Object.hasOwn(names, key) && !Object.hasOwn(value, names[key]) ? names[key] : key;
    setOwn(out, to, v);
  }
  return out;
}

/** `names` reversed: Copilot's → canonical, say. */
export function reversed(names: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  return Object.fromEntries(Object.entries(names).map(([a, b]) => [b, a]));
}

/** `v` when it is a string. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * A canonical Write / Edit / MultiEdit input as the `edits` list Cursor's afterFileEdit and
 * Windsurf's write_code send: `[{old_string, new_string}]`, a new file as one edit with an empty
 * `old_string`.
 */
export function editsOf(input: Record<string, unknown>): unknown[] {
  if (Array.isArray(input.edits)) return input.edits;
  if (typeof input.old_string === "string" || typeof input.new_string === "string") return [{ old_string: input.old_string ?? "", new_string: input.new_string ?? "" }];
  if (typeof input.content === "string") return [{ old_string: "", new_string: input.content }];
  return [];
}
