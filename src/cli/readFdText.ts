import { fstatSync, readSync } from "node:fs";
import { ContextError } from "../errors.js";


/**
 * Read a file descriptor to its end, synchronously, never more than `maxBytes`. `hooks run` reads
 * its context from fd 0 this way because a stdin stream costs a cold start milliseconds (SPEC
 * §15). Returns null, having consumed nothing, when the descriptor is non-blocking and empty for
 * now (EAGAIN): the caller then reads the stream instead; bytes read before an EAGAIN come back in
 * `partial`. A directory on stdin is refused at once (`hooks run < .` must not be an internal error).
 */
export function readFdText(fd: number, maxBytes: number, what = "stdin"): { text: string } | { text: null; partial: Buffer } {
  let isDirectory = false;
  try {
    isDirectory = fstatSync(fd).isDirectory();
  } catch {
    // a closed or odd descriptor: the read below says what it is
  }
  if (isDirectory) throw new ContextError(`${what} is a directory, not a context; pass one JSON object (hooks run EVENT < context.json)`);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(65536);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") return { text: null, partial: Buffer.concat(chunks) };
      if (code === "EOF" || code === "EBADF") break;
      if (code === "EISDIR") throw new ContextError(`${what} is a directory, not a context; pass one JSON object (hooks run EVENT < context.json)`);
      throw error;
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw new ContextError(`the context in ${what} is over the ${maxBytes}-byte limit; pass a smaller context`);
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}
