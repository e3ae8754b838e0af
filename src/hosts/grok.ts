import { isJsonObject } from "../config/scanJson.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import { claudeHost } from "./claude.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { POSIX_SHELL, sampleFields } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry, HostSetup } from "./types.js";
import { grokRun, EVENTS, envelopeName } from "./grokRun.js";

export * from "./grokRun.js";

const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));
function entries(config: Parameters<HostSetup["wanted"]>[0], command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = INSTALL_EVENT[event];
    if (!hostEvent) continue;
    const values = event.includes("tool_use") || event === "permission_denied" ? matchedValues(config, event, grok) : null;
    // A matcher of names and `|` only is exact per name in Grok Build; anything else is an unanchored regex, anchored here.
    const matcher = values ? (values.every((v) => /^[A-Za-z0-9_]+$/.test(v)) ? values.join("|") : `^(${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`) : undefined;
    const hook = { type: "command", command: command(event), timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000) };
    out[hostEvent] = [{ ...(matcher && { matcher }), hooks: [hook] }];
  }
  return out;
}

function importGrok(settings: unknown, existing: Parameters<NonNullable<HostAdapter["import"]>>[1]) {
  if (!isJsonObject(settings)) throw new TypeError("a .grok/hooks file must be a JSON object");
  const imp = importClaudeSettings(settings, existing);
  imp.notes = imp.notes.map((n) => n.replace(/Claude Code/g, "Grok Build"));
  for (const h of imp.hooks) if (!Object.hasOwn(EVENTS, h.hostEvent)) imp.notes.push(`${h.at}: hookrun does not read Grok Build's ${h.hostEvent}; imported as ${h.event} for other hosts`);
  if (imp.hooks.length)
    imp.notes.push(
      "imported with `dialect: claude` (exit 2 and `decision: block` read as Claude Code reads them); under hookrun these hooks receive Claude's payload (snake_case, Claude's tool names), not Grok Build's camelCase envelope; a `decision: \"deny\"` on stdout is Grok Build's, not Claude's: use exit 2",
    );
  return imp;
}

/** Grok Build's whole adapter: its runtime part (grokRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const grok: HostAdapter = {
  ...grokRun,
  probe: {
    shell: POSIX_SHELL,
    env: (projectDir, hostEvent) => ({ GROK_WORKSPACE_ROOT: projectDir, CLAUDE_PROJECT_DIR: projectDir, GROK_HOOK_EVENT: envelopeName(hostEvent), GROK_SESSION_ID: "hooks-doctor" }),
    payload: (hostEvent, projectDir, tool = "run_terminal_command") => {
      const f = sampleFields(EVENTS[hostEvent] ?? hostEvent, tool, projectDir);
      const tools = hostEvent.includes("ToolUse") || hostEvent === "PermissionDenied";
      return {
        hookEventName: envelopeName(hostEvent),
        sessionId: "hooks-doctor",
        cwd: projectDir,
        workspaceRoot: projectDir,
        timestamp: "2026-01-01T00:00:00Z",
        permissionMode: "default",
        ...(tools && { toolName: tool, toolUseId: "hooks-doctor-1", toolInput: f.tool_input, toolInputTruncated: false }),
        ...(hostEvent === "UserPromptSubmit" && { prompt: f.prompt }),
        ...(hostEvent === "Stop" && { reason: "end_turn", stopHookActive: false }),
      };
    },
    assumed: "`sh -c` in the workspace root with GROK_WORKSPACE_ROOT set, as Grok Build's runner does",
  },
  setup: jsonFile({
    projectFile: ".grok/hooks/hookrun.json",
    userFile: ".grok/hooks/hookrun.json",
    hooksPath: ["hooks"],
    root: '"$GROK_WORKSPACE_ROOT"',
    note: "Grok Build runs a project's hooks only once the folder is trusted (`/hooks-trust`, or `grok --trust`)",
    entries,
    // Grok Build also runs .claude/settings.json's hooks, with its own envelope.
    async warnings(config, at) {
      if (at.user) return [];
      let claude: Record<string, unknown> = {};
      try {
        claude = (await claudeHost.setup?.installed(config.projectDir, false)) ?? {};
      } catch {
        // an unreadable .claude/settings.json is `hooks install claude`'s to report
      }
      return Object.keys(claude).length
        ? [
            ".claude/settings.json has hookrun's entries, and Grok Build runs them too, with its own envelope, which `--host claude` does not read (a guard's matcher then misses): under Grok Build the hooks run twice; if the project is used only with Grok Build, run `hooks uninstall claude`",
          ]
        : [];
    },
  }),
  import: importGrok,
};
