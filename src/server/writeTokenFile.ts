import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Write a fresh random token (32 bytes, hex) to `file`, mode 0600, atomically: a reader sees the
 * old token or the new one, never a partial file or one readable by others. Not writeFileAtomic:
 * that keeps an existing file's mode, and a token must be 0600 whatever was there before.
 */
export function writeTokenFile(file: string): string {
  const token = randomBytes(32).toString("hex");
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, token + "\n", { mode: 0o600, flag: "wx" });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  return token;
}
