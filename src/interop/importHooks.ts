import { Document } from "yaml";
import type { ConfigFileSpec, EventSettingsSpec, HookSpec } from "../config/types.js";

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

/** The import as a config object: custom events first, then hooks grouped by event in file order. */
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

export function importToSpec(imp: HookImport): ConfigFileSpec {
  const spec: ConfigFileSpec = {};
  if (Object.keys(imp.customEvents).length) spec.events = { ...imp.customEvents };
  const hooks: Record<string, HookSpec[]> = {};
  for (const { event, hook } of imp.hooks) (hooks[event] ??= []).push(hook);
  spec.hooks = hooks;
  return spec;
}

/** A standalone hooks.yaml for the import, with a header saying where it came from. */
export function renderImport(imp: HookImport, source: string, host = "claude"): string {
  const doc = new Document(importToSpec(imp));
  doc.commentBefore = ` Imported from ${source} by \`hooks import ${host}\`.\n Review the commands, then \`hooks validate\` and \`hooks trust\`.`;
  return doc.toString({ lineWidth: 0 });
}
