import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ConfigError, ContextError, HookrunError, InterruptedError, TrustError, UnknownHookError, UsageError } from "../errors.js";
import { errorJson } from "../report/json.js";
import { parseContext } from "../runner/context.js";
import type { HookContext } from "../runner/types.js";

// HTTP plumbing of `hooks serve` (docs/server.md): reading a request (token, JSON body within bounds)
// and writing an answer (JSON, errors as `{"error": {code, message, …}}` with their status).

// The `code` of an HTTP-level error, by status: what the client did wrong.
const HTTP_CODES: Record<number, string> = {
  400: "bad-request",
  401: "unauthorized",
  404: "not-found",
  405: "method-not-allowed",
  408: "timeout",
  413: "too-large",
  431: "too-large",
  503: "unavailable",
};

/** A request the server answers with an error status; `extra` joins the error's JSON object. */
export class HttpError extends HookrunError {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message, { code: HTTP_CODES[status] ?? "http" });
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

/** The JSON body of an error answer: the one error shape of hookrun (report/json.ts). */
export function errorBody(code: string, message: string): string {
  return `${JSON.stringify({ error: { code, message } })}\n`;
}

/** Write one JSON response (a trailing newline, so `curl` output ends cleanly). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * The one place the server turns an error into a status and a JSON body; paths in it are shown
 * relative to `base` (the server's working directory) as everywhere else.
 */
export function errorResponse(error: unknown, base: string): { status: number; body: ReturnType<typeof errorJson>; headers: Record<string, string> } {
  const body = errorJson(error, base);
  if (error instanceof HttpError) return { status: error.status, body: { error: { ...body.error, ...error.extra } }, headers: error.headers };
  if (error instanceof UsageError) return { status: 404, body, headers: {} };
  if (error instanceof ContextError || error instanceof UnknownHookError) return { status: 400, body, headers: {} };
  if (error instanceof TrustError) return { status: 403, body, headers: {} };
  if (error instanceof ConfigError) return { status: 422, body, headers: {} };
  if (error instanceof InterruptedError) {
    return { status: 503, body: { error: { code: "unavailable", message: "the server is shutting down; retry against the next one" } }, headers: { connection: "close" } };
  }
  return { status: 500, body, headers: {} };
}

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/**
 * Require `Authorization: Bearer <token>`. Both sides are hashed first so the comparison is
 * constant-time whatever the length of what the client sent.
 */
export function checkBearer(req: IncomingMessage, token: string): void {
  // A string for a well-formed request; anything else (absent, repeated) is no token.
  const raw: unknown = req.headers.authorization;
  const header = typeof raw === "string" ? raw : "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const challenge = { "www-authenticate": 'Bearer realm="hookrun"' };
  if (!match) throw new HttpError(401, "missing bearer token; send `Authorization: Bearer $(cat $HOOKS_STATE_DIR/serve.token)`", {}, challenge);
  if (!timingSafeEqual(digest(match[1]), digest(token))) throw new HttpError(401, "wrong bearer token; read the current one from serve.token in the state directory", {}, challenge);
}

/** docs/server.md#bounds: a context larger than this is refused with 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * How long, after refusing a body the client is still sending, the server goes on reading (and
 * dropping) it before closing: nginx's lingering close. Closing at once, as Node does after a
 * `connection: close` answer, makes the client's next write fail (EPIPE on a Unix socket, a reset
 * on TCP that can discard the answer unread), so a client often saw an error instead of the 413.
 */
export const LINGER_MS = 2000;

/** Connections answered with a refusal and closing by lingering: nothing more on them is handled. */
const lingering = new WeakSet<object>();

/**
 * Whether `socket` is closing after a refused body: a request pipelined behind the refusal is
 * parsed while the rest is read and dropped, and must not run (its answer could not be sent).
 */
export function isLingering(socket: object): boolean {
  return lingering.has(socket);
}

/**
 * Make the connection of `req` close by lingering. Until the answer is written the body is not
 * read (the client is pushed back, as before). Once it is, our side is shut (the client reads the
 * answer, then end of file), what the client still sends is read and dropped for up to LINGER_MS,
 * and the socket is destroyed then, or when the client closes first. Nothing is kept. Node ends a
 * `connection: close` exchange with `socket.destroySoon()`; this socket's own replaces it (were
 * Node ever to stop calling it, the connection would close at once, as it used to).
 */
function lingerAfterAnswer(req: IncomingMessage): void {
  const socket = req.socket as Socket;
  lingering.add(socket);
  socket.destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once("close", () => clearTimeout(timer));
    socket.once("end", () => socket.destroy());
    socket.end();
    req.resume();
  };
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `the request body is over ${limit / 1024 / 1024} MiB; send a smaller context`, { limit_bytes: limit }, { connection: "close" });
}

/** docs/server.md#bounds: a body that sends nothing for this long is answered 408 and its connection closed. */
export const BODY_STALL_MS = 10_000;

function stalled(ms: number): HttpError {
  return new HttpError(408, `the request body stalled: nothing arrived for ${ms / 1000} s; send the whole context at once`, { stall_ms: ms }, { connection: "close" });
}

/** The raw body, refused as soon as it is over `limit` or idle for `stallMs`. */
function readBody(req: IncomingMessage, limit: number, stallMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      if (stallMs > 0) timer = setTimeout(() => fail(stalled(stallMs)), stallMs);
    };
    const done = (): void => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", fail).off("close", onClose);
    };
    // Stop reading on a refusal: the answer goes out with `connection: close`, and the socket
    // is closed once it is written (after a linger, for a body refused as too large).
    function fail(error: Error): void {
      done();
      req.pause();
      reject(error);
    }
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > limit) {
        fail(tooLarge(limit));
        lingerAfterAnswer(req);
        return;
      }
      chunks.push(chunk);
      arm();
    }
    function onEnd(): void {
      done();
      resolve(Buffer.concat(chunks, size));
    }
    function onClose(): void {
      fail(new HttpError(400, "the client closed the connection before the end of the request body"));
    }
    req.on("data", onData).on("end", onEnd).on("error", fail).on("close", onClose);
    arm();
  });
}

/**
 * Read a request body as a context: one JSON object, checked as every door checks it (a
 * ContextError, answered 400). A body over the limit is refused as soon as it is seen (by
 * Content-Length, or by counting) without buffering the rest; so is a body that stalls; an empty
 * body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES, stallMs = BODY_STALL_MS): Promise<HookContext> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    lingerAfterAnswer(req);
    throw tooLarge(limit);
  }
  const body = await readBody(req, limit, stallMs);
  return parseContext(body.toString("utf8"), "in the request body");
}
