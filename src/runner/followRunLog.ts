import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { isRunLogRecord, runLogFile, type RunLogRecord } from "./runLog.js";

/** A line longer than this is not a record hookrun wrote (a context is at most 64 KiB): skipped unread. */
export const FOLLOW_MAX_LINE_BYTES = 1024 * 1024;
/** At most this much is read per poll, so a huge append cannot hold the loop (the rest comes next poll). */
const READ_PER_POLL = 4 * 1024 * 1024;

export interface FollowOptions {
  /** Called for each record appended after the start, in file order. */
  onRecord(record: RunLogRecord): void;
  /** Called for each appended line that is not a record (cut, not JSON, wrong shape, too long). */
  onSkipped?(): void;
  /** How often the file is looked at (default 200 ms). */
  intervalMs?: number;
}

export interface RunLogFollower {
  /** Read what is new now (the timer does it too). */
  poll(): void;
  stop(): void;
}

/**
 * Follow the run log as `tail -F` does: from its current end, every record appended after,
 * across rotation (runs.jsonl renamed to runs.jsonl.1: the old file is read to its end, then the
 * new one from its start), truncation, and a log that does not exist yet. A last line without its
 * newline (a writer mid-append, or one that crashed) waits for the rest. Polls: the log is
 * appended by short-lived processes of any agent, and polling a stat is as cheap as it is robust.
 */
export function followRunLog(stateDir: string, options: FollowOptions): RunLogFollower {
  const file = runLogFile(stateDir);
  let fd: number | null = null;
  let ino = -1;
  let pos = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // Inside a line already over the limit: its bytes are dropped up to its newline.
  let dropping = false;

  const open = (fromEnd: boolean): void => {
    try {
      // Non-blocking: a FIFO planted as runs.jsonl must not hang the open; only a regular file is read.
      const f = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
      const st = fstatSync(f);
      if (!st.isFile()) {
        closeSync(f);
        return;
      }
      fd = f;
      ino = st.ino;
      pos = fromEnd ? st.size : 0;
    } catch {
      // no log yet
    }
  };

  const emit = (line: Buffer): void => {
    const text = line.toString("utf8");
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      options.onSkipped?.();
      return;
    }
    if (isRunLogRecord(value)) options.onRecord(value);
    else options.onSkipped?.();
  };

  const consume = (chunk: Buffer): void => {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (dropping) {
        dropping = false;
        continue;
      }
      const line = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      pendingBytes = 0;
      if (line.length > FOLLOW_MAX_LINE_BYTES) options.onSkipped?.();
      else emit(line);
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || dropping) return;
    pendingBytes += rest.length;
    if (pendingBytes > FOLLOW_MAX_LINE_BYTES) {
      pending = [];
      pendingBytes = 0;
      dropping = true;
      options.onSkipped?.();
    } else pending.push(Buffer.from(rest));
  };

  // Read the open file from `pos` to its end (bounded per poll); true when at its end.
  const drain = (): boolean => {
    if (fd === null) return true;
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let read = 0; read < READ_PER_POLL; ) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, pos);
      } catch {
        return true;
      }
      if (n === 0) return true;
      pos += n;
      read += n;
      consume(buf.subarray(0, n));
    }
    return false;
  };

  const close = (): void => {
    if (fd !== null) closeSync(fd);
    fd = null;
    // A line cut at the end of a rotated file never gets its end: it is not a record.
    if (pending.length > 0) options.onSkipped?.();
    pending = [];
    pendingBytes = 0;
    dropping = false;
  };

  const poll = (): void => {
    let current: { ino: number; size: number } | null = null;
    try {
      const st = statSync(file);
      current = { ino: st.ino, size: st.size };
    } catch {
      // rotated away this instant, or no log yet
    }
    if (fd !== null) {
      if (current && current.ino === ino && current.size < pos) {
        // Truncated in place: start again from its start.
        pos = 0;
        pending = [];
        pendingBytes = 0;
        dropping = false;
      }
      const atEnd = drain();
      // Renamed (rotation) or removed: what it still held is read; the new file is read from its start.
      if (atEnd && (!current || current.ino !== ino)) close();
    }
    if (fd === null && current) {
      open(false);
      drain();
    }
  };

  open(true);
  const timer = setInterval(poll, options.intervalMs ?? 200);
  return {
    poll,
    stop: () => {
      clearInterval(timer);
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
