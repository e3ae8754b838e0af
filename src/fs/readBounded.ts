import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { HookrunError } from "../errors.js";

/** Size caps for everything hookrun reads from disk; the README's "Limits" table names each. */
export const READ_LIMITS = {
  /** hooks.yaml / hooks.json / hooks.local.* and a Claude settings file. */
  config: 4 * 1024 * 1024,
  /** An async job or result file, a trust store, a lock file. */
  state: 16 * 1024 * 1024,
  /** A transcript read for last_assistant_message (only its tail matters). */
  transcript: 64 * 1024 * 1024,
  /** A context (stdin or `--context FILE`): the same cap as the server's request body. */
  context: 10 * 1024 * 1024,
} as const;

/** Why a file was not read: the message says what, where and what to do. */
export class FileReadError extends HookrunError {
  readonly file: string;
  /** "not-regular" | "too-large" | an errno code such as "ENOENT". */
  readonly reason: string;
  constructor(message: string, file: string, reason: string, options: { cause?: unknown } = {}) {
    super(message, { code: "read", ...options });
    this.file = file;
    this.reason = reason;
  }
}

const KIND: [(s: import("node:fs").Stats) => boolean, string][] = [
  [(s) => s.isDirectory(), "a directory"],
  [(s) => s.isFIFO(), "a FIFO"],
  [(s) => s.isCharacterDevice(), "a character device"],
  [(s) => s.isBlockDevice(), "a block device"],
  [(s) => s.isSocket(), "a socket"],
];

/**
 * Read a regular file, never more than `maxBytes`, never blocking: the file is opened with
 * O_NONBLOCK (a FIFO opens at once instead of waiting for a writer) and checked with fstat on
 * that same descriptor (no race between check and read), so a symlink to /dev/zero, a FIFO or a
 * directory is refused instead of read forever. Larger files are refused, not cut, unless
 * `tail` is set, which returns the last `maxBytes` (for logs and transcripts).
 */
export function readBoundedFile(file: string, maxBytes: number, opts: { what?: string; tail?: boolean } = {}): Buffer {
  const what = opts.what ?? "file";
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "EIO";
    throw new FileReadError(`cannot read ${what} ${file} (${code})`, file, code, { cause: error });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const kind = KIND.find(([test]) => test(stat))?.[1] ?? "not a regular file";
      throw new FileReadError(`${what} ${file} is ${kind}, not a regular file; replace it with a regular file`, file, "not-regular");
    }
    let start = 0;
    if (stat.size > maxBytes) {
      if (!opts.tail) throw new FileReadError(`${what} ${file} is ${stat.size} bytes, over the ${maxBytes}-byte limit; make it smaller`, file, "too-large");
      start = stat.size - maxBytes;
    }
    // The file may grow while we read: read at most maxBytes whatever fstat said.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(0, stat.size - start)) || Math.min(maxBytes, 64 * 1024));
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const n = readSync(fd, buffer, length, buffer.length - length, start + length);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** readBoundedFile as UTF-8 text (a leading BOM removed). */
export function readBoundedText(file: string, maxBytes: number, opts: { what?: string; tail?: boolean } = {}): string {
  const text = readBoundedFile(file, maxBytes, opts).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
