import { lstatSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors.js";
import os from "node:os";
import type { ResolvedConfig } from "./types.js";

export const PROJECT_FILE_NAMES = ["hooks.yaml", "hooks.yml", "hooks.json"] as const;
export const LOCAL_FILE_NAMES = ["hooks.local.yaml", "hooks.local.yml", "hooks.local.json"] as const;

/**
 * The one config file of `names` in `dir`, or null; two or more is a config error naming them.
 * `extra` holds paths that count as existing (texts loadConfig is given instead of the disk).
 * A candidate is anything with that name (lstat, not stat): a dangling symlink is an error, not
 * "no config here", else the walk up would quietly use a parent directory's config instead.
 */
export function configCandidate(dir: string, names: readonly string[], extra?: ReadonlySet<string>): string | null {
  const found = names.map((n) => path.join(dir, n)).filter((f) => extra?.has(f) || presentOnDisk(f));
  if (found.length > 1) {
    const list = found.map((f) => path.basename(f)).join(" and ");
    throw new ConfigError(
      `two config files in ${dir}: ${list}; keep one (move its hooks into the other) and delete the rest`,
      found.map((f, i) => ({
        file: f,
        line: 1,
        col: 1,
        severity: "error" as const,
        message: `${i === 0 ? "this file and" : "this file competes with"} ${found.filter((g) => g !== f).join(" and ")} are both config files of ${dir}: keep one`,
      })),
    );
  }
  return found[0] ?? null;
}

/** Whether `file` is there at all; throws ConfigError for a symlink whose target is missing. */
export function presentOnDisk(file: string): boolean {
  let link: ReturnType<typeof lstatSync>;
  try {
    link = lstatSync(file, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR, EACCES: not there as far as discovery can tell (as existsSync said before).
    return false;
  }
  if (!link) return false;
  if (link.isSymbolicLink() && !statSync(file, { throwIfNoEntry: false })) throw danglingLink(file);
  return true;
}

function danglingLink(file: string): ConfigError {
  let target = "?";
  try {
    target = readlinkSync(file);
  } catch {
    // Unreadable link: the message still names the link.
  }
  return new ConfigError(`config file ${file} is a symlink to ${target}, which does not exist: fix the link or delete it`, [
    { file, line: 1, col: 1, severity: "error", message: `this is a symlink to ${target}, which does not exist: fix the link or delete it` },
  ]);
}

export interface FindProjectFileOptions {
  /** Where the walk up starts (default process.cwd()). */
  cwd?: string;
  /** A project file named directly (`--config`): no walk. */
  configPath?: string;
  /** For HOOKS_CONFIG (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Paths that count as existing although they are not on disk (yet). */
  extra?: ReadonlySet<string>;
}

/**
 * The project config file (docs/configuration.md#files-and-layers): `configPath` or HOOKS_CONFIG when given (it must exist),
 * else the first hooks.{yaml,yml,json} walking up from cwd; null when there is none.
 * Throws ConfigError when a directory holds two candidates or a named file is missing (a file
 * that is there but not a regular file is refused when it is read, with what it is).
 */
export function findProjectFile(options: FindProjectFileOptions = {}): string | null {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const explicit = options.configPath ?? (env.HOOKS_CONFIG || undefined);
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    if (!options.extra?.has(file) && !presentOnDisk(file)) {
      const from = options.configPath ? "--config" : "HOOKS_CONFIG";
      throw new ConfigError(`config file ${file} (from ${from}) does not exist: fix the path or run \`hooks init\``, [
        { file, line: 1, col: 1, severity: "error", message: `this file (named by ${from}) does not exist` },
      ]);
    }
    return file;
  }
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const found = configCandidate(dir, PROJECT_FILE_NAMES, options.extra);
    if (found) return found;
    if (path.dirname(dir) === dir) return null;
  }
}

/** The user layer: $XDG_CONFIG_HOME/hookrun/hooks.{yaml,yml,json} (default ~/.config), or null. */
export function findUserFile(env: NodeJS.ProcessEnv = process.env, extra?: ReadonlySet<string>): string | null {
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(env.HOME || os.homedir(), ".config");
  return configCandidate(path.join(base, "hookrun"), PROJECT_FILE_NAMES, extra);
}

/** The local layer beside a project file (hooks.local.{yaml,yml,json}), or null when absent. */
export function findLocalFile(projectFile: string, extra?: ReadonlySet<string>): string | null {
  return configCandidate(path.dirname(projectFile), LOCAL_FILE_NAMES, extra);
}

/** Where a new local layer is created beside a project file. */
export function defaultLocalFile(projectFile: string): string {
  return path.join(path.dirname(projectFile), "hooks.local.yaml");
}

/** For commands that need config (validate, list, enable, disable): none found is a config error. */
export function assertConfigFound(config: ResolvedConfig, cwd: string): void {
  if (config.files.length > 0) return;
  throw new ConfigError(`no config found: no hooks.yaml, hooks.yml or hooks.json in ${cwd} or its parents; run \`hooks init\` to create one, or name one with --config`);
}
