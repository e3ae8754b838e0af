import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import path from "node:path";
import { withFileLock } from "../fs/withFileLock.js";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";
import { ensureStateDir, stateDir } from "../fs/stateDir.js";

/** trust.json: absolute config file path → sha256 of the bytes that were reviewed. */
export interface TrustStore {
  version: 1;
  files: Record<string, string>;
}

export function trustStorePath(dir: string): string {
  return path.join(dir, "trust.json");
}

/**
 * The recorded hashes; a missing or unreadable store trusts nothing. Whoever can write the store
 * decides what runs, so a state dir others can write is refused (StateDirError) before it is read,
 * the read is bounded and never blocks, and only well-formed entries count.
 */
export function readTrustStore(dir: string = stateDir()): TrustStore {
  ensureStateDir(dir, { create: false });
  const files: Record<string, string> = {};
  try {
    const data = JSON.parse(readBoundedText(trustStorePath(dir), READ_LIMITS.state, { what: "trust store" })) as Partial<TrustStore> | null;
    if (data && typeof data.files === "object" && data.files !== null && !Array.isArray(data.files)) {
      for (const [file, hash] of Object.entries(data.files)) if (path.isAbsolute(file) && typeof hash === "string" && /^[0-9a-f]{64}$/.test(hash)) files[file] = hash;
    }
  } catch {
    // no store yet, or one that is not a regular file, too large or not JSON: nothing is trusted
  }
  return { version: 1, files };
}

/** Read-modify-write the store under its lock, atomically, so concurrent commands keep each other's entries. */
export async function updateTrustStore(dir: string, change: (files: Record<string, string>) => void): Promise<void> {
  // Created 0700, or refused when others could write there (StateDirError).
  ensureStateDir(dir);
  const file = trustStorePath(dir);
  await withFileLock(file, () => {
    const store = readTrustStore(dir);
    change(store.files);
    writeFileAtomic(file, JSON.stringify(store, null, 2) + "\n", 0o600);
  });
}
