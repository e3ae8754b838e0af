import { describe, expect, it } from "vitest";
import { claudeHost } from "../src/hosts/claude.js";
import { claudeCloneRun } from "../src/hosts/claudeClone.js";
import { qoder } from "../src/hosts/qoder.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { runMain } from "./helpers/cli.js";
import { CLAUDE_PAYLOADS, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";
import { entriesOf } from "./helpers/hostSetup.js";

useSandbox();

// A PreToolUse payload as the real Qoder CLI 1.1.52 sent it (test/qoder.e2e.test.ts runs it).
const PRE = {
  session_id: "47948b5c",
  transcript_path: "/home/me/.qoder/projects/-home-me-p/47948b5c.jsonl",
  cwd: "/home/me/p",
  hook_event_name: "PreToolUse",
  model: "Fake Responses",
  permission_mode: "yolo",
  tool_use_id: "toolu_1",
  tool_name: "Bash",
  tool_input: { command: "echo hi", description: "say hi" },
};

describe("qoder: a Claude-shaped clone", () => {
  it("claims Qoder's payloads (its ~/.qoder transcript), not Claude Code's nor another host's", () => {
    expect(qoder.detect(PRE)).toBe(true);
    for (const p of CLAUDE_PAYLOADS) expect(qoder.detect(p)).toBe(false);
    for (const [name, p] of otherHostsFixtures("qoder")) expect(qoder.detect(p), name).toBe(false);
    expect(qoder.detect({ ...PRE, hook_event_name: "PreSkillShellCommand" })).toBe(false);
  });

  it("reads and answers as Claude Code does", () => {
    expect(qoder.read(PRE, "pre_tool_use")).toMatchObject({ tool_name: "Bash", cwd: "/home/me/p", host: { name: "qoder", event: "PreToolUse" } });
    const blocked = triggerResult("pre_tool_use", [hookResult("g", { status: "blocked", decision: "block", reason: "no" })], { blocked: true, blocked_by: "g", reason: "no" });
    expect(qoder.render(blocked)).toEqual(claudeHost.render(blocked));
  });

  it("fires only Claude's events Qoder has; its entries carry no onFailure and no PreSkillShellCommand", async () => {
    expect(Object.keys(qoder.events)).not.toContain("UserPromptExpansion");
    expect(Object.keys(qoder.events)).not.toContain("PreSkillShellCommand");
    const p = sandbox({
      config: "hooks:\n  pre_tool_use:\n    - {name: g, matcher: Bash, command: 'exit 2', on_failure: block}\n  user_prompt_expansion:\n    - {name: x, command: 'true'}\n",
    });
    const config = await p.load();
    const entries = entriesOf(qoder, config, (e) => `hooks run ${e} --host qoder`);
    expect(Object.keys(entries)).toEqual(["PreToolUse"]);
    expect(entries.PreToolUse[0]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "hooks run pre_tool_use --host qoder", timeout: 70 }] });
    const claude = entriesOf(claudeHost, config, (e) => `hooks run ${e} --host claude`);
    expect(Object.keys(claude).sort()).toEqual(["PreSkillShellCommand", "PreToolUse", "UserPromptExpansion"]);
  });

  it("a clone naming an event Claude Code does not have is refused", () => {
    expect(() =>
      claudeCloneRun({
        name: "x",
        title: "X",
        events: ["NoSuchEvent"],
        timeout: { unit: "s", default: 1 },
        projectFile: ".x/s.json",
        userFile: ".x/s.json",
        projectDirVar: "X_DIR",
        transcriptFolder: ".x",
        onFailure: false,
        asyncRewake: false,
      }),
    ).toThrow(/NoSuchEvent is not one of Claude Code's events/);
  });

  it("`hooks import qoder` reads .qoder/settings.json as Claude's settings, naming events Qoder does not fire", async () => {
    const p = sandbox();
    p.write(
      ".qoder/settings.json",
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 5 }] }], PostToolBatch: [{ hooks: [{ type: "command", command: "./batch.sh" }] }] },
      }),
    );
    const r = await runMain(["import", "qoder"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: guard\n\s+matcher: Bash\n\s+command: \.\/guard\.sh\n\s+timeout: 5\n\s+dialect: claude/);
    expect(r.stdout + r.stderr).toMatch(/Qoder CLI does not fire PostToolBatch/);
  });
});
