import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { readBoundedText } from "../fs/readBounded.js";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { HookrunError } from "../errors.js";
import type { Runner } from "../runner/types.js";
import type { ConfigWatcher } from "../watch/watchConfig.js";
import { createRequestHandler, type LastTrustedDeps } from "./handleRequest.js";
import { BODY_STALL_MS, errorBody, isLingering, MAX_BODY_BYTES, sendJson } from "./http.js";
import { listenUnix } from "./listenUnix.js";

export interface StartServerOptions {
  runner: Runner;
  watcher: ConfigWatcher | null;
  /** Listen on this Unix socket (mode 0600)… */
  socketPath?: string;
  /** …or on 127.0.0.1:port (0 = any free port), with a bearer token written to tokenFile. */
  port?: number;
  tokenFile?: string;
  /** The bearer token to require on the port (written to tokenFile too); default: a fresh random one. */
  token?: string;
  /** How long a client may take to send a request; defaults: SERVER_TIMEOUTS. */
  timeouts?: Partial<ServerTimeouts>;
  /** A server-level error after start (e.g. EMFILE on accept): reported, the server goes on. */
  onError?: (error: Error) => void;
  /** Paths in answers are shown relative to this (default: the config's project dir). */
  cwd?: string;
  /** The runner's environment, for the hooks it turns off (HOOKS, HOOKS_DISABLED) in GET /v1/hooks. */
  env?: NodeJS.ProcessEnv;
  /** `hooks serve --trust`: the config runs without a recorded review. */
  trust?: boolean;
  /** The command that reviews and trusts a project's config, as a host's not-run answer names it. */
  trustCommand?: (projectDir: string) => string;
  /** See HandlerDeps.lastTrusted. */
  lastTrusted?: LastTrustedDeps;
}

/**
 * Bounds on receiving a request, so that a slow or stalled client cannot hold a connection (and
 * shutdown) forever. None applies to the response: hooks may run for hours.
 */
export interface ServerTimeouts {
  /** From the first byte of a request to the end of its headers (Node's headersTimeout). */
  headersMs: number;
  /** From the first byte of a request to the end of its body (Node's requestTimeout). */
  requestMs: number;
  /** The longest pause inside a request body. */
  bodyStallMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 60_000, bodyStallMs: BODY_STALL_MS };

export interface RunningServer {
  /** "unix:/path/serve.sock" or "http://127.0.0.1:PORT". */
  readonly url: string;
  /** Stop accepting, let in-flight requests finish, then close the runner (async hooks get `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/** Start `hooks serve` (docs/server.md) over an existing runner; the caller owns signals and logging. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { runner, watcher } = options;
  if ((options.socketPath === undefined) === (options.port === undefined)) throw new HookrunError("startServer needs exactly one of socketPath and port");
  let token: string | null = null;
  if (options.port !== undefined) {
    if (!options.tokenFile) throw new HookrunError("startServer on a port needs tokenFile, where the bearer token is written");
    token = writeTokenFile(options.tokenFile, options.token);
  }
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const handler = createRequestHandler({
    runner,
    watcher,
    token,
    bodyStallMs: timeouts.bodyStallMs,
    cwd: options.cwd,
    env: options.env,
    trust: options.trust,
    trustCommand: options.trustCommand,
    lastTrusted: options.lastTrusted,
  });
  const traffic = new Traffic(handler);
  const server = createHttpServer(traffic, timeouts);
  const url = await listenOn(server, options);
  // After start, an 'error' with no listener would end the process (and every trigger in it).
  server.on("error", (error: Error) => options.onError?.(error));

  let closing: Promise<void> | null = null;
  return {
    url,
    close(graceMs = 5000) {
      closing ??= (async () => {
        await traffic.drain(server);
        await watcher?.close();
        // Async hooks get the grace to finish, then their process groups are killed.
        await runner.close({ graceMs });
        if (token !== null && options.tokenFile) removeTokenIfOurs(options.tokenFile, token);
      })();
      return closing;
    },
  };
}

/**
 * The server's connections and the exchange each is in (from a request's headers to its
 * response's end), and the requests in flight: at shutdown, a connection that has not sent a
 * whole request is closed at once, and the triggers in flight are finished.
 */
class Traffic {
  stopping = false;
  readonly sockets = new Set<Socket>();
  readonly exchanges = new Map<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  private inFlight = 0;
  private idle: (() => void) | null = null;

  constructor(private readonly handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {}

  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // A request pipelined behind a refused body: the connection is closing, nothing of it runs.
    if (isLingering(req.socket)) {
      req.resume();
      return;
    }
    if (this.stopping) {
      sendJson(res, 503, { error: { code: "unavailable", message: "the server is shutting down; retry against the next one" } }, { connection: "close" });
      return;
    }
    const socket = req.socket;
    this.exchanges.set(socket, { req, res });
    res.once("close", () => {
      if (this.exchanges.get(socket)?.req === req) this.exchanges.delete(socket);
    });
    // In flight until the handler is done (the trigger finished, its answer handed to the socket).
    this.inFlight++;
    const settle = (): void => {
      if (--this.inFlight === 0) this.idle?.();
    };
    this.handler(req, res).then(settle, settle);
  };

  /** Stop accepting, close what carries no trigger, wait for the triggers in flight, then close every connection. */
  async drain(server: Server): Promise<void> {
    this.stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Idle connections, and those still sending a request (headers or body), carry no
    // trigger to finish: closed now, or a stalled client would hold the shutdown.
    for (const socket of this.sockets) {
      if (!this.exchanges.get(socket)?.req.complete) socket.destroy();
    }
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    // Answers are written; a client that does not read its answer gets a second to take it.
    server.closeIdleConnections();
    await Promise.race([closed, sleep(1000).then(() => server.closeAllConnections())]);
  }
}

function createHttpServer(traffic: Traffic, timeouts: ServerTimeouts): Server {
  // Node checks both timeouts every connectionsCheckingInterval (30 s by default): often enough
  // here that each bites within a quarter of its value, at most a second late.
  const bounds = [timeouts.headersMs, timeouts.requestMs].filter((ms) => ms > 0);
  const checking = bounds.length === 0 ? 30_000 : Math.min(1000, Math.max(50, Math.floor(Math.min(...bounds) / 4)));
  const server = createServer({ headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: checking }, traffic.onRequest);
  server.on("connection", (socket: Socket) => {
    traffic.sockets.add(socket);
    socket.once("close", () => traffic.sockets.delete(socket));
  });
  // A malformed request, headers or a body too slow: answered as Node would, in JSON, and the
  // connection closed. Without this listener Node answers too, but this one is ours to reason about.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answering = traffic.exchanges.get(socket)?.res.headersSent ?? false;
    if (error.code === "ECONNRESET" || !socket.writable || answering) return void socket.destroy();
    const [status, code, message] = clientErrorAnswer(error, timeouts);
    const body = errorBody(code, message);
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
    socket.end(head + body, () => socket.destroy());
  });
  // `Expect: 100-continue` with a declared body over the limit: answer 413 before the client sends it.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (!traffic.stopping && !(Number(req.headers["content-length"]) > MAX_BODY_BYTES)) res.writeContinue();
    traffic.onRequest(req, res);
  });
  return server;
}

/** Listen on the Unix socket or on 127.0.0.1:port; the server's URL. */
async function listenOn(server: Server, options: Pick<StartServerOptions, "socketPath" | "port">): Promise<string> {
  if (options.socketPath !== undefined) {
    await listenUnix(server, options.socketPath);
    return `unix:${options.socketPath}`;
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new HookrunError(`cannot listen on 127.0.0.1:${options.port}: ${error.message}; choose another --port`, { code: "listen", cause: error })),
    );
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Remove the token file only if it still holds our token (a newer server may have replaced it). */
function removeTokenIfOurs(file: string, token: string): void {
  let onDisk: string | null = null;
  try {
    onDisk = readBoundedText(file, 4096, { what: "token file" }).trim();
  } catch {
    // already gone
  }
  if (onDisk === token) rmSync(file, { force: true });
}

/** Status and message for a request Node's parser refused or timed out. */
function clientErrorAnswer(error: NodeJS.ErrnoException, timeouts: ServerTimeouts): [number, string, string] {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "timeout", `the request did not arrive in time (headers within ${timeouts.headersMs / 1000} s, the whole request within ${timeouts.requestMs / 1000} s)`];
    case "HPE_HEADER_OVERFLOW":
      return [431, "too-large", "the request headers are too large"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "too-large", "the chunk extensions of the request body are too large"];
    default:
      return [400, "bad-request", `malformed HTTP request (${error.code ?? error.message})`];
  }
}

/**
 * Write the token (`given`, else a fresh random one: 32 bytes, hex) to `file`, mode 0600 whatever was there before,
 * atomically: a reader sees the old token or the new one, never a partial file or one readable
 * by others. Its directory is created private (0700).
 */
function writeTokenFile(file: string, given?: string): string {
  const token = given ?? randomBytes(32).toString("hex");
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${token}\n`, 0o600, { exactMode: true });
  return token;
}
