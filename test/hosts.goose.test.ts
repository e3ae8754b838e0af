import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { goose } from "../src/hosts/goose.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { cliEnv, runMain } from "./helpers/cli.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { CLAUDE_PAYLOADS, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";

useSandbox();

// Goose's payloads as crates/goose/src/hooks/mod.rs's HookContext serializes them.
const PRE = {
  event: "PreToolUse",
  session_id: "s-1",
  matcher_context: "developer__shell",
  tool_call_id: "call-1",
  tool_name: "developer__shell",
  tool_input: { command: "rm -rf build" },
  working_dir: "/home/me/p",
};
const PROMPT = { event: "UserPromptSubmit", session_id: "s-1", matcher_context: "fix the bug", message: "fix the bug", working_dir: "/home/me/p" };
const STOP = { event: "Stop", session_id: "s-1", matcher_context: null, last_assistant_message: "Done.", working_dir: "/home/me/p" };

/** Run an entry's command as Goose does: `${PLUGIN_ROOT}` replaced in its text, `sh -c` with PLUGIN_ROOT set, Goose's own cwd. */
function runAsGoose(command: string, pluginRoot: string, payload: unknown, cwd: string, env: Record<string, string>) {
  const text = command.split("${PLUGIN_ROOT}").join(pluginRoot);
  const r = spawnSync("sh", ["-c", text], { cwd, env: cliEnv({ ...env, PLUGIN_ROOT: pluginRoot }), input: JSON.stringify(payload), encoding: "utf8", timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("goose: read, detect", () => {
  it("reads Goose's payload: working_dir is cwd, developer__shell is Bash, the prompt from `message`", () => {
    const ctx = goose.read(PRE, "pre_tool_use");
    expect(ctx).toMatchObject({ session_id: "s-1", cwd: "/home/me/p", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "call-1" });
    expect(ctx.host).toEqual({ name: "goose", event: "PreToolUse", tool_name: "developer__shell", matcher_context: "developer__shell" });
    expect(goose.read(PROMPT, "user_prompt_submit").prompt).toBe("fix the bug");
    expect(goose.read(STOP, "stop").last_assistant_message).toBe("Done.");
  });

  it("claims Goose's payloads and no other host's", () => {
    for (const p of [PRE, PROMPT, STOP]) expect(goose.detect(p)).toBe(true);
    for (const [name, p] of otherHostsFixtures("goose")) expect(goose.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(goose.detect(p)).toBe(false);
    expect(goose.detect({ event: "PreToolUse", session_id: "s", cwd: "/x", tool_name: "bash", tool_input: {} })).toBe(false);
  });
});

describe("goose: render (allow or block, nothing else)", () => {
  it("a block is {decision: block, reason}; an allow, ask or rewrite is an empty stdout (any other stdout is a hook that could not decide)", () => {
    const blocked = triggerResult("pre_tool_use", [hookResult("g", { status: "blocked", decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "g", reason: "no rm" });
    expect(goose.render(blocked)).toEqual({ stdout: '{"decision":"block","reason":"no rm"}\n', stderr: "", exitCode: 0 });
    for (const r of [
      triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" })]),
      triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })], { updated_input: { command: "ls" } }),
      triggerResult("session_start", [hookResult("c", { messages: [{ role: "system", content: "Use pnpm." }] })]),
    ])
      expect(goose.render(r).stdout).toBe("");
  });

  it("a Stop follow-up is a block with its text; context and failures go to stderr only", () => {
    expect(goose.render(triggerResult("stop", [hookResult("t", { messages: [{ role: "system", content: "run the tests", kind: "followup" }] })])).stdout).toBe(
      '{"decision":"block","reason":"run the tests"}\n',
    );
    const failed = goose.render(triggerResult("pre_tool_use", [hookResult("f", { status: "failed", exit_code: 1, stderr: "boom\n" })]));
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toMatch(/hookrun: hook f failed/);
  });
});

describe("goose: through the CLI (hooks install / run / uninstall / import)", () => {
  const CONFIG =
    "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"no rm in this repo\" >&2; exit 2', matcher: Bash, timeout: 5s, on_failure: block}\n  stop:\n    - {name: tests, command: 'true'}\n";

  it("installs an Open Plugins plugin (.agents/plugins/hookrun/hooks/hooks.json), runs its entry as Goose does, uninstalls it", async () => {
    const p = sandbox({ config: CONFIG });
    linkHookrun(p.dir);
    const i = await runMain(["install", "goose"], { cwd: p.dir, env: p.env });
    expect(i.code, i.stderr).toBe(0);
    const file = p.path(".agents/plugins/hookrun/hooks/hooks.json");
    const json = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(json.hooks).sort()).toEqual(["PreToolUse", "Stop"]);
    const group = json.hooks.PreToolUse[0];
    expect(group.matcher).toBe("^(Bash|developer__shell)$");
    expect(group.hooks[0]).toMatchObject({ type: "command", timeout: 15, on_failure: "block" });
    // Failing closed, the entry answers Goose's block itself when hookrun cannot start.
    expect(group.hooks[0].command).toMatch(/^\{ \[ -x "\$PLUGIN_ROOT\/\.\.\/\.\.\/\.\."\/node_modules\/\.bin\/hooks \] && command -v node .*decision.*block.*\}; /);
    expect(group.hooks[0].command).toContain('"$PLUGIN_ROOT/../../.."/node_modules/.bin/hooks -C "$PLUGIN_ROOT/../../.." run pre_tool_use --host goose');
    expect(json.hooks.Stop[0].hooks[0].command).toBe('"$PLUGIN_ROOT/../../.."/node_modules/.bin/hooks -C "$PLUGIN_ROOT/../../.." run stop --host goose');
    expect(json.hooks.Stop[0].hooks[0].on_failure).toBeUndefined();
    expect((await runMain(["install", "goose", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    // Goose runs the hook from its own cwd, anywhere: the entry finds the project from PLUGIN_ROOT.
    const r = runAsGoose(group.hooks[0].command, p.path(".agents/plugins/hookrun"), { ...PRE, working_dir: p.dir }, p.root, p.env);
    expect(r).toMatchObject({ code: 0, stdout: '{"decision":"block","reason":"no rm in this repo"}\n' });
    const ok = runAsGoose(
      group.hooks[0].command,
      p.path(".agents/plugins/hookrun"),
      { ...PRE, tool_name: "developer__text_editor", matcher_context: "developer__text_editor", working_dir: p.dir },
      p.root,
      p.env,
    );
    expect(ok).toMatchObject({ code: 0, stdout: "" });
    expect((await runMain(["uninstall", "goose"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("`hooks run --host auto` tells Goose's payload", async () => {
    const p = sandbox({ config: CONFIG });
    const r = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(PRE) });
    expect(r.stdout).toBe('{"decision":"block","reason":"no rm in this repo"}\n');
  });

  it("`hooks import goose FILE` reads another plugin's hooks.json: on_failure, seconds, developer__shell as Bash, a note for ${PLUGIN_ROOT}", async () => {
    const p = sandbox();
    p.write(
      ".agents/plugins/guard/hooks/hooks.json",
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "developer__shell", hooks: [{ type: "command", command: "${PLUGIN_ROOT}/scripts/guard.sh", timeout: 5, on_failure: "block" }] }], FutureEvent: [] },
      }),
    );
    const r = await runMain(["import", "goose", ".agents/plugins/guard/hooks/hooks.json"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: guard\n\s+matcher: Bash\n/);
    expect(r.stdout).toMatch(/timeout: 5\n/);
    expect(r.stdout).toMatch(/on_failure: block/);
    expect(r.stdout + r.stderr).toMatch(/PLUGIN_ROOT/);
  });
});
