import type { ResolvedConfig } from "../config/types.js";
import { matcherRule } from "../config/matcher.js";
import { isJsonObject } from "../config/scanJson.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { hookrunCallNote, walkUpDispatchCommand } from "./dispatch.js";
import { sampleFields } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { codexRun, CODEX_NAME, EVENTS } from "./codexRun.js";

export * from "./codexRun.js";

/**
 * The dispatch command of an event in a project install. Codex runs a hook with `$SHELL -lc` in
 * the session's cwd (a subdirectory when codex was started in one, verified) and sets no
 * project-dir variable, so the command walks up from $PWD to the nearest directory with an
 * executable node_modules/.bin/hooks (every teammate's `npm install` leaves it there; never npx)
 * and `exec`s it there, so the process Codex kills on its timeout is hookrun itself.
 */
export function codexDispatchCommand(event: string): string {
  return walkUpDispatchCommand("codex", event);
}

/**
 * One entry per Codex event of the config: the matcher narrowed to the tools (or sources) the
 * hooks can select (Codex reads `[A-Za-z0-9_|]` as exact names and selects apply_patch by `Edit`
 * and `Write` itself), the timeout in seconds covering the event's run. The engine's project
 * command (`node_modules/.bin/hooks run …`, relative to a root Codex does not give) becomes the
 * walk-up command; a `--user` command (an absolute path, no -C: hookrun finds hooks.yaml from
 * the session's cwd) is kept.
 */
function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const name = CODEX_NAME.get(event);
    if (!name) continue;
    const line = command(event);
    const values = EVENT_BY_NAME.get(event)?.matchField ? matchedValues(config, event, codex) : null;
    out[name] = [{ ...(values && { matcher: values.join("|") }), hooks: [{ type: "command", command: line, timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000) }] }];
  }
  return out;
}

const HANDLER_KEYS = new Set(["type", "command", "timeout", "timeoutSec", "timeout_sec", "statusMessage", "status_message"]);

/**
 * Codex's hooks.json (or config.toml's [hooks], parsed) → hooks.yaml. Codex's handlers are
 * Claude's `command` handlers with fewer fields, so they go through Claude's importer, and each
 * hook is marked `dialect: codex` (it receives Codex's payload and is read by Codex's rules;
 * `statusMessage` becomes its `description`, `timeout`/`timeoutSec` its timeout); what Codex
 * has and Claude has not (mcp_tool / prompt / agent handlers, commandWindows, async, which Codex
 * skips) is noted; matchers naming apply_patch become `Edit|Write`.
 */
function importCodex(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Codex hooks.json must be a JSON object");
  const notes: string[] = [];
  if (settings.description !== undefined) notes.push("`description` not carried (hooks.yaml has no file description)");
  for (const k of Object.keys(settings)) if (k !== "hooks" && k !== "description") notes.push(`\`${k}\`: Codex refuses a hooks.json with this key (only description and hooks); not carried`);
  const hooks = settings.hooks;
  if (!isJsonObject(hooks)) {
    const r = importClaudeSettings({ hooks }, existing);
    return { ...r, notes: [...notes, ...r.notes] };
  }
  const clean: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Object.hasOwn(EVENTS, event)) notes.push(`hooks.${event}: not an event of Codex (it ignores it)`);
    // Interrupt is Codex's own (not Claude's): its hooks go under hookrun's name for it.
    const key = event === "Interrupt" ? EVENTS.Interrupt : event;
    if (!Array.isArray(groups)) {
      clean[key] = groups;
      continue;
    }
    clean[key] = groups.map((group, g) => {
      if (!isJsonObject(group) || !Array.isArray(group.hooks)) return group;
      const where = `hooks.${event}[${g}]`;
      let matcher = group.matcher;
      if (typeof matcher === "string" && /\bapply_patch\b/.test(matcher)) {
        const rule = matcherRule(matcher);
        if (rule.kind === "names") matcher = [...new Set([...rule.names].flatMap((n) => (n === "apply_patch" ? ["Edit", "Write"] : [n])))].join("|");
        else notes.push(`${where}: matcher \`${matcher}\` names apply_patch, which hookrun calls Edit (Write when a patch only adds files): check the regex`);
      }
      const handlers = group.hooks.flatMap((h, i) => {
        const at = `${where}.hooks[${i}]`;
        if (!isJsonObject(h)) return [h];
        if (h.type !== "command") {
          notes.push(`${at}: skipped a handler of type \`${String(h.type)}\`: hookrun runs only command hooks${h.type === "prompt" || h.type === "agent" ? " (Codex skips it too)" : ""}`);
          return [];
        }
        const callsHookrun = typeof h.command === "string" && hookrunCallNote(h.command);
        if (callsHookrun) {
          notes.push(`${at}: \`…${String(h.command).slice(-60)}\` ${callsHookrun}`);
          return [];
        }
        if (h.async === true) {
          notes.push(`${at}: skipped an \`async: true\` handler: Codex never runs async hooks (it skips them at discovery)`);
          return [];
        }
        const c: Record<string, unknown> = { type: "command", command: h.command };
        const timeout = h.timeout ?? h.timeoutSec ?? h.timeout_sec;
        if (timeout !== undefined) c.timeout = timeout;
        const status = h.statusMessage ?? h.status_message;
        if (status !== undefined) c.statusMessage = status;
        for (const k of Object.keys(h))
          if (k === "async" || k === "commandWindows" || k === "command_windows" || k === "additionalContextLimit") notes.push(`${at}: \`${k}\` not carried (hookrun has no equivalent)`);
          else if (!HANDLER_KEYS.has(k)) notes.push(`${at}: \`${k}\` is not a field of Codex's command hooks (Codex ignores it); not carried`);
        return [c];
      });
      return { ...(matcher !== undefined ? { matcher } : {}), hooks: handlers };
    });
  }
  const r = importClaudeSettings({ hooks: clean }, existing);
  for (const h of r.hooks) h.hook.dialect = "codex";
  return { ...r, notes: [...notes, ...r.notes.map((n) => n.replace(/Claude Code/g, "Codex"))] };
}

/** Codex CLI's whole adapter: its runtime part (codexRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const codex: HostAdapter = {
  ...codexRun,
  // command_runner.rs: `$SHELL -lc` (else /bin/sh), cwd the turn's; no project-dir variable.
  probe: {
    shell: (env) => [env.SHELL || "/bin/sh", "-lc"],
    env: () => ({}),
    payload: (hostEvent, projectDir) => ({
      ...sampleFields(EVENTS[hostEvent] ?? hostEvent, "Bash", projectDir),
      transcript_path: "",
      hook_event_name: hostEvent,
      model: "gpt-5.5",
      permission_mode: "default",
      ...(hostEvent !== "SessionStart" && hostEvent !== "SessionEnd" && { turn_id: "hooks-doctor" }),
    }),
    strict: {
      rootKeys: ["description", "hooks"],
      handlerKeys: ["type", "command", "commandWindows", "timeout", "timeoutSec", "async", "statusMessage", "additionalContextLimit"],
      why: 'Codex refuses the whole file ("failed to parse hooks config"): none of its hooks runs',
    },
  },
  setup: jsonFile({
    projectFile: ".codex/hooks.json",
    userFile: ".codex/hooks.json",
    hooksPath: ["hooks"],
    root: null,
    exec: true,
    walkUp: true,
    note: 'Codex reads a project\'s .codex/hooks.json only when the project is trusted in ~/.codex/config.toml ([projects."<dir>"] trust_level = "trusted"); otherwise it ignores the file without a word',
    entries,
  }),
  import: importCodex,
};
