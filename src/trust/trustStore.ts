import { readFileSync } from "node:fs";
import path from "node:path";
import { withFileLock } from "../fs/withFileLock.js";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";
import { ensureStateDir, stateDir } from "../state/stateDir.js";

/** trust.json: absolute config file path → sha256 of the bytes that were reviewed. */
export interface TrustStore {
  version: 1;
  files: Record<string, string>;
}

export function trustStorePath(dir: string): string {
  return path.join(dir, "trust.json");
}

/** The recorded hashes; a missing or unreadable store trusts nothing. */
export function readTrustStore(dir: string = stateDir()): TrustStore {
  try {
    const data = JSON.parse(readFileSync(trustStorePath(dir), "utf8")) as Partial<TrustStore>;
    if (data && typeof data.files === "object" && data.files !== null) return { version: 1, files: { ...data.files } };
  } catch {
    // no store yet
  }
  return { version: 1, files: {} };
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
