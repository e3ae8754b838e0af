import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { TriggerResult } from "../src/runner/types.js";
import { runCli, runMain, ROOT } from "./helpers/cli.js";
import { sandbox, type Sandbox } from "./helpers/sandbox.js";

// A project with Claude Code settings, imported into hooks.yaml once per test.
const FIXTURE = path.join(ROOT, "test/fixtures/claude");
let p: Sandbox;
let env: Record<string, string>;

beforeEach(async () => {
  p = sandbox({ fixture: FIXTURE });
  env = { ...p.env, HOOKS_TRUST: "1", HOOK_TEST_LOG: path.join(p.dir, "tool.log") };
  const r = await runMain(["import", "claude", "--write"], { cwd: p.dir, env });
  expect(r.code).toBe(0);
});
afterEach(() => p.cleanup());

/** The stdin object Claude Code gives a command hook. */
function claudeInput(event: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "9f3c2d1e-claude",
    transcript_path: path.join(p.dir, "transcript.jsonl"),
    cwd: p.dir,
    permission_mode: "default",
    hook_event_name: event,
    ...fields,
  });
}
const run = (event: string, input: string, ...flags: string[]) => runMain(["run", event, ...flags], { cwd: p.dir, env, input });
const json = async (event: string, input: string, ...flags: string[]) => {
  const r = await run(event, input, "--output", "json", ...flags);
  return { code: r.code, result: JSON.parse(r.stdout) as TriggerResult, stderr: r.stderr };
};

describe("an imported Claude Code settings file", () => {
  it("validates", async () => {
    const r = await runMain(["validate"], { cwd: p.dir, env });
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^valid: 9 hooks in hooks\.yaml/);
  });

  it("runs exactly the commands Claude Code would run, for each event and matcher", async () => {
    const settings = JSON.parse(readFileSync(path.join(p.dir, ".claude/settings.json"), "utf8")) as {
      hooks: Record<string, { matcher?: string; hooks: { type: string; command?: string }[] }[]>;
    };
    const spec = parse(readFileSync(path.join(p.dir, "hooks.yaml"), "utf8")) as { hooks: Record<string, { command: string; matcher?: string }[]> };
    const commandsOf = (claudeEvent: string) => [...new Set(settings.hooks[claudeEvent].flatMap((g) => g.hooks.filter((h) => h.type === "command").map((h) => h.command!)))];
    expect(spec.hooks.pre_tool_use.map((h) => h.command)).toEqual(commandsOf("PreToolUse"));
    expect(spec.hooks.stop.map((h) => h.command)).toEqual(commandsOf("Stop"));
    // A Bash call selects the Bash group's hook; an Edit selects the Edit|MultiEdit|Write group's two.
    const dry = async (tool: string) => {
      const r = await run("PreToolUse", claudeInput("PreToolUse", { tool_name: tool, tool_input: {} }), "--dry-run", "--output", "json");
      return (JSON.parse(r.stdout) as { hooks: { command: string }[] }).hooks.map((h) => h.command);
    };
    expect(await dry("Bash")).toEqual(['"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard-bash.sh']);
    expect(await dry("Edit")).toEqual(["python3 .claude/hooks/protect_files.py", "node .claude/hooks/deny-env.mjs"]);
    expect(await dry("Read")).toEqual([]);
  });

  it("passes Claude Code's input fields through to the hook, with $CLAUDE_PROJECT_DIR set", async () => {
    const dump = path.join(p.dir, "dump.json");
    writeFileSync(path.join(p.dir, ".claude/hooks/guard-bash.sh"), `#!/bin/sh\ncat > "${dump}"\necho "$CLAUDE_PROJECT_DIR" > "${dump}.dir"\n`);
    const r = await run("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_01" }));
    expect(r.code).toBe(0);
    const got = JSON.parse(readFileSync(dump, "utf8")) as Record<string, unknown>;
    expect(got).toMatchObject({
      hook_event_name: "PreToolUse",
      session_id: "9f3c2d1e-claude",
      transcript_path: path.join(p.dir, "transcript.jsonl"),
      cwd: p.dir,
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_01",
      event: "pre_tool_use",
    });
    expect(readFileSync(`${dump}.dir`, "utf8").trim()).toBe(p.dir);
  });
});

describe("Claude Code hook scripts run unchanged", () => {
  it("exit 2 blocks, with stderr as the reason", async () => {
    const { code, result } = await json("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } }));
    expect(code).toBe(2);
    expect(result).toMatchObject({ blocked: true, blocked_by: "guard-bash", reason: "refusing to run rm -rf" });
  });

  it("exit 0 with no output lets the tool run", async () => {
    const { code, result } = await json("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }));
    expect(code).toBe(0);
    expect(result.blocked).toBe(false);
    expect(result.hooks.map((h) => [h.name, h.status])).toEqual([["guard-bash", "ok"]]);
  });

  it('a JSON {"decision": "block"} blocks with its reason', async () => {
    const { code, result } = await json("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Edit", tool_input: { file_path: "package-lock.json" } }));
    expect(code).toBe(2);
    expect(result).toMatchObject({ blocked: true, blocked_by: "protect-files", reason: "package-lock.json is generated; run npm install instead" });
  });

  it("hookSpecificOutput.permissionDecision deny blocks with permissionDecisionReason", async () => {
    const { code, result } = await json("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Write", tool_input: { file_path: ".env" } }));
    expect(code).toBe(2);
    expect(result).toMatchObject({ blocked: true, blocked_by: "deny-env", reason: ".env holds secrets" });
  });

  it("hookSpecificOutput.additionalContext becomes a message", async () => {
    const { code, result } = await json("user_prompt_submit", claudeInput("UserPromptSubmit", { prompt: "add a dependency" }));
    expect(code).toBe(0);
    expect(result.messages).toEqual([{ role: "system", content: "The repo uses pnpm, not npm.", hook: "add-context" }]);
  });

  it("a stop hook blocks until stop_hook_active, as Claude Code's loop guard expects", async () => {
    writeFileSync(path.join(p.dir, "TODO.md"), "- finish\n");
    const first = await json("stop", claudeInput("Stop", { stop_hook_active: false }));
    expect(first.result).toMatchObject({ blocked: true, reason: "TODO.md is not empty: finish the list first" });
    const again = await json("stop", claudeInput("Stop", { stop_hook_active: true }));
    expect(again.result.blocked).toBe(false);
  });

  it("an async Claude hook gets the PostToolUse input (waited for with --wait)", async () => {
    const { code, result } = await json("post_tool_use", claudeInput("PostToolUse", { tool_name: "Write", tool_input: { file_path: "a.ts" }, tool_response: { success: true } }), "--wait");
    expect(code).toBe(0);
    expect(result.async_started).toEqual(["log-tool"]);
    expect(result.async_delivered.map((d) => [d.name, d.status])).toEqual([["log-tool", "ok"]]);
    const logged = JSON.parse(readFileSync(env.HOOK_TEST_LOG, "utf8").trim()) as Record<string, unknown>;
    expect(logged).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Write", tool_response: { success: true } });
  });
});

describe("hooks run --output claude", () => {
  const claude = async (event: string, input: string) => {
    const r = await run(event, input, "--output", "claude");
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
    return { code: r.code, out: JSON.parse(r.stdout) as Record<string, unknown> };
  };

  it("answers an imported (claude-dialect) hook's exit-2 block as that hook would have: exit 2 and its stderr", async () => {
    const r = await run("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } }), "--output", "claude");
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr.trim() }).toEqual({ code: 2, stdout: "", stderr: "refusing to run rm -rf" });
  });

  it("round-trips a JSON decision and a permissionDecision", async () => {
    const lock = await claude("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Edit", tool_input: { file_path: "package-lock.json" } }));
    expect(lock.out.hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "package-lock.json is generated; run npm install instead" });
    const env_ = await claude("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Write", tool_input: { file_path: ".env" } }));
    expect(env_).toEqual({ code: 0, out: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ".env holds secrets" } } });
  });

  it("round-trips additionalContext, and a stop block as decision/reason", async () => {
    expect((await claude("user_prompt_submit", claudeInput("UserPromptSubmit", { prompt: "x" }))).out).toEqual({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "The repo uses pnpm, not npm." },
    });
    writeFileSync(path.join(p.dir, "TODO.md"), "- finish\n");
    expect(await claude("stop", claudeInput("Stop", { stop_hook_active: false }))).toEqual({
      code: 0,
      out: { decision: "block", reason: "TODO.md is not empty: finish the list first" },
    });
  });

  it("prints {} when there is nothing to say", async () => {
    expect(await claude("pre_tool_use", claudeInput("PreToolUse", { tool_name: "Read", tool_input: {} }))).toEqual({ code: 0, out: {} });
  });

  it("prints {} and exits 0 where there is no hookrun config at all", async () => {
    const empty = sandbox();
    try {
      const r = await runCli(["run", "pre_tool_use", "--output", "claude"], { cwd: empty.dir, env: empty.env, input: claudeInput("PreToolUse", { tool_name: "Bash" }) });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({});
      expect(r.stderr).toContain("no hooks.yaml found");
    } finally {
      empty.cleanup();
    }
  });

  it("keeps the exit code of a usage error; a context that is not JSON gets Claude's not-run answer (docs/fail-closed.md)", async () => {
    expect((await run("PreToolUze", "{}", "--output", "claude")).code).toBe(64);
    // Claude Code shows nobody an exit 65: hookrun says it in the agent and lets the call go on.
    const r = await run("pre_tool_use", "not json", "--output", "claude");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).systemMessage).toMatch(/^hookrun: the project's hooks did not run: hookrun could not run them: .*JSON/);
    // Without a host, as ever: 65.
    expect((await run("pre_tool_use", "not json")).code).toBe(65);
  });
});

describe("GitHub Actions output", () => {
  beforeEach(() => {
    writeFileSync(
      path.join(p.dir, "hooks.yaml"),
      "hooks:\n  stop:\n    - name: talk\n      command: echo 'all good'\n    - name: broken\n      command: 'echo \"50% done: a, b\" >&2; echo \"::warning::injected\" >&2; exit 3'\n",
    );
  });

  it("folds each hook's output in a group and annotates failures, escaping % , : and newlines", async () => {
    const r = await runMain(["run", "stop"], { cwd: p.dir, env: { ...env, GITHUB_ACTIONS: "true" }, input: "{}" });
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines).toContain("::endgroup::");
    expect(lines.filter((l) => l.startsWith("::group::")).map((l) => l.split("  ")[1])).toEqual(["talk", "broken"]);
    const error = lines.find((l) => l.startsWith("::error "));
    expect(error).toMatch(/^::error title=hookrun stop%3A broken::failed: [^\n]*%0A50%25 done: a, b%0A::warning::injected$/);
    // Hook output inside a group is indented, so it cannot start a workflow command of its own.
    expect(lines.filter((l) => l.startsWith("::warning"))).toEqual([]);
  });

  it("writes none of it outside GitHub Actions", async () => {
    const r = await runMain(["run", "stop"], { cwd: p.dir, env, input: "{}" });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/^::/m);
    expect(r.stdout).toContain("broken");
  });
});

describe("hooks run --output junit", () => {
  it("writes a JUnit report of the run and exits like the run", async () => {
    writeFileSync(path.join(p.dir, "TODO.md"), "- finish\n");
    const r = await run("stop", claudeInput("Stop"), "--output", "junit");
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^<\?xml/);
    expect(r.stdout).toContain('<testsuite name="stop" tests="1" failures="1" errors="0" skipped="0"');
    expect(existsSync(path.join(p.dir, "TODO.md"))).toBe(true);
  });
});

describe("last_assistant_message from Claude Code's transcript", () => {
  const line = (type: string, content: unknown) => JSON.stringify({ type, uuid: "u", message: { role: type, content } });
  const dumpStop = () => {
    const dump = path.join(p.dir, "stop.json");
    writeFileSync(path.join(p.dir, ".claude/hooks/check-done.sh"), `#!/bin/sh\ncat > "${dump}"\n`);
    return () => (JSON.parse(readFileSync(dump, "utf8")) as { last_assistant_message: unknown }).last_assistant_message;
  };

  it("is the latest assistant text in transcript_path, skipping tool-only turns, when the input has none", async () => {
    const read = dumpStop();
    const transcript = [
      line("user", "fix the tests"),
      line("assistant", [
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "t1", name: "Bash", input: {} },
      ]),
      line("user", [{ type: "tool_result", tool_use_id: "t1", content: "ok" }]),
      line("assistant", [
        { type: "text", text: "All tests pass." },
        { type: "text", text: "Done." },
      ]),
      line("assistant", [{ type: "tool_use", id: "t2", name: "Bash", input: {} }]),
      "{ a line being written",
    ].join("\n");
    // Padding before it: only the tail of a long transcript is read.
    writeFileSync(path.join(p.dir, "transcript.jsonl"), `${line("assistant", "x".repeat(2_000_000))}\n${transcript}`);
    expect((await run("stop", claudeInput("Stop"))).code).toBe(0);
    // Joined the agent-code way (docs/running-hooks.md#what-a-hook-receives, its last_assistant_text): no separator.
    expect(read()).toBe("All tests pass.Done.");
  });

  it("leaves a message the input carries, and is null without a readable transcript", async () => {
    const read = dumpStop();
    writeFileSync(path.join(p.dir, "transcript.jsonl"), `${line("assistant", "from transcript")}\n`);
    await run("stop", claudeInput("Stop", { last_assistant_message: "given" }));
    expect(read()).toBe("given");
    await run("stop", claudeInput("Stop", { transcript_path: path.join(p.dir, "missing.jsonl") }));
    expect(read()).toBeNull();
  });
});

describe("a Claude Code PermissionRequest hook", () => {
  beforeEach(() => {
    writeFileSync(
      path.join(p.dir, "perm.py"),
      [
        "import json, sys",
        "d = json.load(sys.stdin)",
        "cmd = d['tool_input'].get('command', '')",
        "if cmd.startswith('git push'): print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest', 'decision': {'behavior': 'deny', 'message': 'no pushes from the agent'}}}))",
        "elif cmd == 'ls': print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest', 'decision': {'behavior': 'allow', 'updatedInput': {'command': 'ls -la'}}}}))",
      ].join("\n"),
    );
    writeFileSync(path.join(p.dir, "hooks.yaml"), "hooks:\n  permission_request:\n    - name: perm\n      command: python3 perm.py\n");
  });

  it("denies with decision.behavior, and the deny round-trips through --output claude", async () => {
    const input = claudeInput("PermissionRequest", { tool_name: "Bash", tool_input: { command: "git push origin main" } });
    const { code, result } = await json("permission_request", input);
    expect(code).toBe(2);
    expect(result).toMatchObject({ blocked: true, blocked_by: "perm", reason: "no pushes from the agent" });
    const r = await run("permission_request", input, "--output", "claude");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no pushes from the agent" } } });
  });

  it("allows with an updated input, round-tripped", async () => {
    const input = claudeInput("PermissionRequest", { tool_name: "Bash", tool_input: { command: "ls" } });
    const { result } = await json("permission_request", input);
    expect(result).toMatchObject({ blocked: false, updated_input: { command: "ls -la" } });
    expect(result.hooks[0].decision).toBe("allow");
    const r = await run("permission_request", input, "--output", "claude");
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput: { command: "ls -la" } } } });
  });
});
