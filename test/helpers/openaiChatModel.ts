import type { ServerResponse } from "node:http";
import { type ModelServer, parseBody, type ScriptedRequest, scriptPlayer, sendJson, sse, sseHead, startModelServer } from "./modelServer.js";

/**
 * A scripted stand-in for the OpenAI Chat Completions API on 127.0.0.1, for running a real agent
 * CLI that speaks it (`OPENAI_BASE_URL=<url>/v1`) offline. The model's side of the main
 * conversation is a list of assistant turns; every request body is logged so a test can read
 * exactly what the model received.
 *
 * Agents also send side requests (titles, summaries, next-speaker checks, memory agents…). By
 * default a request belongs to the main conversation when it offers `tools`; a test whose agent
 * offers tools on side requests too passes its own `isMain`. Side requests are answered with a
 * short text, logged, and never consume a script turn.
 *
 * Answers are streamed as SSE `chat.completion.chunk`s (role, `delta.content`, `delta.tool_calls`,
 * `finish_reason`, an optional usage chunk, `data: [DONE]`) unless the request says
 * `stream: false`, which gets one `chat.completion` body. GET /v1/models lists the model.
 */

/** One assistant turn of the script: one or more tool calls (with optional text), or a text answer. */
export type ScriptTurn =
  | { tool: string; input: Record<string, unknown>; text?: string; calls?: undefined }
  | { calls: { tool: string; input: Record<string, unknown> }[]; text?: string; tool?: undefined }
  | { text: string; tool?: undefined; calls?: undefined };

export type ChatRequest = ScriptedRequest;

export interface OpenAIChatModel extends ModelServer {
  /** `http://127.0.0.1:PORT` (append `/v1` for OPENAI_BASE_URL: see `baseUrl`). */
  url: string;
  /** `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Every chat-completions request (main and side), in arrival order. */
  requests: ChatRequest[];
  readonly mainRequests: ChatRequest[];
  readonly sideRequests: ChatRequest[];
}

export interface ChatModelOptions {
  /** Answered once the script is used up (and to every later main request). */
  finalText?: string;
  /** The answer to side requests. */
  sideText?: string;
  /** The model name reported back (and listed by GET /v1/models). */
  model?: string;
  /** Which requests belong to the main conversation; default `offersTools`. */
  isMain?: (body: any) => boolean;
}

export const FINAL_TEXT = "Done.";
export const SIDE_TEXT = "ok";

/** Whether a chat-completions body offers tools (the default test for the main conversation). */
export function offersTools(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

/** The text of every message of a request, in order, one string per message (for assertions). */
export function messageTexts(body: any): string[] {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  return messages.map((m) => {
    if (typeof m?.content === "string") return m.content;
    if (Array.isArray(m?.content)) return m.content.map((p: any) => (typeof p?.text === "string" ? p.text : "")).join("");
    return "";
  });
}

interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

function callsOf(turn: ScriptTurn, n: number): ToolCall[] {
  const list = turn.calls ?? (turn.tool !== undefined ? [{ tool: turn.tool, input: turn.input }] : []);
  return list.map((c, i) => ({ id: `call_${String(n).padStart(4, "0")}_${i}`, name: c.tool, arguments: JSON.stringify(c.input) }));
}

function chunk(res: ServerResponse, data: unknown): void {
  sse(res, data);
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** Write one streamed answer as the SSE chunks a Chat Completions client parses. */
function stream(res: ServerResponse, id: string, model: string, text: string | undefined, calls: ToolCall[], usage: boolean): void {
  sseHead(res);
  const created = Math.floor(Date.now() / 1000);
  const base = { id, object: "chat.completion.chunk", created, model };
  chunk(res, { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
  if (text !== undefined) chunk(res, { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
  calls.forEach((c, index) => {
    chunk(res, {
      ...base,
      choices: [{ index: 0, delta: { tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }, finish_reason: null }],
    });
    chunk(res, { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: c.arguments } }] }, finish_reason: null }] });
  });
  chunk(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }] });
  if (usage) chunk(res, { ...base, choices: [], usage: USAGE });
  res.write("data: [DONE]\n\n");
  res.end();
}

/** The same answer as one JSON body, for a request with `stream: false` (or no `stream`). */
function whole(res: ServerResponse, id: string, model: string, text: string | undefined, calls: ToolCall[]): void {
  const message: Record<string, unknown> = { role: "assistant", content: text ?? null };
  if (calls.length > 0) message.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: calls.length > 0 ? "tool_calls" : "stop", logprobs: null }],
      usage: USAGE,
    }),
  );
}

/** Start a Chat Completions server on 127.0.0.1 (a random port) that plays `script` on the main conversation. */
export async function startOpenAIChatModel(script: ScriptTurn[], options: ChatModelOptions = {}): Promise<OpenAIChatModel> {
  const model = options.model ?? "mock-model";
  const isMain = options.isMain ?? offersTools;
  const requests: ChatRequest[] = [];
  const play = scriptPlayer(script);
  let seq = 0;
  let answers = 0;

  const server = await startModelServer(
    ({ res, method, url, pathname, text, at, logOther }) => {
      if (method !== "POST" || !pathname.endsWith("/chat/completions")) {
        logOther();
        sendJson(res, 200, method === "GET" && pathname.endsWith("/models") ? { object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "test" }] } : {});
        return;
      }
      const body = parseBody(text);
      const main = body !== null && isMain(body);
      const { turn, answer } = play(main, () => ({ text: main ? (options.finalText ?? FINAL_TEXT) : (options.sideText ?? SIDE_TEXT) }));
      const logged: ChatRequest = { seq: seq++, method, url, body, main, turn, at, answeredAt: 0 };
      requests.push(logged);
      const n = ++answers;
      const calls = callsOf(answer, n);
      if (body?.stream === true) stream(res, `chatcmpl-${n}`, model, answer.text, calls, body?.stream_options?.include_usage === true);
      else whole(res, `chatcmpl-${n}`, model, answer.text, calls);
      logged.answeredAt = Date.now();
    },
    (res, error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "server_error", message: String(error) } }));
    },
  );
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    requests,
    get mainRequests() {
      return requests.filter((r) => r.main);
    },
    get sideRequests() {
      return requests.filter((r) => !r.main);
    },
  };
}
