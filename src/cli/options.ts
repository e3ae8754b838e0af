import { COLOR_WHEN } from "./context.js";

// The option rows that both the commander program (src/cli/main.ts) and the fast `hooks run`
// parser (src/cli/parseRunArgv.ts) read, so the two can never disagree on what an option is.
// This module imports nothing heavy: the fast `hooks run` bundle includes it (docs/performance.md).

export interface OptionSpec {
  /** Commander syntax: "-n <count>", "--json", "--only <names>". */
  flags: string;
  description: string;
  default?: string;
  /** "list": comma-separated or repeated (`--only a,b --only c`); "repeat": one value per use. */
  many?: "list" | "repeat";
  /** The only values the option takes. */
  choices?: readonly string[];
}

/** The options every command takes (before or after the command word). */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: "-c, --config <path>", description: "use this project config file (no walk up; also HOOKS_CONFIG)" },
  { flags: "-C, --cwd <dir>", description: "run as if started in DIR" },
  { flags: "--no-user-config", description: "skip the user layer (~/.config/hookrun)" },
  { flags: "--trust", description: "trust the project and local config for this invocation" },
  { flags: "--color <when>", description: "colours: auto (when stdout is a terminal), always or never", choices: COLOR_WHEN },
  { flags: "--no-color", description: "same as --color=never" },
  { flags: "-v, --verbose", description: "more detail, and stack traces on errors" },
];

// How `hooks run` and `hooks explain` take their context.
export const CONTEXT_OPTION: OptionSpec = { flags: "--context <file>", description: "read the context JSON object from FILE (- for stdin)" };
export const SET_OPTION: OptionSpec = { flags: "--set <key=value>", description: "set a context field (dotted keys; VALUE parsed as JSON when it parses); repeatable", many: "repeat" };

/** `hooks run`'s own options. */
export const RUN_OPTIONS: readonly OptionSpec[] = [
  CONTEXT_OPTION,
  { flags: "--session-id <id>", description: 'session_id (default $HOOKS_SESSION_ID, else "default")' },
  { flags: "--turn-count <n>", description: "turn_count (default 0)" },
  { flags: "--last-message <text>", description: "last_assistant_message" },
  SET_OPTION,
  { flags: "--output <format>", description: "text | json | junit | claude (= --host claude); default text, or the host's answer when the payload is a host's" },
  { flags: "--host <name>", description: "read the payload and answer as this agent: auto (from the payload) or claude, codex, gemini, … (hooks install writes it)" },
  { flags: "--json", description: "same as --output json" },
  { flags: "--dry-run", description: "print the plan, the hooks that would not run and why, and the context; run nothing" },
  {
    flags: "--record",
    description:
      "record this run's context (with a host, its payload) in the run log for hooks log --fixture; it can hold prompts, file contents and secrets (also: log.context in hooks.yaml, HOOKS_LOG_CONTEXT=1)",
  },
  { flags: "--only <names>", description: "run only these hooks (comma-separated or repeated)", many: "list" },
  { flags: "--skip <names>", description: "do not run these hooks (comma-separated or repeated)", many: "list" },
  {
    flags: "--rewake <names>",
    description: "run only these `rewake` hooks, in the foreground, and answer a block with exit 2 and its reason on stderr (Claude Code's asyncRewake entry, which hooks install claude writes)",
    many: "list",
  },
  { flags: "--skip-rewake", description: "do not run `rewake` hooks (their own asyncRewake entries run them)" },
  { flags: "--wait", description: "wait for async hooks and report them in this run (default when CI is set)" },
  { flags: "--no-wait", description: "do not wait for async hooks, even when CI is set" },
  { flags: "--max-parallel <n>", description: "concurrency cap for parallel events (default: CPUs × 2)" },
  {
    flags: "--fail-closed",
    description:
      "with --host: on a gate event, block the call when hookrun cannot run the hooks (config invalid or untrusted, context over a limit, an internal error); hooks install writes it for events with an on_failure: block hook",
  },
  { flags: "--deadline <seconds>", description: "with --fail-closed: the agent kills this dispatch after SECONDS; hookrun stops its hooks and blocks before then" },
];

/** A `many: "list"` option's values: comma-separated or repeated. */
export const collect = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
];
/** A `many: "repeat"` option's values: one per use. */
export const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];
