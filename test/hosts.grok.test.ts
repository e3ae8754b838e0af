import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { grok } from "../src/hosts/grok.js";
import { cliEnv, runMain } from "./helpers/cli.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { CLAUDE_PAYLOADS, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";

useSandbox();

// Grok Build's envelope as crates/codegen/xai-grok-hooks/src/event.rs serializes it (camelCase keys, a snake_case event name).
const BASE = { hookEventName: "pre_tool_use", sessionId: "s-1", cwd: "/home/me/p", workspaceRoot: "/home/me/p", timestamp: "2026-08-19T10:00:00Z", permissionMode: "default" };
const PRE = { ...BASE, toolName: "run_terminal_command", toolUseId: "call-1", toolInput: { command: "rm -rf build" }, toolInputTruncated: false };
const POST = {
  ...BASE,
  hookEventName: "post_tool_use",
  toolName: "read_file",
  toolUseId: "call-2",
  toolInput: { path: "a" },
  toolResult: "text",
  toolInputTruncated: false,
  toolResultTruncated: false,
  isBackgrounded: false,
};
const STOP = { ...BASE, hookEventName: "stop", reason: "end_turn", stopHookActive: false, lastAssistantMessage: "Done." };

/** Run an entry's command as Grok Build does: `sh -c` in the workspace root, GROK_WORKSPACE_ROOT and CLAUDE_PROJECT_DIR set, the envelope on stdin. */
function runAsGrok(command: string, payload: unknown, root: string, env: Record<string, string>) {
  const r = spawnSync("sh", ["-c", command], {
    cwd: root,
    env: cliEnv({ ...env, GROK_WORKSPACE_ROOT: root, CLAUDE_PROJECT_DIR: root, GROK_HOOK_EVENT: "pre_tool_use", GROK_SESSION_ID: "s-1" }),
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("grok: read, detect", () => {
  it("reads Grok Build's camelCase envelope: run_terminal_command is Bash, toolResult the response", () => {
    const ctx = grok.read(PRE, "pre_tool_use");
    expect(ctx).toMatchObject({ session_id: "s-1", cwd: "/home/me/p", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "call-1", permission_mode: "default" });
    expect(ctx.host).toMatchObject({ name: "grok", event: "PreToolUse", tool_name: "run_terminal_command", workspaceRoot: "/home/me/p" });
    expect(grok.read(POST, "post_tool_use")).toMatchObject({ tool_name: "Read", tool_response: "text" });
    expect(grok.read(STOP, "stop")).toMatchObject({ stop_hook_active: false, last_assistant_message: "Done." });
  });

  it("claims Grok Build's envelopes and no other host's", () => {
    for (const p of [PRE, POST, STOP]) expect(grok.detect(p)).toBe(true);
    for (const [name, p] of otherHostsFixtures("grok")) expect(grok.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(grok.detect(p)).toBe(false);
    expect(grok.detect({ ...BASE, hookEventName: "stop_cancelled" })).toBe(false);
  });
});

describe("grok: render", () => {
  it("PreToolUse: a block is {decision: deny, reason}, a rewrite {decision: allow, hookSpecificOutput.updatedInput}, an ask nothing", () => {
    const blocked = triggerResult("pre_tool_use", [hookResult("g", { status: "blocked", decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "g", reason: "no rm" });
    expect(grok.render(blocked)).toEqual({ stdout: '{"decision":"deny","reason":"no rm"}\n', stderr: "", exitCode: 0 });
    expect(grok.render(triggerResult("pre_tool_use", [hookResult("r", { decision: "allow" })], { updated_input: { command: "ls" } })).stdout).toBe(
      '{"decision":"allow","hookSpecificOutput":{"updatedInput":{"command":"ls"}}}\n',
    );
    expect(grok.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })])).stdout).toBe("");
  });

  it("Stop: a block or a follow-up is {decision: block}, a stop {continue: false}; other events print nothing on stdout", () => {
    expect(grok.render(triggerResult("stop", [hookResult("t", { messages: [{ role: "system", content: "run the tests", kind: "followup" }] })])).stdout).toBe(
      '{"decision":"block","reason":"run the tests"}\n',
    );
    expect(grok.render(triggerResult("stop", [hookResult("s")], { continue: false, stop_reason: "done" })).stdout).toBe('{"continue":false,"stopReason":"done"}\n');
    const session = grok.render(triggerResult("session_start", [hookResult("c", { messages: [{ role: "system", content: "Use pnpm." }] })]));
    expect(session).toEqual({ stdout: "", stderr: "Use pnpm.\n", exitCode: 0 });
  });
});

describe("grok: through the CLI (hooks run / install / uninstall / import)", () => {
  const CONFIG = "hooks:\n  pre_tool_use:\n    - {name: guard, command: './guard.sh', matcher: Bash, timeout: 5s}\n  stop:\n    - {name: tests, command: 'true'}\n";
  const guard = (p: ReturnType<typeof sandbox>) => {
    p.write("guard.sh", '#!/bin/sh\ncase "$(cat)" in *"rm -rf"*) echo "no rm in this repo" >&2; exit 2;; esac\nexit 0\n');
    spawnSync("chmod", ["+x", p.path("guard.sh")]);
  };

  it("`hooks run --host grok` and `--host auto` answer Grok Build's envelope", async () => {
    const p = sandbox({ config: CONFIG });
    guard(p);
    const payload = JSON.stringify({ ...PRE, cwd: p.dir, workspaceRoot: p.dir });
    for (const args of [["--host", "grok"], []]) {
      const r = await runMain(["--trust", "run", "pre_tool_use", ...args], { cwd: p.dir, env: p.env, input: payload });
      expect(r.stdout, args.join(" ")).toBe('{"decision":"deny","reason":"no rm in this repo"}\n');
    }
    const ok = await runMain(["--trust", "run", "pre_tool_use", "--host", "grok"], {
      cwd: p.dir,
      env: p.env,
      input: JSON.stringify({ ...PRE, toolInput: { command: "ls" }, cwd: p.dir, workspaceRoot: p.dir }),
    });
    expect(ok).toMatchObject({ code: 0, stdout: "" });
  });

  it("installs .grok/hooks/hookrun.json (exact matcher with Grok's tool name, seconds), runs its entry as Grok Build does, uninstalls it", async () => {
    const p = sandbox({ config: CONFIG });
    guard(p);
    linkHookrun(p.dir);
    const i = await runMain(["install", "grok"], { cwd: p.dir, env: p.env });
    expect(i.code, i.stderr).toBe(0);
    expect(i.stderr).toMatch(/trusted/);
    const file = p.path(".grok/hooks/hookrun.json");
    const json = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(json.hooks).sort()).toEqual(["PreToolUse", "Stop"]);
    const group = json.hooks.PreToolUse[0];
    expect(group.matcher).toBe("Bash|run_terminal_command");
    expect(group.hooks[0]).toMatchObject({ type: "command", timeout: 15, command: '"$GROK_WORKSPACE_ROOT"/node_modules/.bin/hooks -C "$GROK_WORKSPACE_ROOT" run pre_tool_use --host grok' });
    expect((await runMain(["install", "grok", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const r = runAsGrok(group.hooks[0].command, { ...PRE, cwd: p.dir, workspaceRoot: p.dir }, p.dir, p.env);
    expect(r).toMatchObject({ code: 0, stdout: '{"decision":"deny","reason":"no rm in this repo"}\n' });
    expect((await runMain(["uninstall", "grok"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("warns when .claude/settings.json has hookrun's entries (Grok Build runs them too, with its own envelope)", async () => {
    const p = sandbox({ config: CONFIG });
    linkHookrun(p.dir);
    const alone = await runMain(["install", "grok"], { cwd: p.dir, env: p.env });
    expect(alone.stderr).not.toMatch(/\.claude\/settings\.json/);
    expect((await runMain(["install", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const both = await runMain(["install", "grok"], { cwd: p.dir, env: p.env });
    expect(both.code).toBe(0);
    expect(both.stderr).toMatch(/\.claude\/settings\.json has hookrun's entries, and Grok Build runs them too/);
  });

  it("`hooks import grok .grok/hooks/FILE.json` reads Claude-shaped groups as dialect: claude hooks", async () => {
    const p = sandbox();
    p.write(".grok/hooks/safety.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "bin/safety-check.sh", timeout: 10 }] }] } }));
    const r = await runMain(["import", "grok", ".grok/hooks/safety.json"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: \S+\n/);
    expect(r.stdout).toMatch(/matcher: Bash\n/);
    expect(r.stdout).toMatch(/dialect: claude/);
    expect(r.stdout + r.stderr).toMatch(/camelCase envelope/);
  });
});
