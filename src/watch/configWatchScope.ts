import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { LOCAL_FILE_NAMES as LOCAL_NAMES, PROJECT_FILE_NAMES as NAMES } from "../config/discover.js";

export interface ConfigWatchScopeOptions {
  cwd?: string;
  configPath?: string;
  userConfig?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Directories to watch, each with the base names inside it that matter. */
export type ConfigWatchScope = Map<string, Set<string>>;

function want(scope: ConfigWatchScope, dir: string, names: Iterable<string>): void {
  const set = scope.get(dir) ?? new Set<string>();
  for (const n of names) set.add(n);
  scope.set(dir, set);
}

/**
 * Where a config file could appear or change, given the discovery rules:
 * - the user dir ($XDG_CONFIG_HOME/hookrun), unless the user layer is off;
 * - with an explicit config path: its directory (that file and hooks.local.*);
 * - else every directory from cwd up to the one holding the current project file (a new file
 *   nearer cwd would take over), or up to (not including) the filesystem root when there is
 *   none, plus
 *   hooks.local.* beside the project file.
 * A directory that does not exist yet is replaced by its nearest existing ancestor, watching
 * for the next path component, so the scope is recomputed once it is created.
 */
export function configWatchScope(options: ConfigWatchScopeOptions = {}): ConfigWatchScope {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const wanted: ConfigWatchScope = new Map();
  if (options.userConfig !== false) {
    const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(env.HOME || os.homedir(), ".config");
    want(wanted, path.join(base, "hookrun"), NAMES);
  }
  const explicit = options.configPath ?? (env.HOOKS_CONFIG || undefined);
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    want(wanted, path.dirname(file), [path.basename(file), ...LOCAL_NAMES]);
  } else {
    for (let dir = cwd; ; dir = path.dirname(dir)) {
      if (path.dirname(dir) === dir) break; // chokidar cannot watch "/" (it reports everything unlinked)
      want(wanted, dir, NAMES);
      if (NAMES.some((n) => existsSync(path.join(dir, n)))) {
        want(wanted, dir, LOCAL_NAMES);
        break;
      }
    }
  }
  const scope: ConfigWatchScope = new Map();
  for (const [dir, names] of wanted) {
    let at = dir;
    let child: string | null = null;
    while (!existsSync(at) && path.dirname(path.dirname(at)) !== path.dirname(at)) {
      child = path.basename(at);
      at = path.dirname(at);
    }
    want(scope, at, child === null ? names : [child]);
  }
  return scope;
}
