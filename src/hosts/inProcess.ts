import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../config/loadConfig.js";
import type { ResolvedConfig } from "../config/types.js";
import { createRunner } from "../runner/createRunner.js";
import type { Runner } from "../runner/types.js";
import { trustCommand } from "./notRunWords.js";
import { type HostEventOutcome, runHostEvent } from "./runHostEvent.js";
import { hostByName } from "./table.js";
import type { HostAdapter, Payload } from "./types.js";

/**
 * A host's events fired in the host's own process (docs/hosts/pi.md): for an agent that loads
 * extensions or plugins instead of running commands, the extension `hooks install` writes calls
 * this once and then `fire` for each event. Every event takes the one path to its answer
 * (runHostEvent): the config read as it is now (a `hooks.yaml` edit counts at the next event;
 * reading it costs about a millisecond), trust checked, the last trusted version run while a
 * change is not reviewed, the run log written. One runner is kept for the session, so the
 * results of async hooks are delivered at a later event as under every host; they run in detached
 * workers, as `hooks run` starts them. Each hook's own timeout kills its process group, so a
 * hanging hook never hangs a host that has no timeouts of its own.
 */
export interface InProcessHost {
  /** One event of the host (its own name) with its payload: the outcome, whose `answer` the extension applies. */
  fire(event: string, payload: Payload): Promise<HostEventOutcome>;
  /** The session ended: running hooks are killed (async ones after a short grace). */
  close(): Promise<void>;
}

export interface InProcessHostOptions {
  /** The host's name in hookrun's table (`pi`), or its adapter. */
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

export function createInProcessHost(options: InProcessHostOptions): InProcessHost {
  const host = typeof options.host === "string" ? hostByName(options.host) : options.host;
  if (!host) throw new TypeError(`no host "${String(options.host)}" in hookrun's host table`);
  const env = options.env ?? process.env;
  const { cwd } = options;
  const entry = workerEntry();
  let runner: Runner | null = null;
  const runnerFor = (config: ResolvedConfig): Runner => {
    if (runner) runner.setConfig(config);
    else
      runner = createRunner(config, {
        env,
        cwd,
        asyncMode: entry ? "detached" : "memory",
        asyncWorker: entry ? [process.execPath, entry, "__async-worker"] : undefined,
      });
    return runner;
  };
  return {
    fire: (event, payload) =>
      runHostEvent({
        host,
        event,
        payload,
        env,
        cwd,
        config: (overrides) => loadConfig({ cwd, env, overrides }),
        runner: runnerFor,
        trustCommand: (projectDir) => trustCommand({ entry: entry ?? undefined }, projectDir),
      }),
    close: async () => {
      await runner?.close();
      runner = null;
    },
  };
}
