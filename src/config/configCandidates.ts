import { lstatSync, readlinkSync, statSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors.js";

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
  let link;
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
