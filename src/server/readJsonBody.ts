import type { IncomingMessage } from "node:http";
import { HttpError } from "./httpError.js";

/** SPEC §12: a context larger than this is refused with 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `the request body is over ${limit / 1024 / 1024} MiB; send a smaller context`, { limit_bytes: limit }, { connection: "close" });
}

/** SPEC §12: a body that sends nothing for this long is answered 408 and its connection closed. */
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
    // is closed once it is written, whatever the client still sends.
    function fail(error: Error): void {
      done();
      req.pause();
      reject(error);
    }
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > limit) return fail(tooLarge(limit));
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
 * Read a request body as a JSON object. A body over the limit is refused as soon as it is seen
 * (by Content-Length, or by counting) without buffering the rest; so is a body that stalls; an
 * empty body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES, stallMs = BODY_STALL_MS): Promise<Record<string, unknown>> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const body = await readBody(req, limit, stallMs);
  const text = body.toString("utf8");
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the request body is not valid JSON (${(error as Error).message}); send the context as a JSON object`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new HttpError(400, `the request body is ${kind}; send the context as a JSON object`);
  }
  return value as Record<string, unknown>;
}
