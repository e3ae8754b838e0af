import { lstatSync } from "node:fs";
import path from "node:path";
import type { HookSpec } from "../config/types.js";
import { EVENT_BY_NAME, TOOL_CALL_EVENTS } from "../events/catalog.js";
import { normalizeEventName, tryParseHookEvent } from "../events/parseHookEvent.js";
import { isJsonObject } from "../config/scanJson.js";
import { hookrunCallNote } from "../hosts/dispatch.js";
import { hookNameFromCommand, slug, uniqueName } from "./hookNames.js";
import { beginImport, customEventName, type ExistingHook, type HookImport } from "./importHooks.js";

/**
 * Claude Code (2.1.332) events the catalog leaves out, and why: a hook on one is imported under a
 * custom event of that name (so nothing is lost), with this reason on stderr.
 */
export const CLAUDE_EVENTS_LEFT_OUT: Readonly<Record<string, string>> = Object.freeze({
  WorktreeCreate: "Claude Code reads the created worktree's path from the hook's stdout, which hookrun's result cannot carry",
  WorktreeRemove: "it pairs with WorktreeCreate, a worktree provider rather than a hook on an agent's step",
  MessageDisplay: "it rewrites streamed text on the user's display line by line (hookSpecificOutput.displayContent), which hookrun's result cannot carry",
  PreSkillShellCommand:
    "hookrun fires pre_tool_use for it (with host.event PreSkillShellCommand), so a hook on it alone would also run on the model's own tool calls there; move it under pre_tool_use to guard both",
});

const MAX_TIMEOUT_S = 24 * 60 * 60;
const matchesAll = (m: string | undefined) => m === undefined || m === "" || m === "*";

/**
 * Convert the `hooks` object of Claude Code settings (event → matcher groups → command hooks)
 * into hookrun hooks. Pure: reads nothing, writes nothing; `existing` names the hooks already in
 * the target file (same event, command and matcher are skipped; their names are not reused).
 */
export function importClaudeSettings(settings: unknown, existing: ExistingHook[] = []): HookImport {
  const { result, hooks } = beginImport(settings, "Claude Code settings must be a JSON object", "the settings have no `hooks` object; nothing to import");
  if (hooks === null) return result;
  if (!isJsonObject(hooks)) throw new TypeError("`hooks` in Claude Code settings must be an object of events");
  const taken = new Set(existing.map((h) => h.name));
  const seen = new Set(existing.map((h) => key(h.event, h.command, h.args, h.matcher, h.if)));
  for (const [claudeEvent, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      result.notes.push(`hooks.${claudeEvent}: not a list of matcher groups; skipped`);
      continue;
    }
    const known = tryParseHookEvent(claudeEvent);
    const event = known ?? customEventName("claude", normalizeEventName(claudeEvent));
    if (!known) {
      result.customEvents[event] = { custom: true, description: `Claude Code's ${claudeEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      const why = Object.hasOwn(CLAUDE_EVENTS_LEFT_OUT, claudeEvent) ? ` (${CLAUDE_EVENTS_LEFT_OUT[claudeEvent]})` : "";
      result.notes.push(`hooks.${claudeEvent}: hookrun has no event \`${claudeEvent}\`${why}; its hooks are imported under the custom event \`${event}\``);
    }
    const matchField = known ? (EVENT_BY_NAME.get(known)?.matchField ?? null) : null;
    groups.forEach((group, g) => {
      const where = `hooks.${claudeEvent}[${g}]`;
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) {
        result.notes.push(`${where}: not a matcher group with a \`hooks\` list; skipped`);
        return;
      }
      for (const k of Object.keys(group)) if (k !== "matcher" && k !== "hooks") result.notes.push(`${where}: \`${k}\` is not a field of Claude Code's matcher groups (it ignores it); not carried`);
      let matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      if (!matchesAll(matcher) && matchField === null) {
        result.notes.push(`${where}: matcher \`${matcher}\` dropped: ${claudeEvent} has no field to match (Claude Code ignores it too)`);
        matcher = undefined;
      }
      if (matchesAll(matcher)) matcher = undefined;
      group.hooks.forEach((entry, h) => {
        const at = `${where}.hooks[${h}]`;
        const converted = convertEntry(entry, event, matcher, at);
        if ("skip" in converted) {
          result.notes.push(converted.skip);
          return;
        }
        const { hook, notes } = converted;
        const id = key(event, hook.command, hook.args, matcher, hook.if);
        const twin = existing.find((x) => key(x.event, x.command, x.args, x.matcher, x.if) === id);
        if (seen.has(id)) {
          result.notes.push(`${at}: \`${commandText(hook)}\`${hook.if ? ` (if ${hook.if})` : ""} is already a ${event} hook${twin ? ` (\`${twin.name}\`)` : ""}; skipped`);
          return;
        }
        seen.add(id);
        hook.name = uniqueName(hookNameFromCommand(commandText(hook), hook.args) || fallbackName(event, matcher), taken);
        result.notes.push(...notes.map((n) => `${at} (\`${hook.name}\`): ${n}`));
        result.hooks.push({ event, hostEvent: claudeEvent, at, hook: orderKeys(hook) });
      });
    });
  }
  return result;
}

/** What makes two hooks of one event the same hook: the program it runs, its matcher and its `if`. */
function key(event: string, command: string | undefined, args: string[] | undefined, matcher: string | undefined, ifRule: string | undefined): string {
  return JSON.stringify([event, command ?? null, args ?? null, matchesAll(matcher) ? null : matcher, ifRule ?? null]);
}

const commandText = (h: HookSpec): string => h.command ?? (h.args ?? []).join(" ");

/** A readable name when the command says nothing: the event and its matcher (`pre-tool-use-bash`), else `stop-hook`. */
function fallbackName(event: string, matcher: string | undefined): string {
  const e = event.replace(/_/g, "-");
  const m = matcher === undefined ? "" : slug(matcher.replace(/[|,]+/g, "-"));
  return m ? slug(`${e}-${m}`) : `${e}-hook`;
}

/** The keys of an imported hook in the order a reader expects them. */
function orderKeys(h: HookSpec): HookSpec {
  const order = ["name", "description", "matcher", "if", "command", "args", "timeout", "async", "rewake", "shell", "on_failure", "dialect"] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (h[k] !== undefined) out[k] = h[k];
  return out as unknown as HookSpec;
}

// Claude Code's events on which it ignores onFailure (their exit 2 already means "go on").
const ON_FAILURE_IGNORED = new Set(["stop", "subagent_stop", "task_completed", "teammate_idle"]);

type Converted = { hook: HookSpec; notes: string[] } | { skip: string };

/**
 * One entry of a matcher group's `hooks` list → a hookrun hook, or the one-line reason it is not
 * imported. Every field of Claude Code's (2.1.330) command hook is carried or refused; a key
 * Claude Code does not know (it ignores it) is reported, never dropped silently.
 */
function convertEntry(entry: unknown, event: string, matcher: string | undefined, at: string): Converted {
  if (!isJsonObject(entry)) return { skip: `${at}: not an object; skipped` };
  const type = entry.type ?? "command";
  if (type !== "command") return { skip: `${at}: skipped a hook of type \`${String(type)}\`: hookrun runs only \`command\` hooks` };
  if (typeof entry.command !== "string" || entry.command.trim() === "") return { skip: `${at}: no \`command\`; skipped` };
  const command = entry.command;
  const callsHookrun = hookrunCallNote(command);
  if (callsHookrun) return { skip: `${at}: \`${command}\` ${callsHookrun}` };
  const c: Conversion = { entry, event, command, hook: { name: "" }, notes: [] };
  for (const [k, v] of Object.entries(entry)) {
    const refused = carryRunField(k, v, c);
    if (refused !== null) return { skip: `${at} (\`${command}\`): not imported: ${refused}` };
  }
  if (matcher !== undefined) c.hook.matcher = matcher;
  if (c.hook.args === undefined) c.hook.command = command;
  c.hook.dialect = "claude";
  return { hook: c.hook, notes: c.notes };
}

/** One entry being converted: what it is, and the hook and notes it becomes. */
interface Conversion {
  entry: Record<string, unknown>;
  event: string;
  command: string;
  hook: HookSpec;
  notes: string[];
}

/** A field of how the hook runs carried into `c.hook`, else carryOtherField's; the reason the entry is refused, or null. */
function carryRunField(k: string, v: unknown, c: Conversion): string | null {
  switch (k) {
    case "type":
    case "command":
      break;
    case "args": {
      if (!Array.isArray(v) || !v.every((a) => typeof a === "string")) return "`args` is not a list of strings";
      const argv = [c.command, ...v];
      const placeholder = argv.find((a) => a.includes("${"));
      if (placeholder !== undefined)
        return `exec form (\`args\`) with the placeholder in ${JSON.stringify(placeholder)}: Claude Code substitutes \${CLAUDE_PROJECT_DIR} there, hookrun's \`args\` are passed as written`;
      c.hook.args = argv;
      break;
    }
    case "if":
      if (typeof v !== "string" || v.trim() === "") return "`if` is not a permission rule such as Bash(git *)";
      c.hook.if = v;
      if (!TOOL_CALL_EVENTS.has(c.event)) c.notes.push(`\`if\` on ${c.event}, which has no tool call: Claude Code never runs this hook, nor will hookrun`);
      break;
    case "timeout":
      if (typeof v === "number" && v > 0 && v <= MAX_TIMEOUT_S) c.hook.timeout = v;
      else return `timeout ${JSON.stringify(v)} is not a number of seconds between 0 and 24 h`;
      break;
    case "async":
      if (v === true) c.hook.async = true;
      else if (v !== false) return `async ${JSON.stringify(v)} is not true or false`;
      break;
    case "asyncRewake":
      // Run in the background; exit 2 wakes the model with the hook's stderr (docs/async.md#rewake).
      if (v === true) {
        c.hook.async = true;
        c.hook.rewake = true;
      } else if (v !== false) return `asyncRewake ${JSON.stringify(v)} is not true or false`;
      break;
    case "once":
      if (v === true) return "`once` (run once per session, then removed) has no hookrun equivalent; it would run on every event";
      if (v !== false) return `once ${JSON.stringify(v)} is not true or false`;
      break;
    default:
      return carryOtherField(k, v, c);
  }
  return null;
}

/** The shell, onFailure and the fields hookrun has no use for: carried, or noted as not carried; the reason the entry is refused, or null. */
function carryOtherField(k: string, v: unknown, c: Conversion): string | null {
  switch (k) {
    case "shell":
      // Claude Code's `bash` (its default) spawns with Node's `shell: true`: /bin/sh -c on POSIX, hookrun's default.
      if (v === "bash") c.notes.push("`shell: bash` not carried: Claude Code runs it as /bin/sh -c, which is hookrun's default (sh)");
      else if (v === "powershell") return "`shell: powershell`: hookrun runs hooks with sh, bash or zsh";
      else return `shell ${JSON.stringify(v)} is not one Claude Code accepts (bash, powershell)`;
      break;
    case "onFailure":
      if (v !== "block" && v !== "continue") return `onFailure ${JSON.stringify(v)} is not continue or block`;
      if (v === "continue") break;
      if (c.entry.async === true || c.entry.asyncRewake === true) c.notes.push("`onFailure: block` not carried: Claude Code ignores it on async hooks");
      else if (ON_FAILURE_IGNORED.has(c.event)) c.notes.push(`\`onFailure: block\` not carried: Claude Code ignores it on ${c.event}`);
      else if (EVENT_BY_NAME.get(c.event)?.gate !== "yes") c.notes.push(`\`onFailure: block\` not carried: ${c.event} cannot block`);
      else c.hook.on_failure = "block";
      break;
    case "statusMessage":
      if (typeof v === "string" && v.trim()) c.hook.description = v.trim();
      else if (v !== "") c.notes.push(`statusMessage ${JSON.stringify(v)} is not text; not carried`);
      break;
    case "rewakeMessage":
    case "rewakeSummary":
      if (c.entry.asyncRewake !== true) c.notes.push(`\`${k}\` not carried: Claude Code reads it only for an asyncRewake hook`);
      else if (k === "rewakeMessage") c.notes.push("`rewakeMessage` not carried: the model is woken with the hook's reason under Claude Code's own prefix");
      else c.notes.push("`rewakeSummary` not carried: Claude Code shows the user its default summary");
      break;
    case "holdsTools":
      c.notes.push("`holdsTools` not carried: Claude Code honours it only for its official security-guidance plugin");
      break;
    case "cloud":
      c.notes.push("`cloud` not carried: it says where the hook runs for Claude Code's cloud sessions");
      break;
    default:
      c.notes.push(`\`${k}\` is not a field of Claude Code's command hooks (Claude Code ignores it); not carried`);
  }
  return null;
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
