import { chmodSync, lstatSync, mkdirSync, unlinkSync } from "node:fs";
import type { Server } from "node:http";
import net from "node:net";
import path from "node:path";
import { HookrunError } from "../errors.js";

function listenOnce(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    // The socket is bound inside listen(): a umask of 0177 makes it 0600 from its first moment.
    let old: number | null = null;
    try {
      old = process.umask(0o177);
    } catch {
      // process.umask() is not available in worker threads; the chmod below still applies.
    }
    try {
      server.listen(socketPath);
    } finally {
      if (old !== null) process.umask(old);
    }
  });
}

// Whether a server answers on the socket: connected = alive; ECONNREFUSED = left by a dead one.
function probe(socketPath: string): Promise<"alive" | "stale" | "gone"> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve("alive");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ENOENT" ? "gone" : "stale"));
  });
}

/**
 * Listen on a Unix socket, mode 0600. A socket file nobody answers on (a crashed server) is
 * taken over; one a live server answers on is refused with a clear error. A new parent
 * directory is created 0700.
 */
export async function listenUnix(server: Server, socketPath: string): Promise<void> {
  // sun_path holds 108 bytes on Linux (104 on macOS), NUL included; longer paths fail obscurely.
  if (Buffer.byteLength(socketPath) > 103) {
    throw new HookrunError(`the socket path ${socketPath} is ${Buffer.byteLength(socketPath)} bytes, over the 103 a Unix socket allows; pass a shorter --socket or HOOKS_STATE_DIR`, {
      code: "listen",
    });
  }
  mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  for (let attempt = 0; ; attempt++) {
    try {
      await listenOnce(server, socketPath);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EADDRINUSE" || attempt > 0) {
        const hint = code === "EADDRINUSE" ? "another process took it just now; try again" : "choose another path with --socket";
        throw new HookrunError(`cannot listen on ${socketPath}: ${(error as Error).message}; ${hint}`, { code: "listen", cause: error });
      }
      const state = await probe(socketPath);
      if (state === "alive") {
        throw new HookrunError(`a hooks server is already listening on ${socketPath}; stop it first, or start this one with --socket PATH`, { code: "server-running" });
      }
      if (state === "stale") {
        if (!lstatSync(socketPath, { throwIfNoEntry: false })?.isSocket()) {
          throw new HookrunError(`${socketPath} exists and is not a socket; remove it or choose another path with --socket`, { code: "listen" });
        }
        unlinkSync(socketPath);
      }
    }
  }
  chmodSync(socketPath, 0o600);
}
