import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../config/loadConfig.js";
import type { ResolvedConfig } from "../config/types.js";
import { createRunner } from "../runner/createRunner.js";
import type { Runner } from "../runner/types.js";
import { trustCommand } from "./notRunWords.js";
import { failedAnswer, type HostEventOutcome, runHostEvent } from "./runHostEvent.js";
import { hostByName } from "./adapters.js";
import type { HostAdapter, HostAnswer, Payload } from "./types.js";

/**
 * A host's events fired in the host's own process, for the agents that load extensions or
 * plugins instead of running commands (pi's extension, opencode's plugin: docs/hosts/pi.md,
 * docs/hosts/opencode.md). The file `hooks install` writes (src/hosts/inProcessFile.ts) calls
 * this once, then `fire` or `dispatch` for each event. Every event takes the one path to its
 * answer (runHostEvent): the config read as it is now (a `hooks.yaml` edit counts at the next
 * event; reading it costs about a millisecond), trust checked, the last trusted version run while
 * a change is not reviewed, the run log written. One runner is kept for the session, the last
 * trusted version included, so the results of async hooks are delivered at a later event as under
 * every host; they run in detached workers, as `hooks run` starts them (in memory when run from
 * the sources). Each hook's own timeout kills its process group, so a hanging hook never hangs a
 * host that has no timeouts of its own; hooks still running when the agent's process exits are
 * killed with it (opencode does not wait for its bus events' callbacks).
 */
export interface InProcessHost {
  /** One event of the host (its own name) with its payload: the outcome, whose `answer` the extension applies. Throws when hookrun itself fails. */
  fire(event: string, payload: Payload): Promise<HostEventOutcome>;
  /**
   * The host's answer to one event, as `hooks run --host` would print it; never throws: when
   * hookrun itself fails, a gate event (before a tool, a prompt) is blocked, since a guard that
   * cannot run never opens, and elsewhere the failure is the answer's stderr.
   */
  dispatch(event: string, payload: Payload): Promise<HostAnswer>;
  /** The session ended: running hooks are killed (async ones after a short grace). */
  close(): Promise<void>;
}

export interface InProcessHostOptions {
  /** The host's name in hookrun's table (`pi`, `opencode`), or its adapter. */
  host: string | HostAdapter;
  /** The session's working directory: hooks.yaml is looked for from here up. */
  cwd: string;
  /** The environment hooks run with (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** The CLI of this build, which starts detached async workers; absent when run from the sources. */
function workerEntry(): string | null {
  const entry = fileURLToPath(new URL("../bin/hooks.js", import.meta.url));
  return existsSync(entry) ? entry : null;
}

/** The runners of the sessions open in this process, killed as it exits. */
const open = new Set<Runner>();
let exitHooked = false;

/**
 * Signal the process groups of every open runner's hooks as the process exits: close() signals
 * before its first await, and nothing async runs after "exit". Detached async workers outlive it,
 * each bounded by its own timeout, as they outlive `hooks run`.
 */
function killOnExit(runner: Runner): void {
  open.add(runner);
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const r of open) void r.close({ graceMs: 0 });
  });
}

const SILENT: HostAnswer = Object.freeze({ stdout: "", stderr: "", exitCode: 0 });

export function createInProcessHost(options: InProcessHostOptions): InProcessHost {
  const host = typeof options.host === "string" ? hostByName(options.host) : options.host;
  if (!host) throw new TypeError(`no host "${String(options.host)}" in hookrun's host table`);
  const env = options.env ?? process.env;
  const { cwd } = options;
  const entry = workerEntry();
  let runner: Runner | null = null;
  const runnerFor = (config: ResolvedConfig): Runner => {
    if (runner) runner.setConfig(config);
    else {
      runner = createRunner(config, {
        env,
        cwd,
        asyncMode: entry ? "detached" : "memory",
        asyncWorker: entry ? [process.execPath, entry, "__async-worker"] : undefined,
      });
      killOnExit(runner);
    }
    return runner;
  };
  const fire = (event: string, payload: Payload): Promise<HostEventOutcome> =>
    runHostEvent({
      host,
      event,
      payload,
      env,
      cwd,
      config: (overrides) => loadConfig({ cwd, env, overrides }),
      runner: runnerFor,
      trustCommand: (projectDir) => trustCommand({ entry: entry ?? undefined }, projectDir),
    });
  return {
    fire,
    async dispatch(event, payload) {
      try {
        const outcome = await fire(event, payload);
        return outcome.kind === "prepared" ? SILENT : (outcome.answer ?? SILENT);
      } catch (error) {
        const canonical = Object.hasOwn(host.events, event) ? host.events[event] : event;
        if (canonical === "pre_tool_use" || canonical === "user_prompt_submit") return failedAnswer(host, canonical, error);
        return { stdout: "", stderr: `hookrun failed: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
      }
    },
    async close() {
      if (runner) open.delete(runner);
      await runner?.close();
      runner = null;
    },
  };
}
