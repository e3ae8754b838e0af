import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import { loadConfig, type LoadConfigOptions } from "../config/loadConfig.js";
import type { ResolvedConfig } from "../config/types.js";
import { ConfigError } from "../errors.js";
import { configWatchScope, type ConfigWatchScope } from "./configWatchScope.js";

export interface WatchConfigOptions extends LoadConfigOptions {
  /** Quiet time after the last file event before reloading (default 100 ms). */
  debounceMs?: number;
  /** Called after each successful reload (not for the initial load). */
  onReload?: (config: ResolvedConfig) => void;
  /** Called when a load fails; the last good config stays current. */
  onError?: (error: ConfigError) => void;
}

export interface ConfigWatcher {
  /** The last config that loaded without error; null until one has. */
  readonly current: ResolvedConfig | null;
  /** The error of the latest load attempt, null once a load succeeds again. */
  readonly error: ConfigError | null;
  /** Resolves once the files are watched and the initial load has been attempted. */
  readonly ready: Promise<void>;
  /** Reload now; resolves to the new config, or rejects with its ConfigError (the old one stays). */
  reload(): Promise<ResolvedConfig>;
  /** Stop watching and release every file watcher. */
  close(): Promise<void>;
}

function asConfigError(error: unknown): ConfigError {
  if (error instanceof ConfigError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ConfigError(`cannot load the config: ${message}`, [], { cause: error });
}

function ancestorsOf(scope: ConfigWatchScope): Set<string> {
  const dirs = new Set<string>();
  for (let dir of scope.keys()) {
    for (; !dirs.has(dir); dir = path.dirname(dir)) {
      dirs.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  return dirs;
}

/**
 * Keep a config loaded and reload it when any layer changes on disk (docs/configuration.md): editors'
 * atomic-rename and backup-rename saves, delete and recreate, truncate-then-write, and files
 * that do not exist yet. Directories are watched, not files, and events filtered by name.
 */
export function watchConfig(options: WatchConfigOptions = {}): ConfigWatcher {
  const debounceMs = options.debounceMs ?? 100;
  const loadOptions: LoadConfigOptions = { cwd: options.cwd, configPath: options.configPath, userConfig: options.userConfig, env: options.env };
  let current: ResolvedConfig | null = null;
  let lastError: ConfigError | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let initial = true;
  const { watcher, rescope } = watchScope(loadOptions);

  const reloader = serialReloader(async () => {
    if (closed) return;
    const wasInitial = initial;
    initial = false;
    try {
      const config = await loadConfig(loadOptions);
      if (closed) return;
      current = config;
      lastError = null;
      if (!wasInitial) options.onReload?.(config);
    } catch (error) {
      if (closed) return;
      lastError = asConfigError(error);
      options.onError?.(lastError);
    }
  });

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reloader.request(), debounceMs);
  };

  watcher.on("all", () => {
    if (closed) return;
    rescope();
    schedule();
  });
  watcher.on("error", (error) => options.onError?.(asConfigError(error)));

  let releaseReady: () => void = () => {};
  // close() before chokidar is ready must not leave `ready` pending forever.
  const watching = new Promise<void>((resolve) => {
    releaseReady = resolve;
    watcher.once("ready", () => resolve());
  });
  const ready = watching.then(() => reloader.request());

  return {
    get current() {
      return current;
    },
    get error() {
      return lastError;
    },
    ready,
    async reload() {
      await ready;
      clearTimeout(timer);
      await reloader.request();
      if (lastError) throw lastError;
      return current as ResolvedConfig;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      releaseReady();
      await watcher.close();
      await reloader.idle();
    },
  };
}

/**
 * A watcher of the config's directories (not its files) and the names that matter in them; its
 * `rescope` follows a walk-up scope that a new directory or project file moved.
 */
function watchScope(loadOptions: LoadConfigOptions): { watcher: FSWatcher; rescope: () => void } {
  let scope: ConfigWatchScope = configWatchScope(loadOptions);
  // Only the watched directories, their ancestors (chokidar drops a watched directory that it
  // sees ignored as a child of another one) and the config names inside them get through.
  let chain = ancestorsOf(scope);
  const ignored = (p: string): boolean => {
    if (chain.has(p)) return false;
    const names = scope.get(path.dirname(p));
    return !names?.has(path.basename(p));
  };

  const watcher: FSWatcher = watch([...scope.keys()], { ignoreInitial: true, depth: 0, atomic: true, ignored });

  // A new directory or project file can move the scope (walk-up), so recompute it on every
  // event. Directories are only ever added: chokidar's unwatch(dir) also ignores everything
  // below it, which would blind us to a watched subdirectory; `ignored` filters the rest.
  const watched = new Set(scope.keys());
  const rescope = (): void => {
    scope = configWatchScope(loadOptions);
    chain = ancestorsOf(scope);
    const added = [...scope.keys()].filter((d) => !watched.has(d));
    for (const d of added) watched.add(d);
    if (added.length) watcher.add(added);
  };
  return { watcher, rescope };
}

/**
 * Runs `task` one at a time: a request while it runs schedules exactly one more run, so a
 * burst of changes during a slow reload costs one extra reload, not one per change.
 */
export interface SerialReloader {
  /** Ask for a run; resolves when a run that started after this call has finished. */
  request(): Promise<void>;
  /** Resolves when nothing runs or is queued. */
  idle(): Promise<void>;
}

export function serialReloader(task: () => Promise<void>): SerialReloader {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const start = (): Promise<void> => {
    running = (async () => {
      try {
        await task();
      } finally {
        running = null;
      }
    })();
    return running;
  };

  return {
    request() {
      if (!running) return start();
      // Coalesce: every request during this run waits for the same single follow-up run.
      queued ??= running.then(() => {
        queued = null;
        return start();
      });
      return queued;
    },
    async idle() {
      while (running || queued) await (queued ?? running);
    },
  };
}
