import path from "node:path";
import { nodeCrypto } from "../fs/crypto.js";

const MAX_PLAIN = 80;

/**
 * A filesystem-safe directory name for a session id, distinct for distinct ids. Letters, digits,
 * `_` and `-` stay as they are; every other byte of the id's UTF-8 becomes `%XX` (so `.`/`..`/`/`
 * can never escape the async dir). A lone surrogate, which UTF-8 cannot encode (it would become
 * U+FFFD, so `"\ud800v"` and `"\udbffv"` would share a directory), becomes `%uD800`; UTF-8
 * bytes never spell `%u`, so the encoding stays one-to-one. Long ids are cut and suffixed with a
 * hash of the whole encoding so the name stays well under NAME_MAX and distinct ids never share
 * a directory.
 */
export function sessionKey(sessionId: string): string {
  // The common case (UUIDs and the like) is its own encoding.
  if (sessionId.length <= MAX_PLAIN && /^[A-Za-z0-9_-]+$/.test(sessionId)) return sessionId;
  let encoded = "";
  for (const ch of sessionId) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      encoded += `%u${cp.toString(16).toUpperCase()}`;
      continue;
    }
    for (const b of Buffer.from(ch, "utf8")) {
      encoded +=
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x2d ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  if (encoded.length === 0) return "%";
  if (encoded.length <= MAX_PLAIN) return encoded;
  // The encoding, not the id: hashing the id would hash its UTF-8, where lone surrogates collide.
  const hash = nodeCrypto().createHash("sha256").update(encoded).digest("hex").slice(0, 16);
  return `${encoded.slice(0, MAX_PLAIN - 17)}~${hash}`;
}

/** Short, stable key of a project directory: the first 16 hex digits of sha256 of its absolute path. */
export function projectKey(projectDir: string): string {
  return nodeCrypto().createHash("sha256").update(path.resolve(projectDir)).digest("hex").slice(0, 16);
}

/** Where the async records of one project and session live: <stateDir>/async/<project>/<session>. */
export function asyncSessionDir(stateDir: string, projectDir: string, sessionId: string): string {
  return path.join(stateDir, "async", projectKey(projectDir), sessionKey(sessionId));
}

/**
 * Kinds of files in an async session directory, told apart by their suffix: `started` (the job,
 * and the run's claim token), `publishing` (its worker took the token and is writing the result),
 * `worker` (the worker's and hook's process identities), `result`, and a collector's `claimed`
 * result or `orphan` (a run declared lost), and `corrupt` files set aside.
 */
export type AsyncFileKind = "started" | "publishing" | "worker" | "result" | "claimed" | "orphan" | "corrupt";

const PATTERN = /^([0-9a-z]+-[0-9a-f]+)\.(started|publishing|worker|result|claimed|orphan|corrupt)(?:\.[^/]*)?\.json$/;

let lastIdMs = 0;

/**
 * A new run id that sorts by start time (base-36 milliseconds, then random hex). Without `now`,
 * the ids of one process strictly increase (a second id in the same millisecond takes the next
 * one), so the async hooks one trigger starts sort, and are delivered, in the order they started.
 */
export function newAsyncId(now?: number): string {
  let ms = now;
  if (ms === undefined) {
    ms = Math.max(Date.now(), lastIdMs + 1);
    lastIdMs = ms;
  }
  return `${ms.toString(36).padStart(9, "0")}-${nodeCrypto().randomBytes(4).toString("hex")}`;
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

/** Undelivered async results (and leftovers of crashed claimers) are dropped after 24 hours. */
export const ASYNC_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** A worker that has not finished this long after its hook's timeout is presumed dead. */
export const ASYNC_ORPHAN_GRACE_MS = 60 * 1000;

/** How long `runner.close()` lets running async hooks finish before killing them (as `hooks serve`). */
export const DEFAULT_ASYNC_CLOSE_GRACE_MS = 5000;
