import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import type { HookResult } from "../src/runner/types.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox({ survivors: true });

// Run one hook printing `stdout` (via printf, so the bytes are exact) on `event`.
async function printing(stdout: string, event = "stop", exit = 0): Promise<HookResult> {
  const file = `${sb.current.dir}/out`;
  const { writeFileSync } = await import("node:fs");
  writeFileSync(file, stdout);
  const r = await createRunner(config(sb.current.dir, [hook("h", event, { command: `cat '${file}'; exit ${exit}` })]), { runLog: false, cwd: sb.current.dir }).trigger(event, {});
  return r.hooks[0];
}

describe("what a hook prints: the five rules (docs/running-hooks.md)", () => {
  it("1. empty or whitespace only: nothing", async () => {
    const r = await printing("  \n\t\n");
    expect(r).toMatchObject({ status: "ok", messages: [], decision: null });
  });

  it("2. one JSON object is an output object; an array is a list of Messages", async () => {
    expect((await printing(`{"content":"hi","role":"user","hide":true}`)).messages).toEqual([{ role: "user", content: "hi", hide: true, hook: "h" }]);
    expect((await printing(`["plain", {"content":"x","pinned":true}]`)).messages).toEqual([
      { role: "system", content: "plain", hook: "h" },
      { role: "system", content: "x", pinned: true, hook: "h" },
    ]);
    const pretty = await printing(`{\n  "messages": [\n    "a",\n    {"role":"assistant","content":"b"}\n  ]\n}\n`);
    expect(pretty.messages.map((m) => m.content)).toEqual(["a", "b"]);
  });

  it("3. JSON Lines: every non-empty line an object, applied in order, several messages", async () => {
    const r = await printing(`{"content":"one"}\n\n{"messages":["two","three"]}\n{"system_message":"four"}\n`);
    expect(r.status).toBe("ok");
    expect(r.messages.map((m) => m.content)).toEqual(["one", "two", "three", "four"]);
  });

  it("4. starts with { or [ but is not JSON: invalid output with the parse error position; no messages", async () => {
    const r = await printing(`{"content": "a",\n  "oops" }\n`);
    expect(r.status).toBe("invalid_output");
    expect(r.messages).toEqual([]);
    expect(r.error).toMatch(/not valid JSON: .* at line 2:\d+/);
    expect((await printing(`[1, 2`)).status).toBe("invalid_output");
  });

  it("5. anything else is one plain-text system Message (trimmed); a JSON scalar too", async () => {
    expect((await printing("\n  All tests pass.\nCoverage 91%\n\n")).messages).toEqual([{ role: "system", content: "All tests pass.\nCoverage 91%", hook: "h" }]);
    expect((await printing("42\n")).messages).toEqual([{ role: "system", content: "42", hook: "h" }]);
    expect((await printing(`"done"`)).messages).toEqual([{ role: "system", content: `"done"`, hook: "h" }]);
  });

  it("decodes invalid UTF-8 with replacement", async () => {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(`${sb.current.dir}/bin`, Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x21]));
    const r = await createRunner(config(sb.current.dir, [hook("h", "stop", { command: `cat '${sb.current.dir}/bin'` })]), { runLog: false, cwd: sb.current.dir }).trigger("stop", {});
    expect(r.hooks[0].stdout).toBe("ok\uFFFD\uFFFD!");
  });
});

describe("output object fields, snake_case and Claude Code camelCase (docs/running-hooks.md)", () => {
  it("Claude's hookSpecificOutput: permissionDecision deny blocks with its reason; additionalContext and updatedInput", async () => {
    const r = await printing(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not here", additionalContext: "ctx", updatedInput: { a: 1 } },
        systemMessage: "sys",
      }),
      "pre_tool_use",
    );
    expect(r).toMatchObject({ status: "blocked", decision: "block", reason: "not here", updated_input: { a: 1 } });
    expect(r.messages.map((m) => m.content)).toEqual(["sys", "ctx"]);
  });

  it("approve = allow, deny = block, ask kept; allow does not block", async () => {
    expect(await printing(`{"decision":"approve","reason":"ok"}`, "pre_tool_use")).toMatchObject({ status: "ok", decision: "allow" });
    expect(await printing(`{"decision":"deny","reason":"no"}`, "pre_tool_use")).toMatchObject({ status: "blocked", decision: "block", reason: "no" });
    expect(await printing(`{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "pre_tool_use")).toMatchObject({ status: "ok", decision: "ask" });
  });

  it("snake_case spellings: additional_context, updated_input, stop_reason; unknown fields kept as json", async () => {
    const r = await printing(JSON.stringify({ additional_context: "c", updated_input: [1], continue: false, stop_reason: "s", custom: { x: 1 } }));
    expect(r).toMatchObject({ status: "ok", updated_input: [1], continue: false, stop_reason: "s", json: { custom: { x: 1 } } });
    expect(r.messages.map((m) => m.content)).toEqual(["c"]);
  });

  it("an object breaking the types is invalid output naming the field", async () => {
    expect(await printing(`{"messages":[{"role":"system"}]}`)).toMatchObject({ status: "invalid_output", error: expect.stringMatching(/messages\[0\]\.content/) });
    expect(await printing(`{"content":"x","role":"robot"}`)).toMatchObject({ status: "invalid_output", error: expect.stringMatching(/role/) });
    expect(await printing(`{"decision":1}`)).toMatchObject({ status: "invalid_output", error: expect.stringMatching(/decision/) });
  });

  it("stdout is not parsed on a failing exit code other than 2", async () => {
    expect(await printing(`{"decision":"block"}`, "pre_tool_use", 1)).toMatchObject({ status: "failed", exit_code: 1, decision: null, messages: [] });
  });
});
