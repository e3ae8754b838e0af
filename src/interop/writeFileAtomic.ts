import { chmodSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WriteError } from "../errors.js";

/**
 * Write through a temp file beside the target, then rename: readers (editors, `hooks serve`, a
 * concurrent run) see the old file or the new one, never half. `check` gets the temp file's path
 * (same directory and extension, so relative paths resolve alike) and may throw to cancel.
 */
export async function writeFileAtomic(file: string, text: string, check?: (tmp: string) => Promise<void>): Promise<void> {
  const ext = path.extname(file);
  const tmp = path.join(path.dirname(file), `.${path.basename(file, ext)}.${process.pid}.${Date.now()}.tmp${ext}`);
  let mode: number | null = null;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    mode = null;
  }
  try {
    writeFileSync(tmp, text, { flag: "wx" });
    if (mode !== null) chmodSync(tmp, mode);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new WriteError(`cannot write ${file}: ${(error as Error).message}; check the directory is writable`, file, { cause: error });
  }
  try {
    await check?.(tmp);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    if (error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("E")) {
      throw new WriteError(`cannot write ${file}: ${error.message}; check the directory is writable`, file, { cause: error });
    }
    throw error;
  }
}
