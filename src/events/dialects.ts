/**
 * The dialect table (docs/dialects.md): one row per dialect a hook can be written in, the one
 * list every other list of dialects comes from (the schema's `dialect` enum, `hooks import`, the
 * docs). A row says how the dialect's host runs a hook (working directory, default timeout,
 * parallel groups); the code that shapes the hook's stdin and reads its exit code and output is
 * src/dialects/<name>.ts, loaded only when a hook of that dialect runs (src/dialects/load.ts).
 */
import { claudeDefaultTimeoutMs } from "../config/units.js";

export interface DialectInfo {
  /** The value of a hook's `dialect:` key. */
  readonly name: string;
  /** Whose contract, for people: "Cursor". */
  readonly title: string;
  /** The host (src/hosts/table.ts) whose contract this is; null for hookrun's own. */
  readonly host: string | null;
  /** Every exit code reaches the dialect's `readExit` (Claude Code reads JSON on any code); else codes other than 0 and 2 fail the hook first. */
  readonly readsEveryExit?: boolean;
  /** A shell's 126/127 (command not executable / not found) reaches `readExit` too (Gemini CLI blocks on them). */
  readonly readsShellCodes?: boolean;
  /** Without a `cwd:`, the hook runs in the session's working directory (the context's `cwd`), not the declaring file's. */
  readonly sessionCwd?: boolean;
  /** Background jobs the hook leaves may run on until its timeout (Claude Code lets them finish). */
  readonly keepBackground?: boolean;
  /** An event's hooks of this dialect and equal priority run at once, and all run even when one blocks. */
  readonly parallel?: boolean;
  /** The host's default timeout for an event, used when neither the hook nor `defaults.timeout` sets one. */
  defaultTimeoutMs?(event: string): number;
  /** The host's default `loop_limit` for a stop / subagent_stop hook of this dialect that sets none (docs/configuration.md#loop_limit). */
  loopLimit?: number;
  /** On stop / subagent_stop, the reasons of all its hooks that block are one reason, joined by a blank line (Codex gives the model them all). */
  readonly joinsStopReasons?: boolean;
  /** A block by one of its hooks leaves the event's later hooks running (the host runs them all, one after another). */
  readonly runsAll?: boolean;
  /**
   * Events on which the host counts a failed hook (a timeout, a crash, one that could not run, output
   * it cannot read) as a block, as `on_failure: block` does (agent-code's pre_tool_use veto; Cline cancels).
   */
  readonly failsClosedOn?: readonly string[];
}

export const DIALECTS = Object.freeze([
  { name: "native", title: "hookrun", host: null },
  {
    name: "claude",
    title: "Claude Code",
    host: "claude",
    readsEveryExit: true,
    sessionCwd: true,
    keepBackground: true,
    parallel: true,
    defaultTimeoutMs: claudeDefaultTimeoutMs,
  },
  // Codex runs an event's matching hooks at once (each to its end), `$SHELL -lc` in the session's
  // cwd, 600 s unless the entry says; it reads stdout on exit 0 and stderr on exit 2 only.
  { name: "codex", title: "Codex CLI", host: "codex", sessionCwd: true, parallel: true, joinsStopReasons: true, defaultTimeoutMs: () => 600_000 },
  // Factory Droid follows Claude Code's rules (JSON read on every exit code, parallel hooks, the session's cwd), 60 s by default.
  { name: "droid", title: "Factory Droid", host: "droid", readsEveryExit: true, sessionCwd: true, parallel: true, defaultTimeoutMs: () => 60_000 },
  // agent-code runs an event's hooks one after another in its own cwd, kills each at 30 s, and on
  // pre_tool_use vetoes the call on any non-zero exit (126/127 too), a timeout or a spawn error.
  {
    name: "agent-code",
    title: "agent-code",
    host: "agent-code",
    readsEveryExit: true,
    readsShellCodes: true,
    sessionCwd: true,
    defaultTimeoutMs: () => 30_000,
    runsAll: true,
    failsClosedOn: ["pre_tool_use"],
  },
  // Cursor: JSON on exit 0, exit 2 denies, any other code fails open (an entry's failClosed is `on_failure: block`).
  { name: "cursor", title: "Cursor", host: "cursor", loopLimit: 5 },
  // Windsurf Cascade: the exit code alone (2 blocks a pre-hook); anything else lets the action go on.
  { name: "windsurf", title: "Windsurf Cascade", host: "windsurf" },
  // Cline: the last JSON object on stdout; a non-zero exit, a missing command, a timeout or output it cannot read cancels.
  { name: "cline", title: "Cline", host: "cline", readsEveryExit: true, readsShellCodes: true, failsClosedOn: ["pre_tool_use", "user_prompt_submit"] },
  // Gemini CLI reads JSON on every exit code and blocks on any code ≥ 2 with plain text, 126/127
  // of a script without its execute bit included; an event's hooks run at once unless a group of
  // it says `sequential: true` (imported as distinct priorities: one after another).
  { name: "gemini", title: "Gemini CLI", host: "gemini", readsEveryExit: true, readsShellCodes: true, sessionCwd: true, parallel: true, defaultTimeoutMs: () => 60_000 },
  // Qwen Code: Claude Code's rules with its differences (src/dialects/qwen.ts), 60 s by default.
  { name: "qwen", title: "Qwen Code", host: "qwen", readsEveryExit: true, sessionCwd: true, parallel: true, defaultTimeoutMs: () => 60_000 },
  // Copilot CLI runs an event's hooks one after another; preToolUse denies on any non-zero exit
  // (127 of a missing command included), 30 s by default. One row per spelling of its config.
  { name: "copilot", title: "Copilot CLI's camelCase entries", host: "copilot", readsEveryExit: true, readsShellCodes: true, sessionCwd: true, defaultTimeoutMs: () => 30_000 },
  { name: "copilot-pascal", title: "Copilot CLI's PascalCase entries", host: "copilot", readsEveryExit: true, readsShellCodes: true, sessionCwd: true, defaultTimeoutMs: () => 30_000 },
] as const satisfies readonly DialectInfo[]);

/** A dialect's name: the value of a hook's `dialect:` key. */
export type DialectName = (typeof DIALECTS)[number]["name"];

export const DIALECT_BY_NAME: ReadonlyMap<string, DialectInfo> = new Map(DIALECTS.map((d): [string, DialectInfo] => [d.name, d]));

/** The names a hook's `dialect:` takes, in table order (the schema's enum). */
export const DIALECT_NAMES: readonly string[] = DIALECTS.map((d) => d.name);

/** The row of a hook's dialect (native when unknown: the schema refuses an unknown name first). */
export function dialectOf(name: string | undefined): DialectInfo {
  return (name !== undefined && DIALECT_BY_NAME.get(name)) || (DIALECT_BY_NAME.get("native") as DialectInfo);
}
