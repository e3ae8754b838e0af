import { nodeCrypto } from "../fs/crypto.js";

/**
 * Kinds of files in an async session directory, told apart by their suffix: `started` (the job,
 * and the run's claim token), `publishing` (its worker took the token and is writing the result),
 * `worker` (the worker's and hook's process identities), `result`, and a collector's `claimed`
 * result or `orphan` (a run declared lost), and `corrupt` files set aside.
 */
export type AsyncFileKind = "started" | "publishing" | "worker" | "result" | "claimed" | "orphan" | "corrupt";

const PATTERN = /^([0-9a-z]+-[0-9a-f]+)\.(started|publishing|worker|result|claimed|orphan|corrupt)(?:\.[^/]*)?\.json$/;

/** A new run id that sorts by start time (base-36 milliseconds, then random hex). */
export function newAsyncId(now = Date.now()): string {
  return `${now.toString(36).padStart(9, "0")}-${nodeCrypto().randomBytes(4).toString("hex")}`;
}

/** A per-process name that makes a claim's rename target unique to its claimer. */
export function newClaimerId(): string {
  return `${process.pid}-${nodeCrypto().randomBytes(4).toString("hex")}`;
}

export function asyncFileName(id: string, kind: AsyncFileKind, tag?: string): string {
  return tag ? `${id}.${kind}.${tag}.json` : `${id}.${kind}.json`;
}

export function parseAsyncFileName(name: string): { id: string; kind: AsyncFileKind } | null {
  const m = PATTERN.exec(name);
  return m ? { id: m[1], kind: m[2] as AsyncFileKind } : null;
}
