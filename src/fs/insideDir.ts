import { realpathSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";

/**
 * Where a write to `file` really lands: its real path, or, while it does not exist yet, the real
 * path of its nearest existing folder with the rest appended. Symlinks on the way are followed as
 * the write would follow them.
 */
export function realDestination(file: string): string {
  const rest: string[] = [];
  let at = path.resolve(file);
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return path.resolve(file);
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * Refuses a write or removal of `file` that a symlink takes outside `base` (the project, or the
 * home directory for `--user`): a cloned repository's `.claude` linked to `~/.claude`, or its
 * `.gitignore` to `~/.bashrc`, must not make hookrun edit the user's own files
 * (docs/limits.md#writes-stay-in-the-project). Symlinks that stay inside are followed.
 */
export function assertInside(base: string, file: string, fix: string): void {
  const real = realDestination(file);
  const root = realDestination(base);
  const rel = path.relative(root, real);
  if (rel === "" || rel.startsWith(`..${path.sep}`) || rel === ".." || path.isAbsolute(rel))
    throw new WriteError(`refusing to write ${file}: a symlink takes it to ${real}, outside ${root}; ${fix}; nothing was written`, file);
}
