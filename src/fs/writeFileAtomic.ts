import { nodeCrypto } from "../crypto/nodeCrypto.js";
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";

/**
 * Replace `file` with `data` so that readers see the old or the new content, never a mix:
 * a temp file in the same directory, fsync, rename over, fsync the directory. The original's
 * mode is kept (new files get `mode`, default 0644), unless `force`: then the file gets `mode`
 * whatever was there before (a secret must not inherit a readable mode), from its first byte.
 */
export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o644, options: { force?: boolean } = {}): void {
  let keepMode = mode;
  if (!options.force) {
    try {
      keepMode = statSync(file).mode & 0o7777;
    } catch {
      // a new file
    }
  }
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString("hex")}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, "wx", keepMode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new WriteError(`cannot write ${file}: cannot create a file in ${dir} (${code}); make the directory writable`, file, { cause: error });
  }
  try {
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(tmp, keepMode); // open()'s mode is filtered by the umask
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created or already renamed
    }
    throw new WriteError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, file, { cause: error });
  }
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // some filesystems refuse fsync on a directory; the rename itself is still atomic
  }
}
