import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../config/loadConfig.js";
import type { ResolvedConfig } from "../config/types.js";
import { WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { createRunner } from "../runner/createRunner.js";
import type { Runner } from "../runner/types.js";
import { trustCommand } from "./notRunWords.js";
import { failedAnswer, runHostEvent } from "./runHostEvent.js";
import type { HostAdapter, HostAnswer, HostSetup, Payload, SetupPlan } from "./types.js";

/**
 * What the hosts that load code instead of running commands share (opencode's plugins): the one
 * file `hooks install` writes into the host's plugin folder (`pluginFile`), and the dispatcher
 * that file's code calls in the agent's own process (`inProcessDispatcher`): each event through
 * the one path to its answer (src/hosts/runHostEvent.ts), over one warm runner kept for the
 * session. docs/hosts/opencode.md describes the opencode bridge built on it.
 */

/** The one file of hookrun's code in a host's plugin folder. */
export interface PluginFileSpec {
  /** The file, relative to the project root (`.opencode/plugins/hookrun.js`). */
  readonly projectFile: string;
  /** The file, relative to the home directory (`.config/opencode/plugins/hookrun.js`). */
  readonly userFile: string;
  /** The folder whose presence says a project uses the host (`.opencode`). */
  readonly folder: string;
  /** The file's text: the same for every config (the code reads hooks.yaml when it runs). */
  readonly text: string;
  /** The first line every version of hookrun's file starts with: a file without it is the user's own. */
  readonly mark: string;
  readonly note?: string;
  warnings?: HostSetup["warnings"];
}

/** The name under which a plugin file's setup lists its one file (`installed`, `stale`). */
const fileKey = (spec: PluginFileSpec): string => path.basename(spec.projectFile);

/** A plugin file's text now: null when absent; a WriteError when it cannot be read. */
function readPlugin(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    return readBoundedText(file, READ_LIMITS.config, { what: "plugin file" });
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

function targetOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * A host whose hookrun part is one plugin file of hookrun's code: written when missing or of
 * another version, never over a file that is not hookrun's (its first line is not `mark`), removed
 * by `hooks uninstall`. `wanted` is `{file name: text}` whatever the config: the code reads
 * hooks.yaml itself on every event.
 */
export function pluginFile(spec: PluginFileSpec): HostSetup {
  const place = (base: string, user: boolean) => path.join(base, user ? spec.userFile : spec.projectFile);
  const key = fileKey(spec);
  const own = (text: string | null): boolean => text?.startsWith(`${spec.mark}\n`) === true;
  return {
    kind: "plugin-file",
    inProcess: true,
    folder: spec.folder,
    summary: `\`${spec.projectFile}\` (a plugin that runs hookrun in process)`,
    root: null,
    note: spec.note,
    warnings: spec.warnings,
    place,
    wanted: () => ({ [key]: spec.text }),
    async plan(wanted, at): Promise<SetupPlan> {
      const file = place(at.base, at.user);
      const text = readPlugin(file);
      const want = wanted[key];
      const foreign = text !== null && !own(text);
      const stale = foreign || text === want ? [] : [key];
      return {
        where: file,
        exists: text !== null,
        before: text,
        installed: own(text),
        stale: foreign ? [key] : stale,
        foreign: foreign ? [file] : [],
        changes: foreign || text === want || typeof want !== "string" ? [] : [{ file, target: targetOf(file), text: want }],
      };
    },
    async removal(at): Promise<SetupPlan> {
      const file = place(at.base, at.user);
      const text = readPlugin(file);
      const mine = own(text);
      return {
        where: file,
        exists: text !== null,
        before: text,
        installed: mine,
        stale: mine ? [key] : [],
        foreign: [],
        changes: mine ? [{ file, target: targetOf(file), text: null, why: "hookrun's plugin" }] : [],
      };
    },
    async installed(base, user) {
      const file = place(base, user);
      return own(readPlugin(file)) ? { [key]: file } : {};
    },
  };
}

/** Where an in-process dispatcher runs: the project directory the agent works in, and its environment. */
export interface InProcessOptions {
  /** The agent's working directory: hooks.yaml is found from here up. */
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** One host's events answered in the agent's process; `close` ends the hooks still running. */
export interface InProcessDispatcher {
  /** The host's answer to one event (`event`: the host's name for it), as `hooks run --host` would print it. */
  dispatch(event: string, payload: Payload): Promise<HostAnswer>;
  close(): Promise<void>;
}

/**
 * Events of `host` answered in this process: the config is loaded again on each event (an edit
 * of hooks.yaml applies at once, and its trust is checked on each), and one runner is kept (async
 * hooks run in memory and their results reach a later event's answer). A last trusted version
 * runs on a runner of its own. Hooks still running when the process exits are killed with it. An error of hookrun's own never throws: on a gate event it blocks
 * (a guard that cannot run never opens), elsewhere it is the answer's stderr.
 */
export function inProcessDispatcher(host: HostAdapter, options: InProcessOptions): InProcessDispatcher {
  const env = options.env ?? process.env;
  const cwd = options.cwd;
  let runner: Runner | null = null;
  // The agent may exit while hooks run (opencode does not wait for its bus events' callbacks):
  // their process groups are signalled as it exits (close() signals before its first await), so
  // none outlives it. Nothing async runs after "exit".
  const onExit = (): void => void runner?.close({ graceMs: 0 });
  process.once("exit", onExit);
  const load = (overrides?: Record<string, string>): Promise<ResolvedConfig> => loadConfig({ cwd, env, overrides });
  return {
    async dispatch(event, payload) {
      let own: Runner | null = null;
      let lastTrusted: ResolvedConfig | null = null;
      try {
        const outcome = await runHostEvent({
          host,
          event,
          payload,
          env,
          cwd,
          config: async (overrides) => {
            const config = await load(overrides);
            if (overrides) lastTrusted = config;
            return config;
          },
          runner: (config) => {
            if (config === lastTrusted) {
              own = createRunner(config, { env, cwd, trust: "checked" });
              return own;
            }
            if (runner) runner.setConfig(config);
            else runner = createRunner(config, { env, cwd, trust: "checked" });
            return runner;
          },
          trustCommand: (projectDir) => trustCommand({}, projectDir),
        });
        if (outcome.kind === "prepared") return { stdout: "", stderr: "", exitCode: 0 };
        return outcome.answer ?? { stdout: "", stderr: "", exitCode: 0 };
      } catch (error) {
        const canonical = Object.hasOwn(host.events, event) ? host.events[event] : event;
        if (canonical === "pre_tool_use" || canonical === "user_prompt_submit") return failedAnswer(host, canonical, error);
        return { stdout: "", stderr: `hookrun failed: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
      } finally {
        await (own as Runner | null)?.close({ graceMs: 0 });
      }
    },
    async close() {
      process.off("exit", onExit);
      await runner?.close();
      runner = null;
    },
  };
}
