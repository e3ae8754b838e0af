import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The scaffold every scripted model server (anthropicModel.ts, openaiChatModel.ts,
 * openaiResponsesModel.ts, geminiModel.ts) shares: listen on 127.0.0.1 (a random port), read each
 * request's body, log requests outside the API in `other`, play the script's turns, write SSE,
 * close. Each server keeps its API's routes and wire format.
 */

export interface ModelCall {
  req: IncomingMessage;
  res: ServerResponse;
  /** `req.method` ("" when missing). */
  method: string;
  /** `req.url` ("/" when missing) and its path (before `?`). */
  url: string;
  pathname: string;
  /** The request body, read to its end. */
  text: string;
  /** When the request arrived (ms since the epoch). */
  at: number;
  /** Log this request in `other` (a request outside the API the server plays). */
  logOther(): void;
}

/** One logged request to a conversation API (main or side), as a test reads it back. */
export interface ScriptedRequest {
  /** Arrival order over all requests (main and side). */
  seq: number;
  method: string;
  url: string;
  /** The parsed JSON body (`null` when there was none or it was not JSON). */
  body: any;
  /** Whether this request belongs to the main conversation. */
  main: boolean;
  /** What was answered: the script turn's index, or -1 for the final text / a side answer. */
  turn: number;
  /** When it arrived and when its answer was written to the end (ms since the epoch). */
  at: number;
  answeredAt: number;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Requests to anything else than the API played: method and url. */
  other: { method: string; url: string }[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A request body parsed as JSON, `null` when there was none or it was not JSON. */
export function parseBody(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Start an SSE answer (status 200, `text/event-stream`). */
export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

/** One SSE event: `event: EVENT` (when given), `data: JSON`, then a blank line (`eol` twice). */
export function sse(res: ServerResponse, data: unknown, event?: string, eol = "\n"): void {
  res.write(`${event === undefined ? "" : `event: ${event}${eol}`}data: ${JSON.stringify(data)}${eol}${eol}`);
}

/**
 * Plays a script: each main request takes the next turn (its index is `turn`) while there is
 * one; after that, and for every side request, the answer is `fallback()` with turn -1.
 */
export function scriptPlayer<T>(script: T[]): (main: boolean, fallback: () => T) => { turn: number; answer: T } {
  let next = 0;
  return (main, fallback) => {
    if (main && next < script.length) {
      const turn = next++;
      return { turn, answer: script[turn] };
    }
    return { turn: -1, answer: fallback() };
  };
}

/**
 * Listen on 127.0.0.1 (a random port) and hand every request, its body read, to `handle`; when
 * `handle` throws (or rejects), `fail` answers.
 */
export async function startModelServer(handle: (call: ModelCall) => void | Promise<void>, fail: (res: ServerResponse, error: unknown) => void): Promise<ModelServer> {
  const other: { method: string; url: string }[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const at = Date.now();
      const method = req.method ?? "";
      const url = req.url ?? "/";
      const text = await readBody(req);
      await handle({ req, res, method, url, pathname: url.split("?")[0], text, at, logOther: () => other.push({ method, url }) });
    })().catch((error: unknown) => fail(res, error));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    other,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
