import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claudeHost } from "../src/hosts/claude.js";
import { hostHttpBody } from "../src/hosts/httpAnswer.js";
import type { HostEventOutcome } from "../src/hosts/runHostEvent.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { runMain } from "./helpers/cli.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { sandbox } from "./helpers/sandbox.js";

// Claude Code 2.1.332's PreSkillShellCommand: fired before each shell command a skill or slash
// command embeds (`!`cmd``), read by hookrun as pre_tool_use (docs/hosts.md#claude-codes-preskillshellcommand).

/** The payload Claude Code 2.1.332 sends (seen in a real run). */
const skillShell = (dir: string, command = "touch made.txt") => ({
  session_id: "s1",
  transcript_path: `${dir}/t.jsonl`,
  cwd: dir,
  prompt_id: "p1",
  permission_mode: "bypassPermissions",
  hook_event_name: "PreSkillShellCommand",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "u1:inner:preamble-0",
  command_name: "x",
  command_source: "projectSettings",
  invoked_by: "user",
});

/** `hooks run pre_tool_use --host claude`, as the installed entry runs it, with `payload` on stdin. */
async function dispatch(config: string, scripts: Record<string, string>, payload?: (dir: string) => unknown) {
  const p = sandbox({ config });
  for (const [name, text] of Object.entries(scripts)) p.write(name, text);
  const r = await runMain(["--trust", "run", "pre_tool_use", "--host", "claude"], { cwd: p.dir, env: p.env, input: JSON.stringify((payload ?? skillShell)(p.dir)) });
  return { ...r, p, answer: r.stdout.trim() ? JSON.parse(r.stdout) : null };
}

const hook = (name: string, script: string, extra = "") => `    - {name: ${name}, command: sh ./${script}, matcher: Bash${extra}}\n`;

describe("Claude Code's PreSkillShellCommand is pre_tool_use", () => {
  it("maps to pre_tool_use (PreToolUse stays the event's Claude name), and its payload is detected as Claude's", () => {
    expect(claudeHost.events.PreSkillShellCommand).toBe("pre_tool_use");
    expect(Object.entries(claudeHost.events).find(([, c]) => c === "pre_tool_use")?.[0]).toBe("PreToolUse");
    expect(claudeHost.detect(skillShell("/p"))).toBe(true);
  });

  it("a native hook reads the command as a Bash call, with the host's event and fields kept; its block is PreSkillShellCommand's deny", async () => {
    const r = await dispatch(`hooks:\n  pre_tool_use:\n${hook("guard", "guard.sh")}`, { "guard.sh": 'cat > seen.json\necho "no touching" >&2\nexit 2\n' });
    expect(r.code).toBe(0);
    expect(r.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreSkillShellCommand", permissionDecision: "deny", permissionDecisionReason: "no touching" } });
    const seen = JSON.parse(readFileSync(r.p.path("seen.json"), "utf8"));
    expect(seen).toMatchObject({ event: "pre_tool_use", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "touch made.txt" }, command_name: "x", invoked_by: "user" });
    expect(seen.host).toMatchObject({ name: "claude", event: "PreSkillShellCommand", tool_name: "Bash" });
  });

  it("a rewrite cannot be applied to an embedded command: it is a deny naming the hook; allow adds nothing", async () => {
    const rewrite = await dispatch(`hooks:\n  pre_tool_use:\n${hook("fixer", "fix.sh")}`, { "fix.sh": `echo '{"updated_input": {"command": "true"}}'\n` });
    expect(rewrite.answer.hookSpecificOutput).toEqual({
      hookEventName: "PreSkillShellCommand",
      permissionDecision: "deny",
      permissionDecisionReason: "hookrun: hook fixer rewrote the command, and Claude Code cannot run a rewritten command that a skill or slash command embeds, so it was not run",
    });
    const allow = await dispatch(`hooks:\n  pre_tool_use:\n${hook("ok", "ok.sh")}`, { "ok.sh": `echo '{"decision": "allow", "reason": "fine"}'\n` });
    expect(allow.answer).toEqual({});
    // The same rewrite on a model's Bash call (PreToolUse) is applied as usual.
    const tool = await dispatch(`hooks:\n  pre_tool_use:\n${hook("fixer", "fix.sh")}`, { "fix.sh": `echo '{"updated_input": {"command": "true"}}'\n` }, (dir) => ({
      ...skillShell(dir),
      hook_event_name: "PreToolUse",
    }));
    expect(tool.answer.hookSpecificOutput).toEqual({ hookEventName: "PreToolUse", updatedInput: { command: "true" } });
  });

  it("ask and defer are passed on (Claude Code stops the command: a skill cannot wait); context goes to the user, since nothing reaches the model there", async () => {
    const ask = await dispatch(`hooks:\n  pre_tool_use:\n${hook("careful", "ask.sh")}${hook("note", "note.sh")}`, {
      "ask.sh": `echo '{"decision": "ask", "reason": "touches files"}'\n`,
      "note.sh": "echo 'remember the tests'\n",
    });
    expect(ask.answer).toEqual({
      hookSpecificOutput: { hookEventName: "PreSkillShellCommand", permissionDecision: "ask", permissionDecisionReason: "touches files" },
      systemMessage: "remember the tests",
    });
    const defer = await dispatch(`hooks:\n  pre_tool_use:\n${hook("later", "defer.sh", ", dialect: claude")}`, {
      "defer.sh": `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}'\n`,
    });
    expect(defer.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreSkillShellCommand", permissionDecision: "defer" } });
  });

  it("failing closed (on_failure: block) refuses the command with PreSkillShellCommand's deny", async () => {
    const r = await dispatch(`hooks:\n  pre_tool_use:\n${hook("guard", "crash.sh", ", on_failure: block")}`, { "crash.sh": "exit 1\n" });
    expect(r.answer.hookSpecificOutput).toMatchObject({ hookEventName: "PreSkillShellCommand", permissionDecision: "deny" });
    expect(r.answer.hookSpecificOutput.permissionDecisionReason).toMatch(/guard failed and has on_failure: block/);
  });
});

describe("warm mode (`hooks serve`): the http answer of a PreSkillShellCommand route", () => {
  it("is that event's answer too: a rewrite is a deny, as in the command answer", () => {
    const result = triggerResult("pre_tool_use", [hookResult("fixer", { updated_input: { command: "true" } })], { updated_input: { command: "true" } });
    const outcome = (hostEvent: string): HostEventOutcome => ({ kind: "blocked", event: "pre_tool_use", cause: "", result, answer: { stdout: "", stderr: "", exitCode: 0 }, hostEvent });
    expect(hostHttpBody(claudeHost, outcome("PreSkillShellCommand"), "http")).toMatchObject({ hookSpecificOutput: { hookEventName: "PreSkillShellCommand", permissionDecision: "deny" } });
    expect(hostHttpBody(claudeHost, outcome("PreToolUse"), "http")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "true" } } });
  });
});

describe("a claude-dialect hook on pre_tool_use fired by PreSkillShellCommand", () => {
  const claudeHook = (script: string) => `hooks:\n  pre_tool_use:\n    - {name: g, command: sh ./${script}, matcher: Bash, dialect: claude}\n`;

  it("receives Claude's own event name and fields, as Claude Code would send them", async () => {
    const r = await dispatch(claudeHook("g.sh"), { "g.sh": "cat > seen.json\n" });
    expect(r.code).toBe(0);
    const seen = JSON.parse(readFileSync(r.p.path("seen.json"), "utf8"));
    expect(seen).toMatchObject({ hook_event_name: "PreSkillShellCommand", tool_name: "Bash", tool_input: { command: "touch made.txt" }, tool_use_id: "u1:inner:preamble-0", command_name: "x" });
    // Fired as a model's Bash call, the same hook reads PreToolUse.
    const tool = await dispatch(claudeHook("g.sh"), { "g.sh": "cat > seen.json\n" }, (dir) => ({ ...skillShell(dir), hook_event_name: "PreToolUse" }));
    expect(JSON.parse(readFileSync(tool.p.path("seen.json"), "utf8")).hook_event_name).toBe("PreToolUse");
  });

  it("may name either event in hookSpecificOutput.hookEventName: both denies stop the command; another name is refused", async () => {
    for (const name of ["PreSkillShellCommand", "PreToolUse"]) {
      const r = await dispatch(claudeHook("g.sh"), {
        "g.sh": `echo '{"hookSpecificOutput": {"hookEventName": "${name}", "permissionDecision": "deny", "permissionDecisionReason": "not from a skill"}}'\n`,
      });
      expect(r.answer, name).toEqual({ hookSpecificOutput: { hookEventName: "PreSkillShellCommand", permissionDecision: "deny", permissionDecisionReason: "not from a skill" } });
    }
    const wrong = await dispatch(claudeHook("g.sh"), { "g.sh": `echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}'\n` });
    expect(wrong.answer.hookSpecificOutput).toBeUndefined();
    expect(wrong.answer.systemMessage).toMatch(/hookEventName.*must be "PreToolUse"/);
  });
});

describe("hooks install claude writes a PreSkillShellCommand entry wherever a pre_tool_use hook can match the shell tool", () => {
  const installed = async (config: string) => {
    const p = sandbox({ config });
    p.write(".claude/settings.json", "{}\n");
    const r = await runMain(["install", "claude"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    return { p, hooks: JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8")).hooks };
  };

  it("narrowed to Bash/PowerShell as PreToolUse's matcher is; none for a guard of other tools; no matcher for a guard of every tool", async () => {
    const both = await installed("hooks:\n  pre_tool_use:\n    - {name: a, command: 'true', matcher: Bash|PowerShell|Write}\n");
    expect(both.hooks.PreSkillShellCommand).toHaveLength(1);
    expect(both.hooks.PreSkillShellCommand[0].matcher).toBe("Bash|PowerShell");
    expect(both.hooks.PreSkillShellCommand[0].hooks).toEqual(both.hooks.PreToolUse[0].hooks);
    const writes = await installed("hooks:\n  pre_tool_use:\n    - {name: a, command: 'true', matcher: Write|Edit}\n");
    expect(writes.hooks.PreToolUse).toBeDefined();
    expect(writes.hooks.PreSkillShellCommand).toBeUndefined();
    const any = await installed("hooks:\n  pre_tool_use:\n    - {name: a, command: 'true', on_failure: block}\n");
    expect(any.hooks.PreSkillShellCommand).toEqual([{ hooks: any.hooks.PreToolUse[0].hooks }]);
    expect(any.hooks.PreSkillShellCommand[0].hooks[0].onFailure).toBe("block");
    // No pre_tool_use hook: no entry.
    expect((await installed("hooks:\n  stop:\n    - {name: s, command: 'true'}\n")).hooks.PreSkillShellCommand).toBeUndefined();
  });

  it("`hooks validate` calls the entry current, and stale once hooks.yaml changes; without it the install is incomplete", async () => {
    const { p } = await installed("hooks:\n  pre_tool_use:\n    - {name: a, command: 'true', matcher: Bash}\n");
    const validate = await runMain(["validate"], { cwd: p.dir, env: p.env, input: "" });
    expect(validate.code).toBe(0);
    expect(validate.stderr).not.toMatch(/stale|PreSkillShellCommand/);
    expect((await runMain(["install", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    // The old install shape (PreToolUse only): --check says the new entry is missing.
    const settings = JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8"));
    delete settings.hooks.PreSkillShellCommand;
    p.write(".claude/settings.json", JSON.stringify(settings));
    const check = await runMain(["install", "--check", "--json"], { cwd: p.dir, env: p.env });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)[0].stale).toEqual(["PreSkillShellCommand"]);
  });

  it("`hooks doctor` fires the entry as Claude Code would, and it reaches pre_tool_use's hooks", async () => {
    const { p } = await installed("hooks:\n  pre_tool_use:\n    - {name: guard, command: 'true', matcher: Bash}\n");
    linkHookrun(p.dir);
    const r = await runMain(["doctor", "--json"], { cwd: p.dir, env: { ...p.env, HOOKS_TRUST: "1" } });
    const report = JSON.parse(r.stdout);
    const fired = report.events.find((e: { host: string; event: string }) => e.host === "claude" && e.event === "PreSkillShellCommand");
    expect(fired, r.stdout).toMatchObject({ canonical: "pre_tool_use", reaches: true, runs: ["guard"] });
  });
});
