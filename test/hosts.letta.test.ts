import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { letta } from "../src/hosts/letta.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { runMain } from "./helpers/cli.js";
import { linkHookrun, runEntry } from "./helpers/hostDispatch.js";
import { CLAUDE_PAYLOADS, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";

useSandbox();

// Letta Code's payloads as src/hooks/types.ts and src/hooks/index.ts build them.
const PRE = { event_type: "PreToolUse", working_directory: "/home/me/p", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_call_id: "call-1", agent_id: "agent-1" };
const START = { event_type: "SessionStart", working_directory: "/home/me/p", is_new_session: true, agent_id: "agent-1" };
const STOP = { event_type: "Stop", working_directory: "/home/me/p", stop_reason: "end_turn", assistant_message: "Done." };

describe("letta: read, detect", () => {
  it("reads Letta's payload into Claude's field names, the event under host", () => {
    const ctx = letta.read(PRE, "pre_tool_use");
    expect(ctx).toMatchObject({ cwd: "/home/me/p", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "call-1", agent_id: "agent-1" });
    expect(ctx.host).toEqual({ name: "letta", event: "PreToolUse", tool_name: "Bash", event_type: "PreToolUse" });
    expect(letta.read(STOP, "stop")).toMatchObject({ last_assistant_message: "Done.", stop_reason: "end_turn" });
  });

  it("claims Letta's payloads and no other host's", () => {
    for (const p of [PRE, START, STOP]) expect(letta.detect(p)).toBe(true);
    for (const [name, p] of otherHostsFixtures("letta")) expect(letta.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(letta.detect(p)).toBe(false);
  });
});

describe("letta: render (exit codes first)", () => {
  it("a block is exit 2 with the reason on stderr; a rewrite is hookSpecificOutput.updatedInput; ask says nothing", () => {
    const blocked = triggerResult("pre_tool_use", [hookResult("g", { status: "blocked", decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "g", reason: "no rm" });
    expect(letta.render(blocked)).toEqual({ stdout: "", stderr: "no rm\n", exitCode: 2 });
    expect(letta.render(triggerResult("pre_tool_use", [hookResult("r")], { updated_input: { command: "ls" } }))).toEqual({
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}\n',
      stderr: "",
      exitCode: 0,
    });
    expect(letta.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })]))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("context is plain stdout on SessionStart / UserPromptSubmit and additionalContext on post-tool events; a Stop follow-up is exit 2", () => {
    const ctx = [hookResult("c", { messages: [{ role: "system", content: "Use pnpm." }] })];
    expect(letta.render(triggerResult("session_start", ctx))).toEqual({ stdout: "Use pnpm.\n", stderr: "", exitCode: 0 });
    expect(letta.render(triggerResult("user_prompt_submit", ctx)).stdout).toBe("Use pnpm.\n");
    expect(JSON.parse(letta.render(triggerResult("post_tool_use", [hookResult("l", { messages: [{ role: "system", content: "2 lint errors", kind: "feedback" }] })])).stdout)).toEqual({
      additionalContext: "2 lint errors",
    });
    expect(letta.render(triggerResult("stop", [hookResult("t", { messages: [{ role: "system", content: "run the tests", kind: "followup" }] })]))).toEqual({
      stdout: "",
      stderr: "run the tests\n",
      exitCode: 2,
    });
    expect(
      letta.render(triggerResult("stop", [hookResult("t", { status: "blocked", decision: "block", reason: "TODO left" })], { blocked: true, blocked_by: "t", reason: "TODO left" })).exitCode,
    ).toBe(2);
  });

  it("hooks that did not run: context on SessionStart, a non-blocking error (exit 1) elsewhere", () => {
    expect(letta.notRun("session_start", "untrusted", "off").stdout).toMatch(/not running in this session: off/);
    expect(letta.notRun("pre_tool_use", "untrusted", "off")).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/did not run: untrusted/) });
  });
});

describe("letta: through the CLI (hooks install / run / uninstall / import)", () => {
  const CONFIG =
    "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"no rm in this repo\" >&2; exit 2', matcher: Bash, timeout: 5s}\n  session_start:\n    - {name: ctx, command: 'echo Use pnpm.'}\n";

  it("installs Claude-shaped entries into .letta/settings.json with timeouts in milliseconds, runs them as Letta does, uninstalls byte for byte", async () => {
    const p = sandbox({ config: CONFIG });
    linkHookrun(p.dir);
    const original = '{\n  "lastAgent": "agent-1"\n}\n';
    p.write(".letta/settings.json", original);
    expect((await runMain(["install", "letta"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = JSON.parse(readFileSync(p.path(".letta/settings.json"), "utf8"));
    expect(file.lastAgent).toBe("agent-1");
    const group = file.hooks.PreToolUse[0];
    expect(group.matcher).toBe("Bash");
    expect(group.hooks[0].timeout).toBe(15_000);
    expect(group.hooks[0].onFailure).toBeUndefined();
    expect(group.hooks[0].command).toBe('"$LETTA_WORKING_DIR"/node_modules/.bin/hooks -C "$LETTA_WORKING_DIR" run pre_tool_use --host letta');
    expect(Object.keys(file.hooks).sort()).toEqual(["PreToolUse", "SessionStart"]);
    expect((await runMain(["install", "letta", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const env = { ...p.env, LETTA_WORKING_DIR: p.dir, LETTA_HOOK_EVENT: "PreToolUse" };
    const r = runEntry(group.hooks[0].command, { ...PRE, working_directory: p.dir }, { cwd: p.dir, env });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe("no rm in this repo\n");
    const s = runEntry(file.hooks.SessionStart[0].hooks[0].command, { ...START, working_directory: p.dir }, { cwd: p.dir, env });
    expect(s).toMatchObject({ code: 0, stdout: "Use pnpm.\n" });
    expect((await runMain(["uninstall", "letta"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".letta/settings.json"), "utf8")).toBe(original);
  });

  it("`hooks import letta` reads Letta's settings: matcher groups, timeouts in milliseconds", async () => {
    const p = sandbox();
    p.write(".letta/settings.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 5000 }] }] } }));
    const r = await runMain(["import", "letta"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: guard\n\s+matcher: Bash\n\s+command: \.\/guard\.sh\n\s+timeout: 5000ms/);
  });
});
