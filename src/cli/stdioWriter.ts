import { fstatSync, writeSync } from "node:fs";

/** What the CLI writes to: `write` and, for colours and the live line, `isTTY`. */
export interface CliOutput {
  isTTY?: boolean;
  write(chunk: string | Uint8Array): boolean;
}

/**
 * The process's stdout or stderr for the CLI. When the descriptor is a pipe, a file or a socket
 * (an agent, CI, `| cat`), output is written with writeSync instead of through Node's stream:
 * creating `process.stdout` on a pipe loads `net` and `stream`, about 5 ms of a cold start
 * (docs/performance.md), and Node writes to pipes and files synchronously on Linux anyway. A descriptor left
 * non-blocking by another process and full (EAGAIN) is retried every millisecond; once the reader
 * is gone (EPIPE) the rest of the output is dropped quietly, as `hooks list | head -1` expects.
 * Terminals, /dev/null, Windows and anything unusual keep Node's own stream (`stream()`).
 */
export function stdioWriter(fd: 1 | 2, stream: () => CliOutput): CliOutput {
  if (process.platform !== "win32") {
    try {
      const st = fstatSync(fd);
      if (st.isFIFO() || st.isFile() || st.isSocket()) return fdWriter(fd);
    } catch {
      // closed or unusable descriptor: let Node's stream deal with it
    }
  }
  const s = stream();
  // A terminal closed under us (EIO) must not become an uncaught 'error' that replaces the exit
  // code hookrun chose (129 for SIGHUP, say): what cannot be shown is dropped.
  (s as Partial<NodeJS.WriteStream>).on?.("error", () => {});
  return s;
}

function fdWriter(fd: number): CliOutput {
  let broken = false;
  return {
    isTTY: false,
    write(chunk: string | Uint8Array): boolean {
      if (broken) return false;
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      for (let done = 0; done < bytes.length; ) {
        try {
          done += writeSync(fd, bytes, done);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EAGAIN") sleepMs(1);
          else if (code === "EPIPE") return !(broken = true);
          else throw error;
        }
      }
      return true;
    },
  };
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
