import { READ_LIMITS, readBoundedFile } from "../fs/readBounded.js";
import path from "node:path";
import { stateDir } from "../fs/stateDir.js";
import { sha256 } from "../fs/crypto.js";
import { updateTrustStore } from "./trustStore.js";

/**
 * Trust these files as they are now (used by `hooks trust`, `hooks init`). Hashes the text as
 * loadConfig reads it (UTF-8), so the two agree byte for byte.
 */
export async function recordTrust(files: (string | { path: string; sha256: string })[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  // A {path, sha256} (a loaded ConfigFileInfo) trusts exactly the bytes that were shown.
  const hashes = files.map((f): [string, string] => (typeof f === "string" ? [path.resolve(f), sha256(readBoundedFile(f, READ_LIMITS.config, { what: "config file" }).toString("utf8"))] : [path.resolve(f.path), f.sha256]));
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
