import type { ServerResponse } from "node:http";
import { type ModelServer, parseBody, scriptPlayer, sendJson, sse as writeSse, sseHead, startModelServer } from "./modelServer.js";

/**
 * A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, streamed as SSE) on
 * 127.0.0.1, for running the real Codex CLI offline. The model's side of the conversation is a
 * list of turns (a tool call, or a text answer); every request body is logged so a test can read
 * exactly what the model received (tool outputs, hook feedback, developer messages).
 *
 * Each answer is three events, the ones Codex needs: `response.created`, one
 * `response.output_item.done` per output item (a `function_call`, a `custom_tool_call` for
 * freeform tools such as apply_patch, or an assistant `message`), and `response.completed`.
 */

/** One turn of the script: a tool call (function or freeform), or a text answer. */
export type ScriptTurn =
  | { tool: string; arguments: Record<string, unknown>; text?: string; custom?: undefined }
  | { tool: string; custom: string; text?: string; arguments?: undefined }
  | { text: string; tool?: undefined };

export interface ModelRequest {
  /** Arrival order. */
  seq: number;
  method: string;
  url: string;
  /** The parsed JSON body (`null` when there was none or it was not JSON). */
  body: any;
  /** What was answered: the script turn's index, or -1 for the final text. */
  turn: number;
  /** When it arrived and when its answer was written to the end (ms since the epoch). */
  at: number;
  answeredAt: number;
}

export interface ResponsesModel extends ModelServer {
  /** `http://127.0.0.1:PORT/v1`, for a model provider's `base_url`. */
  url: string;
  /** Every POST to /v1/responses, in arrival order. */
  requests: ModelRequest[];
}

export interface ModelOptions {
  /** Answered once the script is used up (and to every later request). */
  finalText?: string;
  /** The model name reported back. */
  model?: string;
}

export const FINAL_TEXT = "Done.";

/** The output items of one answer. */
export function itemsOf(turn: ScriptTurn, n: number): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (turn.text !== undefined) items.push({ type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text, annotations: [] }] });
  if (turn.tool !== undefined) {
    const call_id = `call_${String(n).padStart(4, "0")}`;
    if (turn.custom !== undefined) items.push({ type: "custom_tool_call", id: `ctc_${n}`, status: "completed", call_id, name: turn.tool, input: turn.custom });
    else items.push({ type: "function_call", id: `fc_${n}`, status: "completed", call_id, name: turn.tool, arguments: JSON.stringify(turn.arguments) });
  }
  return items;
}

function sse(res: ServerResponse, data: { type: string }): void {
  writeSse(res, data, data.type);
}

function stream(res: ServerResponse, id: string, model: string, items: Record<string, unknown>[]): void {
  sseHead(res);
  const created_at = Math.floor(Date.now() / 1000);
  sse(res, { type: "response.created", response: { id, object: "response", created_at, model, status: "in_progress", output: [] } } as { type: string });
  items.forEach((item, output_index) => sse(res, { type: "response.output_item.done", output_index, item } as { type: string }));
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  sse(res, { type: "response.completed", response: { id, object: "response", created_at, model, status: "completed", output: items, usage } } as { type: string });
  res.end();
}

/** Start a Responses server on 127.0.0.1 (a random port) that plays `script`, then `finalText`. */
export async function startResponsesModel(script: ScriptTurn[], options: ModelOptions = {}): Promise<ResponsesModel> {
  const model = options.model ?? "gpt-mock";
  const requests: ModelRequest[] = [];
  const play = scriptPlayer(script);
  let seq = 0;

  const server = await startModelServer(
    ({ res, method, url, pathname, text, at, logOther }) => {
      if (method !== "POST" || pathname !== "/v1/responses") {
        logOther();
        if (pathname === "/v1/models") sendJson(res, 200, { object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "mock" }] });
        else sendJson(res, 404, { error: { message: `not served: ${method} ${pathname}` } });
        return;
      }
      const body = parseBody(text);
      const { turn, answer } = play(true, () => ({ text: options.finalText ?? FINAL_TEXT }));
      const n = seq++;
      const logged: ModelRequest = { seq: n, method, url, body, turn, at, answeredAt: 0 };
      requests.push(logged);
      stream(res, `resp_${n}`, model, itemsOf(answer, n));
      logged.answeredAt = Date.now();
    },
    (res, error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "server_error", message: String(error) } }));
    },
  );
  return { ...server, url: `${server.url}/v1`, requests };
}
