import type { ResolvedConfig } from "../config/types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import type { HookSpec } from "../config/types.js";
import { matcherRule } from "../config/matcher.js";
import { HOOK_NAME_PATTERN } from "../interop/hookNames.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { isJsonObject } from "../config/scanJson.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { isDispatchCommand } from "./dispatch.js";
import { sampleFields } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import { QWEN_EVENTS, QWEN_TOOLS } from "../events/qwenNames.js";
import { runInOrder } from "./sequentialImport.js";
import { qwenRun } from "./qwenRun.js";

export * from "./qwenRun.js";

/**
 * Qwen Code (`@qwen-code/qwen-code`, checked against 0.24.4) as a host: everything hookrun knows
 * about it, docs/hosts/qwen.md in words. Qwen Code took Claude Code's hook contract (config
 * shape, event names, payload fields, output JSON) and changed it in places; this module is those
 * places:
 * - payload: Claude's fields plus `timestamp`, `tool_call_id`, `prompt_id`; Qwen's own tool ids
 *   (`run_shell_command`, `write_file`, `edit`, …), mapped here to Claude's (`Bash`, `Write`, `Edit`);
 * - UserPromptSubmit fires before every model send of a turn (the prompt, each tool-result
 *   continuation, a Stop-block continuation); tool-result sends (`prompt: ""`, no
 *   `submitted_prompt`) run nothing (`route`);
 * - answers: PreToolUse ignores `updatedInput` and `allow`, `ask` becomes a denial when headless;
 *   PostToolUse ignores `decision: "block"` (its reason never reaches the model) but appends
 *   `additionalContext` to the tool result; Stop continues only on `decision: "block"`
 *   (`additionalContext` there is dropped);
 * - timeouts in seconds, default 60, but a command hook's value ≥ 1000 is read as milliseconds.
 */

/** A value ≥ this in a command hook's `timeout` Qwen reads as milliseconds (its migration rule). */
export const QWEN_MS_THRESHOLD = 1000;

/** Qwen's `timeout` for a dispatch that may take `ms`: seconds, unless that would read as milliseconds. */
export function qwenTimeout(ms: number): number {
  const s = Math.ceil(ms / 1000);
  return s < QWEN_MS_THRESHOLD ? s : Math.max(ms, s * 1000);
}

/** Dispatch entries: one per event of hooks.yaml that Qwen fires, the matcher narrowed to Qwen's tool ids, the timeout in Qwen's unit. */
function qwenEntries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const name = Object.keys(QWEN_EVENTS).find((k) => QWEN_EVENTS[k] === event);
    if (!name) continue;
    const values = EVENT_BY_NAME.get(event)?.matchField ? matchedValues(config, event, qwenHost) : null;
    const hook = { type: "command", command: command(event), timeout: qwenTimeout(dispatchTimeoutMs(config, event)) };
    out[name] = [{ ...(values && { matcher: values.join("|") }), hooks: [hook] }];
  }
  return out;
}

const PROJECT_DIR_VARS = /\$\{?(QWEN_PROJECT_DIR|GEMINI_PROJECT_DIR)\b\}?/g;

/** A matcher of Qwen tool ids → the canonical names it selects; regexes are tested against Qwen's known tool ids. */
function canonicalMatcher(matcher: string, where: string, notes: string[]): string {
  const rule = matcherRule(matcher);
  if (rule.kind === "all") return matcher;
  if (rule.kind === "names") return [...new Set([...rule.names].map((n) => QWEN_TOOLS[n] ?? n))].join("|");
  // Qwen compiles a matcher that starts with ^ or ( as written, unanchored.
  let re: RegExp;
  try {
    re = new RegExp(rule.source);
  } catch {
    notes.push(`${where}: matcher \`${matcher}\` is not a valid regex (Qwen compares it exactly); kept as written`);
    return matcher;
  }
  const hit = Object.keys(QWEN_TOOLS).filter((t) => re.test(t));
  if (hit.length === 0) {
    notes.push(`${where}: matcher \`${matcher}\` selects none of Qwen's known tool ids; kept as written (hookrun tests it against Claude's names: Bash, Write, Edit, …)`);
    return matcher;
  }
  const names = [...new Set(hit.map((t) => QWEN_TOOLS[t]))].join("|");
  notes.push(`${where}: matcher \`${matcher}\` (a regex on Qwen's tool ids) became \`${names}\`, the tools it selects in Qwen Code 0.24.4`);
  return names;
}

/** What a Qwen hook has beyond Claude's fields, set on the imported hook afterwards. */
interface QwenExtras {
  name?: string;
  description?: string;
  env?: Record<string, string>;
}

/**
 * One Qwen command hook as Claude's importer reads it: Qwen's own fields taken out (into
 * `extras`, or a note; an `env` that is not an object of strings refuses the hook), a timeout ≥
 * 1000 read as milliseconds, `$QWEN_PROJECT_DIR` rewritten.
 */
function qwenEntry(entry: Record<string, unknown>, at: string, into: { notes: string[]; refused: Set<string>; extras: Map<string, QwenExtras> }): Record<string, unknown> {
  const { notes } = into;
  const { name, description, env, ...hook } = entry;
  const extra: QwenExtras = {};
  if (typeof name === "string" && HOOK_NAME_PATTERN.test(name)) extra.name = name;
  else if (name !== undefined) notes.push(`${at}: \`name\` ${JSON.stringify(name)} is not a hookrun hook name; a name was made from the command`);
  if (typeof description === "string" && description.trim()) extra.description = description.trim();
  else if (description !== undefined) notes.push(`${at}: \`description\` ${JSON.stringify(description)} is not text; not carried`);
  if (isJsonObject(env) && Object.values(env).every((v) => typeof v === "string")) extra.env = env as Record<string, string>;
  else if (env !== undefined) {
    into.refused.add(at);
    notes.push(`${at} (\`${String(hook.command)}\`): not imported: \`env\` is not an object of strings`);
  }
  if (typeof hook.timeout === "number" && hook.timeout >= QWEN_MS_THRESHOLD) {
    notes.push(`${at}: timeout ${hook.timeout} is ≥ ${QWEN_MS_THRESHOLD}, which Qwen reads as milliseconds: ${hook.timeout / 1000} s`);
    hook.timeout = hook.timeout / 1000;
  }
  if (typeof hook.command === "string" && !isDispatchCommand(hook.command) && hook.command.replace(PROJECT_DIR_VARS, "") !== hook.command) {
    hook.command = hook.command.replace(PROJECT_DIR_VARS, (m) => m.replace(/QWEN_PROJECT_DIR|GEMINI_PROJECT_DIR/, "HOOK_PROJECT_DIR"));
    notes.push(`${at}: $QWEN_PROJECT_DIR / $GEMINI_PROJECT_DIR became $HOOK_PROJECT_DIR (hookrun sets it under every host; Qwen's are set only when Qwen runs the hook)`);
  }
  if (Object.keys(extra).length) into.extras.set(at, extra);
  return hook;
}

/**
 * `.qwen/settings.json` → hooks.yaml (`dialect: qwen`: Qwen's payload on stdin, the output read by
 * Qwen's rules): Claude's importer (the same config shape), after Qwen's differences are taken
 * out: tool ids in matchers, `timeout` ≥ 1000 read as milliseconds, the fields Qwen adds (`name`,
 * `description`, `env`, a group's `sequential`), `$QWEN_PROJECT_DIR`.
 */
export function importQwenSettings(settings: unknown, existing: ExistingHook[] = []): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Qwen Code settings must be a JSON object");
  const notes: string[] = [];
  const sequentialEvents = new Set<string>();
  const refused = new Set<string>();
  const extras = new Map<string, QwenExtras>();
  let copy: unknown = settings;
  if (isJsonObject(settings.hooks)) {
    const hooks: Record<string, unknown> = {};
    for (const [event, groups] of Object.entries(settings.hooks)) {
      if (!Array.isArray(groups)) {
        hooks[event] = groups;
        continue;
      }
      const tool = EVENT_BY_NAME.get(QWEN_EVENTS[event] ?? "")?.matchField === "tool_name";
      hooks[event] = groups.map((group, g) => {
        if (!isJsonObject(group) || !Array.isArray(group.hooks)) return group;
        const where = `hooks.${event}[${g}]`;
        const { sequential, ...rest } = group;
        if (sequential === true) sequentialEvents.add(event);
        else if (sequential !== undefined && sequential !== false)
          notes.push(`${where}: \`sequential\` ${JSON.stringify(sequential)} is not true or false; not carried (Qwen Code runs the group's hooks at once)`);
        if (tool && typeof rest.matcher === "string") rest.matcher = canonicalMatcher(rest.matcher, where, notes);
        rest.hooks = group.hooks.map((entry, h) => (isJsonObject(entry) ? qwenEntry(entry, `${where}.hooks[${h}]`, { notes, refused, extras }) : entry));
        return rest;
      });
    }
    copy = { ...settings, hooks };
  }
  const all = importClaudeSettings(copy, existing);
  const imp = { ...all, hooks: all.hooks.filter((h) => !refused.has(h.at)) };
  const taken = new Set([...existing.map((h) => h.name), ...imp.hooks.map((h) => h.hook.name)]);
  for (const item of imp.hooks) {
    item.hook.dialect = "qwen";
    const extra = extras.get(item.at);
    if (!extra) continue;
    const hook: HookSpec = item.hook;
    if (extra.name && !taken.has(extra.name)) {
      taken.delete(hook.name);
      hook.name = extra.name;
      taken.add(extra.name);
    }
    if (extra.description && !hook.description) hook.description = extra.description;
    if (extra.env) hook.env = extra.env;
  }
  for (const spec of Object.values(imp.customEvents)) if (spec.description) spec.description = spec.description.replace("Claude Code's", "Qwen Code's");
  const fixed = imp.notes.map((n) => n.replace(/Claude Code (ignores|has|runs|substitutes|never)/g, "Qwen Code $1"));
  for (const hostEvent of sequentialEvents) {
    const note = runInOrder(
      imp.hooks.filter((h) => h.hostEvent === hostEvent),
      `hooks.${hostEvent}`,
      "Qwen",
    );
    if (note) fixed.push(note);
  }
  return { hooks: imp.hooks, customEvents: imp.customEvents, notes: [...notes, ...fixed] };
}

/** Qwen Code's whole adapter: its runtime part (qwenRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const qwenHost: HostAdapter = {
  ...qwenRun,
  // Observed: cwd the project dir, QWEN_PROJECT_DIR / CLAUDE_PROJECT_DIR / GEMINI_PROJECT_DIR set; a Gemini CLI fork, so `bash -c`.
  probe: {
    shell: () => ["bash", "-c"],
    env: (projectDir) => ({ QWEN_PROJECT_DIR: projectDir, CLAUDE_PROJECT_DIR: projectDir, GEMINI_PROJECT_DIR: projectDir, QWEN_CODE_SESSION_ID: "hooks-doctor" }),
    payload: (hostEvent, projectDir) => ({
      ...sampleFields(QWEN_EVENTS[hostEvent] ?? hostEvent, "run_shell_command", projectDir),
      transcript_path: "",
      hook_event_name: hostEvent,
      timestamp: new Date().toISOString(),
      permission_mode: "default",
    }),
    assumed: "the shell (`bash -c`, as Gemini CLI, which Qwen Code forks)",
  },
  setup: jsonFile({
    projectFile: ".qwen/settings.json",
    userFile: ".qwen/settings.json",
    hooksPath: ["hooks"],
    root: '"$QWEN_PROJECT_DIR"',
    exec: true,
    entries: qwenEntries,
  }),
  import: importQwenSettings,
};
