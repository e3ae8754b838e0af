import { chmodSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";

// Readers (editors, `hooks serve`, a concurrent run) must see the old file or the new one, never half.
export function writeFileAtomic(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  let mode: number | null = null;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    mode = null;
  }
  try {
    writeFileSync(tmp, text, { flag: "wx" });
    if (mode !== null) chmodSync(tmp, mode);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new WriteError(`cannot write ${file}: ${(error as Error).message}; check the directory is writable`, file, { cause: error });
  }
}
