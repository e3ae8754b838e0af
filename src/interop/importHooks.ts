import { Document } from "yaml";
import type { ConfigFileSpec, EventSettingsSpec, HookSpec } from "../config/types.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";

// What every host's `hooks import` produces, and how it becomes a hooks.yaml: each host module
// reads its own file into a HookImport; the renderer and the merge serve them all.

/** One hook of the import, under its canonical (or custom) event. */
export interface ImportedHook {
  event: string;
  /** The event as the host spells it in its file (`PreToolUse`, `BeforeTool`, `preToolUse`…). */
  hostEvent: string;
  /** Where the hook is in the host's file: `hooks.PreToolUse[0].hooks[1]`. */
  at: string;
  hook: HookSpec;
}

/** A hook already in the target config, so a second import does not add it twice. */
export interface ExistingHook {
  event: string;
  name: string;
  command?: string;
  args?: string[];
  matcher?: string;
  if?: string;
}

/**
 * A result of `hooks import HOST`: the hooks in hooks.yaml's shape (each with `dialect` set to the
 * output dialect its script was written for), custom events, and one note per field not carried or
 * hook refused (never dropped silently). One shape for every host, so one merge and one renderer
 * serve them all.
 */
export interface HookImport {
  hooks: ImportedHook[];
  /** Host events hookrun does not know, declared as custom events so nothing is lost. */
  customEvents: Record<string, EventSettingsSpec>;
  /** What was skipped, changed or not understood: one sentence each, for stderr. */
  notes: string[];
}

/**
 * The custom event a host's event hookrun has no event for is imported under: `name` (the host
 * event in snake_case), unless that is empty or names a built-in event (a custom event cannot take
 * a built-in's name, and the host's event need not mean what hookrun's does): then prefixed with
 * the host's name, `cursor_permission_request`.
 */
export function customEventName(host: string, name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  if (clean !== "" && tryParseHookEvent(clean) === null) return clean;
  const prefix = host.toLowerCase().replace(/[^a-z0-9]+/g, "_");
  return clean === "" ? `${prefix}_event` : `${prefix}_${clean}`;
}

/**
 * The start every host's import shares: an empty result, and the settings' `hooks` value, or
 * null when there is none (noted: nothing to import). `whole` names what the settings must be
 * ("Gemini CLI settings must be a JSON object"), thrown as a TypeError when they are not; `none`
 * is the note for settings without hooks.
 */
export function beginImport(settings: unknown, whole: string, none: string): { result: HookImport; root: Record<string, unknown>; hooks: unknown } {
  const result: HookImport = { hooks: [], customEvents: {}, notes: [] };
  if (settings === null || typeof settings !== "object" || Array.isArray(settings)) throw new TypeError(whole);
  const root = settings as Record<string, unknown>;
  if (root.hooks === undefined) result.notes.push(none);
  return { result, root, hooks: root.hooks === undefined ? null : root.hooks };
}

/**
 * The import as a config object: custom events first (only those a hook is imported under: a host
 * key whose hooks were all skipped declares nothing), then hooks grouped by event in file order.
 */
export function importToSpec(imp: HookImport): ConfigFileSpec {
  const spec: ConfigFileSpec = {};
  const used = new Set(imp.hooks.map((h) => h.event));
  const events = Object.entries(imp.customEvents).filter(([name]) => used.has(name));
  if (events.length) spec.events = Object.fromEntries(events);
  // A Map: an event named `constructor` or `__proto__` is a key, not an Object property.
  const hooks = new Map<string, HookSpec[]>();
  for (const { event, hook } of imp.hooks) hooks.set(event, [...(hooks.get(event) ?? []), hook]);
  spec.hooks = Object.fromEntries(hooks);
  return spec;
}

/** A standalone hooks.yaml for the import, with a header saying where it came from. */
export function renderImport(imp: HookImport, source: string, host = "claude"): string {
  const doc = new Document(importToSpec(imp));
  doc.commentBefore = ` Imported from ${source} by \`hooks import ${host}\`.\n Review the commands, then \`hooks validate\` and \`hooks trust\`.`;
  return doc.toString({ lineWidth: 0 });
}
