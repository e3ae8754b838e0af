import type { HookSpec } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { hookNameFromCommand, slug, uniqueName } from "../interop/hookNames.js";
import { customEventName, type ExistingHook, type HookImport } from "../interop/importHooks.js";
import { hookrunCallNote } from "./dispatch.js";

/**
 * `hooks import` for hosts whose hooks.json lists flat entries per event (`{event: [{command, …}]}`:
 * Cursor, Windsurf): the loop every such host shares (events to canonical or custom, entries that
 * are not hooks, entries that already dispatch to hookrun, hooks already in the target, names),
 * with the host's own fields read by `convert`.
 */

/** One entry of the file, with where it is and the event it is imported under. */
export interface FlatEntry {
  hostEvent: string;
  event: string;
  /** `hooks.preToolUse[1]`. */
  at: string;
  command: string;
  entry: Record<string, unknown>;
}

/** What the host makes of an entry's other fields, or why the entry is not imported. */
export type FlatConverted = { matcher?: string; timeout?: number; on_failure?: "block"; loop_limit?: number | null; notes: string[] } | { refuse: string };

export interface FlatImportRules {
  /** The host's name for people, in notes: "Cursor". */
  title: string;
  /** Host event → canonical event. */
  events: Readonly<Record<string, string>>;
  convert(e: FlatEntry): FlatConverted;
}

/** The `hooks` object of a flat hooks.json → hookrun hooks (native dialect), one note per thing not carried. */
export function importFlatHooks(hooks: unknown, existing: ExistingHook[], rules: FlatImportRules): HookImport {
  const result: HookImport = { hooks: [], customEvents: {}, notes: [] };
  if (hooks === undefined) {
    result.notes.push("the file has no `hooks` object; nothing to import");
    return result;
  }
  if (!isJsonObject(hooks)) throw new TypeError(`\`hooks\` in ${rules.title}'s hooks.json must be an object of events`);
  const taken = new Set(existing.map((h) => h.name));
  const key = (event: string, command: string | undefined, matcher: string | undefined) => JSON.stringify([event, command ?? null, matcher ?? null]);
  const seen = new Set(existing.map((h) => key(h.event, h.command, h.matcher)));
  for (const [hostEvent, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      result.notes.push(`hooks.${hostEvent}: not a list of hooks; skipped`);
      continue;
    }
    let event = Object.hasOwn(rules.events, hostEvent) ? rules.events[hostEvent] : undefined;
    if (!event) {
      event = customEventName(rules.title, slug(hostEvent.replace(/([a-z0-9])([A-Z])/g, "$1_$2")).replace(/[.-]/g, "_"));
      result.customEvents[event] = { custom: true, description: `${rules.title}'s ${hostEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      result.notes.push(`hooks.${hostEvent}: hookrun has no event for ${rules.title}'s \`${hostEvent}\`; its hooks are imported under the custom event \`${event}\``);
    }
    for (const [i, entry] of list.entries()) {
      const at = `hooks.${hostEvent}[${i}]`;
      const skip = (why: string) => result.notes.push(`${at}: ${why}`);
      if (!isJsonObject(entry)) {
        skip("not an object; skipped");
        continue;
      }
      if (entry.type !== undefined && entry.type !== "command") {
        skip(`skipped a hook of type \`${String(entry.type)}\`: hookrun runs only command hooks`);
        continue;
      }
      const command = entry.command;
      if (typeof command !== "string" || command.trim() === "") {
        skip("no `command`; skipped");
        continue;
      }
      const callsHookrun = hookrunCallNote(command);
      if (callsHookrun) {
        skip(`\`${command}\` ${callsHookrun}`);
        continue;
      }
      const converted = rules.convert({ hostEvent, event, at, command, entry });
      if ("refuse" in converted) {
        result.notes.push(`${at} (\`${command}\`): not imported: ${converted.refuse}`);
        continue;
      }
      const id = key(event, command, converted.matcher);
      if (seen.has(id)) {
        skip(`\`${command}\` is already a ${event} hook; skipped`);
        continue;
      }
      seen.add(id);
      const name = uniqueName(hookNameFromCommand(command) || `${event.replace(/_/g, "-")}-hook`, taken);
      const hook: HookSpec = {
        name,
        ...(converted.matcher !== undefined && { matcher: converted.matcher }),
        command,
        ...(converted.timeout !== undefined && { timeout: converted.timeout }),
        ...(converted.on_failure && { on_failure: converted.on_failure }),
        ...(converted.loop_limit !== undefined && { loop_limit: converted.loop_limit }),
      };
      result.notes.push(...converted.notes.map((n) => `${at} (\`${name}\`): ${n}`));
      result.hooks.push({ event, hostEvent, at, hook });
    }
  }
  return result;
}
