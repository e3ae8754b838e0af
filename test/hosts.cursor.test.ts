import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { cursor } from "../src/hosts/cursor.js";
import { renderImport } from "../src/interop/importHooks.js";
import { createRunner } from "../src/runner/createRunner.js";
import { CLAUDE_PAYLOADS, hostFixtures, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { afterToolBlocks, hookResult, triggerResult } from "./helpers/results.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { runMain } from "./helpers/cli.js";
import { linkHookrun, runEntry } from "./helpers/hostDispatch.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";
import { entriesOf, specOf } from "./helpers/hostSetup.js";

const sb = useSandbox();
const FX = hostFixtures("cursor");
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;
const ROOT = "/home/dev/shop";
const CONV = "c0a1e2f3-4b5c-6d7e-8f90-a1b2c3d4e5f6";

describe("cursor: reading every documented payload", () => {
  // fixture → [canonical event, canonical tool, tool_input, other fields the context must hold]
  const expected: Record<string, [string, string | undefined, unknown, Record<string, unknown>]> = {
    beforeShellExecution: ["pre_tool_use", "Bash", { command: "rm -rf build && npm run build", cwd: ROOT }, {}],
    afterShellExecution: ["post_tool_use", "Bash", { command: "npm test", cwd: ROOT }, { tool_response: { output: "Tests: 12 passed, 12 total\n", duration: 4213 } }],
    beforeMCPExecution: ["pre_tool_use", "MCP:query", { sql: "DELETE FROM users" }, {}],
    afterMCPExecution: ["post_tool_use", "MCP:query", { sql: "SELECT 1" }, { tool_response: { rows: [[1]] } }],
    beforeReadFile: ["pre_tool_use", "Read", { file_path: `${ROOT}/.env` }, { content: "STRIPE_KEY=sk_test_123\n" }],
    afterFileEdit: ["post_tool_use", "Edit", { file_path: `${ROOT}/src/cart.ts`, edits: [{ old_string: "const tax = 0.2", new_string: "const tax = 0.21" }] }, {}],
    beforeSubmitPrompt: ["user_prompt_submit", undefined, undefined, { prompt: "Add a discount field to the cart" }],
    stop: ["stop", undefined, undefined, { status: "completed", loop_count: 0, stop_hook_active: false }],
    "stop-no-version": ["stop", undefined, undefined, { status: "aborted", stop_hook_active: true }],
    preToolUse: ["pre_tool_use", "Bash", { command: "git push --force", cwd: ROOT }, { tool_use_id: "toolu_01" }],
    postToolUse: ["post_tool_use", "Write", { file_path: `${ROOT}/src/discount.ts`, contents: "export const d = 0;\n" }, { tool_response: { success: true } }],
    sessionStart: ["session_start", undefined, undefined, { is_background_agent: false, composer_mode: "agent" }],
  };

  it("has an expectation for every fixture but the events hookrun does not read", () => {
    expect(Object.keys(FX).sort()).toEqual([...Object.keys(expected), "afterAgentResponse"].sort());
  });

  for (const [name, [event, tool, input, fields]] of Object.entries(expected)) {
    it(`${name} → ${event}${tool ? ` (${tool})` : ""}`, () => {
      const payload = FX[name];
      const hostEvent = payload.hook_event_name as string;
      expect(cursor.events[hostEvent]).toBe(event);
      const ctx = cursor.read(payload, event);
      expect(ctx.session_id).toBe(CONV);
      expect(ctx.cwd).toBe(ROOT);
      expect(ctx.tool_name).toBe(tool);
      expect(ctx.tool_input).toEqual(input);
      expect(ctx).toMatchObject(fields);
      const host = ctx.host as Record<string, unknown>;
      expect(host).toMatchObject({ name: "cursor", event: hostEvent, conversation_id: CONV, workspace_roots: [ROOT] });
      // Cursor's own names stay under `host` only; its raw field names do not leak as canonical ones.
      expect(ctx.hook_event_name).toBeUndefined();
      expect(ctx.conversation_id).toBeUndefined();
      if (tool) expect(typeof host.tool_name).toBe("string");
    });
  }

  it("keeps Cursor's tool name under host and the MCP server apart from the tool input", () => {
    expect((cursor.read(FX.preToolUse, "pre_tool_use").host as Record<string, unknown>).tool_name).toBe("Shell");
    const mcp = cursor.read(FX.beforeMCPExecution, "pre_tool_use");
    expect(mcp.host).toMatchObject({ tool_name: "MCP:query", mcp_server: { url: "http://localhost:8080/mcp" } });
    expect(mcp.command).toBeUndefined();
    expect((cursor.read(FX.beforeShellExecution, "pre_tool_use").host as Record<string, unknown>).cursor_version).toBe("2.1.32");
  });

  it("takes the event from the argument when the payload does not name it, and survives a bare payload", () => {
    const ctx = cursor.read({ command: "ls", cwd: "/x" }, "beforeShellExecution");
    expect(ctx).toMatchObject({ tool_name: "Bash", tool_input: { command: "ls", cwd: "/x" }, cwd: "/x", host: { name: "cursor", event: "beforeShellExecution" } });
    const bare = cursor.read({}, "stop");
    expect(bare.host).toEqual({ name: "cursor", event: "stop" });
    expect(bare.session_id).toBeUndefined();
    // A tool_input that is not JSON text stays as it was.
    expect(cursor.read({ hook_event_name: "beforeMCPExecution", tool_name: "q", tool_input: "not json" }, "pre_tool_use").tool_input).toBe("not json");
  });
});

describe("cursor: detect", () => {
  it("claims every Cursor payload, the one without cursor_version included", () => {
    for (const [name, p] of Object.entries(FX)) expect(cursor.detect(p), name).toBe(true);
  });
  it("claims no other host's payload and no Claude Code payload", () => {
    for (const [name, p] of otherHostsFixtures("cursor")) expect(cursor.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(cursor.detect(p)).toBe(false);
    expect(cursor.detect({})).toBe(false);
    expect(cursor.detect({ hook_event_name: "stop", workspace_roots: "/x" })).toBe(false);
  });
});

describe("cursor: render", () => {
  const blocked = (event: string, reason: string) =>
    triggerResult(event, [hookResult("guard", { status: "blocked", exit_code: 2, decision: "block", reason })], { blocked: true, blocked_by: "guard", reason });

  it("prints {} when nothing has anything to say", () => {
    expect(cursor.render(triggerResult("pre_tool_use", [hookResult("a")]))).toEqual({ stdout: "{}\n", stderr: "", exitCode: 0 });
  });

  it("denies a blocked tool call: the reason to the agent and to the user", () => {
    const a = cursor.render(blocked("pre_tool_use", "no force push"));
    expect(a.exitCode).toBe(0);
    expect(json(a.stdout)).toEqual({ permission: "deny", agent_message: "no force push", user_message: "no force push" });
  });

  it("turns ask into a deny that says so (Cursor mishandles ask since 2.4.21), passes allow, leaves defer to Cursor", () => {
    const ask = triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" }), hookResult("b", { decision: "ask", reason: "touches prod" })], { updated_input: { command: "ls" } });
    const denied = "hookrun: Cursor does not honour ask, so this call is denied instead: touches prod";
    expect(json(cursor.render(ask).stdout)).toEqual({ permission: "deny", agent_message: denied, user_message: denied });
    expect(json(cursor.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" })])).stdout)).toEqual({ permission: "allow" });
    expect(json(cursor.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "defer" })], { updated_input: { command: "ls" } })).stdout)).toEqual({});
  });

  it("rewrites the input with updated_input, and gives pre-tool context to the agent", () => {
    const r = triggerResult("pre_tool_use", [hookResult("fix", { messages: [{ role: "system", content: "rewrote rm to trash" }] })], { updated_input: { command: "trash build" } });
    expect(json(cursor.render(r).stdout)).toEqual({ updated_input: { command: "trash build" }, agent_message: "rewrote rm to trash" });
  });

  it("turns a stop request on a tool call into a deny saying so", () => {
    const r = triggerResult("pre_tool_use", [hookResult("budget", { continue: false, stop_reason: "budget spent" })], { continue: false, stop_reason: "budget spent", stopped_by: "budget" });
    const out = json(cursor.render(r).stdout);
    expect(out.permission).toBe("deny");
    expect(out.agent_message).toMatch(/budget spent.*Cursor cannot stop it from a tool hook/);
  });

  it("blocks a prompt with continue: false and the reason for the user; context it cannot carry goes to stderr", () => {
    expect(json(cursor.render(blocked("user_prompt_submit", "no secrets in prompts")).stdout)).toEqual({ continue: false, user_message: "no secrets in prompts" });
    const ctx = cursor.render(triggerResult("user_prompt_submit", [hookResult("ctx", { messages: [{ role: "system", content: "Use pnpm." }] })]));
    expect(json(ctx.stdout)).toEqual({ continue: true });
    expect(ctx.stderr).toBe("hookrun: Cursor's beforeSubmitPrompt cannot carry context for the model; not delivered: Use pnpm.\n");
  });

  it("gives session-start context as additional_context, and post-tool feedback and context too", () => {
    expect(json(cursor.render(triggerResult("session_start", [hookResult("ctx", { messages: [{ role: "system", content: "Branch: main" }] })])).stdout)).toEqual({
      additional_context: "Branch: main",
    });
    const post = triggerResult("post_tool_use", [
      hookResult("lint", { messages: [{ role: "system", content: "2 lint errors", kind: "feedback" }] }),
      hookResult("cc", { dialect: "claude", messages: [{ role: "system", content: "tests failed", kind: "feedback" }] }),
    ]);
    expect(cursor.render(post)).toEqual({ stdout: `${JSON.stringify({ additional_context: "2 lint errors\n\ntests failed" })}\n`, stderr: "", exitCode: 0 });
  });

  it("answers a native hook's block after the tool ran alike whether it exited 2 or printed a JSON block", async () => {
    const { exit2, json } = await afterToolBlocks("run prettier on a.ts");
    const answer = { stdout: `${JSON.stringify({ additional_context: "run prettier on a.ts" })}\n`, stderr: "", exitCode: 0 };
    expect(cursor.render(exit2)).toEqual(answer);
    expect(cursor.render(json)).toEqual(answer);
  });

  it("continues the agent on stop with followup_message (a block's reason and follow-ups); plain context there is on stderr", () => {
    expect(json(cursor.render(blocked("stop", "TODO.md is not empty")).stdout)).toEqual({ followup_message: "TODO.md is not empty" });
    const r = triggerResult("subagent_stop", [
      hookResult("f", {
        messages: [
          { role: "system", content: "run the tests", kind: "followup" },
          { role: "system", content: "3 files changed" },
        ],
      }),
    ]);
    const a = cursor.render(r);
    expect(json(a.stdout)).toEqual({ followup_message: "run the tests" });
    expect(a.stderr).toMatch(/only a follow-up message continues the agent.*3 files changed/);
  });

  it("reports failures (fail open) and notices: user_message where Cursor has it, stderr elsewhere", () => {
    const broken = hookResult("broken", { status: "failed", exit_code: 1, stderr: "KeyError: 'x'\n" });
    expect(json(cursor.render(triggerResult("pre_tool_use", [broken])).stdout)).toEqual({ user_message: "hook broken failed: exit 1 (KeyError: 'x')" });
    const a = cursor.render(triggerResult("session_end", [broken, hookResult("n", { messages: [{ role: "system", content: "bye", kind: "notice" }] })]));
    expect(json(a.stdout)).toEqual({});
    expect(a.stderr).toBe("hookrun: bye\nhookrun: hook broken failed: exit 1 (KeyError: 'x')\n");
    const stop = cursor.render(triggerResult("post_tool_use", [hookResult("b", { continue: false, stop_reason: "enough" })], { continue: false, stop_reason: "enough" }));
    expect(stop.stderr).toMatch(/asked to stop the agent \(enough\); Cursor's postToolUse cannot stop it/);
    // On stop the agent stops anyway: nothing to degrade, nothing to say.
    expect(cursor.render(triggerResult("stop", [hookResult("b", { continue: false, stop_reason: "enough" })], { continue: false, stop_reason: "enough" }))).toEqual({
      stdout: "{}\n",
      stderr: "",
      exitCode: 0,
    });
  });

  it("notRun: never silent — user_message / stderr, prompts go on, the model learns at session start", () => {
    const pre = cursor.notRun("pre_tool_use", "hooks.yaml is not trusted", "not trusted");
    expect(json(pre.stdout)).toEqual({ user_message: "hookrun: the project's hooks did not run: hooks.yaml is not trusted" });
    expect(pre.stderr).toContain("did not run");
    expect(json(cursor.notRun("user_prompt_submit", "u", "m").stdout)).toEqual({ continue: true, user_message: "hookrun: the project's hooks did not run: u" });
    expect(json(cursor.notRun("session_start", "u", "m").stdout)).toEqual({ additional_context: "hookrun: the project's hooks are not running in this session: m" });
  });
});

describe("cursor: real hooks on real payloads (read → run → render)", () => {
  it("a `matcher: Bash` guard blocks Cursor's shell, under both the generic and the shell event", async () => {
    const runner = createRunner(
      config(sb.current.dir, [hook("guard", "pre_tool_use", { matcher: "Bash", command: `grep -q 'rm -rf\\|--force' && { echo "destructive: $(cat /dev/null)denied" >&2; exit 2; }; exit 0` })]),
      {
        runLog: false,
        cwd: sb.current.dir,
        env: sb.current.processEnv,
      },
    );
    try {
      for (const name of ["beforeShellExecution", "preToolUse"]) {
        const result = await runner.trigger("pre_tool_use", cursor.read(FX[name], "pre_tool_use"));
        expect(result.blocked, name).toBe(true);
        expect(json(cursor.render(result).stdout)).toEqual({ permission: "deny", agent_message: "destructive: denied", user_message: "destructive: denied" });
      }
      // A Read is not the shell: the guard does not run.
      const read = await runner.trigger("pre_tool_use", cursor.read(FX.beforeReadFile, "pre_tool_use"));
      expect(read.hooks).toEqual([]);
      expect(cursor.render(read).stdout).toBe("{}\n");
    } finally {
      await runner.close();
    }
  });

  it("a stop hook's follow-up becomes followup_message", async () => {
    const runner = createRunner(config(sb.current.dir, [hook("todo", "stop", { command: `echo '{"decision":"block","reason":"finish TODO.md"}'` })]), {
      runLog: false,
      cwd: sb.current.dir,
      env: sb.current.processEnv,
    });
    try {
      const result = await runner.trigger("stop", cursor.read(FX.stop, "stop"));
      expect(json(cursor.render(result).stdout)).toEqual({ followup_message: "finish TODO.md" });
    } finally {
      await runner.close();
    }
  });
});

describe("cursor: install entries", () => {
  const cmd = (event: string) => `hooks run ${event} --host cursor`;

  it("writes the generic events with matchers in Cursor's names, timeouts in seconds covering the run, failClosed where asked", () => {
    const cfg = config(sb.current.dir, [
      hook("guard", "pre_tool_use", { matcher: "Bash", timeoutMs: 5_000, onFailure: "block" }),
      hook("guard2", "pre_tool_use", { matcher: "Read", timeoutMs: 20_000 }),
      hook("fmt", "post_tool_use", { matcher: "Write|Edit", timeoutMs: 30_000 }),
      hook("ctx", "session_start", { timeoutMs: 1_000 }),
      hook("todo", "stop", { timeoutMs: 2_500 }),
      hook("bg", "stop", { timeoutMs: 600_000, async: true }),
      hook("watch", "file_changed"),
      hook("off", "notification", { enabled: false }),
    ]);
    expect(entriesOf(cursor, cfg, cmd)).toEqual({
      preToolUse: [{ command: "hooks run pre_tool_use --host cursor", timeout: 35, matcher: "Bash|Shell|Read", failClosed: true }],
      postToolUse: [{ command: "hooks run post_tool_use --host cursor", timeout: 40, matcher: "Write|Edit" }],
      sessionStart: [{ command: "hooks run session_start --host cursor", timeout: 11 }],
      // No Cursor bound on the dispatch: hookrun enforces each hook's loop_limit.
      stop: [{ command: "hooks run stop --host cursor", timeout: 13, loop_limit: null }],
    });
    expect(specOf(cursor)).toMatchObject({ projectFile: ".cursor/hooks.json", userFile: ".cursor/hooks.json", hooksPath: ["hooks"], skeleton: { version: 1 } });
    expect(cursor.timeout.unit).toBe("s");
  });

  it("does not narrow when a hook matches every tool or by regex", () => {
    const cfg = config(sb.current.dir, [hook("a", "pre_tool_use", { matcher: "Bash" }), hook("b", "pre_tool_use", { matcher: "^mcp__" })]);
    expect(entriesOf(cursor, cfg, cmd).preToolUse[0].matcher).toBeUndefined();
    const all = config(sb.current.dir, [hook("a", "post_tool_use")]);
    expect(entriesOf(cursor, all, cmd).postToolUse[0].matcher).toBeUndefined();
  });
});

describe("cursor: import", () => {
  const file = {
    version: 1,
    hooks: {
      beforeShellExecution: [{ command: "./hooks/block-git.sh", timeout: 10, failClosed: true }, { command: "./hooks/audit.sh" }],
      preToolUse: [
        { command: "python3 hooks/guard.py", matcher: "Shell|Write", timeout: 5 },
        { command: "node x.js", matcher: "Sh.*" },
      ],
      afterFileEdit: [{ command: "npx prettier --write", matcher: "ignored" }],
      stop: [{ command: "./hooks/verify.sh", loop_limit: 3, failClosed: true }],
      afterAgentResponse: [{ command: "./hooks/audit.sh" }],
      sessionStart: [
        { type: "prompt", prompt: "check" },
        { command: "hooks run session_start --host cursor" },
        "junk",
        { command: "" },
        { command: "x", timeout: -1 },
        { command: "ctx.sh", color: "red" },
      ],
      beforeReadFile: { command: "nope" },
    },
  };

  it("carries every field or says why not, and marks each hook `dialect: cursor`", () => {
    const imp = cursor.import?.(file, []);
    if (!imp) throw new Error("no import");
    const hooks = imp.hooks.map((h) => [h.event, h.hostEvent, h.hook]);
    expect(hooks).toEqual([
      ["pre_tool_use", "beforeShellExecution", { name: "block-git", matcher: "Bash", command: "./hooks/block-git.sh", timeout: 10, on_failure: "block", dialect: "cursor" }],
      ["pre_tool_use", "beforeShellExecution", { name: "audit", matcher: "Bash", command: "./hooks/audit.sh", dialect: "cursor" }],
      ["pre_tool_use", "preToolUse", { name: "guard", matcher: "Bash|Write", command: "python3 hooks/guard.py", timeout: 5, dialect: "cursor" }],
      ["pre_tool_use", "preToolUse", { name: "x", matcher: "Sh.*", command: "node x.js", dialect: "cursor" }],
      ["post_tool_use", "afterFileEdit", { name: "prettier", matcher: "Write|Edit", command: "npx prettier --write", dialect: "cursor" }],
      ["stop", "stop", { name: "verify", command: "./hooks/verify.sh", loop_limit: 3, dialect: "cursor" }],
      ["after_agent_response", "afterAgentResponse", { name: "audit-2", command: "./hooks/audit.sh", dialect: "cursor" }],
      ["session_start", "sessionStart", { name: "ctx", command: "ctx.sh", dialect: "cursor" }],
    ]);
    expect(imp.customEvents).toEqual({ after_agent_response: { custom: true, description: expect.stringContaining("afterAgentResponse") } });
    const notes = imp.notes.join("\n");
    for (const n of [
      "hooks.preToolUse[1] (`x`): matcher is a regex over Cursor's tool names",
      "hooks.afterFileEdit[0] (`prettier`): matcher `ignored` not carried",
      "hooks.stop[0] (`verify`): `failClosed` not carried: a failed stop hook cannot deny anything",
      "hooks.sessionStart[0]: skipped a hook of type `prompt`",
      "hooks.sessionStart[1]: `hooks run session_start --host cursor` already hands this event to hookrun",
      "hooks.sessionStart[2]: not an object; skipped",
      "hooks.sessionStart[3]: no `command`; skipped",
      "hooks.sessionStart[4] (`x`): not imported: timeout -1",
      "hooks.sessionStart[5] (`ctx`): `color` is not a field",
      "hooks.beforeReadFile: not a list of hooks; skipped",
      "hooks.beforeShellExecution[0] (`block-git`): relative path",
    ])
      expect(notes).toContain(n);
    // Written for Cursor, read by Cursor's rules: no note says otherwise any more.
    expect(notes).not.toContain("not Cursor's");
    expect(notes).not.toContain("loop_limit");
  });

  it("skips what the target config already has, and writes a hooks.yaml hookrun loads", async () => {
    const again = cursor.import?.(file, [{ event: "pre_tool_use", name: "block-git", command: "./hooks/block-git.sh", matcher: "Bash" }]);
    expect(again?.hooks.map((h) => h.hook.name)).not.toContain("block-git");
    expect(again?.notes.join("\n")).toContain("`./hooks/block-git.sh` is already a pre_tool_use hook; skipped");
    const imp = cursor.import?.(file, []);
    if (!imp) throw new Error("no import");
    sb.current.write("hooks.yaml", renderImport(imp, ".cursor/hooks.json"));
    const loaded = await loadConfig({ cwd: sb.current.dir, userConfig: false, env: sb.current.processEnv });
    expect(loaded.hooks.map((h) => `${h.event}:${h.name}`)).toContain("pre_tool_use:block-git");
    expect(loaded.hooks.find((h) => h.name === "block-git")?.onFailure).toBe("block");
  });

  it("refuses input that is not Cursor's shape, and says when there is nothing", () => {
    expect(() => cursor.import?.([], [])).toThrow(TypeError);
    expect(() => cursor.import?.({ hooks: [] }, [])).toThrow(TypeError);
    expect(cursor.import?.({ version: 1 }, []).notes).toEqual(["the file has no `hooks` object; nothing to import"]);
    expect(cursor.import?.({ version: 2, hooks: {} }, []).notes[0]).toMatch(/version 2: Cursor documents version 1 only/);
  });
});

describe("cursor: through the CLI (hooks install / run --host auto / import)", () => {
  const GUARD =
    "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"no force push\" >&2; exit 2', matcher: Bash, timeout: 5s}\n  stop:\n    - {name: todo, command: 'echo finish TODO.md >&2; exit 2'}\n";

  it("installs next to the user's hooks, runs as Cursor runs it (untrusted: says so; trusted: denies), and uninstalls byte for byte", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    const original = '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./format.sh" }]\n  }\n}\n';
    p.write(".cursor/hooks.json", original);
    const install = await runMain(["install", "cursor"], { cwd: p.dir, env: p.env });
    expect(install.code).toBe(0);
    const file = JSON.parse(readFileSync(p.path(".cursor/hooks.json"), "utf8"));
    expect(file.hooks.afterFileEdit).toEqual([{ command: "./format.sh" }]);
    const pre = file.hooks.preToolUse[0];
    expect(pre).toEqual({ command: '"${CURSOR_PROJECT_DIR:-$PWD}"/node_modules/.bin/hooks -C "${CURSOR_PROJECT_DIR:-$PWD}" run pre_tool_use --host cursor', timeout: 15, matcher: "Bash|Shell" });
    expect(file.hooks.stop[0].command).toContain("run stop --host cursor");
    expect((await runMain(["install", "cursor"], { cwd: p.dir, env: p.env })).stdout).toMatch(/up to date/);

    // Cursor runs project hooks in the project root with CURSOR_PROJECT_DIR set; either one is enough.
    const untrusted = runEntry(pre.command, FX.preToolUse, { cwd: p.dir, env: { ...p.env, CURSOR_PROJECT_DIR: p.dir } });
    expect(untrusted.code).toBe(0);
    expect(json(untrusted.stdout).user_message).toMatch(/the project's hooks did not run: .*not trusted/);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    for (const env of [{ CURSOR_PROJECT_DIR: p.dir }, {}]) {
      const denied = runEntry(pre.command, FX.beforeShellExecution, { cwd: p.dir, env: { ...p.env, ...env } });
      expect(denied.code).toBe(0);
      expect(json(denied.stdout)).toEqual({ permission: "deny", agent_message: "no force push", user_message: "no force push" });
    }
    const stop = runEntry(file.hooks.stop[0].command, FX.stop, { cwd: p.dir, env: { ...p.env, CURSOR_PROJECT_DIR: p.dir } });
    expect(json(stop.stdout)).toEqual({ followup_message: "finish TODO.md" });

    expect((await runMain(["uninstall", "cursor"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".cursor/hooks.json"), "utf8")).toBe(original);
  });

  it("`hooks run --host auto` tells Cursor's payload apart and answers in Cursor's contract", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.preToolUse) });
    expect(r.code).toBe(0);
    expect(json(r.stdout).permission).toBe("deny");
    // The event named as Cursor names it.
    const named = await runMain(["--trust", "run", "beforeShellExecution", "--host", "cursor"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.beforeShellExecution) });
    expect(json(named.stdout).permission).toBe("deny");
    // A dispatch entry of .claude/settings.json that Cursor fires (its third-party hooks) gets Cursor's payload: Cursor's answer.
    const viaClaude = await runMain(["--trust", "run", "pre_tool_use", "--host", "claude"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.preToolUse) });
    expect(json(viaClaude.stdout)).toEqual({ permission: "deny", agent_message: "no force push", user_message: "no force push" });
  });

  it("`hooks import cursor FILE` prints a hooks.yaml with the notes on stderr", async () => {
    const p = sandbox();
    p.write(".cursor/hooks.json", JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: "./guard.sh", failClosed: true }] } }));
    const r = await runMain(["import", "cursor", ".cursor/hooks.json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: guard\n\s+matcher: Bash\n\s+command: \.\/guard\.sh\n\s+on_failure: block\n\s+dialect: cursor/);
    expect(r.stderr).toMatch(/relative path/);
    expect(r.stderr).not.toMatch(/not Cursor's/);
  });
});
