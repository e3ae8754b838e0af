import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { WriteError } from "../errors.js";
import { isoTime } from "../time/isoTime.js";

export interface LockOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its pid is alive (pid reuse; default 60 s). */
  staleMs?: number;
}

function holderIsGone(lockPath: string, staleMs: number): boolean {
  try {
    const age = Date.now() - statSync(lockPath).mtimeMs;
    if (age > staleMs) return true;
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").split("\n")[0], 10);
    if (!Number.isInteger(pid) || pid <= 0) return age > 2000; // being written, or garbage
    process.kill(pid, 0);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ESRCH";
  }
}

/**
 * Run `fn` holding `<file>.lock` (created with O_EXCL, holding our pid and the time). A lock
 * whose process is dead, or that is older than staleMs, is broken; otherwise wait with jittered
 * backoff, at most timeoutMs. Serialises read-modify-write of config and trust files across
 * processes.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const lockPath = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = options.staleMs ?? 60_000;
  const started = Date.now();
  let delay = 5;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      try {
        writeSync(fd, `${process.pid}\n${isoTime()}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") {
        throw new WriteError(`cannot create the lock file ${lockPath} (${code ?? String(error)}); make its directory writable`, file, { cause: error });
      }
      if (holderIsGone(lockPath, staleMs)) {
        try {
          unlinkSync(lockPath);
        } catch {
          // another waiter broke it first
        }
        continue;
      }
      if (Date.now() - started > timeoutMs) {
        throw new WriteError(`timed out waiting for the lock ${lockPath}; if no other hooks command is running, delete it`, file);
      }
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 50);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // already gone: nothing to release
    }
  }
}
