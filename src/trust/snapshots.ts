import { mkdirSync, readdirSync, unlinkSync } from "node:fs";
import path from "node:path";
import { sha256 } from "../fs/crypto.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";

/**
 * The last trusted version of each config file (docs/trust.md#the-last-trusted-version-keeps-guarding):
 * the bytes a person trusted, kept in the state dir under their sha256 (`trusted/<sha256>`, mode
 * 0600) for as long as trust.json names that hash for some file. While a trusted file is changed
 * and not yet trusted again, or no longer parses, hookrun runs these bytes instead, so an edit
 * (the agent's own included) never switches a guard off.
 */

const HASH = /^[0-9a-f]{64}$/;

export const snapshotDir = (stateDir: string): string => path.join(stateDir, "trusted");

/** Keep `texts` as trusted versions (the caller holds the trust store's lock; the state dir is verified private). */
export function saveSnapshots(stateDir: string, texts: readonly string[]): void {
  if (texts.length === 0) return;
  const dir = snapshotDir(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const text of texts) writeFileAtomic(path.join(dir, sha256(text)), text, 0o600, { exactMode: true });
}

/**
 * The trusted version whose sha256 is `hash`, or null when there is none. Read bounded, and used
 * only when its bytes still hash to its name: a file changed in the state dir is no trusted version.
 */
export function readSnapshot(stateDir: string, hash: string): string | null {
  if (!HASH.test(hash)) return null;
  try {
    const text = readBoundedText(path.join(snapshotDir(stateDir), hash), READ_LIMITS.config, { what: "trusted version" });
    return sha256(text) === hash ? text : null;
  } catch {
    return null;
  }
}

/** Remove the trusted versions no trust entry names any more (a file trusted anew, or untrusted). */
export function pruneSnapshots(stateDir: string, referenced: ReadonlySet<string>): void {
  const dir = snapshotDir(stateDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!HASH.test(name) || referenced.has(name)) continue;
    try {
      unlinkSync(path.join(dir, name));
    } catch {
      // gone already, or not ours to remove: left
    }
  }
}
