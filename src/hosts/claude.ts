import { EVENT_BY_NAME } from "../events/catalog.js";
import type { ResolvedConfig } from "../config/types.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { configEvents, DISPATCH_MARGIN_MS, dispatchTimeoutMs, matchedValues } from "./install.js";
import { cursor } from "./cursor.js";
import { POSIX_SHELL, sampleFields } from "./payload.js";
import { asksFailClosed } from "./failClosed.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry, OffSwitch } from "./types.js";
import { claudeRun, CLAUDE_EVENTS, SKILL_SHELL } from "./claudeRun.js";

export * from "./claudeRun.js";

/** The tools PreSkillShellCommand reports (its matcher tests them). */
const SKILL_SHELL_TOOLS: readonly string[] = ["Bash", "PowerShell"];

/**
 * Cursor also runs the entries of `.claude/settings.json`, with its own tool names (`Shell` for
 * the shell tool): a Claude entry's matcher names them too, or Cursor would never fire it for a
 * shell command. (Copilot CLI, the other such host, sends Claude's tool names there.)
 */
const CLAUDE_FILE_READERS = { tools: cursor.tools };

/**
 * What a host that reads Claude Code's settings shape takes in its entries (Claude Code itself,
 * and the clones of src/hosts/claudeClone.ts): which of Claude's events it fires (by Claude's
 * name), its timeout unit, and the fields it honours beyond `type`, `command` and `timeout`.
 */
export interface ClaudeEntryRules {
  /** Claude's event name → whether the host fires it. */
  fires(claudeName: string): boolean;
  readonly timeoutUnit: "s" | "ms";
  /** `onFailure: "block"` (Claude Code closes a failing entry's call). */
  readonly onFailure: boolean;
  /** `asyncRewake: true` entries, one per `rewake` hook (docs/async.md#rewake). */
  readonly asyncRewake: boolean;
  /** PreSkillShellCommand entries beside PreToolUse's (Claude Code 2.1.332). */
  readonly skillShell: boolean;
  /** The tools of other hosts that fire the same entries, named in matchers too. */
  readonly readers?: { readonly tools: Readonly<Record<string, string>> };
}

const CLAUDE_ENTRY_RULES: ClaudeEntryRules = { fires: () => true, timeoutUnit: "s", onFailure: true, asyncRewake: true, skillShell: true, readers: CLAUDE_FILE_READERS };

/** Claude's settings entries that hand each event of `config` the host fires to hookrun (HostSetup.wanted). */
export function claudeEntries(config: ResolvedConfig, command: (event: string) => string, rules: ClaudeEntryRules): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  const inUnit = (ms: number) => (rules.timeoutUnit === "ms" ? Math.ceil(ms) : Math.ceil(ms / 1000));
  for (const event of configEvents(config)) {
    const name = EVENT_BY_NAME.get(event)?.claude?.name;
    if (!name || !rules.fires(name)) continue;
    const matched = (hooks: ResolvedConfig["hooks"]) => (EVENT_BY_NAME.get(event)?.matchField ? matchedValues({ ...config, hooks }, event, rules.readers) : null);
    // `rewake` hooks get an asyncRewake entry each (docs/async.md#rewake); the main entry skips them.
    const rewake = rules.asyncRewake ? config.hooks.filter((h) => h.event === event && h.rewake === true) : [];
    const others = config.hooks.filter((h) => h.event === event && !rewake.includes(h));
    const list: HostEntry[] = [];
    let skillShell: HostEntry[] | null = null;
    if (others.length > 0) {
      const values = matched(others);
      const hook = {
        type: "command",
        command: `${command(event)}${rewake.length ? " --skip-rewake" : ""}`,
        timeout: inUnit(dispatchTimeoutMs(config, event)),
        // Failing closed: Claude Code blocks when the entry itself fails (killed at its timeout, crashed) too.
        ...(rules.onFailure && asksFailClosed(config, event) && { onFailure: "block" }),
      };
      list.push({ ...(values && { matcher: values.join("|") }), hooks: [hook] });
      // The shell commands a skill embeds reach pre_tool_use through their own event, wherever a
      // pre_tool_use hook can match the shell tool (Claude Code's Bash or PowerShell).
      const shells = values?.filter((v) => SKILL_SHELL_TOOLS.includes(v));
      if (rules.skillShell && event === "pre_tool_use" && (!shells || shells.length)) skillShell = [{ ...(shells && { matcher: shells.join("|") }), hooks: [{ ...hook }] }];
    }
    for (const h of rewake) {
      const values = matched([h]);
      const hook = { type: "command", command: `${command(event)} --rewake ${h.name}`, timeout: inUnit(h.timeoutMs + DISPATCH_MARGIN_MS), asyncRewake: true };
      list.push({ ...(values && { matcher: values.join("|") }), hooks: [hook] });
    }
    out[name] = list;
    if (skillShell) out[SKILL_SHELL] = skillShell;
  }
  return out;
}

/** Claude Code's whole adapter: its runtime part (claudeRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const claudeHost: HostAdapter = {
  ...claudeRun,
  // docs/integrations.md#claude-code: `/bin/sh -c` on POSIX, cwd the session's, CLAUDE_PROJECT_DIR the project root.
  probe: {
    shell: POSIX_SHELL,
    env: (projectDir) => ({ CLAUDE_PROJECT_DIR: projectDir }),
    payload: (hostEvent, projectDir) => ({ ...sampleFields(CLAUDE_EVENTS[hostEvent] ?? hostEvent, "Bash", projectDir), transcript_path: "", hook_event_name: hostEvent, permission_mode: "default" }),
    // Claude Code's settings (read from 2.1.330): `disableAllHooks: true` stops every hook, the value of the
    // layer that wins (user < project < local < managed; test/prove.e2e.test.ts checks with the
    // real CLI that the project's true under a local false runs hooks). `allowManagedHooksOnly`,
    // honoured from managed settings only, stops user and project hooks.
    switches: ({ projectDir, home, env, root }, read) => {
      const managed = `${root.replace(/\/$/, "")}/etc/claude-code/managed-settings.json`;
      const layers = [`${env.CLAUDE_CONFIG_DIR || `${home}/.claude`}/settings.json`, `${projectDir}/.claude/settings.json`, `${projectDir}/.claude/settings.local.json`, managed];
      const out: OffSwitch[] = [];
      const winner = layers.filter((file) => typeof read(file)?.disableAllHooks === "boolean").at(-1);
      if (winner && read(winner)?.disableAllHooks === true)
        out.push({
          file: winner,
          key: ["disableAllHooks"],
          what: "`disableAllHooks: true`: Claude Code runs no hook at all, hookrun's entries included",
          fix: `remove "disableAllHooks" from ${winner}`,
        });
      if (read(managed)?.allowManagedHooksOnly === true)
        out.push({
          file: managed,
          key: ["allowManagedHooksOnly"],
          what: "`allowManagedHooksOnly: true` in managed settings: Claude Code ignores the hooks of user and project settings, hookrun's entries included",
          fix: "ask whoever manages this machine's Claude Code settings",
        });
      return out;
    },
  },
  setup: jsonFile({
    projectFile: ".claude/settings.json",
    userFile: ".claude/settings.json",
    hooksPath: ["hooks"],
    root: '"$CLAUDE_PROJECT_DIR"',
    entries: (config, command) => claudeEntries(config, command, CLAUDE_ENTRY_RULES),
  }),
  import: (settings, existing) => importClaudeSettings(settings, existing),
};
