import type { ServerResponse } from "node:http";
import { type ModelServer, parseBody, type ScriptedRequest, scriptPlayer, sendJson, sse as writeSse, sseHead, startModelServer } from "./modelServer.js";

/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, for running the real Claude
 * Code CLI offline. The model's side of the main conversation is a list of assistant turns; every
 * request body is logged so a test can read exactly what the model received.
 *
 * Claude Code also sends side requests (title generation, quota checks, topic detection…). They
 * are told apart from the main conversation by their missing `tools` (the main loop always offers
 * tools), answered with a short text, logged in `sideRequests` and never consume a script turn.
 */

/** One assistant turn of the script: a tool call, or a text answer. */
export type ScriptTurn = { tool: string; input: Record<string, unknown>; text?: string } | { text: string; tool?: undefined };

export type ModelRequest = ScriptedRequest;

export interface AnthropicModel extends ModelServer {
  /** `http://127.0.0.1:PORT`, for ANTHROPIC_BASE_URL. */
  url: string;
  /** Every request to /v1/messages (main and side), in arrival order. */
  requests: ModelRequest[];
  /** The requests of the main conversation. */
  readonly mainRequests: ModelRequest[];
  /** The side requests. */
  readonly sideRequests: ModelRequest[];
}

export interface ModelOptions {
  /** Answered once the script is used up (and to every later main request). */
  finalText?: string;
  /** The answer to side requests. */
  sideText?: string;
  /** The model name reported back. */
  model?: string;
}

export const FINAL_TEXT = "Done.";
export const SIDE_TEXT = "ok";

/** Whether a Messages request body belongs to the main conversation (it offers tools). */
export function isMainRequest(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0;
}

interface Block {
  type: "text" | "tool_use";
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
}

/** The content blocks of one answer. */
function blocksOf(turn: ScriptTurn, id: string): Block[] {
  const blocks: Block[] = [];
  if (turn.text !== undefined) blocks.push({ type: "text", text: turn.text });
  if (turn.tool !== undefined) blocks.push({ type: "tool_use", id, name: turn.tool, input: turn.input });
  return blocks;
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  writeSse(res, data, event);
}

/** Write `blocks` as one streamed Messages response (the SSE events Claude Code parses). */
function stream(res: ServerResponse, messageId: string, model: string, blocks: Block[]): void {
  sseHead(res);
  const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  sse(res, "message_start", {
    type: "message_start",
    message: { id: messageId, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } });
    } else {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  const stopReason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

/** The same answer as one JSON body, for a request with `stream: false`. */
function whole(res: ServerResponse, messageId: string, model: string, blocks: Block[]): void {
  const stopReason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: messageId,
      type: "message",
      role: "assistant",
      model,
      content: blocks,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  );
}

/** Start a model server on 127.0.0.1 (a random port) that plays `script` on the main conversation. */
export async function startAnthropicModel(script: ScriptTurn[], options: ModelOptions = {}): Promise<AnthropicModel> {
  const model = options.model ?? "claude-sonnet-4-5";
  const requests: ModelRequest[] = [];
  const play = scriptPlayer(script);
  let seq = 0;
  let messages = 0;

  const server = await startModelServer(
    ({ res, method, url, pathname, text, at, logOther }) => {
      if (method !== "POST" || pathname !== "/v1/messages") {
        logOther();
        sendJson(res, 200, pathname === "/v1/messages/count_tokens" ? { input_tokens: 10 } : {});
        return;
      }
      const body = parseBody(text);
      const main = isMainRequest(body);
      const { turn, answer } = play(main, () => ({ text: main ? (options.finalText ?? FINAL_TEXT) : (options.sideText ?? SIDE_TEXT) }));
      const logged: ModelRequest = { seq: seq++, method, url, body, main, turn, at, answeredAt: 0 };
      requests.push(logged);
      const n = ++messages;
      const blocks = blocksOf(answer, `toolu_${String(n).padStart(4, "0")}`);
      if (body?.stream === false) whole(res, `msg_${n}`, model, blocks);
      else stream(res, `msg_${n}`, model, blocks);
      logged.answeredAt = Date.now();
    },
    (res, error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
    },
  );
  return {
    ...server,
    requests,
    get mainRequests() {
      return requests.filter((r) => r.main);
    },
    get sideRequests() {
      return requests.filter((r) => !r.main);
    },
  };
}
