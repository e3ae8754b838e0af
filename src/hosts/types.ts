import type { ResolvedConfig } from "../config/types.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";

/**
 * A host is the agent that fires an event (docs/hosts.md). Each host has two modules in src/hosts/:
 * its runtime part (`HostRuntime`, <host>Run.ts: tables of events and tools, read a payload, render
 * a result) and its whole `HostAdapter` (<host>.ts: the runtime part with its setup
 * (src/hosts/setup.ts), probe and import). src/hosts/table.ts lists them all; the CLI, the docs'
 * tables and the tests walk that list.
 */

/** A host's payload: the JSON object it writes to a hook's stdin. */
export type Payload = Record<string, unknown>;

/** What a dispatch prints and exits with, in the host's contract. */
export interface HostAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A hook entry of a host's config file that hookrun owns (one element of an event's array). */
export type HostEntry = Record<string, unknown>;

/**
 * How `hooks install` hands a host's events to hookrun: one of the builders of
 * src/hosts/setup.ts (a JSON config file, a TOML config file, a folder of one script per hook).
 * `hooks install`, `uninstall`, `validate`, `doctor`, `import --dispatch` and the README's table
 * use this interface alone; none of them asks which kind it is (docs/architecture.md).
 */
export interface HostSetup {
  /**
   * Which builder made it, for the one table that needs more than this interface: `hooks
   * doctor`'s checks of a host's file as the host parses it (src/prove/doctor.ts).
   */
  readonly kind: "json-file" | "toml-file" | "script-folder" | "in-process-file";
  /** The folder whose presence says a project uses the host (`.claude`, `.clinerules`), or its config file when that sits at the project root (`crush.json`). */
  readonly folder: string;
  /** What `hooks install` writes, for the README's host table: "`.gemini/settings.json`". */
  readonly summary: string;
  /** The config file (or hook folder) under `base`: the project root, or HOME for the user's layer. */
  place(base: string, user: boolean): string;
  /**
   * Shell text for the project root in the host's command line (`"$CLAUDE_PROJECT_DIR"`, or
   * `$GEMINI_PROJECT_DIR`, which Gemini substitutes itself), or null when the host runs project
   * hooks in the project root (the command then names `node_modules/.bin/hooks` relative to it).
   */
  readonly root: string | null;
  /** Start the command with `exec`, so the process the host kills on its timeout is hookrun itself. */
  readonly exec?: boolean;
  /** A project install walks up from the session's cwd to the project's hookrun (a host that names no project directory: Codex, agent-code). */
  readonly walkUp?: boolean;
  /** A kill the host applies to every hook whatever its entry says (agent-code: 30 s); absent: the entry's own timeout. */
  readonly killAfterMs?: number;
  /**
   * The host reads the exit of an entry that cannot start hookrun (127: its binary missing, node
   * not on PATH) as a block (Gemini CLI: exit 2 or more; Copilot CLI: any non-zero). Its plain
   * entries then answer the host's not-run answer themselves, so the call goes on with the user
   * told, as when hookrun runs and fails (docs/fail-closed.md).
   */
  readonly blocksOnStartFailure?: boolean;
  /** The host reads hooks from the user's file only (Kimi Code): `hooks install` refuses the project layer, `hooks doctor` checks only the user's. */
  readonly userOnly?: boolean;
  /** What the user must still do for the host to read the entries, said after `hooks install` writes them. */
  readonly note?: string;
  /**
   * The setup runs no command: an extension in the host's own process calls hookrun's library
   * (src/hosts/inProcess.ts). Dispatch entries, their fail-closed answers and firing them do not apply.
   */
  readonly inProcess?: boolean;
  /**
   * What the config wants hookrun to have in the host's setup, by name: host event → entries
   * (matchers narrowed to what hooks.yaml's matchers can select; a timeout in the host's unit
   * covering the event's run), or file name → script. `command(event)` is the dispatch command
   * line for a canonical event. (Warm mode's http entries are made from these: src/hosts/warm.ts.)
   */
  wanted(config: ResolvedConfig, command: (event: string) => string): Record<string, unknown>;
  /** What `hooks install` would change under `base` to leave exactly `wanted` as hookrun's (idempotent; the user's own kept byte for byte). */
  plan(wanted: Record<string, unknown>, at: SetupPlace): Promise<SetupPlan>;
  /** What `hooks uninstall` would change: hookrun's entries or files gone, a file left with nothing of the user's removed. */
  removal(at: SetupPlace): Promise<SetupPlan>;
  /** hookrun's entries (host event → entries) or files (name → path) installed under `base` now; empty when absent; throws when unreadable. */
  installed(base: string, user: boolean): Promise<Record<string, unknown>>;
  /**
   * What `hooks install` (and `--check`) must warn about in this host's setup besides the entries:
   * another layer of the host's config that hides them, a file the host would rewrite, hooks whose
   * run can outlast the host's fixed timeout. `file`/`text`: the file being written (text null: new).
   */
  warnings?(config: ResolvedConfig, at: { file: string; text: string | null; user: boolean; env: Readonly<Record<string, string | undefined>> }): Promise<string[]>;
}

/** A host's config file that holds hookrun's entries among the user's (the `jsonFile` and `tomlFile` setups). */
export interface EntryFileSpec {
  /** The project's config file of this host, relative to the project root (`.gemini/settings.json`). */
  readonly projectFile: string;
  /** The user's config file, relative to the home directory (`.gemini/settings.json`). */
  readonly userFile: string;
  /** Where the map of events lives in that file: `["hooks"]` for most hosts. */
  readonly hooksPath: readonly string[];
  /** See HostSetup.root, exec, walkUp, killAfterMs, blocksOnStartFailure. */
  readonly root: string | null;
  readonly exec?: boolean;
  readonly walkUp?: boolean;
  readonly killAfterMs?: number;
  readonly blocksOnStartFailure?: boolean;
  readonly note?: string;
  /** Top-level keys a file that hookrun creates starts with (`{version: 1}`), besides the hooks map. */
  readonly skeleton?: Readonly<Record<string, unknown>>;
  /** The entries that hand each event of `config` this host fires to hookrun: host event → entries (HostSetup.wanted). */
  entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]>;
  warnings?: HostSetup["warnings"];
}

/** How one file format reads and edits hookrun's entries in a host's config file's text. */
export interface EntryEditor {
  /** hookrun's entries in the text: host event → entries, in file order. */
  installed(text: string, file: string): Record<string, HostEntry[]>;
  /** The text with exactly `wanted` as hookrun's entries (text null: a new file). */
  merge(text: string | null, file: string, wanted: Record<string, HostEntry[]>): string;
  /** The text without hookrun's entries; null when nothing of the user's is left (the file can go). */
  uninstall(text: string, file: string): string | null;
}

/** Where a setup is planned: under `base` (the project root, or HOME with `user`), for `host`. */
export interface SetupPlace {
  base: string;
  user: boolean;
  host: HostAdapter;
}

/** One file a plan writes (`text`) or removes (`text` null). */
export interface SetupChange {
  /** The file as named (what the user is shown). */
  file: string;
  /** Where the bytes go: the symlink's target when `file` is a link (the link stays). */
  target: string;
  text: string | null;
  /** The file's mode when it must be exactly this (a hook script: 0o755). */
  mode?: number;
  /** Why a removed file goes, said beside it: "hookrun's", "it held only hookrun's entries". */
  why?: string;
}

/** What a setup holds now against what is wanted, and the changes that make it so. */
export interface SetupPlan {
  /** The config file or hook folder, as named. */
  where: string;
  /** It exists now. */
  exists: boolean;
  /** The config file's text now (null: absent, or a folder). */
  before: string | null;
  /** hookrun has entries or files there now. */
  installed: boolean;
  /** Names (host events, script files) whose entries are missing, extra or different from what is wanted. */
  stale: string[];
  /** The user's own files where hookrun would write: left alone, and the install refused. */
  foreign: string[];
  changes: SetupChange[];
}

/**
 * How the host runs a hook's command, for `hooks doctor`'s probe (src/prove/doctorFire.ts, src/prove/fireEntry.ts): fire the
 * dispatch entry as the host would, with a synthetic payload, and see whether it reaches hookrun.
 * Each fact comes from the host's contract notes (docs/hosts/<host>.md).
 */
export interface HostProbe {
  /**
   * The argv the command text is appended to (`["/bin/sh", "-c"]`); `env` is the environment the
   * host runs in (Codex runs `$SHELL -lc`). Empty: the command is a file run directly (Cline's scripts).
   */
  shell(env: NodeJS.ProcessEnv): string[];
  /**
   * Variables the host adds to a hook's environment (`CLAUDE_PROJECT_DIR`) for a project at
   * `projectDir`, firing `hostEvent`; `tool`: the host's tool the entry is limited to (entryTool).
   */
  env(projectDir: string, hostEvent: string, tool?: string): Record<string, string>;
  /** The command text as the host passes it to the shell: Gemini substitutes `$GEMINI_PROJECT_DIR` itself. Absent: unchanged. */
  expand?(command: string, projectDir: string): string;
  /** A payload shaped as the host sends it for `hostEvent`: a tool event's call is `tool` (entryTool), else a shell command `true`. */
  payload(hostEvent: string, projectDir: string, tool?: string): Payload;
  /**
   * The host's tool an entry is limited to (agent-code's `tool_name`): the probe fires that entry
   * for a call of that tool, as the host would. Absent, or undefined: a shell call.
   */
  entryTool?(entry: HostEntry): string | undefined;
  /**
   * For a host whose file lists its entries as tables (agent-code's `[[hooks]]`), what the host
   * refuses or ignores in each (by its index in the list), read from the host's own parser.
   */
  tables?(tables: readonly unknown[]): TableProblem[];
  /**
   * A host that refuses a whole file over one unknown key or a handler without `type` (Codex:
   * deny_unknown_fields): the keys it takes at the top and in a handler, and what it does.
   */
  readonly strict?: { readonly rootKeys: readonly string[]; readonly handlerKeys: readonly string[]; readonly why: string };
  /** What is assumed rather than checked (no contract says it), said in the doctor's report. */
  readonly assumed?: string;
  /**
   * The host's off switches: settings in any file the host layers (not only the one install
   * writes) that keep hookrun's entries from running. `read` gives a file's parsed JSON object
   * (null: absent or unreadable); `names` are what hookrun's entries in the host's files go by
   * (each handler's `name`, else its command).
   */
  switches?(where: SwitchPlaces, read: (file: string) => Record<string, unknown> | null, names: readonly string[]): OffSwitch[];
}

/** One entry of a host's list of tables that the host refuses (error) or reads otherwise than its author meant (warning). */
export interface TableProblem {
  index: number;
  level: "error" | "warning";
  what: string;
  fix: string;
}

/** Where a host's settings files are: the project, the home directory, the environment, and `root` for the system-wide ones (`/`). */
export interface SwitchPlaces {
  projectDir: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  root: string;
}

/** A setting that keeps hookrun's entries from running, as `hooks doctor` reports it (an error). */
export interface OffSwitch {
  file: string;
  /** The key's path in the file's JSON, for its line. */
  key: (string | number)[];
  what: string;
  fix: string;
}

/**
 * A host's runtime part: what a `hooks run --host NAME` needs to read the host's payload and
 * answer it (events, tools, read, render, notRun). Each host's is its own module
 * (src/hosts/<host>Run.ts), loaded by the host table (src/hosts/table.ts) for that host alone,
 * and imports no install, import or doctor code (docs/architecture.md).
 */
export interface HostRuntime {
  /** The name on the command line: `hooks run EVENT --host gemini`, `hooks install gemini`. */
  readonly name: string;
  /** The product's name for people: "Gemini CLI". */
  readonly title: string;
  /** Host event name → canonical event name, for every host event hookrun has an event for. */
  readonly events: Readonly<Record<string, string>>;
  /** Host tool name → canonical tool name (Claude's: Bash, Write, Edit, Read, …); others pass unchanged. */
  readonly tools: Readonly<Record<string, string>>;
  /** The unit of the `timeout` in the host's config, and the host's default, in that unit. */
  readonly timeout: { readonly unit: "s" | "ms"; readonly default: number };
  /** Whether `payload` can only have come from this host (for `--host auto`); false when unsure. */
  detect(payload: Payload): boolean;
  /**
   * The payload as hookrun's context: canonical field names and tool names; the host's own
   * names and values kept under `host` (`{name, event, tool_name, …}`) for hooks that need them.
   * `env`: the dispatch's environment, for a host that passes part of an event in variables
   * (agent-code names the tool of pre_tool_use only in `AGENT_CODE_HOOK_TOOL`).
   */
  read(payload: Payload, event: string, env?: Readonly<Record<string, string | undefined>>): HookContext;
  /**
   * The variables of `env` that `read` uses (agent-code's `AGENT_CODE_HOOK_TOOL`, …), for a host
   * that passes part of an event in its environment. The run log records those set, with the
   * payload, when recording is on, and `hooks log --fixture` writes them as the fixture's `env`:
   * a replay reads the same context. Absent: `read` uses the payload alone.
   */
  readonly readEnv?: readonly string[];
  /**
   * The canonical event a payload of the host event `event` maps to really is, when the host fires
   * one of its events for more than one thing (Qwen Code's UserPromptSubmit also fires on each
   * tool-result continuation), or null: none of hookrun's events, nothing runs and the answer is
   * empty. Absent: always `event`.
   */
  route?(payload: Payload, event: string): string | null;
  /**
   * The run's merged result in the host's contract, with the written degradation rules.
   * `hostEvent`: the host's own name of the event that fired, when known (Claude Code's
   * PreSkillShellCommand, read as pre_tool_use, takes its own answer).
   */
  render(result: TriggerResult, hostEvent?: string): HostAnswer;
  /**
   * The answer when the project's hooks did not run (config untrusted or invalid): never a silent
   * fail-open; `forUser` is what the user must be told, `forModel` what the model may be told.
   */
  notRun(event: string, forUser: string, forModel: string): HostAnswer;
  /**
   * The events on which the `notRun` answer reaches the session before anything else happens, so
   * trust is checked there even when no hook of the event would run (src/hosts/runHostEvent.ts).
   * Absent: the start of a session and a submitted prompt.
   */
  readonly announceNotRun?: ReadonlySet<string>;
  /**
   * What the host gets for each thing a hook can say, in words (docs/hosts.md's table beside the
   * generated answers): where the host lacks it, the degradation rule.
   */
  readonly degrade: Readonly<Partial<Record<"ask" | "defer" | "updated_input" | "context" | "feedback" | "followup" | "stop" | "notice", string>>>;
}

/**
 * A host's whole adapter: its runtime part plus the optional parts only some commands use
 * (`hooks install`, `import`, `doctor`, `validate`'s staleness check), in src/hosts/<host>.ts.
 */
export interface HostAdapter extends HostRuntime {
  /** How the host runs a hook (`hooks doctor` fires its entries so); absent: the doctor does not fire them. */
  readonly probe?: HostProbe;
  /** How `hooks install` hands the host's events to hookrun; absent for a host hookrun does not install into. */
  readonly setup?: HostSetup;
  /**
   * Hooks of the host's config file (parsed JSON) → hooks.yaml (`hooks import HOST`); `existing`
   * are the hooks already in the target config, so a second import adds nothing twice.
   */
  import?(settings: unknown, existing: ExistingHook[]): HookImport;
}
