import type { IncomingMessage } from "node:http";
import { HttpError } from "./httpError.js";

/** SPEC §12: a context larger than this is refused with 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `the request body is over ${limit / 1024 / 1024} MiB; send a smaller context`, { limit_bytes: limit }, { connection: "close" });
}

/**
 * Read a request body as a JSON object. A body over the limit is refused as soon as it is seen
 * (by Content-Length, or by counting) without buffering the rest; an empty body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks, size).toString("utf8");
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
