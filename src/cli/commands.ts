import type { CliContext } from "./context.js";
import { CONTEXT_OPTION, type OptionSpec, RUN_OPTIONS, SET_OPTION } from "./options.js";

export type { OptionSpec };

// The one table of `hooks` commands: main() turns each row into a commander command, help and
// the docs' CLI table come from it. An action's module is imported only when its command runs,
// so a cold `hooks run` loads the run code and nothing else (docs/performance.md).

export interface CommandSpec {
  name: string;
  aliases?: readonly string[];
  /** Positional arguments in commander syntax, each with its help. */
  args?: readonly { syntax: string; description?: string }[];
  description: string;
  /** A command line that shows the command in use (help and docs). */
  example: string;
  options?: readonly OptionSpec[];
  hidden?: boolean;
  /**
   * The command changes which hooks run (trust, enable, install, …): from an agent's tool call it
   * is refused until a person confirms (src/cli/agentCaller.ts). A function: only with these options.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each row knows its own option types
  changesWhatRuns?: boolean | ((opts: any) => boolean);
  /** Resolves to the exit code; gets the positional arguments, then the options. */
  // biome-ignore lint/suspicious/noExplicitAny: each row knows its own argument types
  action?: (ctx: CliContext, args: any[], opts: any) => Promise<number>;
}

const JSON_OPTION: OptionSpec = { flags: "--json", description: 'print JSON (errors too, as {"error": …} on stdout)' };
// Commands that change which hooks run take it: only a person types it (docs/trust.md#an-agent-cannot-switch-off-its-guards).
const PERSON_OPTION: OptionSpec = { flags: "--person", description: "I am a person, not an agent's tool call: go on even where this looks like one (never for an agent to pass)" };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "run",
    args: [{ syntax: "<event>", description: "event name in any spelling (stop, Stop, PreToolUse, tool.execute.pre)" }],
    description: "fire EVENT: read the context, run the matching hooks, print their results",
    example: `echo '{"session_id": "s1"}' | hooks run stop --json`,
    options: RUN_OPTIONS,
    action: async (ctx, [event], opts) => (await import("./actions/run.js")).runHooks(ctx, event, opts),
  },
  {
    name: "explain",
    args: [{ syntax: "<event>", description: "event name in any spelling, or the host's own (with --host)" }],
    description: "say, for every hook of EVENT, whether it would run for this context and why not (disabled where, matcher, if, paths, HOOKS_DISABLED, trust); runs nothing",
    example: `echo '{"tool_name": "Bash", "tool_input": {"command": "ls"}}' | hooks explain pre_tool_use`,
    options: [
      CONTEXT_OPTION,
      SET_OPTION,
      { flags: "--host <name>", description: "read the payload as this agent sends it: auto or claude, codex, gemini, …" },
      { flags: "--only <names>", description: "as `hooks run --only`", many: "list" },
      { flags: "--skip <names>", description: "as `hooks run --skip`", many: "list" },
      JSON_OPTION,
    ],
    action: async (ctx, [event], opts) => (await import("./actions/run.js")).runHooks(ctx, event, { ...opts, explain: true }),
  },
  {
    name: "test",
    args: [{ syntax: "[paths...]", description: "fixture files, or folders searched for *.hooktest.{yaml,yml,json}; none: those next to hooks.yaml and under hooks.tests/" }],
    description:
      "run the fixtures (an event, a context, optionally a host; what must come out) through the real hooks, as `hooks run` does, and report each as pass/fail with the difference (exit 1 on any failure)",
    example: "hooks test hooks.tests/ --junit > hooks-junit.xml",
    options: [
      JSON_OPTION,
      { flags: "--junit", description: "print a JUnit XML report (one testsuite per fixture file, one testcase per fixture)" },
      { flags: "--filter <text>", description: "only fixtures whose name or file contains TEXT (case-insensitive)" },
    ],
    action: async (ctx, [paths], opts) => (await import("./actions/test.js")).testFixtures(ctx, paths ?? [], opts),
  },
  {
    name: "validate",
    description: "check every config layer and print all problems as FILE:LINE:COL (exit 78 when invalid or missing)",
    example: "hooks validate --json",
    options: [JSON_OPTION],
    action: async (ctx, _args, opts) => (await import("./actions/inspect.js")).validateConfig(ctx, opts),
  },
  {
    name: "list",
    description: "list hooks after merging layers: event, priority, async, timeout, state, source FILE:LINE, command",
    example: "hooks list --event pre_tool_use",
    options: [{ flags: "--event <event>", description: "only hooks of this event (any spelling)" }, JSON_OPTION],
    action: async (ctx, _args, opts) => (await import("./actions/inspect.js")).listHooks(ctx, opts),
  },
  {
    name: "events",
    description: "list the event catalog: names, aliases, gate, match field, fields",
    example: "hooks events --json",
    options: [JSON_OPTION],
    action: async (ctx, _args, opts) => (await import("./actions/inspect.js")).printEvents(ctx, opts),
  },
  ...[true, false].map(
    (enabled): CommandSpec => ({
      name: enabled ? "enable" : "disable",
      args: [{ syntax: "<names...>" }],
      description: `set \`enabled: ${enabled}\` on hooks in the file that declares them (only that line changes)`,
      example: enabled ? "hooks enable lint" : "hooks disable slow-tests --local",
      options: [{ flags: "--local", description: "write the override into hooks.local.yaml instead (personal, git-ignored)" }, PERSON_OPTION],
      changesWhatRuns: true,
      action: async (ctx, [names], opts) => (await import("./actions/manage.js")).setEnabled(ctx, names, enabled, opts),
    }),
  ),
  {
    name: "trust",
    description: "show every command of the project and local config, and trust those files as they are now",
    example: "hooks trust --yes",
    options: [{ flags: "-y, --yes", description: "trust without asking (needed when stdin is not a terminal)" }, PERSON_OPTION],
    changesWhatRuns: true,
    action: async (ctx, _args, opts) => (await import("./actions/manage.js")).trustConfig(ctx, opts),
  },
  {
    name: "untrust",
    description: "forget the trust of the project and local config files",
    example: "hooks untrust",
    options: [PERSON_OPTION],
    changesWhatRuns: true,
    action: async (ctx) => (await import("./actions/manage.js")).untrustConfig(ctx),
  },
  {
    name: "log",
    args: [{ syntax: "[id]", description: "show this run in full (a unique prefix of its id is enough)" }],
    description: "show recent runs from the run log ($HOOKS_STATE_DIR/runs.jsonl) of this project, one run in full, or runs as they happen",
    example: "hooks log --follow --status blocked,failed",
    options: [
      { flags: "-n <count>", description: "how many runs (default 20; with --follow, 0)" },
      { flags: "-f, --follow", description: "then print each run as it is appended, from every agent and session, until Ctrl-C" },
      {
        flags: "--fixture <id>",
        description:
          "print run ID as a `hooks test` fixture (YAML); needs its context recorded, which is opt-in since contexts can hold prompts and secrets (log.context, HOOKS_LOG_CONTEXT=1 or hooks run --record)",
      },
      { flags: "--session <id>", description: "only runs of this session" },
      { flags: "--event <event>", description: "only runs of this event (any spelling)" },
      { flags: "--host <name>", description: "only runs from this agent's payloads (claude, codex, …)" },
      { flags: "--hook <name>", description: "only runs in which this hook ran" },
      {
        flags: "--status <statuses>",
        description:
          "only runs that: ok (every hook ok), blocked, failed (a hook failed, timed out, could not start or gave invalid output), had a hook with this status (timeout, skipped, …), or expired (async results dropped undelivered: only those lines, whatever their result); comma-separated: any",
        many: "list",
      },
      { flags: "--all-projects", description: "runs of every project, not only this one's" },
      { flags: "--json", description: "print a JSON array of the log records (one record for ID; one JSON object per line with --follow)" },
      { flags: "--pending", description: "instead, the async results not delivered yet (and async hooks still running), per session, with their age" },
    ],
    action: async (ctx, [id], opts) => (await import("./actions/log.js")).logCommand(ctx, id, opts),
  },
  {
    name: "init",
    description: "write a commented starter hooks.yaml and git-ignore hooks.local.yaml",
    example: "hooks init",
    options: [{ flags: "--force", description: "overwrite an existing hooks.yaml" }, PERSON_OPTION],
    changesWhatRuns: (opts) => opts.force === true,
    action: async (ctx, _args, opts) => (await import("./actions/manage.js")).initConfig(ctx, opts),
  },
  {
    name: "watch",
    description: "re-validate the config on every change of any layer and print the diagnostics",
    example: "hooks watch --json",
    options: [{ flags: "--json", description: "print one JSON object per check (the shape of validate --json)" }],
    action: async (ctx, _args, opts) => (await import("./actions/serve.js")).watchCommand(ctx, opts),
  },
  {
    name: "serve",
    description: "serve the HTTP + JSON API on a Unix socket (or 127.0.0.1 with a token), reloading config on change",
    example: "hooks serve --port 0",
    options: [
      { flags: "--socket <path>", description: "Unix socket to listen on (default $HOOKS_STATE_DIR/serve.sock)" },
      { flags: "--port <n>", description: "listen on 127.0.0.1:N instead, with a bearer token ($HOOKS_SERVE_TOKEN, else random) in $HOOKS_STATE_DIR/serve.token (0: any free port)" },
    ],
    action: async (ctx, _args, opts) => (await import("./actions/serve.js")).serve(ctx, opts),
  },
  {
    name: "mcp",
    description: "serve hookrun's hooks as a tool of a stdio MCP server the agent starts for its session (warm mode; `hooks install claude --warm` registers it)",
    example: "hooks mcp --host claude",
    options: [{ flags: "--host <name>", description: "the agent whose payloads the calls carry when a call names none (claude)" }],
    action: async (ctx, _args, opts) => (await import("./actions/mcp.js")).mcpCommand(ctx, opts),
  },
  {
    name: "install",
    args: [
      {
        syntax: "[hosts...]",
        description:
          "claude, codex, gemini, qwen, copilot, cursor, droid, windsurf, cline, agent-code, qoder, crush, letta, goose, grok, kimi (`--user` only: ~/.kimi-code/config.toml), pi, opencode (pi and opencode: a file that calls hookrun in the agent's process); none: the hosts whose config folder the project has",
      },
    ],
    description: "write hookrun's dispatch entries into each agent's own config file (merged with its other hooks; undo with uninstall)",
    example: "hooks install claude gemini",
    options: [
      { flags: "--user", description: "into the user's config files (~/.claude/settings.json, …) instead of the project's" },
      { flags: "--dry-run", description: "print each file as it would be written; write nothing" },
      { flags: "--check", description: "write nothing; exit 1 when an entry is missing or stale (for CI)" },
      {
        flags: "--serve <port>",
        description:
          "warm mode (Claude Code, Copilot CLI): http entries that POST events to `hooks serve --port PORT` on 127.0.0.1 instead of starting hookrun; they fail closed while no server answers",
      },
      {
        flags: "--warm",
        description:
          "warm mode over MCP (Claude Code): mcp_tool entries calling `hooks mcp`, which the agent starts once per session (registered in .mcp.json); they fail closed when it cannot answer",
      },
      JSON_OPTION,
      PERSON_OPTION,
    ],
    changesWhatRuns: (opts) => !opts.dryRun && !opts.check,
    action: async (ctx, [hosts], opts) => (await import("./actions/install.js")).installHosts(ctx, hosts ?? [], opts),
  },
  {
    name: "doctor",
    args: [{ syntax: "[hosts...]", description: "the agents to check; none: every agent whose config in the project holds hooks (and the user's with hookrun entries)" }],
    description: "check that each installed agent would run hooks.yaml's hooks: its config, its dispatch fired as it fires it, trust, commands; exit 1 when one would not",
    example: "hooks doctor claude --json",
    options: [{ flags: "--user", description: "check the user's config files (~/.claude/settings.json, …) too, with or without hookrun entries" }, JSON_OPTION],
    action: async (ctx, [hosts], opts) => (await import("./actions/doctor.js")).doctorCommand(ctx, hosts ?? [], opts),
  },
  {
    name: "uninstall",
    args: [{ syntax: "[hosts...]", description: "the hosts to remove hookrun's entries from; none: every host that has them" }],
    description: "remove hookrun's dispatch entries from each agent's config file, leaving everything else as it was",
    example: "hooks uninstall gemini",
    options: [
      { flags: "--user", description: "from the user's config files instead of the project's" },
      { flags: "--dry-run", description: "print what would be written or removed; write nothing" },
      PERSON_OPTION,
    ],
    changesWhatRuns: (opts) => !opts.dryRun,
    action: async (ctx, [hosts], opts) => (await import("./actions/uninstall.js")).uninstallHosts(ctx, hosts ?? [], opts),
  },
  {
    name: "import",
    args: [
      {
        syntax: "<host>",
        description:
          "the agent whose hooks to import: claude, codex, gemini, qwen, copilot, cursor, droid, qoder, crush, letta, goose (a plugin's hooks/hooks.json), grok (a .grok/hooks/*.json), kimi (~/.kimi-code/config.toml), …",
      },
      { syntax: "[file]", description: "its config file (default: the project's, e.g. .claude/settings.json)" },
    ],
    description: "convert another agent's hooks to hooks.yaml, each marked with the output dialect it was written for",
    example: "hooks import claude .claude/settings.local.json --write",
    options: [
      { flags: "--write", description: "merge into the project config instead of printing" },
      { flags: "--json", description: "print the config as JSON (hooks.json) instead of YAML" },
      { flags: "--dispatch", description: "print the entries `hooks install HOST` would write for the config (with --write: after the import)" },
    ],
    action: async (ctx, [host, file], opts) => (await import("./actions/import.js")).importHost(ctx, host, file, opts),
  },
  {
    // The detached process `hooks run` starts for each async hook (docs/async.md#in-the-cli-the-on-disk-protocol).
    name: "__async-worker",
    args: [{ syntax: "<job>", description: "the async run's started record" }],
    description: "run one async hook to its end and publish its result",
    example: "hooks __async-worker JOB",
    hidden: true,
    action: async (ctx, [job]) => (await import("./actions/asyncWorker.js")).asyncWorker(ctx, job),
  },
  {
    // The detached process `hooks run` hands a claude-dialect hook's background jobs to.
    name: "__watchdog",
    args: [
      { syntax: "<pgid>", description: "the process group left running" },
      { syntax: "<deadline>", description: "when the hook's timeout kills it (epoch ms)" },
      { syntax: "<start>", description: "the start time of the group's leader (ticks since boot)" },
    ],
    description: "kill a finished hook's background jobs at its timeout",
    example: "hooks __watchdog PGID DEADLINE START",
    hidden: true,
    action: async (ctx, [pgid, deadline, start]) => (await import("./actions/asyncWorker.js")).watchdog(ctx, pgid, deadline, start),
  },
];

// Global options that take a value: the word after them is that value, not the command.
const VALUE_OPTIONS = new Set(["-c", "--config", "-C", "--cwd", "--color"]);

/**
 * The command word of an argv (`run` in `hooks -C dir --trust run stop`), or undefined when
 * there is none. scripts/cliLoader.cjs has the same rule (it cannot import the bundle it loads).
 */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return undefined;
}

/** The rows main() registers for an argv: the one its command word names, else all (help, a typo). */
export function commandsFor(argv: readonly string[]): readonly CommandSpec[] {
  const word = commandWord(argv);
  const named = COMMANDS.filter((c) => word !== undefined && (c.name === word || c.aliases?.includes(word)));
  return named.length > 0 ? named : COMMANDS;
}
