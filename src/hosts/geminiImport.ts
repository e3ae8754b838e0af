import type { HookSpec } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { hookNameFromCommand, slug, uniqueName } from "../interop/hookNames.js";
import { beginImport, customEventName, type ExistingHook, type HookImport } from "../interop/importHooks.js";
import { hookrunCallNote } from "./dispatch.js";
import { EVENTS, PLACEHOLDERS, TOOLS } from "../events/geminiNames.js";
import { escapeRegex } from "./geminiSetup.js";
import { runInOrder } from "./sequentialImport.js";

/**
 * `hooks import gemini`: the hooks of Gemini CLI's settings as hookrun hooks (`dialect: gemini`:
 * Gemini's payload on stdin, their output read by Gemini's rules), every field carried or noted. The adapter is src/hosts/gemini.ts.
 */

/** Gemini events hookrun has no event for: imported under a custom event of their snake_case name. */
const LEFT_OUT: Readonly<Record<string, string>> = Object.freeze({
  AfterModel: "it fires once per streamed chunk of the model's answer, and its answer rewrites that chunk (llm_response), which hookrun's result cannot carry",
  BeforeToolSelection: "its answer narrows the tools offered to the model (toolConfig), which hookrun's result cannot carry",
});
/** Settings keys of `hooks` that are not events (Gemini skips them too). */
const NOT_EVENTS = new Set(["enabled", "disabled", "notifications"]);
/** The environment variable that holds each placeholder's value under hookrun. */
const ENV_FOR: Readonly<Record<string, string>> = {
  GEMINI_PROJECT_DIR: "HOOK_PROJECT_DIR",
  GEMINI_CWD: "HOOK_PROJECT_DIR",
  CLAUDE_PROJECT_DIR: "HOOK_PROJECT_DIR",
  GEMINI_SESSION_ID: "GEMINI_SESSION_ID",
  GEMINI_PLANS_DIR: "GEMINI_PLANS_DIR",
};

/**
 * A command with Gemini's placeholders rewritten for a shell that has them in its environment:
 * `$GEMINI_PROJECT_DIR` (Gemini writes the quoted path in its place) becomes `"$HOOK_PROJECT_DIR"`
 * outside quotes, `$HOOK_PROJECT_DIR` inside double quotes, `'"$HOOK_PROJECT_DIR"'` inside single ones.
 */
export function rewritePlaceholders(command: string): string {
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    PLACEHOLDERS.lastIndex = i;
    const m = c === "$" ? PLACEHOLDERS.exec(command) : null;
    if (m && m.index === i) {
      const v = `$${ENV_FOR[m[1]]}`;
      out += quote === '"' ? v : quote === "'" ? `'"${v}"'` : `"${v}"`;
      i += m[0].length - 1;
      continue;
    }
    if (quote === null && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = null;
    else if (c === "\\" && quote !== "'" && i + 1 < command.length) {
      out += c + command[++i];
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * A Gemini tool matcher (an unanchored regex over Gemini's tool names; an invalid one is an exact
 * name) as a hookrun matcher over canonical names: a list of names when the known tools it selects
 * are all it can select, else the regex as written, with a note.
 */
function toolMatcher(matcher: string, notes: string[], where: string): string | undefined {
  const m = matcher.trim();
  if (m === "" || m === "*") return undefined;
  const words = m.split("|");
  if (words.every((w) => /^[A-Za-z0-9_-]+$/.test(w))) {
    const out: string[] = [];
    for (const w of words) {
      const known = Object.keys(TOOLS).filter((t) => t.includes(w));
      if (Object.hasOwn(TOOLS, w) || known.length) for (const t of Object.hasOwn(TOOLS, w) ? [w] : known) out.push(TOOLS[t]);
      else out.push(w);
      if (!Object.hasOwn(TOOLS, w) && known.length)
        notes.push(`${where}: matcher part \`${w}\` is a regex in Gemini CLI, matching ${known.map((t) => `\`${t}\``).join(", ")}: imported as those tools`);
    }
    return [...new Set(out)].join("|");
  }
  notes.push(
    `${where}: matcher \`${m}\` is a regex over Gemini's tool names (run_shell_command, write_file, …); it is kept as written, but hookrun tests it against canonical names (Bash, Write, …): rewrite it`,
  );
  return m;
}

/**
 * `hooks import gemini`: the `hooks` object of Gemini CLI settings → hookrun hooks. Pure. Every
 * field of Gemini's command hook and group is carried or noted: `name` (the hook's name), `command`
 * (placeholders rewritten), `timeout` (ms), `description`, `env`, the group's `matcher` (tool
 * names to canonical; SessionStart/SessionEnd/PreCompress compare it for equality) and `sequential`.
 */
export function importGeminiSettings(raw: unknown, existing: ExistingHook[] = []): HookImport {
  const { result, root: settings, hooks } = beginImport(raw, "Gemini CLI settings must be a JSON object", "the settings have no `hooks` object; nothing to import");
  if (hooks === null) return result;
  if (!isJsonObject(hooks)) throw new TypeError("`hooks` in Gemini CLI settings must be an object of events");
  const disabled = isJsonObject(settings.hooksConfig) && Array.isArray(settings.hooksConfig.disabled) ? settings.hooksConfig.disabled.filter((d): d is string => typeof d === "string") : [];
  if (isJsonObject(settings.hooksConfig) && settings.hooksConfig.enabled === false) result.notes.push("hooksConfig.enabled is false: Gemini CLI runs none of these hooks; they are imported enabled");
  const taken = new Set(existing.map((h) => h.name));
  const seen = new Set(existing.map((h) => JSON.stringify([h.event, h.command ?? null, h.matcher ?? null])));
  for (const [geminiEvent, groups] of Object.entries(hooks)) {
    if (NOT_EVENTS.has(geminiEvent)) {
      result.notes.push(`hooks.${geminiEvent}: a setting, not an event (Gemini CLI reads it from \`hooksConfig\`); not carried`);
      continue;
    }
    if (!Array.isArray(groups)) {
      result.notes.push(`hooks.${geminiEvent}: not a list of hook groups; skipped`);
      continue;
    }
    let event = EVENTS[geminiEvent];
    if (!Object.hasOwn(EVENTS, geminiEvent)) {
      event = customEventName("gemini", slug(geminiEvent.replace(/([a-z0-9])([A-Z])/g, "$1_$2")).replace(/[-.]/g, "_"));
      result.customEvents[event] = { custom: true, description: `Gemini CLI's ${geminiEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      const why = Object.hasOwn(LEFT_OUT, geminiEvent) ? LEFT_OUT[geminiEvent] : "Gemini CLI 0.61 has no such event";
      result.notes.push(`hooks.${geminiEvent}: hookrun has no event for it (${why}); its hooks are imported under the custom event \`${event}\``);
    }
    let sequential = false;
    const first = result.hooks.length;
    groups.forEach((group, g) => {
      const where = `hooks.${geminiEvent}[${g}]`;
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) {
        result.notes.push(`${where}: not a group with a \`hooks\` list; skipped (Gemini CLI discards it too)`);
        return;
      }
      const groupNotes: string[] = [];
      let matcher: string | undefined;
      for (const [k, v] of Object.entries(group)) {
        if (k === "hooks") continue;
        if (k === "matcher") {
          if (typeof v !== "string") groupNotes.push(`${where}: matcher ${JSON.stringify(v)} is not text; dropped`);
          else if (EVENT_BY_NAME.get(event)?.matchField === "tool_name") matcher = toolMatcher(v, groupNotes, where);
          else if (geminiEvent === "SessionStart" || geminiEvent === "SessionEnd" || geminiEvent === "PreCompress") {
            const m = v.trim();
            if (m !== "" && m !== "*") matcher = /^[A-Za-z0-9_-]+$/.test(m) ? m : `^${escapeRegex(m)}$`;
          } else if (v.trim() !== "" && v.trim() !== "*") groupNotes.push(`${where}: matcher \`${v}\` dropped: Gemini CLI does not test a matcher on ${geminiEvent}`);
        } else if (k === "sequential") {
          if (v === true) sequential = true;
          else if (v !== false) groupNotes.push(`${where}: \`sequential\` ${JSON.stringify(v)} is not true or false; not carried (Gemini CLI runs the group's hooks at once)`);
        } else groupNotes.push(`${where}: \`${k}\` is not a field of Gemini CLI's hook groups; not carried`);
      }
      result.notes.push(...groupNotes);
      group.hooks.forEach((entry, h) => {
        const at = `${where}.hooks[${h}]`;
        const converted = convertGeminiHook(entry, at, disabled);
        if ("skip" in converted) {
          result.notes.push(converted.skip);
          return;
        }
        const { hook, notes, name } = converted;
        if (matcher !== undefined) hook.matcher = matcher;
        const id = JSON.stringify([event, hook.command ?? null, hook.matcher ?? null]);
        if (seen.has(id)) {
          result.notes.push(`${at}: \`${hook.command}\` is already a ${event} hook; skipped`);
          return;
        }
        seen.add(id);
        hook.name = uniqueName((name && slug(name)) || hookNameFromCommand(hook.command ?? "") || `${event.replace(/_/g, "-")}-hook`, taken);
        result.notes.push(...notes.map((n) => `${at} (\`${hook.name}\`): ${n}`));
        result.hooks.push({ event, hostEvent: geminiEvent, at, hook: orderGeminiKeys(hook) });
      });
    });
    const note = sequential ? runInOrder(result.hooks.slice(first), `hooks.${geminiEvent}`, "Gemini") : null;
    if (note) result.notes.push(note);
  }
  return result;
}

type Converted = { hook: HookSpec; notes: string[]; name?: string } | { skip: string };

const MAX_TIMEOUT_MS = 24 * 3_600_000;

function convertGeminiHook(entry: unknown, at: string, disabled: readonly string[]): Converted {
  if (!isJsonObject(entry)) return { skip: `${at}: not an object; skipped` };
  if (entry.type !== "command")
    return {
      skip: `${at}: skipped a hook of type \`${String(entry.type)}\`: hookrun runs only \`command\` hooks${entry.type === undefined ? " (Gemini CLI requires `type` and discards it too)" : ""}`,
    };
  if (typeof entry.command !== "string" || entry.command.trim() === "") return { skip: `${at}: no \`command\`; skipped` };
  const original = entry.command;
  const callsHookrun = hookrunCallNote(original);
  if (callsHookrun) return { skip: `${at}: \`${original}\` ${callsHookrun}` };
  const refuse = (why: string): Converted => ({ skip: `${at} (\`${original}\`): not imported: ${why}` });
  const hook: HookSpec = { name: "", command: rewritePlaceholders(original) };
  const notes: string[] = [];
  if (hook.command !== original) notes.push("Gemini's `$GEMINI_PROJECT_DIR`-style placeholders rewritten to environment variables (`$HOOK_PROJECT_DIR`…)");
  let name: string | undefined;
  for (const [k, v] of Object.entries(entry)) {
    switch (k) {
      case "type":
      case "command":
        break;
      case "name":
        if (typeof v !== "string") return refuse("`name` is not text");
        name = v;
        if (slug(v) !== v) notes.push(`name \`${v}\` is not a hookrun hook name; named \`${slug(v) || "after its command"}\` instead`);
        break;
      case "description":
        if (typeof v === "string" && v.trim()) hook.description = v.trim();
        else notes.push(`description ${JSON.stringify(v)} is not text; not carried`);
        break;
      case "timeout":
        if (typeof v !== "number" || !(v > 0) || v > MAX_TIMEOUT_MS) return refuse(`timeout ${JSON.stringify(v)} is not a number of milliseconds between 0 and 24 h`);
        if (v !== 60_000) hook.timeout = v % 1000 === 0 ? v / 1000 : `${v}ms`;
        break;
      case "env":
        if (!isJsonObject(v) || !Object.values(v).every((x) => typeof x === "string")) return refuse("`env` is not an object of strings");
        hook.env = v as Record<string, string>;
        break;
      default:
        notes.push(`\`${k}\` is not a field of Gemini CLI's command hooks; not carried`);
    }
  }
  // Gemini disables a hook by its name, else its command.
  if (disabled.includes(name || original)) {
    hook.enabled = false;
    notes.push("listed in hooksConfig.disabled: imported disabled");
  }
  hook.dialect = "gemini";
  return { hook, notes, name };
}

function orderGeminiKeys(h: HookSpec): HookSpec {
  const order = ["name", "description", "matcher", "command", "timeout", "priority", "enabled", "env", "dialect"] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (h[k] !== undefined) out[k] = h[k];
  return out as unknown as HookSpec;
}
