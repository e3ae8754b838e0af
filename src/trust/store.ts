import path from "node:path";
import { READ_LIMITS, readBoundedText, readBoundedFile } from "../fs/readBounded.js";
import { withFileLock } from "../fs/withFileLock.js";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";
import { ensureStateDir, stateDir, stateDir as defaultStateDir } from "../fs/stateDir.js";
import { sha256 } from "../fs/crypto.js";
import type { ConfigFileInfo, ResolvedConfig } from "../config/types.js";
import { TrustError } from "../errors.js";
import { pruneSnapshots, saveSnapshots } from "./snapshots.js";
import { trustedByEnvironment } from "../env.js";

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

/**
 * Read-modify-write the store under its lock, atomically, so concurrent commands keep each
 * other's entries. `trusted`: the texts of the files now trusted, kept as their last trusted
 * versions (src/trust/snapshots.ts); versions no entry names any more are removed.
 */
export async function updateTrustStore(dir: string, change: (files: Record<string, string>) => void, trusted: readonly string[] = []): Promise<void> {
  // Created 0700, or refused when others could write there (StateDirError).
  ensureStateDir(dir);
  const file = trustStorePath(dir);
  await withFileLock(file, () => {
    const store = readTrustStore(dir);
    change(store.files);
    const named = new Set(Object.values(store.files));
    // The version first: a store naming a hash whose bytes are not kept would keep nothing.
    saveSnapshots(
      dir,
      trusted.filter((t) => named.has(sha256(t))),
    );
    writeFileAtomic(file, `${JSON.stringify(store, null, 2)}\n`, 0o600);
    pruneSnapshots(dir, named);
  });
}

/**
 * Trust these files as they are now (used by `hooks trust`, `hooks init`). Hashes the text as
 * loadConfig reads it (UTF-8), so the two agree byte for byte.
 */
export async function recordTrust(files: (string | { path: string; sha256: string })[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const read = (f: string): string | null => {
    try {
      return readBoundedFile(f, READ_LIMITS.config, { what: "config file" }).toString("utf8");
    } catch {
      // changed into something unreadable since it was shown: trusted, but no version kept
      return null;
    }
  };
  // A {path, sha256} (a loaded ConfigFileInfo) trusts exactly the bytes that were shown; they are
  // kept as its last trusted version when the file still holds them.
  const entries = files.map((f): { file: string; hash: string; text: string | null } => {
    if (typeof f !== "string") {
      const text = read(f.path);
      return { file: path.resolve(f.path), hash: f.sha256, text: text !== null && sha256(text) === f.sha256 ? text : null };
    }
    const text = readBoundedFile(f, READ_LIMITS.config, { what: "config file" }).toString("utf8");
    return { file: path.resolve(f), hash: sha256(text), text };
  });
  await updateTrustStore(
    stateDir(env),
    (store) => {
      for (const { file, hash } of entries) store[file] = hash;
    },
    entries.flatMap((e) => (e.text === null ? [] : [e.text])),
  );
}

/** Forget these files: they must be reviewed again before they run. */
export async function revokeTrust(files: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await updateTrustStore(stateDir(env), (store) => {
    for (const f of files) delete store[path.resolve(f)];
  });
}

export interface TrustOptions {
  env?: NodeJS.ProcessEnv;
  /** Where trust.json lives (default stateDir(env)). */
  stateDir?: string;
  /** "all" (library) or true (`--trust`): trust every layer for this call. */
  trust?: "all" | boolean;
}

/** The project and local files whose current bytes have not been reviewed with `hooks trust`. */
export function untrustedFiles(config: Pick<ResolvedConfig, "files">, options: TrustOptions = {}): ConfigFileInfo[] {
  const env = options.env ?? process.env;
  if (options.trust === "all" || options.trust === true || trustedByEnvironment(env)) return [];
  const reviewed = config.files.filter((f) => f.layer !== "user");
  if (reviewed.length === 0) return [];
  const store = readTrustStore(options.stateDir ?? defaultStateDir(env));
  return reviewed.filter((f) => store.files[path.resolve(f.path)] !== f.sha256);
}

/**
 * Throw TrustError unless every project/local file is trusted as loaded. The user layer is
 * the user's own and always trusted; so are CI, HOOKS_TRUST=1, --trust and trust: "all".
 */
export function assertTrusted(config: Pick<ResolvedConfig, "files">, options: TrustOptions = {}): void {
  const bad = untrustedFiles(config, options);
  if (bad.length === 0) return;
  const first = bad[0].path;
  const more =
    bad.length > 1
      ? ` (and ${bad
          .slice(1)
          .map((f) => f.path)
          .join(", ")})`
      : "";
  throw new TrustError(
    `${first}${more} is not trusted (new or changed since it was reviewed); run \`hooks trust\` in ${path.dirname(first)} to review its commands and trust it`,
    bad.map((f) => f.path),
  );
}
