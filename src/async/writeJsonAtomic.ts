import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";

/**
 * Write JSON so that readers see the old state or the whole new file, never a prefix, even after
 * a crash (writeFileAtomic), private to the user (0600). Creates the directory again if a
 * concurrent cleanup removed it meanwhile.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const dir = path.dirname(file);
  const data = JSON.stringify(value) + "\n";
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileAtomic(file, data, 0o600);
      return;
    } catch (error) {
      const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
      if (cause?.code === "ENOENT" && attempt < 5) continue;
      throw error;
    }
  }
}
