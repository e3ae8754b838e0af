import { readFileSync } from "node:fs";
import path from "node:path";
import { stateDir } from "../state/stateDir.js";
import { sha256 } from "./sha256.js";
import { updateTrustStore } from "./trustStore.js";

/** Trust these files as they are now (used by `hooks trust`, `hooks init`, enable/disable). */
export async function recordTrust(files: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const hashes = files.map((f) => [path.resolve(f), sha256(readFileSync(f))] as const);
  await updateTrustStore(stateDir(env), (store) => {
    for (const [file, hash] of hashes) store[file] = hash;
  });
}

/** Forget these files: they must be reviewed again before they run. */
export async function revokeTrust(files: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await updateTrustStore(stateDir(env), (store) => {
    for (const f of files) delete store[path.resolve(f)];
  });
}
