import { afterEach, describe, expect, it } from "vitest";
import { FINAL_TEXT, messageTexts, type OpenAIChatModel, SIDE_TEXT, startOpenAIChatModel } from "./helpers/openaiChatModel.js";

// The scripted Chat Completions server the OpenAI-speaking agents (Qwen Code, Copilot…) run against.
// Real HTTP on 127.0.0.1; the SSE stream is reassembled the way a Chat Completions client does.

let model: OpenAIChatModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const TOOLS = [{ type: "function", function: { name: "shell", parameters: { type: "object" } } }];

async function post(body: unknown): Promise<Response> {
  if (!model) throw new Error("no model");
  return fetch(`${model.baseUrl}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** Reassemble a streamed answer: text, tool calls (by index), finish reason, and whether [DONE] came last. */
async function readStream(res: Response) {
  const raw = await res.text();
  const datas = raw
    .split("\n\n")
    .filter((e) => e.startsWith("data: "))
    .map((e) => e.slice(6));
  let text = "";
  const calls: { id?: string; name: string; arguments: string }[] = [];
  let finish: string | null = null;
  let usage: unknown;
  for (const d of datas.slice(0, -1)) {
    const c = JSON.parse(d);
    expect(c.object).toBe("chat.completion.chunk");
    if (c.usage) usage = c.usage;
    const choice = c.choices[0];
    if (!choice) continue;
    if (typeof choice.delta.content === "string") text += choice.delta.content;
    for (const t of choice.delta.tool_calls ?? []) {
      calls[t.index] ??= { name: "", arguments: "" };
      if (t.id) calls[t.index].id = t.id;
      if (t.function?.name) calls[t.index].name += t.function.name;
      if (t.function?.arguments) calls[t.index].arguments += t.function.arguments;
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return { text, calls, finish, usage, done: datas.at(-1) === "[DONE]", contentType: res.headers.get("content-type") };
}

describe("openaiChatModel", () => {
  it("plays the script on main requests (tool call, then text), streamed, then the final text", async () => {
    model = await startOpenAIChatModel([{ tool: "shell", input: { command: "echo hi" } }, { text: "All good." }]);
    const a = await readStream(await post({ model: "m", stream: true, tools: TOOLS, messages: [{ role: "user", content: "go" }] }));
    expect(a.contentType).toBe("text/event-stream");
    expect(a).toMatchObject({ finish: "tool_calls", done: true });
    expect(a.calls).toHaveLength(1);
    expect(a.calls[0]).toMatchObject({ name: "shell" });
    expect(a.calls[0].id).toMatch(/^call_/);
    expect(JSON.parse(a.calls[0].arguments)).toEqual({ command: "echo hi" });
    const b = await readStream(await post({ model: "m", stream: true, stream_options: { include_usage: true }, tools: TOOLS, messages: [{ role: "tool", content: "hi" }] }));
    expect(b).toMatchObject({ text: "All good.", calls: [], finish: "stop", done: true });
    expect(b.usage).toMatchObject({ total_tokens: expect.any(Number) });
    const c = await readStream(await post({ model: "m", stream: true, tools: TOOLS, messages: [] }));
    expect(c.text).toBe(FINAL_TEXT);
    expect(model.mainRequests.map((r) => r.turn)).toEqual([0, 1, -1]);
    expect(model.mainRequests[1].body.messages[0].content).toBe("hi");
  });

  it("answers side requests (no tools) without eating the script, and logs them", async () => {
    model = await startOpenAIChatModel([{ text: "scripted" }]);
    const side = await readStream(await post({ model: "m", stream: true, messages: [{ role: "user", content: "summarise" }] }));
    expect(side.text).toBe(SIDE_TEXT);
    const main = await readStream(await post({ model: "m", stream: true, tools: TOOLS, messages: [] }));
    expect(main.text).toBe("scripted");
    expect(model.sideRequests).toHaveLength(1);
    expect(model.sideRequests[0]).toMatchObject({ main: false, turn: -1 });
    expect(model.requests.map((r) => r.seq)).toEqual([0, 1]);
  });

  it("takes a custom isMain, several tool calls in one turn, and answers non-streaming requests whole", async () => {
    model = await startOpenAIChatModel(
      [
        {
          text: "two at once",
          calls: [
            { tool: "a", input: { x: 1 } },
            { tool: "b", input: {} },
          ],
        },
      ],
      { isMain: (b) => b.messages?.[0]?.content === "main", model: "mock-x" },
    );
    const side: any = await (await post({ model: "m", tools: TOOLS, messages: [{ role: "user", content: "memory agent" }] })).json();
    expect(side.choices[0].message).toEqual({ role: "assistant", content: SIDE_TEXT });
    const res = await post({ model: "m", stream: false, messages: [{ role: "user", content: "main" }] });
    expect(res.headers.get("content-type")).toBe("application/json");
    const body: any = await res.json();
    expect(body).toMatchObject({ object: "chat.completion", model: "mock-x" });
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.choices[0].message.content).toBe("two at once");
    expect(body.choices[0].message.tool_calls.map((t: any) => [t.function.name, JSON.parse(t.function.arguments)])).toEqual([
      ["a", { x: 1 }],
      ["b", {}],
    ]);
    expect(model.mainRequests).toHaveLength(1);
  });

  it("lists the model on GET /v1/models, logs other requests, and logs a non-JSON body as null", async () => {
    model = await startOpenAIChatModel([], { model: "mock-model" });
    const list: any = await (await fetch(`${model.baseUrl}/models`)).json();
    expect(list.data.map((m: any) => m.id)).toEqual(["mock-model"]);
    expect(model.other).toEqual([{ method: "GET", url: "/v1/models" }]);
    const res = await fetch(`${model.baseUrl}/chat/completions`, { method: "POST", body: "not json" });
    expect(res.status).toBe(200);
    expect(model.requests[0]).toMatchObject({ body: null, main: false });
    expect(
      messageTexts({
        messages: [
          { content: "a" },
          {
            content: [
              { type: "text", text: "b" },
              { type: "text", text: "c" },
            ],
          },
          {},
        ],
      }),
    ).toEqual(["a", "bc", ""]);
  });
});
