import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Write JSON so that readers see the old state or the whole new file, never a prefix, even after
 * a crash: a hidden temp file in the same directory, fsync, rename over the target, fsync the
 * directory. Creates the directory (again, if a concurrent cleanup removed it meanwhile).
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const dir = path.dirname(file);
  const data = JSON.stringify(value) + "\n";
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const fd = fs.openSync(tmp, "wx", 0o600);
      try {
        fs.writeFileSync(fd, data);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
      break;
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && attempt < 5) continue;
      throw error;
    }
  }
  fsyncDir(dir);
}

// Make the rename itself durable; some filesystems refuse to open directories, which is fine.
function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // not supported here: the rename is still atomic, only its durability is weaker
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
