import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { opencodeHooks } from "../src/hosts/opencodeBridge.js";
import { opencode, opencodeArgs, PLUGIN_TEXT } from "../src/hosts/opencode.js";
import { processesWithArg } from "./helpers/agentProcess.js";
import { ROOT, runCli, runMain } from "./helpers/cli.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { type Sandbox, sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

/**
 * opencode's adapter (read, render), `hooks install opencode` (the plugin file), and the bridge
 * the plugin calls in opencode's process (src/hosts/opencodeBridge.ts), here under Node with real
 * hook scripts; test/opencode.e2e.test.ts runs the same through the real opencode.
 */

const GUARD = `hooks:
  pre_tool_use:
    - name: guard
      matcher: Bash
      command: 'cat > /dev/null; echo "GUARD: no shell today" >&2; exit 2'
    - name: rename
      matcher: Edit
      dialect: claude
      command: 'cat > /dev/null; echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"allow\\",\\"updatedInput\\":{\\"file_path\\":\\"b.txt\\",\\"old_string\\":\\"x\\",\\"new_string\\":\\"y\\"}}}"'
    - name: careful
      matcher: Write
      dialect: claude
      command: 'cat > /dev/null; echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"ask\\",\\"permissionDecisionReason\\":\\"check the path\\"}}"'
  post_tool_use:
    - name: feedback
      matcher: Bash
      dialect: claude
      command: 'cat > /dev/null; echo "{\\"decision\\":\\"block\\",\\"reason\\":\\"FEEDBACK: run the tests\\"}"'
  session_start:
    - name: ctx
      command: 'cat > /dev/null; echo "STARTCTX: branch main"'
  stop:
    - name: more
      command: 'cat > /dev/null; echo "not yet" >&2; exit 2'
`;

const trust = async (p: Sandbox) => expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
const run = (p: Sandbox, event: string, payload: unknown) => runMain(["run", event, "--host", "opencode"], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
const parsed = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe("opencode: reading the bridge's payloads", () => {
  it("a tool call: canonical tool name, Claude Code's argument names beside opencode's, opencode's own under host", () => {
    const payload = { hook_event_name: "tool.execute.before", session_id: "ses_1", cwd: "/p", tool: "edit", call_id: "call_1", args: { filePath: "/p/a.txt", oldString: "x", newString: "y" } };
    expect(opencode.detect(payload)).toBe(true);
    const ctx = opencode.read(payload, "pre_tool_use");
    expect(ctx).toMatchObject({ session_id: "ses_1", cwd: "/p", tool_name: "Edit", tool_use_id: "call_1" });
    expect(ctx.tool_input).toEqual({ filePath: "/p/a.txt", file_path: "/p/a.txt", oldString: "x", old_string: "x", newString: "y", new_string: "y" });
    expect(ctx.host).toMatchObject({ name: "opencode", event: "tool.execute.before", tool_name: "edit" });
  });
  it("after a tool, its output is tool_response; a session's start is source startup", () => {
    const after = opencode.read({ hook_event_name: "tool.execute.after", session_id: "s", tool: "bash", args: { command: "ls" }, output: "a\nb\n" }, "post_tool_use");
    expect(after).toMatchObject({ tool_name: "Bash", tool_input: { command: "ls" }, tool_response: "a\nb\n" });
    expect(opencode.read({ hook_event_name: "session.created", session_id: "s" }, "session_start")).toMatchObject({ source: "startup" });
  });
  it("claims no payload without one of its event names", () => {
    expect(opencode.detect({ hook_event_name: "PreToolUse", session_id: "s" })).toBe(false);
    expect(opencode.detect({ tool: "bash" })).toBe(false);
  });
  it("a rewritten input goes back to opencode's argument names", () => {
    expect(opencodeArgs({ file_path: "b.txt", filePath: "a.txt", old_string: "x", content: "c" })).toEqual({ filePath: "b.txt", oldString: "x", content: "c" });
  });
});

describe("opencode: the answers, from `hooks run --host opencode` with real hooks", () => {
  it("a guard's block, a rewrite, ask as a block, feedback after a tool, session context, a stop block in the log", async () => {
    const p = sandbox({ config: GUARD });
    await trust(p);
    const call = (tool: string, args: unknown) => ({ hook_event_name: "tool.execute.before", session_id: "s", cwd: p.dir, tool, call_id: "c", args });
    expect(parsed((await run(p, "tool.execute.before", call("bash", { command: "rm -rf /" }))).stdout)).toEqual({ block: "GUARD: no shell today" });
    expect(parsed((await run(p, "tool.execute.before", call("edit", { filePath: "a.txt", oldString: "1", newString: "2" }))).stdout)).toEqual({
      args: { filePath: "b.txt", oldString: "x", newString: "y" },
    });
    expect(parsed((await run(p, "tool.execute.before", call("write", { filePath: "a.txt", content: "" }))).stdout)).toEqual({
      block: "hookrun: opencode's plugins cannot ask the user, so this is blocked instead: check the path",
    });
    expect(parsed((await run(p, "tool.execute.before", call("read", { filePath: "a.txt" }))).stdout)).toEqual({});
    const after = await run(p, "tool.execute.after", { hook_event_name: "tool.execute.after", session_id: "s", cwd: p.dir, tool: "bash", args: { command: "ls" }, output: "ran\n" });
    expect(parsed(after.stdout)).toEqual({ append: "FEEDBACK: run the tests" });
    expect(parsed((await run(p, "session.created", { hook_event_name: "session.created", session_id: "s", cwd: p.dir })).stdout)).toEqual({ context: ["STARTCTX: branch main"] });
    const stop = parsed((await run(p, "session.idle", { hook_event_name: "session.idle", session_id: "s", cwd: p.dir })).stdout);
    expect(stop).toEqual({ log: ["hookrun: a stop hook asked the agent to go on, which an opencode plugin cannot make it do: not yet"] });
  });
  it("untrusted: nothing runs; the session's context says why", async () => {
    const p = sandbox({ config: GUARD });
    const r = await run(p, "session.created", { hook_event_name: "session.created", session_id: "s", cwd: p.dir });
    const out = parsed(r.stdout) as { context: string[]; log: string[] };
    expect(out.context[0]).toMatch(/^hookrun: the project's hooks are not running in this session: .*hooks\.yaml is not trusted/);
    expect(out.log[0]).toMatch(/^hookrun: the project's hooks did not run: /);
    const before = await run(p, "tool.execute.before", { hook_event_name: "tool.execute.before", session_id: "s", cwd: p.dir, tool: "bash", args: { command: "ls" } });
    expect(parsed(before.stdout).block).toBeUndefined();
  });
});

describe("hooks install opencode: one plugin file", () => {
  const file = (p: Sandbox) => p.path(".opencode/plugins/hookrun.js");
  it("writes it, leaves it when current, says when stale, refuses a file of the user's, uninstall removes it", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    const first = await runMain(["install", "opencode"], { cwd: p.dir, env: p.env });
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(file(p), "utf8")).toBe(PLUGIN_TEXT);
    expect((await runMain(["install", "opencode"], { cwd: p.dir, env: p.env })).stdout).toMatch(/hookrun\.js: up to date/);
    expect((await runMain(["install", "--check", "opencode"], { cwd: p.dir, env: p.env })).code).toBe(0);
    writeFileSync(file(p), `${PLUGIN_TEXT}// an older version\n`);
    const stale = await runMain(["install", "--check", "opencode"], { cwd: p.dir, env: p.env });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/stale: hookrun\.js; run `hooks install opencode`/);
    const un = await runMain(["uninstall", "opencode"], { cwd: p.dir, env: p.env });
    expect(un.stdout).toMatch(/hookrun\.js: removed \(hookrun's plugin\)/);
    expect(existsSync(file(p))).toBe(false);
    writeFileSync(file(p), "export const mine = async () => ({});\n");
    const refused = await runMain(["install", "opencode"], { cwd: p.dir, env: p.env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/your own opencode hook, not hookrun's/);
    expect(readFileSync(file(p), "utf8")).toBe("export const mine = async () => ({});\n");
    expect((await runMain(["uninstall", "opencode"], { cwd: p.dir, env: p.env })).stdout).toMatch(/no hookrun entries; left as it is/);
  });
  it("--user: into opencode's user plugin folder", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runCli(["install", "opencode", "--user"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(p.env.HOME, ".config/opencode/plugins/hookrun.js"), "utf8")).toBe(PLUGIN_TEXT);
  });
  it("hooks doctor opencode: the plugin current, and hookrun missing from node_modules is an error", async () => {
    const p = sandbox({ config: GUARD });
    await trust(p);
    await runMain(["install", "opencode"], { cwd: p.dir, env: p.env });
    const missing = await runMain(["doctor", "opencode"], { cwd: p.dir, env: p.env });
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toMatch(/the plugin is current/);
    expect(missing.stdout + missing.stderr).toMatch(/the plugin cannot load hookrun from node_modules\/hookrun \(it is missing\): opencode blocks every tool call/);
    mkdirSync(p.path("node_modules"), { recursive: true });
    symlinkSync(ROOT, p.path("node_modules/hookrun"));
    const ok = await runMain(["doctor", "opencode"], { cwd: p.dir, env: p.env });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    // As for pi: the hookrun the plugin imports has the export it calls, and answers a probe.
    expect(ok.stdout + ok.stderr).toMatch(/the plugin loads hookrun from the project, and a probe tool\.execute\.before reaches its hooks \(prepared\)/);
  });
  it("hooks validate says a changed plugin is another hookrun version's, not that hooks.yaml changed", async () => {
    const p = sandbox({ config: GUARD });
    await runMain(["install", "opencode"], { cwd: p.dir, env: p.env });
    writeFileSync(file(p), `${PLUGIN_TEXT}// an older version\n`);
    const v = await runMain(["validate"], { cwd: p.dir, env: p.env });
    expect(v.stdout + v.stderr).toMatch(/hookrun's hookrun\.js is not the one this hookrun writes \(written by another version of hookrun, or edited\); run `hooks install opencode`/);
    expect(v.stdout + v.stderr).not.toMatch(/hooks\.yaml changed/);
  });
  it("install warns that node_modules/hookrun is missing (what the plugin imports), not node_modules/.bin/hooks", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["install", "opencode"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: node_modules\/hookrun is missing, and opencode loads it: until it is there, every tool call is blocked/);
    expect(r.stderr).not.toMatch(/\.bin\/hooks/);
    mkdirSync(p.path("node_modules"), { recursive: true });
    symlinkSync(ROOT, p.path("node_modules/hookrun"));
    expect((await runMain(["install", "opencode"], { cwd: p.dir, env: p.env })).stderr).not.toMatch(/warning/);
  });
});

describe("the plugin file, loaded as opencode loads it", () => {
  const load = async (p: Sandbox) => {
    writeFileSync(p.path(".opencode/plugins/hookrun.mjs"), PLUGIN_TEXT, { flag: "w" });
    const mod = (await import(`${pathToFileURL(p.path(".opencode/plugins/hookrun.mjs")).href}?${Date.now()}`)) as { hookrun: (input: unknown) => Promise<Record<string, any>> };
    return mod.hookrun({ directory: p.dir, worktree: p.dir });
  };
  it("without hookrun in node_modules, it loads and refuses every tool call, saying why and what to do", async () => {
    const p = sandbox({ config: GUARD });
    mkdirSync(p.path(".opencode/plugins"), { recursive: true });
    const hooks = await load(p);
    expect(Object.keys(hooks)).toEqual(["tool.execute.before"]);
    await expect(hooks["tool.execute.before"]({ tool: "read", sessionID: "s", callID: "c" }, { args: {} })).rejects.toThrow(
      /^hookrun could not be loaded \(no node_modules\/hookrun in .* or above\), so its hooks \(guards included\) do not run and this tool call is refused: run `npm install` in the project/,
    );
  });
  it("with hookrun there, it hands opencode the bridge's callbacks", async () => {
    const p = sandbox({ config: GUARD });
    mkdirSync(p.path(".opencode/plugins"), { recursive: true });
    mkdirSync(p.path("node_modules"), { recursive: true });
    symlinkSync(ROOT, p.path("node_modules/hookrun"));
    expect(Object.keys(await load(p)).sort()).toEqual(["chat.message", "event", "experimental.chat.system.transform", "tool.execute.after", "tool.execute.before"]);
  });
});

describe("the bridge in process (what opencode calls)", () => {
  it("blocks with the reason, rewrites the arguments in place, appends feedback, gives session context to every request", async () => {
    const p = sandbox({ config: GUARD });
    await trust(p);
    const hooks = opencodeHooks({ directory: p.dir }, p.processEnv) as Record<string, (i: unknown, o?: unknown) => Promise<void>>;
    await expect(hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c1" }, { args: { command: "rm -rf /" } })).rejects.toThrow(/^GUARD: no shell today$/);
    const args = { filePath: "a.txt", oldString: "1", newString: "2" };
    await hooks["tool.execute.before"]({ tool: "edit", sessionID: "s", callID: "c2" }, { args });
    expect(args).toEqual({ filePath: "b.txt", oldString: "x", newString: "y" });
    const output = { title: "ls", output: "ran\n", metadata: {} };
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c3", args: { command: "ls" } }, output);
    expect(output.output).toBe("ran\n\n\nFEEDBACK: run the tests");
    const system = ["opencode's prompt"];
    await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, { system });
    expect(system).toEqual(["opencode's prompt", "STARTCTX: branch main"]);
  });

  it("a hanging hook is cut at its timeout, its process tree killed, and the call goes on", async () => {
    const tag = `299.${process.pid}${Date.now() % 100000}`;
    const p = sandbox({ config: `hooks:\n  pre_tool_use:\n    - name: slow\n      timeout: 1\n      command: 'cat > /dev/null; sh -c "sleep ${tag}"'\n` });
    await trust(p);
    const hooks = opencodeHooks({ directory: p.dir }, p.processEnv) as Record<string, (i: unknown, o?: unknown) => Promise<void>>;
    const args = { command: "ls" };
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args });
    expect(args).toEqual({ command: "ls" });
    expect(processesWithArg(tag)).toEqual([]);
    const log = readFileSync(path.join(p.processEnv.HOOKS_STATE_DIR ?? path.join(p.root, "state", "hookrun"), "runs.jsonl"), "utf8");
    expect(log, log).toMatch(/"name":"slow","status":"timed_out"/);
  });

  it("a prompt: its hooks' context joins the session's on the next request; a block refuses it (a throw); the idle session fires stop", async () => {
    const p = sandbox({
      config: `hooks:
  user_prompt_submit:
    - name: prompt
      command: 'input=$(cat); case "$input" in *deploy*) echo "NO DEPLOY" >&2; exit 2;; esac; echo "PROMPTCTX: use pnpm"'
  session_start:
    - name: ctx
      command: 'cat > /dev/null; echo "STARTCTX: branch main"'
  stop:
    - name: done
      command: 'cat > stopped.json'
`,
    });
    await trust(p);
    const hooks = opencodeHooks({ directory: p.dir }, p.processEnv) as Record<string, (i: unknown, o?: unknown) => Promise<void>>;
    await hooks.event({ event: { type: "session.created", properties: { info: { id: "s" } } } });
    await hooks["chat.message"]({ sessionID: "s" }, { parts: [{ type: "text", text: "add a test" }] });
    const system: string[] = [];
    await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, { system });
    expect(system).toEqual(["STARTCTX: branch main\n\nPROMPTCTX: use pnpm"]);
    await expect(hooks["chat.message"]({ sessionID: "s" }, { parts: [{ type: "text", text: "deploy it" }] })).rejects.toThrow(/^NO DEPLOY$/);
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
    expect(JSON.parse(readFileSync(p.path("stopped.json"), "utf8"))).toMatchObject({ event: "stop", session_id: "s", host: { name: "opencode", event: "session.idle" } });
  });

  it("an async hook of a last trusted version keeps running, and its result reaches a later request (it runs on the session's runner)", async () => {
    const config = `hooks:\n  post_tool_use:\n    - {name: bg, async: true, command: "cat > /dev/null; sleep 0.3; echo ASYNC-KEPT"}\n`;
    const p = sandbox({ config });
    await trust(p);
    // Changed since it was trusted: the last trusted version runs until the change is reviewed.
    p.write("hooks.yaml", `${config}# edited\n`);
    const hooks = opencodeHooks({ directory: p.dir }, p.processEnv) as Record<string, (i: unknown, o?: unknown) => Promise<void>>;
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c1", args: { command: "ls" } }, { output: "" });
    await waitFor(
      async () => {
        await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c2" }, { args: { command: "ls" } });
        const system: string[] = [];
        await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, { system });
        return system.join("\n").includes("ASYNC-KEPT");
      },
      { timeoutMs: 10_000, what: "the async hook's result in the session's context" },
    );
  });

  it("untrusted: no hook runs, and the model is told from the first request", async () => {
    const p = sandbox({ config: GUARD });
    const hooks = opencodeHooks({ directory: p.dir }, p.processEnv) as Record<string, (i: unknown, o?: unknown) => Promise<void>>;
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "ls" } });
    const system: string[] = [];
    await hooks["experimental.chat.system.transform"]({ sessionID: "s" }, { system });
    expect(system[0]).toMatch(/^hookrun: the project's hooks are not running in this session: .*hooks\.yaml is not trusted/);
  });
});
