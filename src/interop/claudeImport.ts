import { lstatSync } from "node:fs";
import path from "node:path";
import { Document } from "yaml";
import type { EventSettingsSpec, HookSpec, ConfigFileSpec } from "../config/types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { normalizeEventName, tryParseHookEvent } from "../events/parseHookEvent.js";

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

/**
 * Claude Code (2.1.330) events the catalog leaves out, and why: a hook on one is imported under a
 * custom event of that name (so nothing is lost), with this reason on stderr.
 */
export const CLAUDE_EVENTS_LEFT_OUT: Readonly<Record<string, string>> = Object.freeze({
  WorktreeCreate: "Claude Code reads the created worktree's path from the hook's stdout, which hookrun's result cannot carry",
  WorktreeRemove: "it pairs with WorktreeCreate, a worktree provider rather than a hook on an agent's step",
  MessageDisplay: "it rewrites streamed text on the user's display line by line (hookSpecificOutput.displayContent), which hookrun's result cannot carry",
});

// A settings entry that dispatches to hookrun itself (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks run stop
// --output claude`, or an older `npx hooks run …` one): importing it would run hookrun from itself.
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
    const event =
      known ??
      normalizeEventName(claudeEvent)
        .replace(/[^a-z0-9_]+/g, "_")
        .replace(/^_+|_+$/g, "");
    if (!known) {
      result.customEvents[event] = { custom: true, description: `Claude Code's ${claudeEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      const why = Object.hasOwn(CLAUDE_EVENTS_LEFT_OUT, claudeEvent) ? ` (${CLAUDE_EVENTS_LEFT_OUT[claudeEvent]})` : "";
      result.notes.push(`hooks.${claudeEvent}: hookrun has no event \`${claudeEvent}\`${why}; its hooks are imported under the custom event \`${event}\``);
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
      // biome-ignore lint/suspicious/useIterableCallbackReturn: `return void note(…)` skips one entry
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

/** Hook names must match this (SPEC §2.2). */
export const HOOK_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

// Launchers whose first argument, not themselves, says what the hook does.
const LAUNCHERS = new Set(["npx", "bunx", "pnpx", "uvx", "node", "deno", "bun", "python", "python3", "ruby", "perl", "bash", "sh", "zsh", "exec", "env", "sudo", "nohup", "time", "tsx", "ts-node"]);
// Launcher verbs that come before the real name (`npm run lint`, `pnpm dlx x`, `go run ./cmd/x`).
const VERBS = new Set(["run", "exec", "dlx", "x", "run-script"]);
const RUNNERS_WITH_VERBS = new Set(["npm", "pnpm", "yarn", "bun", "deno", "go", "cargo", "uv", "poetry"]);
// Commands too generic to name a hook after; the caller falls back to the event's name.
const GENERIC = new Set(["echo", "printf", "true", "false", "cat", "exit", "test", "[", ":"]);
const SCRIPT_EXT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|ps1)$/i;

/** Split a shell command into words, honouring simple quotes; enough to find a name, not to run it. */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'])+/g)) out.push(m[0].replace(/["']/g, ""));
  return out;
}

/** The first simple command of a list, skipping a leading `cd DIR &&`. */
function firstCommand(command: string): string {
  const parts = command
    .split(/&&|\|\||;|\|/)
    .map((p) => p.trim())
    .filter(Boolean);
  const useful = parts.find((p) => !/^cd\s/.test(p));
  return useful ?? parts[0] ?? "";
}

/**
 * A readable hook name from a command: `./scripts/guard-bash.sh` → `guard-bash`,
 * `npx eslint --fix` → `eslint`, `npm run lint` → `lint`; "" when nothing usable is found.
 */
export function hookNameFromCommand(command: string): string {
  let ws = words(firstCommand(command)).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  for (;;) {
    const head = ws[0];
    if (head === undefined) break;
    const base = head.split("/").pop() ?? head;
    if (RUNNERS_WITH_VERBS.has(base) && ws[1] !== undefined && VERBS.has(ws[1])) ws = ws.slice(2);
    else if (LAUNCHERS.has(base)) ws = ws.slice(1);
    else break;
    while (ws[0]?.startsWith("-")) ws = ws.slice(1);
  }
  const target = ws[0] ?? "";
  const base = (
    target
      .replace(/[/\\]+$/, "")
      .split(/[/\\]/)
      .pop() ?? ""
  ).replace(SCRIPT_EXT, "");
  return GENERIC.has(base) ? "" : slug(base);
}

/** Lower-case, invalid characters to `-`, trimmed so it starts with a letter or digit. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[._-]+/, "")
    .replace(/[._-]+$/, "")
    .slice(0, 60);
}

/** `base`, else `base-2`, `base-3`… : the first not in `taken` (which it then joins). */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/** Where `hooks import claude` looks without a FILE: `.claude/settings.json` here, then in each parent. */
export function claudeSettingsCandidates(cwd: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    out.push(path.join(dir, ".claude", "settings.json"));
    if (path.dirname(dir) === dir) return out;
  }
}

/** The project's Claude Code settings file, or null (with the candidates tried). */
export function findClaudeSettings(cwd: string): { file: string | null; tried: string[] } {
  const tried = claudeSettingsCandidates(cwd);
  // lstat: a dangling settings symlink is found (and its read fails, saying so), not skipped for a parent's.
  return { file: tried.find((f) => lstatSync(f, { throwIfNoEntry: false }) !== undefined) ?? null, tried };
}

/** The import as a config object: custom events first, then hooks grouped by event in file order. */
export function claudeImportToSpec(imp: ClaudeImport): ConfigFileSpec {
  const spec: ConfigFileSpec = {};
  if (Object.keys(imp.customEvents).length) spec.events = { ...imp.customEvents };
  const hooks: Record<string, HookSpec[]> = {};
  for (const { event, hook } of imp.hooks) (hooks[event] ??= []).push(hook);
  spec.hooks = hooks;
  return spec;
}

/** A standalone hooks.yaml for the import, with a header saying where it came from. */
export function renderClaudeImport(imp: ClaudeImport, source: string): string {
  const doc = new Document(claudeImportToSpec(imp));
  doc.commentBefore = ` Imported from ${source} by \`hooks import claude\`.\n Review the commands, then \`hooks validate\` and \`hooks trust\`.`;
  return doc.toString({ lineWidth: 0 });
}
