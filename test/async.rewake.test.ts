import { chmodSync, existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

/**
 * `rewake: true` (Claude Code's asyncRewake, docs/async.md#rewake): under Claude Code the hook gets
 * an asyncRewake entry of its own that runs it in the foreground of that background entry and
 * answers its block with exit 2 and the reason on stderr; the main entry skips it; elsewhere it is
 * an async hook whose block reaches the model at the next event.
 */

const REWAKE = "#!/bin/sh\ncat >/dev/null\necho tests-ran >> ran.txt\necho 'tests failed: 2 of 40' >&2\nexit 2\n";
const CONFIG = `hooks:
  post_tool_use:
    - {name: guard, command: ./guard.sh, matcher: Bash}
    - {name: tests, command: ./tests.sh, matcher: Edit|Write, async: true, rewake: true, dialect: claude, timeout: 5m}
  stop:
    - {name: late, command: ./tests.sh, async: true, rewake: true, dialect: claude}
`;
const PAYLOAD = (cwd: string, event: string, tool?: string) =>
  JSON.stringify({
    session_id: "s-rewake",
    transcript_path: "/dev/null",
    cwd,
    hook_event_name: event,
    ...(tool && { tool_name: tool, tool_input: { file_path: "a.txt", content: "x" }, tool_response: {} }),
  });

function project() {
  const p = sandbox({ config: CONFIG });
  p.write("guard.sh", "#!/bin/sh\ncat >/dev/null\necho guard-ran >> ran.txt\n");
  p.write("tests.sh", REWAKE);
  execChmod(p.path("guard.sh"), p.path("tests.sh"));
  return p;
}
function execChmod(...files: string[]) {
  for (const f of files) chmodSync(f, 0o755);
}

describe("rewake hooks", () => {
  it("`hooks run --host claude --rewake NAME` runs the hook in the foreground and answers its block with exit 2 and the reason on stderr", async () => {
    const p = project();
    const env = p.env;
    const r = await runCli(["--trust", "run", "post_tool_use", "--host", "claude", "--rewake", "tests"], { cwd: p.dir, env, input: PAYLOAD(p.dir, "PostToolUse", "Write") });
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("tests failed: 2 of 40\n");
    expect(r.code).toBe(2);
    // On Stop, Claude's exit 2 keeps the turn going: the same answer.
    const s = await runCli(["--trust", "run", "stop", "--host", "claude", "--rewake", "late"], { cwd: p.dir, env, input: PAYLOAD(p.dir, "Stop") });
    expect([s.code, s.stderr]).toEqual([2, "tests failed: 2 of 40\n"]);
    // A rewake hook that passes: Claude's answer as ever (nothing to say), exit 0.
    p.write("tests.sh", "#!/bin/sh\nexit 0\n");
    const ok = await runCli(["--trust", "run", "post_tool_use", "--host", "claude", "--rewake", "tests"], { cwd: p.dir, env, input: PAYLOAD(p.dir, "PostToolUse", "Write") });
    expect([ok.code, ok.stderr]).toEqual([0, ""]);
  });

  it("Cursor, which fires Claude's entries as plain hooks, gets its own answer from the rewake entry", async () => {
    const p = project();
    const payload = JSON.stringify({
      hook_event_name: "postToolUse",
      conversation_id: "c1",
      generation_id: "g1",
      cursor_version: "2.4.21",
      workspace_roots: [p.dir],
      tool_name: "Write",
      tool_input: { file_path: "a.txt", content: "x" },
      tool_output: "",
    });
    const r = await runCli(["--trust", "run", "post_tool_use", "--host", "claude", "--rewake", "tests"], { cwd: p.dir, env: p.env, input: payload });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ additional_context: "tests failed: 2 of 40" });
  });

  it("--skip-rewake leaves rewake hooks out; --rewake runs no other hook", async () => {
    const p = project();
    const ran = () => (existsSync(p.path("ran.txt")) ? readFileSync(p.path("ran.txt"), "utf8").split("\n").filter(Boolean) : []);
    const r = await runCli(["--trust", "run", "post_tool_use", "--host", "claude", "--skip-rewake", "--wait"], { cwd: p.dir, env: p.env, input: PAYLOAD(p.dir, "PostToolUse", "Write") });
    expect(r.code, r.stderr).toBe(0);
    expect(ran()).toEqual([]);
    const w = await runCli(["--trust", "run", "post_tool_use", "--host", "claude", "--wait"], { cwd: p.dir, env: p.env, input: PAYLOAD(p.dir, "PostToolUse", "Write") });
    expect(w.code, w.stderr).toBe(0);
    expect(ran()).toEqual(["tests-ran"]);
    const bash = await runCli(["--trust", "run", "post_tool_use", "--host", "claude", "--rewake", "tests"], { cwd: p.dir, env: p.env, input: PAYLOAD(p.dir, "PostToolUse", "Bash") });
    expect([bash.code, bash.stderr]).toEqual([0, ""]);
    expect(ran()).toEqual(["tests-ran"]);
  });

  it("without a rewake entry (any other host, or plain hooks run) it runs async, and its block's reason reaches the model at the next event; a plain async hook's block is dropped", async () => {
    const p = project();
    const r = await runCli(["--trust", "run", "post_tool_use", "--json", "--wait"], { cwd: p.dir, env: p.env, input: JSON.stringify({ session_id: "s1", tool_name: "Write", tool_input: {} }) });
    const result = JSON.parse(r.stdout);
    expect(result.async_delivered).toHaveLength(1);
    expect(result.async_delivered[0].messages).toEqual([{ role: "system", content: "tests failed: 2 of 40", hook: "tests" }]);
    expect(result.async_delivered[0].warnings.join(" ")).not.toContain("cannot block");
    p.write("hooks.yaml", CONFIG.replace(/, rewake: true/g, ""));
    const plain = JSON.parse((await runCli(["--trust", "run", "stop", "--json", "--wait"], { cwd: p.dir, env: p.env, input: JSON.stringify({ session_id: "s1" }) })).stdout);
    expect(plain.async_delivered[0].messages).toEqual([]);
    expect(plain.async_delivered[0].warnings.join(" ")).toContain("async hooks cannot block");
  });

  it("`hooks install claude` gives each rewake hook an asyncRewake entry and the main entry --skip-rewake; validate sees them as hookrun's and up to date; uninstall removes them", async () => {
    const p = project();
    const original = '{\n  "permissions": {"allow": ["Bash(ls)"]}\n}\n';
    p.write(".claude/settings.json", original);
    const i = await runCli(["install", "claude"], { cwd: p.dir, env: p.env });
    expect(i.code, i.stderr).toBe(0);
    const hooks = JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8")).hooks;
    const run = (event: string, tail: string) => `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks -C "$CLAUDE_PROJECT_DIR" run ${event} --host claude${tail}`;
    expect(hooks.PostToolUse).toEqual([
      // Cursor also runs Claude's entries, naming the shell tool Shell.
      { matcher: "Bash|Shell", hooks: [{ type: "command", command: run("post_tool_use", " --skip-rewake"), timeout: 70 }] },
      { matcher: "Edit|Write", hooks: [{ type: "command", command: run("post_tool_use", " --rewake tests"), timeout: 310, asyncRewake: true }] },
    ]);
    // Stop has only a rewake hook: no main entry.
    expect(hooks.Stop).toEqual([{ hooks: [{ type: "command", command: run("stop", " --rewake late"), timeout: 610, asyncRewake: true }] }]);
    expect((await runCli(["install", "claude", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const v = await runCli(["validate"], { cwd: p.dir, env: p.env });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).not.toMatch(/stale|not hookrun/);
    const un = await runCli(["uninstall", "claude"], { cwd: p.dir, env: p.env });
    expect(un.code, un.stderr).toBe(0);
    expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe(original);
  });

  it("`rewake: true` without `async: true` is a config error", async () => {
    const p = sandbox({ config: "hooks:\n  stop:\n    - {name: t, command: ./t.sh, rewake: true}\n" });
    const v = await runCli(["validate"], { cwd: p.dir, env: p.env });
    expect(v.code).toBe(78);
    expect(v.stdout + v.stderr).toContain("`rewake: true` without `async: true`");
  });
});
