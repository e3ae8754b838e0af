import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { agentCode } from "../src/hosts/agentCode.js";
import { ownsEntry } from "../src/hosts/install.js";
import { dispatchCommand, walkUpDispatchCommand } from "../src/hosts/dispatch.js";
import { detectHost, hostByName, resolveHost } from "../src/hosts/adapters.js";
import { hookTableLines, SCHEMA_STAMP } from "../src/hosts/tomlFile.js";
import { lastAssistantText } from "../src/runner/context.js";
import { CLI, runMain } from "./helpers/cli.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { type Sandbox, sandbox } from "./helpers/sandbox.js";
import { entriesOf, stateOf } from "./helpers/hostSetup.js";
import { tomlEditor } from "../src/hosts/tomlFile.js";

/**
 * agent-code as a host, checked against its source (avala-ai/agent-code c25b885f): it cannot run
 * here (Rust, crates.io unreachable), so the dispatch is run exactly as its hooks/mod.rs runs a
 * shell hook: `bash -c CMD` in the session's cwd, AGENT_CODE_HOOK_EVENT / _TOOL / _CONTEXT in the
 * environment, the context on stdin as compact JSON with sorted keys and a newline; what counts
 * is the exit code and the first line of stderr (query/mod.rs reads a pre_tool_use veto so).
 */

const project = (event: string) => dispatchCommand("agent-code", event, { root: null, bin: null, exec: true, walkUp: ".agent" });

describe("agentCode.read: each event's payload as query/mod.rs builds it", () => {
  it("pre_tool_use: stdin is the raw tool input; the tool comes from AGENT_CODE_HOOK_TOOL", () => {
    const env = { AGENT_CODE_HOOK_EVENT: "pre_tool_use", AGENT_CODE_HOOK_TOOL: "Bash", AGENT_CODE_HOOK_CONTEXT: '{"command":"ls"}' };
    expect(agentCode.read({ command: "ls" }, "pre_tool_use", env)).toEqual({
      tool_name: "Bash",
      tool_input: { command: "ls" },
      host: { name: "agent-code", event: "pre_tool_use", tool_name: "Bash" },
    });
    // A tool input that has fields named like hookrun's stays whole under tool_input.
    const odd = agentCode.read({ host: "x", tool_name: "y", file_path: "a", content: "b" }, "pre_tool_use", { AGENT_CODE_HOOK_TOOL: "FileWrite" });
    expect(odd).toMatchObject({ tool_name: "Write", tool_input: { host: "x", tool_name: "y", file_path: "a", content: "b" } });
    for (const [tool, canonical] of [
      ["FileEdit", "Edit"],
      ["MultiEdit", "Edit"],
      ["ApplyPatch", "Edit"],
      ["FileRead", "Read"],
      ["Grep", "Grep"],
      ["mcp__gh__issue", "mcp__gh__issue"],
    ])
      expect(agentCode.read({}, "pre_tool_use", { AGENT_CODE_HOOK_TOOL: tool }).tool_name).toBe(canonical);
    // Too large for the variable: agent-code sets _TRUNCATED (stdin still has it all).
    expect(agentCode.read({ content: "x" }, "pre_tool_use", { AGENT_CODE_HOOK_TOOL: "FileWrite", AGENT_CODE_HOOK_CONTEXT_TRUNCATED: "1" }).host).toMatchObject({ context_truncated: true });
  });

  it("post_tool_use {tool, is_error}, stop, session_stop, user_prompt_submit's turn, cwd_changed's previous_cwd, and the rest", () => {
    expect(agentCode.read({ tool: "FileEdit", is_error: false }, "post_tool_use", { AGENT_CODE_HOOK_TOOL: "FileEdit" })).toEqual({
      tool_name: "Edit",
      is_error: false,
      host: { name: "agent-code", event: "post_tool_use", tool_name: "FileEdit" },
    });
    const stop = { session_id: "a1b2", turn_count: 3, last_assistant_message: "Done." };
    expect(agentCode.read(stop, "stop")).toEqual({ ...stop, host: { name: "agent-code", event: "stop" } });
    expect(agentCode.read({ session_id: "a1b2", turn_count: 3, total_cost_usd: 0.1, total_tokens: 900 }, "session_end")).toMatchObject({
      turn_count: 3,
      host: { event: "session_stop" },
    });
    expect(agentCode.read({ user_input: "fix it", attachments: [], turn: 4 }, "user_prompt_submit")).toMatchObject({ prompt: "fix it", turn_count: 4, attachments: [] });
    expect(agentCode.read({ previous_cwd: "/a", new_cwd: "/a/b", additional_dirs: [], cause: "cd" }, "cwd_changed")).toMatchObject({ old_cwd: "/a", new_cwd: "/a/b", cause: "cd" });
    expect(agentCode.read({ tool: "FileWrite", path: "/p/a.ts", is_error: false }, "file_changed")).toMatchObject({ tool_name: "Write", file_path: "/p/a.ts", path: "/p/a.ts" });
    expect(agentCode.read({ session_id: "s", turn: 2, stage: "llm_call_failed", message: "boom" }, "error")).toMatchObject({ error: "boom", turn_count: 2, stage: "llm_call_failed" });
    expect(agentCode.read({ session_id: "s", turn: 2, tool: "Bash", tool_use_id: "t", reason: "rule", input_summary: "rm", timestamp: "x" }, "permission_denied")).toMatchObject({
      tool_name: "Bash",
      reason: "rule",
      turn_count: 2,
    });
    expect(agentCode.read({ session_id: "s", id: "t-1", kind: "bash", status: "completed", description: "d", duration_secs: 1 }, "task_completed")).toMatchObject({
      task_id: "t-1",
      task_description: "d",
    });
    expect(agentCode.read({ turn: 5, total_turns: 5 }, "post_turn")).toMatchObject({ turn_count: 5 });
  });

  it("is never detected (no envelope), and `--host agent-code` keeps its raw payloads", () => {
    for (const p of [{ command: "ls" }, { file_path: "a", content: "b" }, { tool: "Bash", is_error: false }, { session_id: "s", turn_count: 1, last_assistant_message: "x" }]) {
      expect(agentCode.detect(p)).toBe(false);
      expect(detectHost(p)).not.toBe(agentCode);
      expect(resolveHost("agent-code", p)).toBe(agentCode);
    }
    expect(hostByName("agent-code")).toBe(agentCode);
  });

  // agent-code's payload is the model's own tool input: keys the model writes that look like
  // another host's envelope must not switch the answer to a contract agent-code reads as "go on".
  const LOOK_ALIKES: Record<string, Record<string, unknown>> = {
    claude: { hook_event_name: "PreToolUse", session_id: "s", transcript_path: "/tmp/t.jsonl", tool_name: "Bash", tool_input: { command: "ls" } },
    cursor: { cursor_version: "1.7", hook_event_name: "beforeShellExecution", conversation_id: "c", generation_id: "g" },
    gemini: { hook_event_name: "BeforeTool", timestamp: "2026-01-01T00:00:00Z", session_id: "s" },
    codex: { turn_id: "t", hook_event_name: "PreToolUse", session_id: "s", model: "gpt" },
    qwen: { tool_call_id: "x", hook_event_name: "PreToolUse", session_id: "s" },
    copilot: { sessionId: "s", timestamp: 1, toolName: "bash", toolArgs: "{}" },
    droid: { hook_event_name: "PreToolUse", session_id: "s", transcript_path: "/home/u/.factory/sessions/s.jsonl" },
    cline: { hookName: "PreToolUse", taskId: "t", clineVersion: "3", preToolUse: { toolName: "execute_command" } },
    windsurf: { agent_action_name: "pre_run_command", trajectory_id: "t", tool_info: { command_line: "ls" } },
  };

  it("keys of the model's tool input that look like another host's never switch the answer: a blocking hook still vetoes", async () => {
    const p = sandbox({ config: "hooks:\n  pre_tool_use:\n    - name: guard\n      command: 'echo no >&2; exit 2'\n" });
    for (const [other, keys] of Object.entries(LOOK_ALIKES)) {
      const payload = { command: "rm -rf /", ...keys };
      expect(resolveHost("agent-code", payload), other).toBe(agentCode);
      const r = await runMain(["run", "pre_tool_use", "--host", "agent-code"], {
        cwd: p.dir,
        env: { ...p.env, HOOKS_TRUST: "1", AGENT_CODE_HOOK_EVENT: "pre_tool_use", AGENT_CODE_HOOK_TOOL: "Bash" },
        input: JSON.stringify(payload),
      });
      expect(r.code, `${other}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr, other).toMatch(/^no/);
    }
  });
});

describe("agentCode.render: only a pre_tool_use veto reaches agent-code", () => {
  const firstLine = (s: string) => s.trim().split("\n")[0];

  it("pre_tool_use: a block is exit 2 with the reason alone on stderr's first line (a multi-line reason on one)", () => {
    const r = agentCode.render(triggerResult("pre_tool_use", [hookResult("guard", { exit_code: 2 })], { blocked: true, blocked_by: "guard", reason: "no rm -rf\nuse trash" }));
    expect(r).toEqual({ stdout: "", stderr: "no rm -rf / use trash\n", exitCode: 2 });
  });

  it("pre_tool_use: allow, defer and nothing are exit 0, and agent-code's own permission rules decide", () => {
    for (const decision of ["allow", "defer", null] as const) expect(agentCode.render(triggerResult("pre_tool_use", [hookResult("h", { decision })]))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("pre_tool_use: ask, a rewritten input and a stop request are vetoes whose reason says why", () => {
    const ask = agentCode.render(triggerResult("pre_tool_use", [hookResult("confirm", { decision: "ask", reason: "deploys to prod" })]));
    expect(ask.exitCode).toBe(2);
    expect(firstLine(ask.stderr)).toMatch(/asked for the user's confirmation \(deploys to prod\), and agent-code hooks cannot ask: the call is refused; ask the user/);
    const rewrite = agentCode.render(triggerResult("pre_tool_use", [hookResult("dry")], { updated_input: { command: "rm -i x" } }));
    expect(rewrite.exitCode).toBe(2);
    expect(firstLine(rewrite.stderr)).toMatch(/rewrote this call's input.*make the call again with this input: \{"command":"rm -i x"\}$/);
    const stop = agentCode.render(triggerResult("pre_tool_use", [hookResult("s")], { continue: false, stop_reason: "budget spent", stopped_by: "s" }));
    expect(stop.exitCode).toBe(2);
    expect(firstLine(stop.stderr)).toMatch(/asked to stop the agent \(budget spent\); a hook cannot stop agent-code/);
    // A block wins over the rest.
    expect(firstLine(agentCode.render(triggerResult("pre_tool_use", [hookResult("g")], { blocked: true, reason: "no", updated_input: { a: 1 } })).stderr)).toBe("no");
  });

  it("elsewhere: exit 0 whatever the hooks said; what agent-code drops is listed on stderr (stop block, session context, failures)", () => {
    const stop = agentCode.render(triggerResult("stop", [hookResult("tests", { exit_code: 2 })], { blocked: true, blocked_by: "tests", reason: "tests fail" }));
    expect(stop.exitCode).toBe(0);
    expect(stop.stderr).toMatch(/agent-code ignores hooks' output on stop; not delivered: a block \(tests fail\)/);
    const start = agentCode.render(triggerResult("session_start", [hookResult("ctx", { messages: [{ role: "system", content: "branch main" }] })]));
    expect(start).toEqual({ stdout: "", stderr: "hookrun: agent-code ignores hooks' output on session_start; not delivered: context: branch main\n", exitCode: 0 });
    const failed = agentCode.render(triggerResult("post_tool_use", [hookResult("lint", { status: "failed", exit_code: 1, stderr: "oops" })]));
    expect(failed).toMatchObject({ exitCode: 0, stdout: "" });
    expect(failed.stderr).toMatch(/hookrun: hook lint failed: exit 1 \(oops\)/);
    const end = agentCode.render(triggerResult("session_end", []));
    expect(end).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(agentCode.render(triggerResult("session_end", [], { blocked: true, reason: "x" })).stderr).toMatch(/on session_stop;/);
  });

  it("untrusted or invalid config: pre_tool_use fails closed with the reason for the model; elsewhere exit 0", () => {
    const veto = agentCode.notRun("pre_tool_use", "hooks.yaml is not trusted", "hooks.yaml is not trusted, so none of its hooks, guards included, will run.\nTell the user.");
    expect(veto.exitCode).toBe(2);
    expect(veto.stderr).toBe("hookrun: the project's hooks are not running, so this call is refused: hooks.yaml is not trusted, so none of its hooks, guards included, will run. / Tell the user.\n");
    expect(agentCode.notRun("stop", "not trusted", "m")).toEqual({ stdout: "", stderr: "hookrun: the project's hooks did not run: not trusted\n", exitCode: 0 });
  });
});

describe("agent-code's setup: its entries", () => {
  it("one [[hooks]] table per event, only names agent-code knows, tool_name one table per exact tool", () => {
    const c = config("/p", [
      hook("guard", "pre_tool_use", { matcher: "Bash|Write" }),
      hook("fmt", "post_tool_use", { matcher: "Edit" }),
      hook("tests", "stop"),
      hook("bye", "session_end"),
      hook("sub", "subagent_stop"),
      hook("custom", "deploy_done"),
    ]);
    const e = entriesOf(agentCode, c, project);
    expect(Object.keys(e)).toEqual(["session_stop", "pre_tool_use", "post_tool_use", "stop"]);
    for (const name of Object.keys(e)) expect(Object.hasOwn(agentCode.events, name)).toBe(true);
    expect(e.pre_tool_use.map((t) => t.tool_name)).toEqual(["Bash", "FileWrite"]);
    expect(e.post_tool_use.map((t) => t.tool_name)).toEqual(["FileEdit", "MultiEdit", "ApplyPatch"]);
    expect(e.stop).toEqual([{ action: { command: walkUpDispatchCommand("agent-code", "stop", {}, ".agent"), type: "shell" } }]);
    for (const list of Object.values(e)) for (const t of list) expect(ownsEntry(t)).toBe(true);
    // A matcher that is a regex, or a hook without one, takes every tool: no tool_name.
    const wide = entriesOf(agentCode, config("/p", [hook("g", "pre_tool_use", { matcher: "Bash" }), hook("all", "pre_tool_use")]), project);
    expect(wide.pre_tool_use).toEqual([{ action: { command: walkUpDispatchCommand("agent-code", "pre_tool_use", {}, ".agent"), type: "shell" } }]);
    // --user: the absolute bin is kept as given.
    const user = entriesOf(agentCode, config("/p", [hook("t", "stop")]), (ev) => `'/opt/hookrun/dist/bin/hooks.js' run ${ev} --host agent-code`);
    expect(user.stop[0].action).toEqual({ command: "'/opt/hookrun/dist/bin/hooks.js' run stop --host agent-code", type: "shell" });
  });
});

const wanted = (c = config("/p", [hook("guard", "pre_tool_use", { matcher: "Bash" }), hook("tests", "stop")])) => entriesOf(agentCode, c, project);

const USER_FILE = `schema_version = 2
# team settings: keep this comment
[api]
model = "gpt-5.4"   # trailing comment

[[hooks]]
event = "session_start"
action = { type = "shell", command = "echo starting >> /tmp/log" }

[permissions]
default_mode = "ask"
`;

describe("hookrun's [[hooks]] tables in a TOML file (src/hosts/tomlFile.ts)", () => {
  it("appends its tables, keeps every byte of the user's, is idempotent, and uninstall restores the file byte for byte", () => {
    for (const before of [USER_FILE, USER_FILE.replaceAll("\n", "\r\n"), `schema_version = 2\n[ui]\ntheme = "dark"\n\n\n`]) {
      const after = tomlEditor.merge(before, "s.toml", wanted());
      expect(after.startsWith(before)).toBe(true);
      expect(tomlEditor.installed(after, "s.toml")).toEqual(wanted());
      expect(tomlEditor.merge(after, "s.toml", wanted())).toBe(after);
      expect(stateOf(tomlEditor, after, "s.toml", wanted())).toEqual({ installed: true, stale: [] });
      const doc = parseToml(after) as { hooks: { event: string; tool_name?: string }[] };
      expect(doc.hooks.map((h) => [h.event, h.tool_name ?? null])).toEqual([...(before.includes("session_start") ? [["session_start", null]] : []), ["pre_tool_use", "Bash"], ["stop", null]]);
      expect(tomlEditor.uninstall(after, "s.toml")).toBe(before);
    }
  });

  it("finds each [[hooks]] table's line past TOML strings that look like quotes, headers or comments", () => {
    const text = [
      's = """x\\"""', // an escaped quote and two more: the string is still open
      "[[hooks]]", // inside it: not a header
      '""" # closed here',
      `literal = '"""'`, // three quotes in a literal string open nothing
      'basic = "a \\" [[hooks]] # "', // an escaped quote in a one-line string
      "lit = '''",
      "[[hooks]]",
      "'''",
      "",
      "[[hooks]] # the first table",
      'event = "stop"',
      'note = """',
      "[[hooks]]",
      'ends with quotes"""""',
      'action = { type = "shell", command = "a" }',
      "",
      "[[ hooks ]]",
      'event = "stop"',
      "action = { type = 'shell', command = '''b''' }",
      "",
    ].join("\n");
    const doc = parseToml(text) as { s: string; hooks: { note?: string }[] };
    expect(doc.s).toBe('x"""\n[[hooks]]\n');
    expect(doc.hooks).toHaveLength(2);
    expect(doc.hooks[0].note).toBe('[[hooks]]\nends with quotes""');
    expect(hookTableLines(text)).toEqual([10, 17]);
    expect(hookTableLines(text.replaceAll("\n", "\r\n"))).toEqual([10, 17]);
  });

  it("replaces only its own stale tables, wherever they are, and reports the stale events", () => {
    const first = tomlEditor.merge(USER_FILE, "s.toml", wanted());
    const mine = `${first}\n[[hooks]]\nevent = "stop"\naction = { type = "shell", command = "./notify.sh" }\n`;
    const fewer = wanted(config("/p", [hook("tests", "stop")]));
    expect(stateOf(tomlEditor, mine, "s.toml", fewer)).toEqual({ installed: true, stale: ["pre_tool_use"] });
    const again = tomlEditor.merge(mine, "s.toml", fewer);
    expect((parseToml(again) as { hooks: { event: string; action: { command: string } }[] }).hooks.map((h) => h.action.command)).toEqual([
      "echo starting >> /tmp/log",
      "./notify.sh",
      walkUpDispatchCommand("agent-code", "stop", {}, ".agent"),
    ]);
    expect(tomlEditor.uninstall(again, "s.toml")).toBe(`${USER_FILE}\n[[hooks]]\nevent = "stop"\naction = { type = "shell", command = "./notify.sh" }\n`);
  });

  it("finds and removes its tables after agent-code rewrote the file (sub-table [hooks.action], its own key order)", () => {
    const cmd = walkUpDispatchCommand("agent-code", "stop", {}, ".agent");
    const rewritten = `schema_version = 2\n\n[[hooks]]\nevent = "session_start"\n\n[hooks.action]\ntype = "shell"\ncommand = "echo hi"\n\n[[hooks]]\nevent = "stop"\n\n[hooks.action]\ntype = "shell"\ncommand = ${JSON.stringify(cmd)}\n\n[ui]\ntheme = "dark"\n`;
    expect(tomlEditor.installed(rewritten, "s.toml")).toEqual({ stop: [{ action: { command: cmd, type: "shell" } }] });
    const un = tomlEditor.uninstall(rewritten, "s.toml")!;
    expect(parseToml(un)).toEqual({ schema_version: 2, hooks: [{ event: "session_start", action: { type: "shell", command: "echo hi" } }], ui: { theme: "dark" } });
    expect(un).toContain('[[hooks]]\nevent = "session_start"\n\n[hooks.action]\ntype = "shell"\ncommand = "echo hi"\n');
  });

  it("a new file starts with schema_version = 2 and goes away on uninstall", () => {
    const made = tomlEditor.merge(null, "s.toml", wanted());
    expect(made.startsWith("schema_version = 2\n\n[[hooks]]\n")).toBe(true);
    expect(parseToml(made)).toMatchObject({ schema_version: 2 });
    expect(tomlEditor.uninstall(made, "s.toml")).toBeNull();
  });

  it("stamps schema_version = 2 on a file agent-code would rewrite for nothing, and takes the stamp back on uninstall", () => {
    const bare = '# mine\n[ui]\ntheme = "dark"\n';
    const after = tomlEditor.merge(bare, "s.toml", wanted());
    expect(after.startsWith(SCHEMA_STAMP + bare)).toBe(true);
    expect(parseToml(after)).toMatchObject({ schema_version: 2, ui: { theme: "dark" } });
    expect(tomlEditor.uninstall(after, "s.toml")).toBe(bare);
    // A file with a migration to run (api.token, or version 1) is not stamped: agent-code must migrate it.
    for (const migrates of ['[api]\ntoken = "sk-x"\n', 'schema_version = 1\n[ui]\ntheme = "dark"\n']) {
      const out = tomlEditor.merge(migrates, "s.toml", wanted());
      expect(out.startsWith(migrates)).toBe(true);
      expect(out).not.toContain("# hooks install agent-code");
      expect(tomlEditor.uninstall(out, "s.toml")).toBe(migrates);
    }
  });

  it("refuses what it cannot edit exactly, saying where, with nothing written", () => {
    expect(() => tomlEditor.merge('schema_version = 2\n[api\nmodel = "x"\n', "/p/.agent/settings.toml", wanted())).toThrow(/\/p\/\.agent\/settings\.toml:2: .*it must be TOML.*nothing was written/);
    // An inline hooks array: appending [[hooks]] would not be TOML.
    expect(() => tomlEditor.merge('hooks = [{ event = "stop", action = { type = "shell", command = "x" } }]\n', "s.toml", wanted())).toThrow(/nothing was written/);
    expect(() => tomlEditor.merge('hooks = "nope"\n', "s.toml", wanted())).toThrow(/not an array of \[\[hooks\]\] tables/);
    // hookrun's entry inside an inline array: it cannot remove exactly it.
    const inline = `hooks = [{ event = "stop", action = { type = "shell", command = ${JSON.stringify(walkUpDispatchCommand("agent-code", "stop", {}, ".agent"))} } }]\n`;
    expect(() => tomlEditor.uninstall(inline, "s.toml")).toThrow(/not each a \[\[hooks\]\] table of their own/);
  });
});

describe("agentCode.import (parsed TOML → hooks.yaml)", () => {
  it("imports shell hooks in the agent-code dialect: on_failure block on pre_tool_use, timeout 25, tool_name as a canonical matcher", () => {
    const r = agentCode.import!(
      {
        hooks: [
          { event: "pre_tool_use", tool_name: "Bash", action: { type: "shell", command: "./guard.sh" } },
          { event: "post_tool_use", tool_name: "FileWrite", action: { type: "shell", command: "npx prettier --write ." } },
          { event: "stop", action: { type: "shell", command: "./notify.sh" }, timeout: 5 },
          { event: "session_start", tool_name: "Bash", action: { type: "shell", command: "./hello.sh" } },
          { event: "stop", action: { type: "http", url: "http://x" } },
          { event: "sessionEnd", action: { type: "shell", command: "x" } },
          { event: "stop", action: { type: "shell", command: walkUpDispatchCommand("agent-code", "stop", {}, ".agent") } },
        ],
      },
      [],
    );
    expect(r.hooks.map((h) => [h.event, h.hostEvent, h.at, h.hook])).toEqual([
      ["pre_tool_use", "pre_tool_use", "hooks[0]", { name: "guard", matcher: "Bash", command: "./guard.sh", timeout: 25, on_failure: "block", dialect: "agent-code" }],
      ["post_tool_use", "post_tool_use", "hooks[1]", { name: "prettier", matcher: "Write", command: "npx prettier --write .", timeout: 25, dialect: "agent-code" }],
      ["stop", "stop", "hooks[2]", { name: "notify", command: "./notify.sh", timeout: 25, dialect: "agent-code" }],
      ["session_start", "session_start", "hooks[3]", { name: "hello", command: "./hello.sh", timeout: 25, dialect: "agent-code" }],
    ]);
    const notes = r.notes.join("\n");
    expect(notes).toMatch(/hooks\[2\]: `timeout` is not a field of agent-code's hooks/);
    expect(notes).toMatch(/hooks\[3\]: `tool_name = "Bash"` on session_start, which agent-code fires without a tool name/);
    expect(notes).toMatch(/hooks\[4\]: skipped an action of type `http`/);
    expect(notes).toMatch(/hooks\[5\]: `sessionEnd` is not an agent-code event \(agent-code refuses the whole file over it\)/);
    expect(notes).toMatch(/hooks\[6\] \(stop\): already hands this event to hookrun; skipped/);
    expect(notes).toMatch(/imported with `dialect: agent-code`.*any non-zero exit or a timeout vetoes.*`on_failure: block` on pre_tool_use/);
    // A second import adds nothing twice.
    const again = agentCode.import!({ hooks: [{ event: "pre_tool_use", tool_name: "Bash", action: { type: "shell", command: "./guard.sh" } }] }, [
      { event: "pre_tool_use", name: "guard", command: "./guard.sh", matcher: "Bash" },
    ]);
    expect(again.hooks).toEqual([]);
  });

  it("refuses what is not agent-code's settings", () => {
    expect(() => agentCode.import!([], [])).toThrow(/TOML table/);
    expect(() => agentCode.import!({ hooks: { stop: [] } }, [])).toThrow(/array of \[\[hooks\]\] tables/);
    expect(agentCode.import!({ api: {} }, []).notes).toEqual(["the file has no [[hooks]] tables; nothing to import"]);
  });
});

describe("lastAssistantText agrees with agent-code's last_assistant_text (query/mod.rs tests, c25b885f)", () => {
  // mk_assistant_with_text / mk_assistant_tool_use_only of crates/lib/src/query/mod.rs, as history entries.
  const text = (...parts: string[]) => ({ role: "assistant", content: parts.map((t) => ({ type: "text", text: t })) });
  const toolOnly = (name: string) => ({ role: "assistant", content: [{ type: "tool_use", id: "t1", name, input: {} }] });

  it("last_assistant_text_returns_none_for_empty_history", () => expect(lastAssistantText([])).toBeNull());
  it("last_assistant_text_returns_most_recent_assistant_text", () => expect(lastAssistantText([text("first reply"), text("second reply")])).toBe("second reply"));
  it("last_assistant_text_joins_multiple_text_blocks (no separator)", () => expect(lastAssistantText([text("hello ", "world")])).toBe("hello world"));
  it("last_assistant_text_skips_pure_tool_use_messages", () => expect(lastAssistantText([text("real reply"), toolOnly("Bash")])).toBe("real reply"));
  // Not a test of theirs, but what their code does: only an empty join is skipped.
  it("returns whitespace-only text unchanged, and joins ['a', 'b'] as 'ab'", () => {
    expect(lastAssistantText([text("real reply"), text("  \n")])).toBe("  \n");
    expect(lastAssistantText([text("a", "b")])).toBe("ab");
    expect(lastAssistantText([text("real reply"), text("")])).toBe("real reply");
  });
});

/** A project whose node_modules/.bin/hooks is this checkout's built CLI, as `npm install` leaves it. */
function agentProject(yaml: string): Sandbox {
  const p = sandbox({ config: yaml, prefix: "hookrun-agentcode-" });
  mkdirSync(p.path("node_modules/.bin"), { recursive: true });
  symlinkSync(CLI, p.path("node_modules/.bin/hooks"));
  mkdirSync(p.path("src/deep"), { recursive: true });
  return p;
}

/** serde_json's compact output of a json! value: keys sorted (BTreeMap), no spaces. */
const compact = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

/** Run one [[hooks]] table's command as agent-code's run_shell_hook does. */
function fire(p: Sandbox, command: string, event: string, tool: string | null, context: unknown, cwd = p.path("src/deep")) {
  const json = compact(context);
  const env = { ...p.processEnv, AGENT_CODE_HOOK_EVENT: event, AGENT_CODE_HOOK_TOOL: tool ?? "", AGENT_CODE_HOOK_CONTEXT: json };
  const r = spawnSync("bash", ["-c", command], { cwd, env, input: `${json}\n`, encoding: "utf8", timeout: 30_000 });
  // query/mod.rs: the veto reason is stderr trimmed (else stdout), first line.
  const reason = (r.stderr.trim() || r.stdout.trim()).split("\n")[0];
  return { status: r.status, reason, stderr: r.stderr };
}

/** The command of the table for `event` (and `tool`) in the installed settings.toml. */
function tableCommand(p: Sandbox, event: string, tool?: string): string {
  const doc = parseToml(readFileSync(p.path(".agent/settings.toml"), "utf8")) as { hooks: { event: string; tool_name?: string; action: { command: string } }[] };
  const t = doc.hooks.find((h) => h.event === event && h.tool_name === tool);
  if (!t) throw new Error(`no [[hooks]] table for ${event} ${tool ?? ""}`);
  return t.action.command;
}

const GUARD_YAML = `hooks:
  pre_tool_use:
    - name: no-rm
      matcher: Bash
      timeout: 5s
      command: 'if grep -q "rm -rf"; then echo "rm -rf is not allowed here" >&2; exit 2; fi'
  stop:
    - name: record
      timeout: 5s
      command: cat > stop-context.json
  session_end:
    - {name: bye, command: "true", timeout: 5s}
`;

describe("hooks install agent-code, then the entries fired as agent-code fires them (bash -c, env, stdin)", () => {
  it("blocks a Bash call with the reason on stderr's first line, lets another through, and hands stop's context to the hook", async () => {
    const p = agentProject(GUARD_YAML);
    const install = await runMain(["install", "agent-code"], { cwd: p.dir, env: p.env });
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/\.agent\/settings\.toml: created; agent-code hands session_stop, pre_tool_use, stop to hookrun/);
    const text = readFileSync(p.path(".agent/settings.toml"), "utf8");
    expect(text.startsWith("schema_version = 2\n")).toBe(true);
    expect((parseToml(text) as { hooks: { event: string }[] }).hooks.map((h) => h.event)).toEqual(["session_stop", "pre_tool_use", "stop"]);

    // Untrusted: the guard did not run, so the call is vetoed, and the model is told why.
    const untrusted = fire(p, tableCommand(p, "pre_tool_use", "Bash"), "pre_tool_use", "Bash", { command: "ls" });
    expect(untrusted.status).not.toBe(0);
    expect(untrusted.reason).toMatch(/^hookrun: the project's hooks are not running, so this call is refused: .*not trusted/);

    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const veto = fire(p, tableCommand(p, "pre_tool_use", "Bash"), "pre_tool_use", "Bash", { command: "rm -rf build", timeout: 120 });
    expect(veto.status).toBe(2);
    expect(veto.reason).toBe("rm -rf is not allowed here");
    const ok = fire(p, tableCommand(p, "pre_tool_use", "Bash"), "pre_tool_use", "Bash", { command: "ls" });
    expect(ok).toMatchObject({ status: 0, reason: "" });

    const stop = fire(p, tableCommand(p, "stop"), "stop", null, { session_id: "a1b2", turn_count: 2, last_assistant_message: "All done." }, p.dir);
    expect(stop.status).toBe(0);
    const seen = JSON.parse(readFileSync(p.path("stop-context.json"), "utf8"));
    expect(seen).toMatchObject({ event: "stop", session_id: "a1b2", turn_count: 2, last_assistant_message: "All done." });
    expect(fire(p, tableCommand(p, "session_stop"), "session_stop", null, { session_id: "a1b2", turn_count: 2, total_cost_usd: 0, total_tokens: 1 }).status).toBe(0);
  }, 60_000);

  it("fails closed on pre_tool_use when no hookrun is installed above the cwd", () => {
    const p = sandbox({ config: GUARD_YAML });
    const r = fire(p, walkUpDispatchCommand("agent-code", "pre_tool_use", {}, ".agent"), "pre_tool_use", "Bash", { command: "ls" }, p.dir);
    expect(r.status).toBe(1);
    expect(r.reason).toMatch(/^hookrun: no node_modules\/\.bin\/hooks of yours in .* or up to the project root/);
  });
});

describe("hooks install / uninstall / --check / import agent-code (CLI)", () => {
  it("installs into the user's settings.toml, byte-exact uninstall, --check, and the warnings agent-code's layers need", async () => {
    const p = agentProject(`${GUARD_YAML}  post_tool_use:\n    - {name: slow, command: "true", timeout: 40s}\n`);
    p.write(".agent/settings.toml", USER_FILE);
    p.write(".agent/settings.local.toml", '[[hooks]]\nevent = "stop"\naction = { type = "shell", command = "./mine.sh" }\n');
    const user = path.join(p.env.XDG_CONFIG_HOME, "agent-code", "config.toml");
    mkdirSync(path.dirname(user), { recursive: true });
    writeFileSync(user, '[[hooks]]\nevent = "notification"\naction = { type = "shell", command = "notify-send hi" }\n');
    expect((await runMain(["install", "agent-code", "--check"], { cwd: p.dir, env: p.env })).code).toBe(1);
    const r = await runMain(["install", "agent-code"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\.agent\/settings\.toml: updated/);
    expect(r.stderr).toMatch(/settings\.local\.toml has \[\[hooks\]\] of its own: agent-code takes the hooks array of its last layer whole/);
    expect(r.stderr).toMatch(/agent-code\/config\.toml has \[\[hooks\]\] of yours: in this project agent-code uses \.agent\/settings\.toml's hooks array instead/);
    expect(r.stderr).toMatch(/post_tool_use: its hooks can run 40 s in a row, and agent-code kills a hook at 30 s/);
    expect(r.stderr).not.toMatch(/pre_tool_use: its hooks can run/);
    const installed = readFileSync(p.path(".agent/settings.toml"), "utf8");
    expect(installed.startsWith(USER_FILE)).toBe(true);
    expect((await runMain(["install", "agent-code"], { cwd: p.dir, env: p.env })).stdout).toMatch(/up to date/);
    expect((await runMain(["install", "agent-code", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const un = await runMain(["uninstall", "agent-code"], { cwd: p.dir, env: p.env });
    expect(un.stdout).toMatch(/hookrun's entries removed; the rest is as it was/);
    expect(readFileSync(p.path(".agent/settings.toml"), "utf8")).toBe(USER_FILE);
  });

  it("hooks validate repeats the warnings once the entries are installed, and reports them stale when hooks.yaml changes", async () => {
    const p = agentProject(GUARD_YAML);
    expect((await runMain(["install", "agent-code"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["validate"], { cwd: p.dir, env: p.env, input: "" })).stderr).not.toMatch(/agent-code/);
    p.write(".agent/settings.local.toml", '[[hooks]]\nevent = "stop"\naction = { type = "shell", command = "./mine.sh" }\n');
    p.write("hooks.yaml", `${GUARD_YAML}  pre_turn:\n    - {name: slow, command: "true", timeout: 29s}\n`);
    const v = await runMain(["validate"], { cwd: p.dir, env: p.env, input: "" });
    expect(v.code).toBe(0);
    expect(v.stderr).toMatch(/agent-code: .*settings\.local\.toml has \[\[hooks\]\] of its own/);
    expect(v.stderr).toMatch(/agent-code: pre_turn: its hooks can run 29 s in a row/);
    expect(v.stderr).toMatch(/stale for pre_turn .*hooks install agent-code/);
  });

  it("a file hookrun created is removed on uninstall; a bad TOML file is refused with nothing written", async () => {
    const p = agentProject(GUARD_YAML);
    await runMain(["install", "agent-code"], { cwd: p.dir, env: p.env });
    expect((await runMain(["uninstall", "agent-code"], { cwd: p.dir, env: p.env })).stdout).toMatch(/removed \(it held only hookrun's entries\)/);
    expect(existsSync(p.path(".agent/settings.toml"))).toBe(false);
    p.write(".agent/settings.toml", "[api\n");
    const bad = await runMain(["install", "agent-code"], { cwd: p.dir, env: p.env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/settings\.toml:1: .*it must be TOML/);
    expect(readFileSync(p.path(".agent/settings.toml"), "utf8")).toBe("[api\n");
  });

  it("writes through a symlinked settings.toml (the link stays), refuses a FIFO, and finds .agent/ when no host is named", async () => {
    const p = agentProject(GUARD_YAML);
    p.write("shared/settings.toml", USER_FILE);
    mkdirSync(p.path(".agent"));
    symlinkSync("../shared/settings.toml", p.path(".agent/settings.toml"));
    const r = await runMain(["install"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/found .*agent-code/);
    expect(lstatSync(p.path(".agent/settings.toml")).isSymbolicLink()).toBe(true);
    expect(readFileSync(p.path("shared/settings.toml"), "utf8").startsWith(`${USER_FILE}\n[[hooks]]\n`)).toBe(true);
    await runMain(["uninstall", "agent-code"], { cwd: p.dir, env: p.env });
    expect(readFileSync(p.path("shared/settings.toml"), "utf8")).toBe(USER_FILE);
    const q = agentProject(GUARD_YAML);
    mkdirSync(q.path(".agent"));
    expect(spawnSync("mkfifo", [q.path(".agent/settings.toml")]).status).toBe(0);
    const fifo = await runMain(["install", "agent-code"], { cwd: q.dir, env: q.env });
    expect(fifo.code).not.toBe(0);
    expect(fifo.stderr).toMatch(/settings\.toml.*nothing was written/);
  });

  it("--user writes ~/.config/agent-code/config.toml with this hookrun's absolute path, and warns when agent-code reads another file", async () => {
    const p = agentProject(GUARD_YAML);
    const file = path.join(p.env.HOME, ".config", "agent-code", "config.toml");
    const noXdg = { ...p.env, XDG_CONFIG_HOME: undefined };
    const r = await runMain(["install", "agent-code", "--user"], { cwd: p.dir, env: noXdg });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/reads its user settings from/);
    const doc = parseToml(readFileSync(file, "utf8")) as { hooks: { action: { command: string } }[] };
    expect(doc.hooks[0].action.command).toMatch(/^exec '?\/.*dist\/bin\/hooks\.js'? run session_end --host agent-code$/);
    const xdg = await runMain(["install", "agent-code", "--user"], { cwd: p.dir, env: p.env });
    expect(xdg.stderr).toMatch(new RegExp(`agent-code reads its user settings from ${p.env.XDG_CONFIG_HOME}/agent-code/config\\.toml here`));
    expect((await runMain(["uninstall", "agent-code", "--user"], { cwd: p.dir, env: noXdg })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("hooks import agent-code [FILE] prints the hooks, and --write adds them to hooks.yaml", async () => {
    const p = agentProject("hooks: {}\n");
    p.write(".agent/settings.toml", USER_FILE.replace('event = "session_start"', 'event = "pre_tool_use"\ntool_name = "Bash"'));
    const shown = await runMain(["import", "agent-code"], { cwd: p.path("src/deep"), env: p.env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/pre_tool_use:/);
    expect(shown.stdout).toMatch(/matcher: Bash/);
    expect(shown.stdout).toMatch(/dialect: agent-code/);
    expect(shown.stderr).toMatch(/imported with `dialect: agent-code`/);
    const written = await runMain(["import", "agent-code", ".agent/settings.toml", "--write"], { cwd: p.dir, env: p.env });
    expect(written.code).toBe(0);
    expect(readFileSync(p.path("hooks.yaml"), "utf8")).toMatch(/echo starting >> \/tmp\/log/);
    p.write("bad.toml", "x = [\n");
    const bad = await runMain(["import", "agent-code", "bad.toml"], { cwd: p.dir, env: p.env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/cannot read .*bad\.toml:\d+: .*it must be TOML/);
  });
});
