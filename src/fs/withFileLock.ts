import { readProcStat } from "./processes.js";
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { nodeCrypto } from "./crypto.js";
import { WriteError } from "../errors.js";
import { isoTime } from "../text.js";

export interface LockOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its pid is alive (pid reuse; default 60 s). */
  staleMs?: number;
}

/** A lock file's content is a few short lines; anything longer is not ours and is not read. */
const MAX_LOCK_BYTES = 512;
/** A breaker holds its claim for two system calls; a claim older than this was left by a crash. */
const CLAIM_STALE_MS = 10_000;
/** Linux pids fit in 22 bits; anything else in a lock file is garbage, not a pid to signal. */
const MAX_PID = 4_194_304;

/** The real path of `file`; for a file that does not exist yet, its directory's real path. */
export function realPathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return path.join(realpathSync(path.dirname(file)), path.basename(file));
    } catch {
      return path.resolve(file);
    }
  }
}

/**
 * The lock for `file`: `<real path>.lock`, so every path to one file (symlinks, `..`, another
 * project dir linking to it) takes the same lock.
 */
export function lockPathFor(file: string): string {
  return `${realPathOf(file)}.lock`;
}

/** One lock file as seen by a waiter: which file it is (device, inode, content) and how old. */
interface LockSnapshot {
  dev: number;
  ino: number;
  ageMs: number;
  content: string;
}

/**
 * Read the lock without following a symlink or blocking on a FIFO, at most MAX_LOCK_BYTES.
 * null: there is no lock (any more). A lock path that is not a regular file was not made by us:
 * a clear error, never something we delete or wait on forever.
 */
function inspect(lockPath: string, file: string): LockSnapshot | null {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw new WriteError(`cannot read the lock file ${lockPath} (${code === "ELOOP" ? "it is a symlink" : (code ?? String(error))}); if no hooks command is running, delete it`, file, {
      cause: error,
    });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new WriteError(`the lock file ${lockPath} is not a regular file; if no hooks command is running, delete it`, file);
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const n = readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0);
    return { dev: stat.dev, ino: stat.ino, ageMs: Date.now() - stat.mtimeMs, content: buffer.subarray(0, n).toString("latin1") };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the holder named in a lock can no longer be holding it: the lock is older than
 * staleMs, or its pid is dead, or that pid now belongs to a process started after the lock's
 * holder (pid reuse), or it is a zombie. Content is untrusted: only a plain decimal pid in range is ever signalled
 * (never 0 or a negative number, which would address process groups); unreadable content is
 * a lock being written for 2 s, then garbage.
 */
function isStale(lock: LockSnapshot, staleMs: number): boolean {
  if (lock.ageMs > staleMs) return true;
  const [pidText, , startText] = lock.content.split("\n");
  if (!/^[1-9][0-9]{0,6}$/.test(pidText ?? "") || Number(pidText) > MAX_PID) return lock.ageMs > 2000;
  const pid = Number(pidText);
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  const stat = readProcStat(pid);
  // A zombie has exited: it holds nothing, and where PID 1 does not reap orphans (containers)
  // it stays a zombie for good.
  if (stat?.state === "Z" || stat?.state === "X") return true;
  const start = /^[0-9]{1,20}$/.test(startText ?? "") ? startText : null;
  const now = start ? (stat?.start ?? null) : null;
  return start !== null && now !== null && now !== start;
}

const same = (a: LockSnapshot, b: LockSnapshot | null): boolean => b !== null && a.dev === b.dev && a.ino === b.ino && a.content === b.content;

/**
 * Remove the stale lock `seen`, unless some other waiter is already doing so: exactly one
 * waiter breaks a given stale lock. Each stale lock instance has its own claim file, named by its
 * inode and a hash of its content, created with O_EXCL: only its creator may unlink the lock,
 * and only after checking, while holding the claim, that the lock there is still `seen`. A
 * waiter that inspected the same lock later gets the claim only after the lock was unlinked, and
 * then finds another lock (or none) and leaves it alone; `seen` can never come back, since a new
 * lock has a new random token. The claim is removed right after. A claim left by a breaker that
 * crashed between its two system calls is passed over after CLAIM_STALE_MS by claiming the next
 * level. Returns false when the lock is (still) someone else's to break: wait, then look again.
 */
function breakStale(lockPath: string, seen: LockSnapshot, file: string): boolean {
  const id = `${seen.ino}-${nodeCrypto().createHash("sha256").update(seen.content).digest("hex").slice(0, 16)}`;
  for (let level = 0; level < 4; level++) {
    const claim = `${lockPath}.break-${id}-${level}`;
    let fd: number;
    try {
      fd = openSync(claim, "wx", 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw new WriteError(`cannot create ${claim} (${code ?? String(error)}); make its directory writable`, file, { cause: error });
      try {
        if (Date.now() - statSync(claim).mtimeMs > CLAIM_STALE_MS) continue;
      } catch {
        return true; // removed just now by its breaker: the lock is already broken
      }
      return false; // another waiter is breaking this very lock
    }
    closeSync(fd);
    try {
      if (same(seen, inspect(lockPath, file))) unlinkSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    } finally {
      try {
        unlinkSync(claim);
      } catch {
        // nothing to clean up
      }
    }
    return true;
  }
  return false;
}

/** Create the lock with O_EXCL and our pid, start time and a random token; false if it exists. */
function tryCreate(lockPath: string, file: string): string | null {
  const content = `${process.pid}\n${isoTime()}\n${readProcStat("self")?.start ?? "-"}\n${nodeCrypto().randomBytes(8).toString("hex")}\n`;
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return null;
    throw new WriteError(`cannot create the lock file ${lockPath} (${code ?? String(error)}); make its directory writable`, file, { cause: error });
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return content;
}

/**
 * Run `fn` holding the lock of `file` (see lockPathFor). A lock whose holder is gone (dead pid,
 * reused pid, or older than staleMs) is broken by exactly one waiter (see breakStale); otherwise
 * wait with jittered backoff, at most timeoutMs. Serialises read-modify-write of config and
 * trust files across processes. The lock is released only if it is still ours: a holder that
 * stalled past staleMs must not delete the lock of the waiter that broke it.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const lockPath = lockPathFor(file);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = options.staleMs ?? 60_000;
  const started = Date.now();
  let delay = 5;
  let mine: string | null;
  for (;;) {
    mine = tryCreate(lockPath, file);
    if (mine !== null) break;
    const seen = inspect(lockPath, file);
    if (seen === null) continue; // released between our attempt and our look
    if (isStale(seen, staleMs) && breakStale(lockPath, seen, file)) continue;
    if (Date.now() - started > timeoutMs) {
      throw new WriteError(`timed out waiting for the lock ${lockPath}; if no other hooks command is running, delete it`, file);
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await fn();
  } finally {
    try {
      if (inspect(lockPath, file)?.content === mine) unlinkSync(lockPath);
    } catch {
      // already gone, or no longer ours: nothing to release
    }
  }
}
