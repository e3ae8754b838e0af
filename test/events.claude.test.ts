import { describe, expect, it } from "vitest";
import { EVENT_BY_NAME, EVENTS } from "../src/events/catalog.js";
import { CLAUDE_EVENTS_LEFT_OUT, importClaudeSettings } from "../src/interop/importClaudeSettings.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

// Claude Code 2.1.332's list of hook events, as its binary spells it (2.1.330's plus PreSkillShellCommand).
// biome-ignore format: one list, as in the binary
const CLAUDE_CODE_EVENTS = [
  "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "UserPromptSubmit", "UserPromptExpansion",
  "SessionStart", "SessionEnd", "Stop", "StopFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "PreModelSwitch",
  "PostModelSwitch", "PermissionRequest", "PermissionDenied", "Setup", "TeammateIdle", "TaskCreated", "TaskCompleted", "Elicitation",
  "ElicitationResult", "ConfigChange", "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged", "FileChanged",
  "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand",
];

const byClaudeName = new Map(EVENTS.filter((e) => e.claude).map((e) => [e.claude?.name, e]));

describe("Claude Code's events in the catalog", () => {
  it("every Claude Code event is catalogued, or left out with a reason", () => {
    for (const name of CLAUDE_CODE_EVENTS) {
      const left = CLAUDE_EVENTS_LEFT_OUT[name];
      expect(byClaudeName.has(name) !== (left !== undefined), name).toBe(true);
    }
    expect(Object.keys(CLAUDE_EVENTS_LEFT_OUT).sort()).toEqual(["MessageDisplay", "PreSkillShellCommand", "WorktreeCreate", "WorktreeRemove"]);
    expect([...byClaudeName.keys()].every((n) => CLAUDE_CODE_EVENTS.includes(n as string))).toBe(true);
  });

  it("match fields are what Claude Code's matcher tests", () => {
    const field = (claude: string) => byClaudeName.get(claude)?.matchField ?? null;
    expect(field("SubagentStart")).toBe("agent_type");
    expect(field("UserPromptExpansion")).toBe("command_name");
    expect(field("Setup")).toBe("trigger");
    expect(field("StopFailure")).toBe("error");
    expect(field("PermissionDenied")).toBe("tool_name");
    expect(field("InstructionsLoaded")).toBe("load_reason");
    expect(field("Elicitation")).toBe("mcp_server_name");
    expect(field("DirectoryAdded")).toBe("source");
    expect(field("FileChanged")).toBe("file_path");
    for (const none of ["PostToolBatch", "TeammateIdle", "TaskCreated", "TaskCompleted", "Stop", "UserPromptSubmit"]) expect(field(none), none).toBeNull();
  });

  it("the claude column follows the binary: what blocks, what reaches the model", () => {
    const rules = (n: string) => EVENT_BY_NAME.get(n)?.claude;
    expect(rules("notification")?.additionalContext).toBe(false); // in the schema, but Claude Code never reads it
    expect(rules("pre_compact")?.block).toBe("deny");
    expect(rules("config_change")?.block).toBe("deny");
    expect(EVENT_BY_NAME.get("config_change")?.gate).toBe("yes");
    expect(rules("subagent_start")).toMatchObject({ additionalContext: true, block: "user" });
    expect(rules("user_prompt_expansion")).toMatchObject({ stdoutIsContext: true, additionalContext: true, block: "deny" });
    expect(rules("post_model_switch")).toMatchObject({ stdoutIsContext: true, additionalContext: true });
    expect(rules("stop_failure")).toMatchObject({ additionalContext: false, block: "user" });
    expect(rules("teammate_idle")?.block).toBe("continue");
    for (const e of EVENTS) if (e.claude?.block === "user") expect(e.gate, e.name).not.toBe("yes");
  });
});

describe("the new events run and import under their real names", () => {
  async function dryRun(dir: string, env: Record<string, string>, event: string, context: object): Promise<string[]> {
    const r = await runMain(["--trust", "run", event, "--dry-run", "--output", "json"], { cwd: dir, env, input: JSON.stringify(context) });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { hooks: { name: string }[] }).hooks.map((h) => h.name);
  }

  it("SubagentStart's matcher tests agent_type; FileChanged's tests the file's base name", async () => {
    const t = sandbox();
    t.write("hooks.yaml", 'hooks:\n  SubagentStart:\n    - {name: review, matcher: code-reviewer, command: "true"}\n  file_changed:\n    - {name: envrc, matcher: "^\\\\.envrc$", command: "true"}\n');
    expect(await dryRun(t.dir, t.env, "SubagentStart", { agent_type: "code-reviewer" })).toEqual(["review"]);
    expect(await dryRun(t.dir, t.env, "subagent_start", { agent_type: "Explore" })).toEqual([]);
    expect(await dryRun(t.dir, t.env, "FileChanged", { file_path: "/repo/.envrc", event: "change" })).toEqual(["envrc"]);
    expect(await dryRun(t.dir, t.env, "file_changed", { file_path: "/repo/.envrc.bak" })).toEqual([]);
  });

  it("`hooks import claude` puts them under the catalog's event with their matcher, not under a custom event", async () => {
    const t = sandbox();
    const settings = {
      hooks: {
        SubagentStart: [{ matcher: "code-reviewer", hooks: [{ type: "command", command: "./inject-review-rules.sh" }] }],
        InstructionsLoaded: [{ matcher: "session_start", hooks: [{ type: "command", command: "./log-instructions.sh" }] }],
        PostToolBatch: [{ hooks: [{ type: "command", command: "./batch-summary.sh" }] }],
      },
    };
    t.write(".claude/settings.json", JSON.stringify(settings));
    const r = await runMain(["import", "claude", "--json"], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    const spec = JSON.parse(r.stdout) as { events?: unknown; hooks: Record<string, { matcher?: string }[]> };
    expect(spec.events).toBeUndefined();
    expect(spec.hooks.subagent_start[0].matcher).toBe("code-reviewer");
    expect(spec.hooks.instructions_loaded[0].matcher).toBe("session_start");
    expect(Object.keys(spec.hooks)).toEqual(["subagent_start", "instructions_loaded", "post_tool_batch"]);
    expect(r.stderr).not.toMatch(/custom event|dropped/);
  });

  it("an event left out is imported as a custom event, saying why it is not in the catalog", () => {
    const imp = importClaudeSettings({ hooks: { MessageDisplay: [{ hooks: [{ type: "command", command: "./redact.sh" }] }] } });
    expect(imp.customEvents.message_display).toMatchObject({ custom: true });
    expect(imp.notes.join("\n")).toMatch(/MessageDisplay.*user.s display.*custom event `message_display`/);
  });
});
