import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

/**
 * `hooks mcp` run in this process (test/helpers/cli.ts runMain): a session of JSON-RPC lines on a
 * stdin the test writes, every answer waited for by id, then stdin ended and the server stopped.
 * The same server as a real process, with signals, is test/mcp.server.test.ts.
 */

const CONFIG = [
  "hooks:",
  "  pre_tool_use:",
  "    - name: no-rm",
  "      matcher: Bash",
  `      command: 'if grep -q "\\"command\\":\\"rm -rf" ; then echo "rm -rf is not allowed here" >&2; exit 2; fi'`,
  "  user_prompt_submit:",
  "    - name: branch",
  "      command: echo on branch main",
  "",
].join("\n");

const line = (message: Record<string, unknown> | string): string => `${typeof message === "string" ? message : JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;

const call = (id: number, event: string, fields: Record<string, string>) => ({
  id,
  method: "tools/call",
  params: { name: "hook", arguments: { host: "claude", event, payload: { session_id: "s-in-process", cwd: "/tmp", hook_event_name: event, ...fields } } },
});

type Answer = { id: string | number | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** The answers of a session, by id (null: the answers to lines that had none), once each line with an id has its answer. */
async function session(dir: string, env: Record<string, string | undefined>, lines: (Record<string, unknown> | string)[], opts: { endEarly?: boolean } = {}) {
  const stdin = new PassThrough();
  let out = "";
  const run = runMain(["mcp", "--host", "claude"], { cwd: dir, env, stdin, onStdout: (t) => (out += t) });
  const answers = (): Answer[] =>
    out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Answer);
  for (const l of lines) stdin.write(line(l));
  // Every line is answered (notifications excepted), then stdin ends: the client went away.
  const expected = lines.filter((l) => typeof l === "string" || Object.hasOwn(l, "id")).length;
  if (!opts.endEarly) await waitFor(() => (answers().length >= expected ? true : null), { timeoutMs: 15_000, what: `${expected} answers from hooks mcp (got: ${out})` });
  stdin.end();
  const r = await run;
  expect(r.code, r.stderr).toBe(0);
  const byId = new Map<string | number | null, Answer[]>();
  for (const a of answers()) byId.set(a.id, [...(byId.get(a.id) ?? []), a]);
  return { byId, stderr: r.stderr };
}

const textOf = (a: { result?: Record<string, unknown> }) => JSON.parse((a.result as { content: { text: string }[] }).content[0].text);

const INIT = { id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } } };

describe("hooks mcp, in process", () => {
  it("a session: initialize, the tool listed, a guard's deny with its reason, a pass, prompt context, ping; it stops when stdin ends", async () => {
    const p = sandbox({ config: CONFIG });
    const { byId, stderr } = await session(p.dir, { ...p.env, HOOKS_TRUST: "1" }, [
      INIT,
      { method: "notifications/initialized" },
      { id: 1, method: "tools/list" },
      call(2, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "rm -rf /" }) }),
      call(3, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) }),
      call(4, "UserPromptSubmit", { prompt: "hello" }),
      { id: 5, method: "ping" },
    ]);
    expect(byId.get(0)?.[0].result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "hookrun" } });
    expect((byId.get(1)![0].result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(["hook"]);
    expect(textOf(byId.get(2)![0])).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "rm -rf is not allowed here" } });
    expect(textOf(byId.get(3)![0])).toEqual({});
    expect(textOf(byId.get(4)![0])).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "on branch main" } });
    expect(byId.get(5)?.[0].result).toEqual({});
    expect(stderr).toMatch(/stdin closed: stopping/);
  });

  it("refuses what is not a valid call, answers each by id, and goes on serving", async () => {
    const p = sandbox({ config: CONFIG });
    const { byId } = await session(p.dir, { ...p.env, HOOKS_TRUST: "1" }, [
      { id: 1, method: "tools/call", params: { name: "hook", arguments: {} } },
      "{not json",
      INIT,
      { id: 2, method: "resources/list" },
      { id: 3, method: "tools/call", params: { name: "other", arguments: {} } },
      { id: 4, method: "tools/call", params: { name: "hook", arguments: { host: "claude", event: "PreToolUse" } } },
      { id: 5, method: "tools/call", params: { name: "hook", arguments: { host: "nobody", event: "PreToolUse", payload: {} } } },
      call(6, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) }),
    ]);
    expect(byId.get(1)?.[0].error).toMatchObject({ code: -32600, message: expect.stringMatching(/before initialize/) });
    expect(byId.get(null)?.[0].error?.code).toBe(-32700);
    expect(byId.get(2)?.[0].error?.code).toBe(-32601);
    expect(byId.get(3)?.[0].error?.code).toBe(-32602);
    // Arguments no entry of hookrun sends: the tool's error, which Claude Code's onFailure "block" reads as a block.
    expect(byId.get(4)?.[0].result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/"payload" must be an object/) }] });
    expect(byId.get(5)?.[0].result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/"host" must name a host/) }] });
    expect(textOf(byId.get(6)![0])).toEqual({});
  });

  it("an untrusted project runs no hook: a guard that asks to fail closed denies, with the reason", async () => {
    const p = sandbox({ config: CONFIG.replace("      matcher: Bash\n", "      matcher: Bash\n      on_failure: block\n") });
    const { byId } = await session(p.dir, p.env, [INIT, call(1, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) })]);
    const answer = textOf(byId.get(1)![0]);
    expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/trust/);
  });

  it("a call cut short by the client leaving answers as the tool's error, never as an allow", async () => {
    const p = sandbox({ config: CONFIG.replace("fi'", "fi; sleep 5'") });
    const { byId } = await session(p.dir, { ...p.env, HOOKS_TRUST: "1" }, [INIT, call(1, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) })], { endEarly: true });
    const answer = byId.get(1)?.[0].result as { isError: boolean; content: { text: string }[] };
    expect(answer.isError).toBe(true);
    expect(answer.content[0].text).toMatch(/cancelled before its hooks finished/);
  });

  it("a bad --host is a usage error", async () => {
    const p = sandbox({ config: CONFIG });
    const r = await runMain(["mcp", "--host", "gemini"], { cwd: p.dir, env: p.env, input: "" });
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/--host gemini/);
  });
});
