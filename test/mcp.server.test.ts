import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, cliEnv } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

/**
 * `hooks mcp` (src/server/mcpProtocol.ts, src/cli/actions/mcp.ts) as an agent runs it: a real
 * process, JSON-RPC lines on its stdin and stdout. Each call of its `hook` tool goes through the
 * one path `hooks run --host` takes, so trust and blocking guards hold as there.
 */

const CONFIG = [
  "hooks:",
  "  pre_tool_use:",
  "    - name: no-rm",
  "      matcher: Bash",
  // The context on stdin holds tool_input as an object again (its text from the call parsed): `"command":"rm` matches only then.
  `      command: 'if grep -q "\\"command\\":\\"rm -rf" ; then echo "rm -rf is not allowed here" >&2; exit 2; fi'`,
  "  user_prompt_submit:",
  "    - name: branch",
  "      command: echo on branch main",
  "",
].join("\n");

interface Mcp {
  child: ChildProcessWithoutNullStreams;
  /** Send one message (an object) or a raw line. */
  send(message: Record<string, unknown> | string): void;
  /** The next message the server wrote. */
  next(): Promise<Record<string, unknown>>;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Mcp[] = [];
afterEach(async () => {
  for (const m of running.splice(0)) {
    if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill("SIGKILL");
    await m.exited;
  }
});

function startMcp(dir: string, env: Record<string, string | undefined>, args: string[] = ["mcp", "--host", "claude"]): Mcp {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: cliEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => {});
  let buffered = "";
  let err = "";
  const lines: string[] = [];
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    buffered += d;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  const m: Mcp = {
    child,
    send: (message) => child.stdin.write(`${typeof message === "string" ? message : JSON.stringify({ jsonrpc: "2.0", ...message })}\n`),
    next: async () => JSON.parse(await waitFor(() => lines.shift() ?? null, { timeoutMs: 15_000, what: `a message from hooks mcp (stderr: ${err})` })),
    stderr: () => err,
    exited,
  };
  running.push(m);
  return m;
}

async function initialized(m: Mcp): Promise<void> {
  m.send({ id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } } });
  expect(await m.next()).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25", serverInfo: { name: "hookrun" }, capabilities: { tools: {} } } });
  m.send({ method: "notifications/initialized" });
}

/** A tool call carrying a Claude Code payload as the installed entries template it: every field as text. */
const hookCall = (id: number, event: string, fields: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  id,
  method: "tools/call",
  params: { name: "hook", arguments: { host: "claude", event, ...extra, payload: { session_id: "s-mcp", cwd: "/tmp", hook_event_name: event, tool_use_id: "", ...fields } } },
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const textOf = (m: Record<string, unknown>) => JSON.parse((m.result as { content: { text: string }[] }).content[0].text);

describe("hooks mcp: the warm MCP server", () => {
  it("answers a blocking guard with Claude's deny and its reason, and context for the prompt; the tool is listed", async () => {
    const p = sandbox({ config: CONFIG });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    await initialized(m);
    m.send({ id: 1, method: "tools/list" });
    expect(((await m.next()).result as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(["hook"]);
    m.send(hookCall(2, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "rm -rf /" }) }));
    const deny = await m.next();
    expect(deny).toMatchObject({ id: 2, result: { isError: false } });
    expect(textOf(deny)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "rm -rf is not allowed here" } });
    m.send(hookCall(3, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) }));
    expect(textOf(await m.next())).toEqual({});
    m.send(hookCall(4, "UserPromptSubmit", { prompt: "hello" }));
    expect(textOf(await m.next())).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "on branch main" } });
    m.send({ id: 5, method: "ping" });
    expect(await m.next()).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
  });

  it("an untrusted project: the prompt is told the hooks are off; a guard that asks to fail closed blocks", async () => {
    const p = sandbox({ config: CONFIG.replace("      matcher: Bash\n", "      matcher: Bash\n      on_failure: block\n") });
    const m = startMcp(p.dir, p.env);
    await initialized(m);
    m.send(hookCall(1, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) }));
    const blocked = textOf(await m.next());
    expect(blocked.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(blocked.hookSpecificOutput.permissionDecisionReason).toMatch(/not trusted|trust/);
    m.send(hookCall(2, "UserPromptSubmit", { prompt: "hi" }));
    expect(JSON.stringify(textOf(await m.next()))).toMatch(/trust/);
  });

  it("refuses bad JSON, a non-object, an unknown method, a call before initialize, an unknown tool and bad arguments, and goes on serving", async () => {
    const p = sandbox({ config: CONFIG });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    m.send({ id: 1, method: "tools/call", params: { name: "hook", arguments: {} } });
    expect(await m.next()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringMatching(/before initialize/) } });
    m.send({ id: "d", method: "server/discover" });
    expect(await m.next()).toMatchObject({ id: "d", error: { code: -32601 } });
    m.send("{not json");
    expect(await m.next()).toMatchObject({ id: null, error: { code: -32700 } });
    m.send("[1,2]");
    expect(await m.next()).toMatchObject({ id: null, error: { code: -32600 } });
    await initialized(m);
    m.send({ id: 2, method: "resources/list" });
    expect(await m.next()).toMatchObject({ id: 2, error: { code: -32601 } });
    m.send({ id: 3, method: "tools/call", params: { name: "other", arguments: {} } });
    expect(await m.next()).toMatchObject({ id: 3, error: { code: -32602 } });
    m.send({ id: 4, method: "tools/call", params: { name: "hook", arguments: { host: "gemini", event: "PreToolUse", payload: {} } } });
    expect(await m.next()).toMatchObject({ id: 4, result: { isError: true } });
    m.send({ id: 5, method: "tools/call", params: { name: "hook", arguments: { host: "claude", event: "PreToolUse", payload: { tool_input: "{broken" } } } });
    expect(await m.next()).toMatchObject({ id: 5, result: { isError: true, content: [{ text: expect.stringMatching(/tool_input.*not JSON/) }] } });
    m.send({ method: "notifications/unknown" });
    m.send({ id: 6, method: "ping" });
    expect(await m.next()).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
  });

  it("refuses a line over the limit without holding it, and reads the next one", async () => {
    const p = sandbox({ config: CONFIG });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    await initialized(m);
    const big = "x".repeat(11 * 1024 * 1024);
    m.child.stdin.write(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"${big}"}}\n`);
    expect(await m.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/too large/) } });
    m.send({ id: 10, method: "ping" });
    expect(await m.next()).toEqual({ jsonrpc: "2.0", id: 10, result: {} });
  });

  it("on SIGTERM kills a hook in flight and exits 0, leaving no process behind", async () => {
    const p = sandbox({ config: ["hooks:", "  pre_tool_use:", "    - name: slow", "      command: 'echo $$ > slow.pid; sleep 30'", ""].join("\n") });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    await initialized(m);
    m.send(hookCall(1, "PreToolUse", { tool_name: "Bash", tool_input: "{}" }));
    const pid = Number(await waitFor(() => (existsSync(p.path("slow.pid")) ? readFileSync(p.path("slow.pid"), "utf8").trim() || null : null), { timeoutMs: 15_000, what: "the slow hook" }));
    m.child.kill("SIGTERM");
    expect((await m.exited).code).toBe(0);
    await waitFor(
      () => {
        try {
          process.kill(pid, 0);
          return null;
        } catch {
          return true;
        }
      },
      { timeoutMs: 10_000, what: "the hook's end" },
    );
  });

  it("notifications/cancelled stops that call's hooks, and the call still answers, as the tool's error (never an allow)", async () => {
    const p = sandbox({ config: ["hooks:", "  pre_tool_use:", "    - name: slow", "      command: 'echo $$ > slow.pid; sleep 30'", ""].join("\n") });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    await initialized(m);
    m.send(hookCall(1, "PreToolUse", { tool_name: "Bash", tool_input: "{}" }));
    const pid = Number(await waitFor(() => (existsSync(p.path("slow.pid")) ? readFileSync(p.path("slow.pid"), "utf8").trim() || null : null), { timeoutMs: 15_000, what: "the slow hook" }));
    m.send({ method: "notifications/cancelled", params: { requestId: 1, reason: "the user interrupted" } });
    expect(await m.next()).toMatchObject({ id: 1, result: { isError: true, content: [{ text: expect.stringMatching(/cancelled before its hooks finished/) }] } });
    await waitFor(() => !alive(pid), { timeoutMs: 10_000, what: "the hook's end" });
    expect(m.child.exitCode).toBeNull();
  });

  it("follows edits of hooks.yaml; while it does not load, a call answers as hooks run --host does, and a guard that asks to fail closed blocks", async () => {
    const p = sandbox({ config: CONFIG });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    await initialized(m);
    const ask = async (id: number) => {
      m.send(hookCall(id, "PreToolUse", { tool_name: "Bash", tool_input: JSON.stringify({ command: "ls" }) }));
      return textOf(await m.next());
    };
    expect(await ask(1)).toEqual({});
    p.write("hooks.yaml", ["hooks:", "  pre_tool_use:", "    - name: no-ls", "      matcher: Bash", "      on_failure: block", "      command: 'echo no ls today >&2; exit 2'", ""].join("\n"));
    let id = 2;
    await waitFor(async () => (await ask(id++)).hookSpecificOutput?.permissionDecisionReason === "no ls today", { timeoutMs: 15_000, what: "the reload" });
    p.write("hooks.yaml", "hooks:\n  pre_tool_use: [oops\n");
    await waitFor(async () => /the config is invalid/.test(JSON.stringify(await ask(id++))), { timeoutMs: 15_000, what: "the broken config's answer" });
    // An entry written for an event with an `on_failure: block` hook carries fail_closed (as a command entry's --fail-closed): it blocks.
    m.send(hookCall(id, "PreToolUse", { tool_name: "Bash", tool_input: "{}" }, { fail_closed: true }));
    const blocked = textOf(await m.next());
    expect(blocked.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(blocked.hookSpecificOutput.permissionDecisionReason).toMatch(/does not load/);
  });

  it("ends when stdin closes", async () => {
    const p = sandbox({ config: CONFIG });
    const m = startMcp(p.dir, { ...p.env, HOOKS_TRUST: "1" });
    await initialized(m);
    m.child.stdin.end();
    expect(await m.exited).toEqual({ code: 0, signal: null });
    expect(m.stderr()).toMatch(/stdin closed: stopping/);
  });

  it("--host must name a host with a warm MCP path", async () => {
    const p = sandbox({ config: CONFIG });
    const m = startMcp(p.dir, p.env, ["mcp", "--host", "gemini"]);
    m.child.stdin.end();
    expect((await m.exited).code).toBe(64);
    expect(m.stderr()).toMatch(/--host gemini: the warm MCP path is for claude/);
  });
});
