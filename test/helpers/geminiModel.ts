import { type ModelServer, parseBody, scriptPlayer, sendJson, sse, sseHead, startModelServer } from "./modelServer.js";

/**
 * A scripted stand-in for the Gemini API (generativelanguage `v1beta/models/*:streamGenerateContent`)
 * on 127.0.0.1, for running the real Gemini CLI offline (`GOOGLE_GEMINI_BASE_URL`). The model's
 * side of the main conversation is a list of turns (a function call, or text); every request body
 * is logged so a test can read exactly what the model received (function responses, hook context).
 *
 * Gemini CLI may send side requests (generateContent without tools: next-speaker checks, loop
 * detection, titles…); they are told apart by their missing `tools`, answered with a short text,
 * logged with `main: false` and never consume a script turn.
 */

/** One model turn of the script: a function call (with optional text before it), or a text answer. */
export type GeminiTurn = { tool: string; args: Record<string, unknown>; text?: string } | { text: string; tool?: undefined };

export interface GeminiRequest {
  /** Arrival order over all requests. */
  seq: number;
  method: string;
  url: string;
  /** `streamGenerateContent`, `generateContent`, `countTokens`, … (the part after `:`). */
  action: string;
  /** The model named in the URL. */
  model: string;
  /** The parsed JSON body (`null` when there was none or it was not JSON). */
  body: any;
  /** Whether this request belongs to the main conversation (it offers tools). */
  main: boolean;
  /** The script turn answered, or -1 for the final text / a side answer. */
  turn: number;
  /** When it arrived and when its answer was written to the end (ms since the epoch; countTokens: both at arrival). */
  at: number;
  answeredAt: number;
}

export interface GeminiModel extends ModelServer {
  /** `http://127.0.0.1:PORT`, for GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** Every generate request (main and side), in arrival order. */
  requests: GeminiRequest[];
  readonly mainRequests: GeminiRequest[];
}

export interface GeminiModelOptions {
  /** Answered once the script is used up (and to every later main request). */
  finalText?: string;
  /** The answer to side requests. */
  sideText?: string;
}

export const FINAL_TEXT = "Done.";
export const SIDE_TEXT = "ok";

/** Whether a generate request belongs to the main conversation (it declares functions). */
export function isMainRequest(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.some((t: any) => Array.isArray(t?.functionDeclarations) && t.functionDeclarations.length > 0);
}

/** The response object of one turn (one candidate, finished). */
function responseOf(turn: GeminiTurn): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  if (turn.text !== undefined) parts.push({ text: turn.text });
  if (turn.tool !== undefined) parts.push({ functionCall: { name: turn.tool, args: turn.args } });
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-2.5-flash",
  };
}

// `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`
const GENERATE = /\/models\/([^/:?]+):([A-Za-z]+)/;

/** Start a model server on 127.0.0.1 (a random port) that plays `script` on the main conversation. */
export async function startGeminiModel(script: GeminiTurn[], options: GeminiModelOptions = {}): Promise<GeminiModel> {
  const requests: GeminiRequest[] = [];
  const play = scriptPlayer(script);
  let seq = 0;

  const server = await startModelServer(
    ({ res, method, url, pathname, text, at, logOther }) => {
      const m = GENERATE.exec(pathname);
      if (method !== "POST" || !m) {
        logOther();
        sendJson(res, 404, { error: { code: 404, message: `not served: ${url}`, status: "NOT_FOUND" } });
        return;
      }
      const [, model, action] = m;
      const body = parseBody(text);
      if (action === "countTokens") {
        requests.push({ seq: seq++, method, url, action, model, body, main: false, turn: -1, at, answeredAt: at });
        sendJson(res, 200, { totalTokens: 10 });
        return;
      }
      const main = isMainRequest(body);
      const { turn, answer } = play(main, () => ({ text: main ? (options.finalText ?? FINAL_TEXT) : (options.sideText ?? SIDE_TEXT) }));
      const logged: GeminiRequest = { seq: seq++, method, url, action, model, body, main, turn, at, answeredAt: 0 };
      requests.push(logged);
      const response = responseOf(answer);
      if (action === "streamGenerateContent") {
        sseHead(res);
        sse(res, response, undefined, "\r\n");
        res.end();
      } else sendJson(res, 200, response);
      logged.answeredAt = Date.now();
    },
    (res, error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: String(error), status: "INTERNAL" } });
      else res.end();
    },
  );
  return {
    ...server,
    requests,
    get mainRequests() {
      return requests.filter((r) => r.main);
    },
  };
}

/** The text of every part of a request's contents, one line per part: `[role] text: …` / `functionCall` / `functionResponse`. */
export function conversation(body: any): string[] {
  const out: string[] = [];
  for (const c of body?.contents ?? []) {
    for (const p of c?.parts ?? []) {
      if (typeof p.text === "string") out.push(`[${c.role}] text: ${p.text}`);
      else if (p.functionCall) out.push(`[${c.role}] functionCall ${p.functionCall.name}: ${JSON.stringify(p.functionCall.args)}`);
      else if (p.functionResponse) out.push(`[${c.role}] functionResponse ${p.functionResponse.name}: ${JSON.stringify(p.functionResponse.response)}`);
      else out.push(`[${c.role}] ${Object.keys(p).join(",")}`);
    }
  }
  return out;
}
