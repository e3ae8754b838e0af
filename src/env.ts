/**
 * Every environment variable hookrun reads, in one table: `hooks --help` lists it and the README's
 * table is tested against it. Variables hookrun *sets* for hooks (HOOKRUN, HOOK_*) are in
 * HOOK_ENV below. Code reads a variable through the env object it was handed (never
 * process.env directly, except at the doors), so tests and embedders control it.
 */
export interface EnvVar {
  name: string;
  /** One line for help and the README. */
  description: string;
}

export const ENV_VARS: readonly EnvVar[] = [
  { name: "HOOKS", description: "0, false or off: run no hook at all" },
  { name: "HOOKS_DISABLED", description: "comma-separated hook names to skip for this invocation" },
  { name: "HOOKS_CONFIG", description: "the project config file (as --config; no walk up)" },
  { name: "HOOKS_SESSION_ID", description: 'session_id when the context has none (default "default")' },
  { name: "HOOKS_EXPLAIN", description: "1: `hooks run` prints, as JSON, which hooks would run and why not (as `hooks explain --json`) and runs none; `hooks doctor` sets it" },
  { name: "HOOKS_TRUST", description: "1: trust project and local config without review" },
  {
    name: "HOOKS_LOG_CONTEXT",
    description: "1: record each run's context (a host's payload as sent) in the run log, for hooks log --fixture; 0: never (over log.context). Contexts can hold prompts, file contents and secrets",
  },
  { name: "HOOKS_STATE_DIR", description: "state dir: run log, trust store, async results, socket (default $XDG_STATE_HOME/hookrun)" },
  { name: "HOOKS_CODE_CACHE", description: "0: do not use or write the CLI's code cache in $XDG_CACHE_HOME/hookrun (a V8 code cache per command)" },
  { name: "HOME", description: "home dir for ~ and the XDG defaults" },
  { name: "PATH", description: "where `hooks doctor` looks up each hook's command (as the shell running the hook would)" },
  { name: "SHELL", description: "the shell `hooks doctor` fires Codex's entries with (Codex runs hooks with `$SHELL -lc`)" },
  { name: "XDG_CONFIG_HOME", description: "user layer in $XDG_CONFIG_HOME/hookrun/ (default ~/.config)" },
  { name: "XDG_STATE_HOME", description: "default state dir parent (default ~/.local/state)" },
  { name: "XDG_CACHE_HOME", description: "code cache in $XDG_CACHE_HOME/hookrun/ (default ~/.cache)" },
  { name: "CI", description: 'set (not "", 0, false): trust without asking, and --wait by default' },
  { name: "GITHUB_ACTIONS", description: "true: fold each hook's output in ::group:: and annotate failures" },
  { name: "NO_COLOR", description: 'set (not ""): no colours (as --color=never); --color wins' },
  { name: "FORCE_COLOR", description: 'set (not ""): colours even when not a terminal; 0 or false: none; NO_COLOR and --color win' },
  { name: "CLAUDE_PROJECT_DIR", description: "passed through to hooks; set to the project dir when absent" },
  { name: "CLAUDE_CONFIG_DIR", description: "where `hooks doctor` reads Claude Code's user settings (as Claude Code does; default ~/.claude)" },
  { name: "KIMI_CODE_HOME", description: "`hooks install kimi --user` warns when it is set: Kimi Code then reads its config.toml there, not in ~/.kimi-code" },
  { name: "GEMINI_CLI_SYSTEM_SETTINGS_PATH", description: "where `hooks doctor` reads Gemini CLI's system settings (as Gemini CLI does; default /etc/gemini-cli/settings.json)" },
  { name: "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", description: "where `hooks doctor` reads Gemini CLI's system defaults (as Gemini CLI does; default /etc/gemini-cli/system-defaults.json)" },
  { name: "AGENT_CODE_HOOK_TOOL", description: "under `--host agent-code`: the tool of pre_tool_use (agent-code sends only the tool's input on stdin)" },
  { name: "AGENT_CODE_HOOK_EVENT", description: "under `--host agent-code`: agent-code's event name, kept as the context's host.event" },
  { name: "AGENT_CODE_HOOK_CONTEXT_TRUNCATED", description: "under `--host agent-code`: 1 sets the context's host.context_truncated" },
];

/** What every hook finds in its environment besides the runner's (docs/running-hooks.md#what-a-hook-receives). */
export const HOOK_ENV: readonly EnvVar[] = [
  { name: "HOOKRUN", description: "1" },
  { name: "HOOK_EVENT", description: "the canonical event name" },
  { name: "HOOK_NAME", description: "the hook's name" },
  { name: "HOOK_SESSION_ID", description: "the context's session_id" },
  { name: "HOOK_TURN_COUNT", description: "the context's turn_count" },
  { name: "HOOK_PROJECT_DIR", description: "the project dir" },
  { name: "HOOK_TOOL_NAME", description: "tool_name, when the context has one" },
  { name: "HOOK_FILE_PATH", description: "path, when the context has one" },
  { name: "CLAUDE_PROJECT_DIR", description: "the project dir, unless already set" },
  { name: "AGENT_CODE_HOOK_CONTEXT", description: "for a `dialect: agent-code` hook: the context as agent-code passes it, when it fits agent-code's limit (docs/dialects.md)" },
];

/** `CI` is set and means yes (not "", "0" or "false", any case): trust without asking, wait for async hooks. */
export function runningInCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}

/** CI and HOOKS_TRUST=1 trust every layer without asking (docs/trust.md). */
export function trustedByEnvironment(env: NodeJS.ProcessEnv): boolean {
  return runningInCi(env) || env.HOOKS_TRUST === "1";
}
