import type { EventSettingsSpec, HookSpec } from "../config/types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { normalizeEventName, tryParseHookEvent } from "../events/parseHookEvent.js";
import { hookNameFromCommand, uniqueName } from "./hookNameFromCommand.js";

/** One hook of the import, under its canonical (or custom) event. */
export interface ImportedHook {
  event: string;
  /** The event as Claude Code spells it in the settings file. */
  claudeEvent: string;
  hook: HookSpec;
}

/** A hook already in the target config, so a second import does not add it twice. */
export interface ExistingHook {
  event: string;
  name: string;
  command?: string;
  matcher?: string;
}

export interface ClaudeImport {
  hooks: ImportedHook[];
  /** Claude Code events hookrun does not know, declared as custom events so nothing is lost. */
  customEvents: Record<string, EventSettingsSpec>;
  /** What was skipped, changed or not understood: one sentence each, for stderr. */
  notes: string[];
}

// A settings entry that dispatches to hookrun itself (`npx hooks run stop --output claude`).
const DELEGATES = /(^|[\s/])(hooks|hookrun)(\.js)?\s+(-\S+\s+("[^"]*"|\S+)\s+)*run\s/;
const MAX_TIMEOUT_S = 24 * 60 * 60;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const matchesAll = (m: string | undefined) => m === undefined || m === "" || m === "*";

/**
 * Convert the `hooks` object of Claude Code settings (event → matcher groups → command hooks)
 * into hookrun hooks. Pure: reads nothing, writes nothing; `existing` names the hooks already in
 * the target file (same event, command and matcher are skipped; their names are not reused).
 */
export function importClaudeSettings(settings: unknown, existing: ExistingHook[] = []): ClaudeImport {
  const result: ClaudeImport = { hooks: [], customEvents: {}, notes: [] };
  if (!isObject(settings)) throw new TypeError("Claude Code settings must be a JSON object");
  const hooks = settings.hooks;
  if (hooks === undefined) {
    result.notes.push("the settings have no `hooks` object; nothing to import");
    return result;
  }
  if (!isObject(hooks)) throw new TypeError("`hooks` in Claude Code settings must be an object of events");
  const taken = new Set(existing.map((h) => h.name));
  const seen = new Set(existing.map((h) => key(h.event, h.command, h.matcher)));
  for (const [claudeEvent, groups] of Object.entries(hooks)) {
    const known = tryParseHookEvent(claudeEvent);
    const event = known ?? normalizeEventName(claudeEvent).replace(/[^a-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
    if (!known) {
      result.customEvents[event] = { custom: true, description: `Claude Code's ${claudeEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      result.notes.push(`hooks.${claudeEvent}: hookrun has no event \`${claudeEvent}\`; its hooks are imported under the custom event \`${event}\``);
    }
    const matchField = known ? (EVENT_BY_NAME.get(known)?.matchField ?? null) : null;
    if (!Array.isArray(groups)) {
      result.notes.push(`hooks.${claudeEvent}: not a list of matcher groups; skipped`);
      continue;
    }
    groups.forEach((group, g) => {
      const where = `hooks.${claudeEvent}[${g}]`;
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        result.notes.push(`${where}: not a matcher group with a \`hooks\` list; skipped`);
        return;
      }
      let matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      if (!matchesAll(matcher) && matchField === null) {
        result.notes.push(`${where}: matcher \`${matcher}\` dropped: ${claudeEvent} has no field to match (Claude Code ignores it too)`);
        matcher = undefined;
      }
      if (matchesAll(matcher)) matcher = undefined;
      group.hooks.forEach((entry, h) => {
        const at = `${where}.hooks[${h}]`;
        if (!isObject(entry)) return void result.notes.push(`${at}: not an object; skipped`);
        const type = entry.type ?? "command";
        if (type !== "command") return void result.notes.push(`${at}: skipped a hook of type \`${String(type)}\`: hookrun runs only \`command\` hooks`);
        if (typeof entry.command !== "string" || entry.command.trim() === "") return void result.notes.push(`${at}: no \`command\`; skipped`);
        const command = entry.command;
        if (DELEGATES.test(command)) return void result.notes.push(`${at}: \`${command}\` already hands this event to hookrun; skipped (importing it would run hookrun from itself)`);
        const id = key(event, command, matcher);
        const twin = existing.find((x) => key(x.event, x.command, x.matcher) === id);
        if (seen.has(id)) return void result.notes.push(`${at}: \`${command}\` is already a ${event} hook${twin ? ` (\`${twin.name}\`)` : ""}; skipped`);
        seen.add(id);
        const hook: HookSpec = { name: uniqueName(hookNameFromCommand(command) || `${event.replace(/_/g, "-")}-hook`, taken) };
        if (typeof entry.statusMessage === "string" && entry.statusMessage.trim()) hook.description = entry.statusMessage.trim();
        if (matcher !== undefined) hook.matcher = matcher;
        hook.command = command;
        if (entry.timeout !== undefined) {
          if (typeof entry.timeout === "number" && entry.timeout > 0 && entry.timeout <= MAX_TIMEOUT_S) hook.timeout = entry.timeout;
          else result.notes.push(`${at}: timeout ${JSON.stringify(entry.timeout)} is not a number of seconds between 0 and 24 h; the default applies`);
        }
        if (entry.async === true) hook.async = true;
        if (entry.shell === "bash" || entry.shell === "zsh" || entry.shell === "sh") hook.shell = entry.shell;
        else if (entry.shell !== undefined) result.notes.push(`${at}: shell ${JSON.stringify(entry.shell)} is not supported; sh is used`);
        for (const flag of ["once", "asyncRewake"]) {
          if (entry[flag] !== undefined) result.notes.push(`${at}: \`${flag}\` has no hookrun equivalent; ignored`);
        }
        result.hooks.push({ event, claudeEvent, hook });
      });
    });
  }
  return result;
}

function key(event: string, command: string | undefined, matcher: string | undefined): string {
  return JSON.stringify([event, command ?? null, matchesAll(matcher) ? null : matcher]);
}
