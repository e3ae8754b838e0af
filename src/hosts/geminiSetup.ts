import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { matcherRule } from "../config/matcher.js";
import { isJsonObject } from "../config/scanJson.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { eventGate, orderHooks, runGroups } from "../runner/select.js";
import { DISPATCH_MARGIN_MS } from "./install.js";
import { dispatchCommand } from "./dispatch.js";
import { EVENTS, GEMINI_NAME, PLACEHOLDERS, TOOLS } from "../events/geminiNames.js";
import { sampleFields } from "./payload.js";
import type { HostEntry, HostProbe, OffSwitch } from "./types.js";

/**
 * Gemini CLI's setup as `hooks install gemini` writes it and `hooks doctor` checks it: the
 * dispatch command, the entries of `.gemini/settings.json` (matchers narrowed, timeouts covering
 * the run) and how Gemini runs a command and switches hooks off (the probe). The adapter is
 * src/hosts/gemini.ts.
 */

/**
 * The dispatch command of an event. Gemini substitutes `$GEMINI_PROJECT_DIR` with its (shell-quoted)
 * working directory, which is where the project's `.gemini/settings.json` was read from, so it must
 * stay unquoted here. `exec`: the process Gemini kills on its timeout is hookrun itself (no shell
 * between), which ends its hooks' process groups on SIGTERM; a shell would die alone and leave them.
 */
export const GEMINI_ROOT = "$GEMINI_PROJECT_DIR";
export const geminiDispatchCommand = (event: string): string => dispatchCommand("gemini", event, { root: GEMINI_ROOT, bin: null, exec: true });

/** Milliseconds an entry's timeout adds per run group for hookrun's SIGTERM→SIGKILL grace on a hook's timeout. */
const KILL_GRACE_MS = 2_000;

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The Gemini matcher that selects exactly the tool calls some hook's matcher can select, or
 * undefined (every tool) when one of them is a regex or matches everything. A canonical name
 * selects the Gemini tools mapped to it; any other name is taken as Gemini's own (an MCP tool).
 */
export function narrowToolMatcher(hooks: readonly ResolvedHook[]): string | undefined {
  const names = new Set<string>();
  for (const h of hooks) {
    const rule = matcherRule(h.matcher ?? "");
    if (rule.kind !== "names") return undefined;
    for (const n of rule.names) {
      const hostNames = Object.keys(TOOLS).filter((t) => TOOLS[t] === n);
      if (hostNames.length) for (const t of hostNames) names.add(t);
      else if (!Object.hasOwn(TOOLS, n)) names.add(n);
    }
  }
  return `^(?:${[...names].sort().map(escapeRegex).join("|")})$`;
}

/**
 * `hooks` of `.gemini/settings.json` handing each event of `config` Gemini fires to hookrun: one
 * group per event (tool events: matcher narrowed; SessionStart/SessionEnd/PreCompress, whose
 * matcher Gemini compares for equality: one group per name when every hook names its values),
 * whose timeout (ms) covers the run: each run group's longest hook timeout plus hookrun's kill
 * grace, summed, plus a margin, so hookrun's own timeouts end hooks before Gemini's fires.
 */
export function geminiEntries(config: ResolvedConfig, command: (event: string) => string = geminiDispatchCommand): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  const events = [...new Set(config.hooks.map((h) => h.event))];
  for (const event of events) {
    const geminiName = GEMINI_NAME.get(event);
    if (!geminiName) continue;
    const all = config.hooks.filter((h) => h.event === event);
    const sync = orderHooks(all.filter((h) => h.enabled && !h.async));
    const ms = runGroups(sync, config.events[event]?.parallel === true, eventGate(event, config)).reduce((sum, g) => sum + Math.max(...g.map((h) => h.timeoutMs)) + KILL_GRACE_MS, 0);
    const hook = { type: "command", name: "hookrun", command: command(event), timeout: Math.ceil(ms) + DISPATCH_MARGIN_MS };
    const matchField = EVENT_BY_NAME.get(event)?.matchField;
    if (matchField === "tool_name") {
      const matcher = narrowToolMatcher(all);
      out[geminiName] = [matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] }];
    } else if (geminiName === "SessionStart" || geminiName === "SessionEnd" || geminiName === "PreCompress") {
      const rules = all.map((h) => matcherRule(h.matcher ?? ""));
      const values = rules.every((r) => r.kind === "names") ? [...new Set(rules.flatMap((r) => (r.kind === "names" ? [...r.names] : [])))].sort() : null;
      out[geminiName] = values ? values.map((matcher) => ({ matcher, hooks: [hook] })) : [{ hooks: [hook] }];
    } else out[geminiName] = [{ hooks: [hook] }];
  }
  return out;
}

// executeCommandHook: `bash -c` (getShellConfiguration on POSIX), cwd the session's; $GEMINI_PROJECT_DIR is
// substituted into the command text, shell-quoted, before the shell sees it (expandCommand).
export const geminiProbe: HostProbe = {
  shell: () => ["bash", "-c"],
  env: (projectDir) => ({ GEMINI_PROJECT_DIR: projectDir, GEMINI_CWD: projectDir, CLAUDE_PROJECT_DIR: projectDir, GEMINI_SESSION_ID: "hooks-doctor" }),
  expand: (command, projectDir) => command.replace(PLACEHOLDERS, (_m, name: string) => (name === "GEMINI_SESSION_ID" ? "hooks-doctor" : `'${projectDir.replaceAll("'", "'\\''")}'`)),
  payload: (hostEvent, projectDir) => ({
    ...sampleFields(EVENTS[hostEvent] ?? hostEvent, "run_shell_command", projectDir),
    transcript_path: "",
    hook_event_name: hostEvent,
    timestamp: new Date().toISOString(),
  }),
  // Gemini CLI's settings schema (hooksConfig): `enabled: false` stops every hook, the value of
  // the file that wins (system defaults < user < project < system); `disabled` (merged as a
  // union) names hooks by their `name`, else their command.
  switches: ({ projectDir, home, env, root }, read, names) => {
    const etc = `${root.replace(/\/$/, "")}/etc/gemini-cli`;
    const files = [
      env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || `${etc}/system-defaults.json`,
      `${home}/.gemini/settings.json`,
      `${projectDir}/.gemini/settings.json`,
      env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || `${etc}/settings.json`,
    ];
    const out: OffSwitch[] = [];
    const config = files.map((file) => ({ file, hooks: read(file)?.hooksConfig }));
    const enabled = config.filter((c) => isJsonObject(c.hooks) && typeof c.hooks.enabled === "boolean").at(-1);
    if (enabled && (enabled.hooks as Record<string, unknown>).enabled === false)
      out.push({
        file: enabled.file,
        key: ["hooksConfig", "enabled"],
        what: "`hooksConfig.enabled: false`: Gemini CLI runs no hook at all, hookrun's entries included",
        fix: `remove "enabled" from hooksConfig in ${enabled.file}`,
      });
    for (const { file, hooks } of config) {
      const disabled = isJsonObject(hooks) && Array.isArray(hooks.disabled) ? hooks.disabled : [];
      disabled.forEach((name, i) => {
        if (typeof name === "string" && names.includes(name))
          out.push({
            file,
            key: ["hooksConfig", "disabled", i],
            what: `\`hooksConfig.disabled\` lists \`${name}\`, the name of hookrun's entries: Gemini CLI skips them`,
            fix: `remove it from hooksConfig.disabled in ${file}`,
          });
      });
    }
    return out;
  },
};
