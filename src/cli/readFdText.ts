import { readSync } from "node:fs";

/**
 * Read a file descriptor to its end, synchronously. `hooks run` reads its context from fd 0 this
 * way because a stdin stream costs a cold start milliseconds (SPEC §15). Returns null, having
 * consumed nothing, when the descriptor is non-blocking and empty for now (EAGAIN): the caller
 * then reads the stream instead; bytes read before an EAGAIN come back in `partial`.
 */
export function readFdText(fd: number): { text: string } | { text: null; partial: Buffer } {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = Buffer.allocUnsafe(65536);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") return { text: null, partial: Buffer.concat(chunks) };
      if (code === "EOF" || code === "EBADF") break;
      throw error;
    }
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}
