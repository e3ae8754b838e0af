import { describe, expect, it } from "vitest";
import { dispatchCommand } from "../src/hosts/dispatch.js";
import { detectQwen, formatQwen, importQwenSettings, qwenHost, qwenTimeout, renderQwen, routeQwen } from "../src/hosts/qwen.js";
import { detectHost, hostByName, resolveHost } from "../src/hosts/adapters.js";
import { createRunner } from "../src/runner/createRunner.js";
import type { TriggerResult } from "../src/runner/types.js";
import { runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";
import { entriesOf } from "./helpers/hostSetup.js";

// The Qwen Code adapter in process: payloads as Qwen 0.24.4 sends them (captured from the real
// CLI, test/qwen.e2e.test.ts runs it), results of real hook runs rendered, install entries, import.
const sb = useSandbox();

const BASE = {
  session_id: "1eed82b4",
  transcript_path: "/home/u/.qwen/projects/-p/chats/1eed82b4.jsonl",
  cwd: "/p",
  timestamp: "2026-11-24T12:33:42.334Z",
  permission_mode: "yolo",
  prompt_id: "1eed82b4########0",
};
const PRE = { ...BASE, hook_event_name: "PreToolUse", tool_name: "run_shell_command", tool_input: { command: "rm -rf build" }, tool_use_id: "toolu_1795", tool_call_id: "call_0001_0" };

/** Run one hooks.yaml hook for real and return the merged result. */
async function run(event: string, hook: string, context: Record<string, unknown> = {}): Promise<TriggerResult> {
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n${hook}`);
  const config = await sb.current.load();
  const runner = createRunner(config, { trust: "all", runLog: false, env: sb.current.processEnv, cwd: sb.current.dir });
  try {
    return await runner.trigger(event, { session_id: "s1", ...context });
  } finally {
    await runner.close();
  }
}
const native = (out: unknown) => `    - name: h\n      command: ${JSON.stringify(`printf '%s' '${JSON.stringify(out)}'`)}\n`;
const parsed = (r: TriggerResult) => {
  const a = renderQwen(r);
  expect(a.exitCode).toBe(0);
  expect(a.stderr).toBe("");
  return JSON.parse(a.stdout);
};

describe("qwen: detect and read", () => {
  it("knows Qwen's payloads by tool_call_id, or timestamp + permission_mode, with Claude's event names", () => {
    expect(detectQwen(PRE)).toBe(true);
    expect(detectQwen({ ...BASE, hook_event_name: "SessionStart", source: "startup", model: "mock-model" })).toBe(true);
    expect(detectQwen({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "" })).toBe(true);
    // Claude Code: no timestamp, no tool_call_id.
    expect(
      detectQwen({ session_id: "s", transcript_path: "/t", cwd: "/p", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {}, tool_use_id: "toolu_1" }),
    ).toBe(false);
    // Gemini CLI: timestamp but no permission_mode; its own event names.
    expect(detectQwen({ session_id: "s", transcript_path: "/t", cwd: "/p", hook_event_name: "SessionStart", timestamp: "2026-11-24T00:00:00Z", source: "startup" })).toBe(false);
    expect(detectQwen({ ...BASE, hook_event_name: "BeforeTool", tool_call_id: "c" })).toBe(false);
    expect(detectQwen({ ...BASE, hook_event_name: "toString" })).toBe(false);
    expect(detectQwen({ ...BASE, session_id: 7, hook_event_name: "Stop" })).toBe(false);
    expect(detectQwen({ ...BASE, hook_event_name: "Stop", timestamp: 5, tool_call_id: undefined })).toBe(false);
    expect(detectHost(PRE)).toBe(qwenHost);
    // Events Qwen shares with Gemini CLI (SessionStart, Notification) and Copilot's PascalCase entries (Stop) are still Qwen's.
    for (const p of [
      { ...BASE, hook_event_name: "SessionStart", source: "startup", model: "mock-model" },
      { ...BASE, hook_event_name: "Notification", message: "Successfully authenticated with openai", notification_type: "auth_success", title: "Authentication successful" },
      { ...BASE, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done.", background_tasks: [], crons: [] },
      { ...BASE, hook_event_name: "UserPromptSubmit", prompt: "" },
    ])
      expect(detectHost(p)?.name, p.hook_event_name).toBe("qwen");
    // A Claude dispatch entry fired by Qwen (Qwen does not read .claude/, but a user may copy it) answers as Qwen.
    expect(resolveHost("claude", PRE)).toBe(qwenHost);
    expect(hostByName("qwen")).toBe(qwenHost);
  });

  it("maps Qwen's tool ids to Claude's names and keeps Qwen's own under host", () => {
    const c = qwenHost.read(PRE, "pre_tool_use");
    expect(c).toMatchObject({ tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "toolu_1795", tool_call_id: "call_0001_0", timestamp: BASE.timestamp });
    expect(c.host).toEqual({ name: "qwen", event: "PreToolUse", tool_name: "run_shell_command" });
    const names = ["write_file", "edit", "replace", "read_file", "grep_search", "glob", "web_fetch", "agent"].map((t) => qwenHost.read({ ...PRE, tool_name: t }, "pre_tool_use").tool_name);
    expect(names).toEqual(["Write", "Edit", "Edit", "Read", "Grep", "Glob", "WebFetch", "Agent"]);
    expect(qwenHost.read({ ...PRE, tool_name: "mcp__srv__do" }, "pre_tool_use").tool_name).toBe("mcp__srv__do");
    expect(qwenHost.read({ ...PRE, tool_name: "toString" }, "pre_tool_use").tool_name).toBe("toString");
  });

  it("routes UserPromptSubmit: the prompt runs user_prompt_submit, a continuation send runs nothing", () => {
    expect(routeQwen({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "do it", submitted_prompt: "do it" }, "user_prompt_submit")).toBe("user_prompt_submit");
    expect(routeQwen({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "from ACP" }, "user_prompt_submit")).toBe("user_prompt_submit");
    expect(routeQwen({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "", submitted_prompt: "" }, "user_prompt_submit")).toBe("user_prompt_submit");
    expect(routeQwen({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "" }, "user_prompt_submit")).toBeNull();
    // A Stop-block send carries the reason as prompt: it runs (it cannot be told from an undeclared ACP prompt).
    expect(routeQwen({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "run the tests" }, "user_prompt_submit")).toBe("user_prompt_submit");
    expect(routeQwen({ ...BASE, hook_event_name: "UserPromptSubmit" }, "user_prompt_submit")).toBeNull();
    expect(routeQwen({ ...BASE, hook_event_name: "Stop", prompt: "" }, "stop")).toBe("stop");
  });

  it("hooks run UserPromptSubmit --host qwen: a continuation runs no hook and prints nothing; the prompt runs them", async () => {
    sb.current.write("hooks.yaml", `hooks:\n  user_prompt_submit:\n    - {name: ctx, command: "echo ran >> ran.txt; echo CONTEXT"}\n`);
    const go = (payload: unknown) => runMain(["--trust", "run", "UserPromptSubmit", "--host", "qwen"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
    const cont = await go({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "" });
    expect(cont).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(() => sb.current.path("ran.txt")).not.toThrow();
    const first = await go({ ...BASE, hook_event_name: "UserPromptSubmit", prompt: "hi", submitted_prompt: "hi" });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "CONTEXT" } });
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(sb.current.path("ran.txt"), "utf8")).toBe("ran\n");
  });
});

describe("qwen: render", () => {
  it("a block on PreToolUse is a JSON deny with the reason, exit 0 (a claude hook's exit 2 too)", async () => {
    expect(parsed(await run("pre_tool_use", native({ decision: "block", reason: "no rm" }), { tool_name: "Bash" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" },
    });
    const claude = await run("pre_tool_use", `    - {name: h, dialect: claude, command: "echo 'not here' >&2; exit 2"}\n`, { tool_name: "Bash" });
    expect(parsed(claude).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "not here" });
  });

  it("ask stays ask (Qwen asks in its TUI, denies headless); defer is no decision", async () => {
    const ask = await run("pre_tool_use", native({ hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "sure?" } }), { tool_name: "Bash" });
    expect(parsed(ask).hookSpecificOutput).toEqual({ hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" });
    const defer = await run(
      "pre_tool_use",
      `    - {name: h, dialect: claude, command: "echo '{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"defer\\"}}'"}\n`,
      { tool_name: "Bash" },
    );
    expect(defer.hooks[0].decision).toBe("defer");
    expect(parsed(defer)).toEqual({});
  });

  it("updated_input cannot be applied: the call is denied, and the reason gives the model the rewritten input", async () => {
    const r = await run("pre_tool_use", native({ decision: "allow", updated_input: { command: "ls" } }), { tool_name: "Bash", tool_input: { command: "rm -rf /" } });
    const out = parsed(r);
    expect(out.hookSpecificOutput.updatedInput).toBeUndefined();
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(
      /rewritten to \{"command":"ls"\}.*cannot rewrite a tool call's input, so the call was not run; to go ahead, make the call again with exactly that input/,
    );
    // A block wins as it is, the rewrite dropped.
    const both = await run(
      "pre_tool_use",
      `${native({ decision: "allow", updated_input: { command: "ls" } })}    - name: g\n      command: ${JSON.stringify(`printf '%s' '${JSON.stringify({ decision: "block", reason: "no" })}'`)}\n`,
      { tool_name: "Bash" },
    );
    expect(parsed(both)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
  });

  it("post-tool feedback becomes additionalContext (Qwen ignores decision: block there), after any context", async () => {
    const fb = await run("post_tool_use", `    - {name: h, dialect: claude, command: "echo 'tests failed' >&2; exit 2"}\n`, { tool_name: "Bash" });
    expect(parsed(fb)).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "tests failed" } });
    const both = await run(
      "post_tool_use_failure",
      `    - {name: a, dialect: claude, command: "echo '{\\"decision\\":\\"block\\",\\"reason\\":\\"R\\",\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PostToolUseFailure\\",\\"additionalContext\\":\\"C\\"}}'"}\n`,
      { tool_name: "Bash" },
    );
    expect(parsed(both)).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "C\n\nR" } });
    expect(parsed(await run("post_tool_use", "    - {name: h, command: 'echo M'}\n", { tool_name: "Bash" }))).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "M" } });
  });

  it("a native hook's block after the tool ran is additionalContext, alike whether it exited 2 or printed a JSON block", async () => {
    const exit2 = await run("post_tool_use", `    - {name: h, command: "echo 'tests failed' >&2; exit 2"}\n`, { tool_name: "Bash" });
    const json = await run("post_tool_use", native({ decision: "block", reason: "tests failed" }), { tool_name: "Bash" });
    for (const r of [exit2, json]) expect(parsed(r)).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "tests failed" } });
  });

  it("Stop: a block continues with its reason; a follow-up (Claude's Stop additionalContext, which Qwen drops) becomes that block", async () => {
    expect(parsed(await run("stop", native({ decision: "block", reason: "run the tests" })))).toEqual({ decision: "block", reason: "run the tests" });
    const follow = await run("stop", `    - {name: h, dialect: claude, command: "echo '{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"Stop\\",\\"additionalContext\\":\\"one more thing\\"}}'"}\n`);
    expect(parsed(follow)).toEqual({ decision: "block", reason: "one more thing" });
    // A native hook's plain message on Stop is for the user, not a reason to go on.
    const msg = parsed(await run("stop", "    - {name: h, command: 'echo done'}\n"));
    expect(msg).toEqual({ systemMessage: "done" });
    expect(parsed(await run("stop", native({ continue: false, stop_reason: "S" })))).toEqual({ continue: false, stopReason: "S" });
  });

  it("context on SessionStart / UserPromptSubmit is additionalContext; failures and notices are systemMessage; nothing is {}", async () => {
    expect(parsed(await run("session_start", "    - {name: h, command: 'echo M'}\n", { source: "startup" }))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "M" },
    });
    const ups = parsed(await run("user_prompt_submit", native({ decision: "block", reason: "no secrets" }), { prompt: "p" }));
    expect(ups).toEqual({ decision: "block", reason: "no secrets" });
    const failed = parsed(await run("pre_tool_use", "    - {name: h, command: 'echo oops >&2; exit 1'}\n", { tool_name: "Bash" }));
    expect(failed.systemMessage).toMatch(/hook h failed: exit code 1: oops/);
    expect(failed.hookSpecificOutput).toBeUndefined();
    expect(parsed(await run("pre_tool_use", "    - {name: h, command: 'true'}\n", { tool_name: "Bash" }))).toEqual({});
    expect(formatQwen(await run("session_end", "    - {name: h, command: 'true'}\n"))).toEqual({});
  });

  it("notRun says so to the user, and to the model where it listens first", () => {
    const a = qwenHost.notRun("user_prompt_submit", "FOR USER", "FOR MODEL");
    expect(a.exitCode).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({
      systemMessage: "hookrun: the project's hooks did not run: FOR USER",
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "hookrun: the project's hooks are not running in this session: FOR MODEL" },
    });
    expect(JSON.parse(qwenHost.notRun("pre_tool_use", "U", "M").stdout)).toEqual({ systemMessage: "hookrun: the project's hooks did not run: U" });
  });
});

describe("qwen: install entries", () => {
  const command = (event: string) => dispatchCommand("qwen", event, { root: qwenHost.setup!.root, bin: null, exec: qwenHost.setup!.exec });

  it("one entry per event Qwen fires; tool matchers as Qwen ids and Claude names; timeouts in seconds", async () => {
    sb.current.write(
      "hooks.yaml",
      [
        "hooks:",
        "  pre_tool_use:",
        "    - {name: guard, command: ./guard.sh, matcher: Bash|Write, timeout: 5s}",
        "    - {name: edits, command: ./e.sh, matcher: Edit, timeout: 20s}",
        "  post_tool_use:",
        "    - {name: any, command: ./p.sh, matcher: 'mcp__.*'}",
        "  stop:",
        "    - {name: tests, command: npm test, timeout: 2m}",
        "  pre_turn:",
        "    - {name: nope, command: 'true'}",
        "",
      ].join("\n"),
    );
    const entries = entriesOf(qwenHost, await sb.current.load(), command);
    expect(Object.keys(entries)).toEqual(["PreToolUse", "PostToolUse", "Stop"]);
    const pre = entries.PreToolUse[0] as any;
    expect(pre.matcher.split("|").sort()).toEqual(["Bash", "Edit", "Write", "edit", "replace", "run_shell_command", "write_file"]);
    expect(pre.hooks).toEqual([{ type: "command", command: 'exec "$QWEN_PROJECT_DIR"/node_modules/.bin/hooks -C "$QWEN_PROJECT_DIR" run pre_tool_use --host qwen', timeout: 35 }]);
    expect((entries.PostToolUse[0] as any).matcher).toBeUndefined();
    expect((entries.Stop[0] as any).hooks[0].timeout).toBe(130);
  });

  it("a dispatch of 1000 s or more is written in milliseconds (Qwen reads ≥ 1000 as ms)", async () => {
    expect(qwenTimeout(5_000)).toBe(5);
    expect(qwenTimeout(999_000)).toBe(999);
    expect(qwenTimeout(999_001)).toBe(1_000_000);
    expect(qwenTimeout(1_800_000)).toBe(1_800_000);
    sb.current.write("hooks.yaml", "hooks:\n  stop:\n    - {name: long, command: ./long.sh, timeout: 30m}\n");
    expect((entriesOf(qwenHost, await sb.current.load(), command).Stop[0] as any).hooks[0].timeout).toBe(1_810_000);
  });
});

describe("qwen: import", () => {
  it("carries Qwen's hooks as `dialect: qwen` hooks: tool ids, ms timeouts, name, env, sequential, $QWEN_PROJECT_DIR", () => {
    const imp = importQwenSettings({
      model: { name: "x" },
      hooks: {
        PreToolUse: [
          {
            matcher: "run_shell_command",
            sequential: true,
            hooks: [
              { type: "command", command: '"$QWEN_PROJECT_DIR"/.qwen/hooks/guard.sh', name: "guard", description: "no rm", timeout: 10, env: { LEVEL: "2" } },
              { type: "command", command: "./slow.sh", timeout: 30000 },
            ],
          },
          { matcher: "^write_.*", hooks: [{ type: "command", command: "./w.sh ${GEMINI_PROJECT_DIR}" }] },
          { matcher: "^mcp__", hooks: [{ type: "command", command: "./m.sh" }] },
        ],
        PostToolUse: [{ matcher: "write_file|edit", hooks: [{ type: "command", command: "./fmt.sh", name: "Bad Name" }] }],
        Stop: [{ hooks: [{ type: "http", url: "http://127.0.0.1:1/x" }] }],
        TodoCompleted: [{ hooks: [{ type: "command", command: "./todo.sh" }] }],
      },
    });
    const byName = Object.fromEntries(imp.hooks.map((h) => [h.hook.name, h]));
    expect(byName.guard.hook).toEqual({
      name: "guard",
      description: "no rm",
      matcher: "Bash",
      command: '"$HOOK_PROJECT_DIR"/.qwen/hooks/guard.sh',
      timeout: 10,
      priority: 3,
      env: { LEVEL: "2" },
      dialect: "qwen",
    });
    expect(byName.guard.event).toBe("pre_tool_use");
    expect(byName.slow.hook).toMatchObject({ matcher: "Bash", timeout: 30, priority: 2, dialect: "qwen" });
    // `sequential: true` on one group makes the whole event sequential: priorities in file order.
    expect(imp.hooks.filter((h) => h.event === "pre_tool_use").map((h) => h.hook.priority)).toEqual([3, 2, 1, 0]);
    expect(byName.fmt.hook.priority).toBeUndefined();
    expect(byName.w.hook).toMatchObject({ matcher: "Write", command: "./w.sh ${HOOK_PROJECT_DIR}" });
    expect(byName.m.hook.matcher).toBe("^mcp__");
    expect(byName.fmt.hook.matcher).toBe("Write|Edit");
    expect(byName.todo.event).toBe("todo_completed");
    expect(imp.customEvents.todo_completed.description).toMatch(/^Qwen Code's TodoCompleted event/);
    expect(imp.hooks.every((h) => h.hook.dialect === "qwen")).toBe(true);
    const notes = imp.notes.join("\n");
    expect(notes).toMatch(/hooks\.PreToolUse: `sequential: true`: its 4 hooks run one after another/);
    expect(notes).not.toMatch(/dialect: claude/);
    expect(notes).toMatch(/timeout 30000 is ≥ 1000.*30 s/);
    expect(notes).toMatch(/`\^write_\.\*`.*became `Write`/);
    expect(notes).toMatch(/`\^mcp__` selects none of Qwen's known tool ids/);
    expect(notes).toMatch(/"Bad Name" is not a hookrun hook name/);
    expect(notes).toMatch(/type `http`/);
    expect(notes).toMatch(/HOOK_PROJECT_DIR/);
  });

  it("a second import adds nothing; bad input throws or is noted, never dropped silently", () => {
    const settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: "./s.sh" }] }] } };
    const first = importQwenSettings(settings);
    expect(first.hooks).toHaveLength(1);
    const again = importQwenSettings(settings, [{ event: "stop", name: first.hooks[0].hook.name, command: "./s.sh" }]);
    expect(again.hooks).toHaveLength(0);
    expect(again.notes.join("\n")).toMatch(/already a stop hook/);
    expect(() => importQwenSettings([])).toThrow(/JSON object/);
    expect(() => importQwenSettings({ hooks: 3 })).toThrow(/must be an object/);
    expect(importQwenSettings({}).notes).toEqual(["the settings have no `hooks` object; nothing to import"]);
    const odd = importQwenSettings({ hooks: { Stop: "x", PreToolUse: [7, { hooks: [3, { type: "command", command: "./a.sh", env: { A: 1 }, name: 5 }] }] } });
    // An `env` that is not an object of strings refuses that one hook, saying why.
    expect(odd.hooks).toEqual([]);
    expect(odd.notes.join("\n")).toContain("hooks.PreToolUse[1].hooks[1] (`./a.sh`): not imported: `env` is not an object of strings");
    const named = importQwenSettings({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "./a.sh", name: 5, description: 7 }] }] } });
    expect(named.hooks.map((h) => h.hook)).toEqual([{ name: "a", command: "./a.sh", dialect: "qwen" }]);
    expect(named.notes.join("\n")).toContain("hooks.PreToolUse[0].hooks[0]: `description` 7 is not text; not carried");
    expect(odd.notes.join("\n")).toMatch(/hooks\.Stop: not a list/);
    expect(odd.notes.join("\n")).toMatch(/`env` is not an object of strings/);
    // A dispatch entry of hookrun's own is not imported (it would run hookrun from itself).
    const own = importQwenSettings({ hooks: { Stop: [{ hooks: [{ type: "command", command: 'exec "$QWEN_PROJECT_DIR"/node_modules/.bin/hooks -C "$QWEN_PROJECT_DIR" run stop --host qwen' }] }] } });
    expect(own.hooks).toEqual([]);
    expect(own.notes.join("\n")).not.toMatch(/HOOK_PROJECT_DIR/);
  });
});
