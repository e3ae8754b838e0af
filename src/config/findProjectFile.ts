import path from "node:path";
import { ConfigError } from "../errors.js";
import { configCandidate, presentOnDisk, PROJECT_FILE_NAMES } from "./configCandidates.js";

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
 * The project config file (SPEC §2.1): `configPath` or HOOKS_CONFIG when given (it must exist),
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
