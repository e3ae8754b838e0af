import { chmodSync, closeSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import fs from "node:fs";
import { nodeCrypto } from "./crypto.js";
import { WriteError } from "../errors.js";

/**
 * Replace `file` with `data` so that readers see the old or the new content, never a mix:
 * a temp file in the same directory, fsync, rename over, fsync the directory. The original's
 * mode is kept (new files get `mode`, default 0644), unless `exactMode` asks for `mode` always.
 */
export function writeFileAtomic(file: string, data: string | Buffer, mode = 0o644, { exactMode = false }: { exactMode?: boolean } = {}): void {
  let keepMode = mode;
  try {
    if (!exactMode) keepMode = statSync(file).mode & 0o7777;
  } catch {
    // a new file
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

/**
 * Write JSON so that readers see the old state or the whole new file, never a prefix, even after
 * a crash (writeFileAtomic), private to the user (0600). Creates the directory again if a
 * concurrent cleanup removed it meanwhile.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeInPrivateDir(file, `${JSON.stringify(value)}\n`, false);
}

/**
 * A secret (the server's token): written atomically into a 0700 directory, and mode 0600 whatever
 * mode the file it replaces had, so no reader ever sees a partial or world-readable secret.
 */
export function writePrivateFileAtomic(file: string, data: string): void {
  writeInPrivateDir(file, data, true);
}

function writeInPrivateDir(file: string, data: string, exactMode: boolean): void {
  const dir = path.dirname(file);
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(file, data, 0o600, { exactMode });
      return;
    } catch (error) {
      const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
      if (cause?.code === "ENOENT" && attempt < 5) continue;
      throw error;
    }
  }
}
