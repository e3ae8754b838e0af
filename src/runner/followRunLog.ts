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
  const follower = new LogFollower(runLogFile(stateDir), new LineReader(options));
  follower.open(true);
  const timer = setInterval(() => follower.poll(), options.intervalMs ?? 200);
  return {
    poll: () => follower.poll(),
    stop: () => {
      clearInterval(timer);
      follower.stop();
    },
  };
}

/** The run log's file as it is followed: the one open now, and how far it was read. */
class LogFollower {
  private fd: number | null = null;
  private ino = -1;
  private pos = 0;

  constructor(
    private readonly file: string,
    private readonly lines: LineReader,
  ) {}

  open(fromEnd: boolean): void {
    try {
      // Non-blocking: a FIFO planted as runs.jsonl must not hang the open; only a regular file is read.
      const f = openSync(this.file, constants.O_RDONLY | constants.O_NONBLOCK);
      const st = fstatSync(f);
      if (!st.isFile()) {
        closeSync(f);
        return;
      }
      this.fd = f;
      this.ino = st.ino;
      this.pos = fromEnd ? st.size : 0;
    } catch {
      // no log yet
    }
  }

  /** Read the open file from `pos` to its end (bounded per poll); true when at its end. */
  private drain(): boolean {
    if (this.fd === null) return true;
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let read = 0; read < READ_PER_POLL; ) {
      let n: number;
      try {
        n = readSync(this.fd, buf, 0, buf.length, this.pos);
      } catch {
        return true;
      }
      if (n === 0) return true;
      this.pos += n;
      read += n;
      this.lines.consume(buf.subarray(0, n));
    }
    return false;
  }

  private close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    // A line cut at the end of a rotated file never gets its end: it is not a record.
    this.lines.cut();
  }

  poll(): void {
    let current: { ino: number; size: number } | null = null;
    try {
      const st = statSync(this.file);
      current = { ino: st.ino, size: st.size };
    } catch {
      // rotated away this instant, or no log yet
    }
    if (this.fd !== null) {
      if (current && current.ino === this.ino && current.size < this.pos) {
        // Truncated in place: start again from its start.
        this.pos = 0;
        this.lines.reset();
      }
      const atEnd = this.drain();
      // Renamed (rotation) or removed: what it still held is read; the new file is read from its start.
      if (atEnd && (!current || current.ino !== this.ino)) this.close();
    }
    if (this.fd === null && current) {
      this.open(false);
      this.drain();
    }
  }

  stop(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Appended bytes → records, line by line: a line over FOLLOW_MAX_LINE_BYTES is skipped unread,
 * and an unfinished last line waits for its end.
 */
class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  // Inside a line already over the limit: its bytes are dropped up to its newline.
  private dropping = false;

  constructor(private readonly options: FollowOptions) {}

  consume(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.dropping) {
        this.dropping = false;
        continue;
      }
      const line = this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      if (line.length > FOLLOW_MAX_LINE_BYTES) this.options.onSkipped?.();
      else this.emit(line);
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.dropping) return;
    this.pendingBytes += rest.length;
    if (this.pendingBytes > FOLLOW_MAX_LINE_BYTES) {
      this.pending = [];
      this.pendingBytes = 0;
      this.dropping = true;
      this.options.onSkipped?.();
    } else this.pending.push(Buffer.from(rest));
  }

  /** The file ended inside a line: that line is skipped, and the next file starts afresh. */
  cut(): void {
    if (this.pending.length > 0) this.options.onSkipped?.();
    this.reset();
  }

  /** Forget the line in progress (the file was truncated). */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.dropping = false;
  }

  private emit(line: Buffer): void {
    const text = line.toString("utf8");
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.options.onSkipped?.();
      return;
    }
    if (isRunLogRecord(value)) this.options.onRecord(value);
    else this.options.onSkipped?.();
  }
}
