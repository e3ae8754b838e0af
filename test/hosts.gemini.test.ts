import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { buildContext } from "../src/runner/context.js";
import { matchesMatcher } from "../src/config/matcher.js";
import { renderImport } from "../src/interop/importHooks.js";
import { gemini } from "../src/hosts/gemini.js";
import { importGeminiSettings, rewritePlaceholders } from "../src/hosts/geminiImport.js";
import { ASK_DEGRADED, formatGemini } from "../src/hosts/geminiRender.js";
import { geminiDispatchCommand, geminiEntries, narrowToolMatcher } from "../src/hosts/geminiSetup.js";
import { detectHost, hostByName } from "../src/hosts/adapters.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { afterToolBlocks, hookResult, triggerResult } from "./helpers/results.js";
import { removeTree } from "./helpers/removeTree.js";
import { entriesOf, specOf } from "./helpers/hostSetup.js";

const base = {
  session_id: "6d9cf022-d45a-4c1e-9b35-9f440defeb78",
  transcript_path: "/home/u/.gemini/tmp/proj/chats/session-1.jsonl",
  cwd: "/home/me/proj",
  timestamp: "2026-11-24T12:32:23.383Z",
};
// Payloads as Gemini CLI 0.61.0 wrote them in a real run (test/gemini.e2e.test.ts records them too).
const beforeTool = { ...base, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "echo hi > out.txt" } };
const afterTool = {
  ...base,
  hook_event_name: "AfterTool",
  tool_name: "write_file",
  tool_input: { file_path: "a.txt", content: "x" },
  tool_response: { llmContent: "ok", returnDisplay: "" },
  mcp_context: { server_name: "s" },
};
const afterAgent = { ...base, hook_event_name: "AfterAgent", prompt: "say hi", prompt_response: "All good.", stop_hook_active: false };

describe("gemini: read", () => {
  it("maps tool names to the canonical vocabulary and keeps Gemini's under host", () => {
    const ctx = gemini.read(beforeTool, "pre_tool_use");
    expect(ctx).toEqual({
      ...base,
      hook_event_name: "BeforeTool",
      tool_name: "Bash",
      tool_input: { command: "echo hi > out.txt" },
      host: { name: "gemini", event: "BeforeTool", tool_name: "run_shell_command" },
    });
    expect(matchesMatcher("Bash", ctx.tool_name)).toBe(true);
    const after = gemini.read(afterTool, "post_tool_use");
    expect(after.tool_name).toBe("Write");
    expect(after.tool_response).toEqual({ llmContent: "ok", returnDisplay: "" });
    expect(after.mcp_context).toEqual({ server_name: "s" });
  });

  it("maps every built-in tool it knows, and passes other names (MCP tools) unchanged", () => {
    const names = Object.entries(gemini.tools).map(([g]) => gemini.read({ ...beforeTool, tool_name: g }, "pre_tool_use").tool_name);
    expect(names).toEqual(["Bash", "Write", "Edit", "Read", "Glob", "Grep", "WebFetch", "WebSearch", "TodoWrite", "Agent", "Skill", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode"]);
    expect(gemini.read({ ...beforeTool, tool_name: "mcp_db_query" }, "pre_tool_use").tool_name).toBe("mcp_db_query");
    expect(gemini.read({ ...beforeTool, tool_name: "list_directory" }, "pre_tool_use").tool_name).toBe("list_directory");
  });

  it("reads AfterAgent's answer as last_assistant_message, and keeps stop_hook_active", () => {
    const ctx = gemini.read(afterAgent, "stop");
    expect(ctx.last_assistant_message).toBe("All good.");
    expect(ctx.prompt_response).toBeUndefined();
    expect(ctx.stop_hook_active).toBe(false);
    // Sent or not, the hook receives it (filled when its stdin is built, as under every host).
    expect(buildContext("stop", gemini.read({ ...base, hook_event_name: "AfterAgent" }, "stop"), "/tmp", {}).stop_hook_active).toBe(false);
  });

  it("takes bad input without throwing: a non-string tool name stays as is, no event name gives host.event null", () => {
    expect(gemini.read({ tool_name: 42 }, "pre_tool_use")).toEqual({ tool_name: 42, host: { name: "gemini", tool_name: 42 } });
    expect(gemini.read({}, "session_start")).toEqual({ host: { name: "gemini" } });
  });

  it("maps Gemini's events to canonical ones that exist in the catalog, and leaves out AfterModel and BeforeToolSelection", () => {
    expect(gemini.events).toEqual({
      SessionStart: "session_start",
      SessionEnd: "session_end",
      BeforeAgent: "user_prompt_submit",
      AfterAgent: "stop",
      BeforeModel: "pre_turn",
      BeforeTool: "pre_tool_use",
      AfterTool: "post_tool_use",
      PreCompress: "pre_compact",
      Notification: "notification",
    });
    expect(gemini.timeout).toEqual({ unit: "ms", default: 60_000 });
  });
});

describe("gemini: detect", () => {
  it("knows Gemini's own events by name and timestamp", () => {
    expect(gemini.detect(beforeTool)).toBe(true);
    expect(gemini.detect(afterAgent)).toBe(true);
    expect(gemini.detect({ ...beforeTool, timestamp: undefined })).toBe(false);
  });

  it("is the host the table detects for its payloads, and the one named gemini", () => {
    expect(detectHost(beforeTool)).toBe(gemini);
    expect(detectHost(afterAgent)).toBe(gemini);
    expect(hostByName("gemini")).toBe(gemini);
    expect(detectHost({ session_id: "s", transcript_path: "/t", cwd: "/", hook_event_name: "PreToolUse", tool_name: "Bash" })?.name).toBe("claude");
  });

  it("is unsure (false) on a name other hosts share unless every field is one Gemini sends", () => {
    expect(gemini.detect({ ...base, hook_event_name: "SessionStart", source: "startup" })).toBe(true);
    // Qwen Code: Claude's names + timestamp, with Claude's fields.
    expect(gemini.detect({ ...base, hook_event_name: "SessionStart", source: "startup", permission_mode: "default" })).toBe(false);
    // Claude Code: no timestamp.
    expect(gemini.detect({ session_id: "s", cwd: "/", hook_event_name: "SessionStart", source: "startup" })).toBe(false);
    expect(gemini.detect({ ...base, hook_event_name: "PreToolUse", tool_name: "Bash" })).toBe(false);
    expect(gemini.detect({})).toBe(false);
  });
});

describe("gemini: render", () => {
  it("prints an empty object when there is nothing to say, always on exit 0", () => {
    expect(gemini.render(triggerResult("pre_tool_use", [hookResult("a")]))).toEqual({ stdout: "{}\n", stderr: "", exitCode: 0 });
  });

  it("expresses a block as decision deny + reason (AfterAgent: block, which re-prompts the model)", () => {
    const blocked = { blocked: true, blocked_by: "guard", reason: "no rm -rf" };
    const guard = hookResult("guard", { status: "blocked", exit_code: 2, decision: "block", reason: "no rm -rf" });
    expect(formatGemini(triggerResult("pre_tool_use", [guard], blocked))).toEqual({ decision: "deny", reason: "no rm -rf" });
    expect(formatGemini(triggerResult("user_prompt_submit", [guard], blocked))).toEqual({ decision: "deny", reason: "no rm -rf" });
    expect(formatGemini(triggerResult("stop", [guard], blocked))).toEqual({ decision: "block", reason: "no rm -rf" });
    expect(formatGemini(triggerResult("pre_tool_use", [guard], { blocked: true, blocked_by: "guard", reason: null }))).toEqual({ decision: "deny", reason: "blocked by guard" });
  });

  it("degrades ask to a deny whose reason says a confirmation was asked for", () => {
    const r = triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" }), hookResult("b", { decision: "ask", reason: "touches prod" })]);
    expect(formatGemini(r)).toEqual({ decision: "deny", reason: `touches prod (${ASK_DEGRADED})` });
    expect(formatGemini(triggerResult("pre_tool_use", [hookResult("b", { decision: "ask" })])).reason).toBe(ASK_DEGRADED);
  });

  it("says nothing for allow and defer (Gemini's own policy decides)", () => {
    expect(formatGemini(triggerResult("pre_tool_use", [hookResult("a", { decision: "allow", reason: "fine" })]))).toEqual({});
    expect(formatGemini(triggerResult("pre_tool_use", [hookResult("a", { decision: "defer" })]))).toEqual({});
  });

  it("rewrites the tool input with hookSpecificOutput.tool_input (whole), never on a block or an ask", () => {
    const input = { command: "ls -la", description: "list" };
    expect(formatGemini(triggerResult("pre_tool_use", [hookResult("t")], { updated_input: input }))).toEqual({
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: input },
    });
    const ask = triggerResult("pre_tool_use", [hookResult("t", { decision: "ask" })], { updated_input: input });
    expect(formatGemini(ask).hookSpecificOutput).toBeUndefined();
    const notObject = formatGemini(triggerResult("pre_tool_use", [hookResult("t")], { updated_input: "ls" }));
    expect(notObject.hookSpecificOutput).toBeUndefined();
    expect(notObject.systemMessage).toMatch(/not an object.*input unchanged/);
  });

  it("gives context to the model where Gemini takes it (SessionStart, BeforeAgent, AfterTool), else to the user", () => {
    const ctx = (event: string) =>
      formatGemini(
        triggerResult(event, [
          hookResult("ctx", {
            messages: [
              { role: "system", content: "Use pnpm." },
              { role: "system", content: "secret", hide: true },
            ],
          }),
        ]),
      );
    expect(ctx("session_start")).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Use pnpm." } });
    expect(ctx("user_prompt_submit")).toEqual({ hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "Use pnpm." } });
    expect(ctx("post_tool_use")).toEqual({ hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "Use pnpm." } });
    expect(ctx("pre_tool_use")).toEqual({ systemMessage: "Use pnpm." });
    expect(ctx("stop")).toEqual({ systemMessage: "Use pnpm." });
    expect(ctx("session_end")).toEqual({ systemMessage: "Use pnpm." });
  });

  it("feeds post-tool feedback to the model next to the tool's result", () => {
    const r = triggerResult("post_tool_use", [
      hookResult("lint", { messages: [{ role: "system", content: "2 lint errors", kind: "feedback" }] }),
      hookResult("check", { messages: [{ role: "system", content: "missing test", kind: "feedback" }] }),
    ]);
    expect(formatGemini(r)).toEqual({ hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "2 lint errors\n\nmissing test" } });
  });

  it("answers a native hook's block after the tool ran alike whether it exited 2 or printed a JSON block", async () => {
    const { exit2, json } = await afterToolBlocks("missing test");
    const answer = { stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "missing test" } })}\n`, stderr: "", exitCode: 0 };
    expect(gemini.render(exit2)).toEqual(answer);
    expect(gemini.render(json)).toEqual(answer);
  });

  it("turns follow-ups on stop into an AfterAgent block (the model goes on with them)", () => {
    const r = triggerResult("stop", [hookResult("todo", { messages: [{ role: "system", content: "Run the tests.", kind: "followup" }] })]);
    expect(formatGemini(r)).toEqual({ decision: "block", reason: "Run the tests." });
  });

  it("reports continue: false, notices and failures (fail open) for the user", () => {
    const r = triggerResult(
      "post_tool_use",
      [
        hookResult("budget", { continue: false, stop_reason: "budget spent", messages: [{ role: "system", content: "3 calls left", kind: "notice" }] }),
        hookResult("broken", { status: "failed", exit_code: 1, stderr: "Traceback...\nKeyError: 'x'\n" }),
        hookResult("slow", { status: "timed_out", exit_code: null, error: "timed out after 2s" }),
      ],
      { continue: false, stop_reason: "budget spent", stopped_by: "budget" },
    );
    expect(formatGemini(r)).toEqual({
      continue: false,
      stopReason: "budget spent",
      systemMessage: "3 calls left\nhook broken failed: exit 1 (KeyError: 'x')\nhook slow timed out: timed out after 2s",
    });
  });

  it("says so when a pre_compact block cannot be honoured (Gemini ignores PreCompress answers)", () => {
    const r = triggerResult("pre_compact", [hookResult("keep", { status: "blocked", decision: "block", reason: "not now" })], { blocked: true, blocked_by: "keep", reason: "not now" });
    expect(formatGemini(r)).toEqual({ systemMessage: "hookrun: a hook blocked compaction (not now), but Gemini CLI cannot stop a compaction; it goes on" });
  });

  it("answers a run whose hooks did not run: the user always, the model where it reads context", () => {
    const start = JSON.parse(gemini.notRun("session_start", "untrusted", "untrusted: tell the user").stdout);
    expect(start).toEqual({
      systemMessage: "hookrun: the project's hooks did not run: untrusted",
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hookrun: the project's hooks are not running in this session: untrusted: tell the user" },
    });
    expect(JSON.parse(gemini.notRun("pre_tool_use", "invalid", "x").stdout)).toEqual({ systemMessage: "hookrun: the project's hooks did not run: invalid" });
    expect(gemini.notRun("pre_tool_use", "invalid", "x").exitCode).toBe(0);
  });
});

describe("gemini: install entries", () => {
  it("dispatches with exec and the unquoted $GEMINI_PROJECT_DIR Gemini substitutes", () => {
    expect(geminiDispatchCommand("pre_tool_use")).toBe("exec $GEMINI_PROJECT_DIR/node_modules/.bin/hooks -C $GEMINI_PROJECT_DIR run pre_tool_use --host gemini");
  });

  it("writes one group per event Gemini fires, timeouts in ms covering the run, tool matchers narrowed", () => {
    const cfg = config("/p", [
      hook("guard", "pre_tool_use", { matcher: "Bash", timeoutMs: 5_000 }),
      hook("files", "pre_tool_use", { matcher: "Write|Edit", timeoutMs: 30_000 }),
      hook("fmt", "post_tool_use", { matcher: "Write", timeoutMs: 10_000 }),
      hook("any", "post_tool_use", { timeoutMs: 10_000, async: true }),
      hook("ctx", "session_start", { matcher: "startup" }),
      hook("ctx2", "session_start", { matcher: "resume|clear" }),
      hook("todo", "stop", { timeoutMs: 60_000 }),
      hook("gone", "file_changed"),
    ]);
    const entries = entriesOf(gemini, cfg, (e) => `run ${e}`);
    const h = (event: string, timeout: number) => ({ type: "command", name: "hookrun", command: `run ${event}`, timeout });
    expect(entries).toEqual({
      // two run groups (sequential): 5 s + 30 s, each + 2 s kill grace, + 10 s margin
      BeforeTool: [{ matcher: "^(?:replace|run_shell_command|write_file)$", hooks: [h("pre_tool_use", 49_000)] }],
      // the async hook holds nothing; it matches every tool, so the matcher is not narrowed
      AfterTool: [{ hooks: [h("post_tool_use", 22_000)] }],
      SessionStart: ["clear", "resume", "startup"].map((matcher) => ({ matcher, hooks: [h("session_start", 34_000)] })),
      AfterAgent: [{ hooks: [h("stop", 72_000)] }],
    });
    expect(specOf(gemini)).toMatchObject({ projectFile: ".gemini/settings.json", userFile: ".gemini/settings.json", hooksPath: ["hooks"] });
  });

  it("narrows a tool matcher only when every hook names its tools", () => {
    expect(narrowToolMatcher([hook("a", "pre_tool_use", { matcher: "Bash" })])).toBe("^(?:run_shell_command)$");
    expect(narrowToolMatcher([hook("a", "pre_tool_use", { matcher: "Bash|mcp_db_query" })])).toBe("^(?:mcp_db_query|run_shell_command)$");
    expect(narrowToolMatcher([hook("a", "pre_tool_use", { matcher: "Bash" }), hook("b", "pre_tool_use")])).toBeUndefined();
    expect(narrowToolMatcher([hook("a", "pre_tool_use", { matcher: "Write.*" })])).toBeUndefined();
    expect(narrowToolMatcher([hook("a", "pre_tool_use", { matcher: "*" })])).toBeUndefined();
    // A narrowed matcher selects in Gemini exactly what the hook selects in hookrun.
    const re = new RegExp(narrowToolMatcher([hook("a", "pre_tool_use", { matcher: "Write|Edit" })])!);
    for (const [g, c] of Object.entries(gemini.tools)) expect(re.test(g)).toBe(c === "Write" || c === "Edit");
    expect(re.test("write_file_2")).toBe(false);
  });

  it("does not narrow SessionStart when a hook's matcher is a regex", () => {
    const entries = geminiEntries(config("/p", [hook("a", "session_start", { matcher: "start.*" })]), (e) => e);
    expect(entries.SessionStart).toEqual([{ hooks: [{ type: "command", name: "hookrun", command: "session_start", timeout: 22_000 }] }]);
  });
});

describe("gemini: import", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hookrun-gemini-import-"));
  afterAll(() => removeTree(dir));

  const settings = {
    hooksConfig: { disabled: ["old-audit"] },
    hooks: {
      BeforeTool: [
        { matcher: "run_shell_command", sequential: true, hooks: [{ type: "command", name: "block-rm", command: "$GEMINI_PROJECT_DIR/.gemini/hooks/block-rm.sh", timeout: 5000 }] },
        { matcher: "write_file|replace", hooks: [{ type: "command", command: 'node "$GEMINI_PROJECT_DIR/check.js"', description: "check writes", env: { STRICT: "1" } }] },
        { matcher: "file", hooks: [{ type: "command", command: "./audit.sh" }] },
        { matcher: "mcp_.*", hooks: [{ type: "command", command: "./mcp.sh", timeout: 1500 }] },
      ],
      AfterAgent: [{ matcher: "x", hooks: [{ type: "command", name: "old-audit", command: "./audit.sh" }] }],
      SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "cat README.md" }] }],
      AfterModel: [{ hooks: [{ type: "command", command: "./redact.sh" }] }],
      BeforeAgent: [
        { hooks: [{ command: "./no-type.sh" }, { type: "runtime", name: "r" }, { type: "command", command: "x", timeout: -1 }, { type: "command", command: "y", retries: 2 }] },
        { hooks: [{ type: "command", command: "exec $GEMINI_PROJECT_DIR/node_modules/.bin/hooks -C $GEMINI_PROJECT_DIR run user_prompt_submit --host gemini" }] },
      ],
      enabled: true,
    },
  };

  it("converts events, tool names, timeouts, placeholders, names, env and `sequential`, each hook marked `dialect: gemini`", () => {
    const imp = importGeminiSettings(settings, []);
    const by = Object.fromEntries(imp.hooks.map((h) => [h.hook.name, { event: h.event, ...h.hook }]));
    expect(by["block-rm"]).toEqual({
      event: "pre_tool_use",
      name: "block-rm",
      matcher: "Bash",
      command: '"$HOOK_PROJECT_DIR"/.gemini/hooks/block-rm.sh',
      timeout: 5,
      priority: 3,
      dialect: "gemini",
    });
    expect(by.check).toEqual({
      event: "pre_tool_use",
      name: "check",
      description: "check writes",
      matcher: "Write|Edit",
      command: 'node "$HOOK_PROJECT_DIR/check.js"',
      priority: 2,
      env: { STRICT: "1" },
      dialect: "gemini",
    });
    expect(by.audit).toMatchObject({ event: "pre_tool_use", matcher: "Write|Read", command: "./audit.sh" });
    expect(by.mcp).toMatchObject({ matcher: "mcp_.*", timeout: "1500ms", priority: 0 });
    // `sequential: true` on one group makes the whole event sequential in Gemini: priorities in file order.
    expect(imp.hooks.filter((h) => h.event === "pre_tool_use").map((h) => h.hook.priority)).toEqual([3, 2, 1, 0]);
    expect(imp.hooks.filter((h) => h.event !== "pre_tool_use" && h.hook.priority !== undefined)).toEqual([]);
    expect(imp.hooks.every((h) => h.hook.dialect === "gemini")).toBe(true);
    expect(by["old-audit"]).toMatchObject({ event: "stop", enabled: false });
    expect(by["old-audit"].matcher).toBeUndefined();
    expect(by["session-start-hook"]).toMatchObject({ event: "session_start", matcher: "startup", command: "cat README.md" });
    expect(by.redact).toMatchObject({ event: "after_model" });
    expect(imp.customEvents).toEqual({ after_model: { custom: true, description: expect.stringContaining("AfterModel") } });
  });

  it("notes every field it does not carry and every hook it refuses, never dropping one silently", () => {
    const notes = importGeminiSettings(settings, []).notes.join("\n");
    for (const expected of [
      "hooks.BeforeTool: `sequential: true`: its 4 hooks run one after another in Gemini's order",
      "matcher part `file` is a regex in Gemini CLI, matching `write_file`, `read_file`",
      "matcher `mcp_.*` is a regex over Gemini's tool names",
      "hooks.AfterAgent[0]: matcher `x` dropped",
      "listed in hooksConfig.disabled: imported disabled",
      "hooks.AfterModel: hookrun has no event for it (it fires once per streamed chunk",
      "hooks.BeforeAgent[0].hooks[0]: skipped a hook of type `undefined`",
      "hooks.BeforeAgent[0].hooks[1]: skipped a hook of type `runtime`",
      "hooks.BeforeAgent[0].hooks[2] (`x`): not imported: timeout -1",
      "`retries` is not a field of Gemini CLI's command hooks; not carried",
      "already hands this event to hookrun; skipped",
      "hooks.enabled: a setting, not an event",
      "placeholders rewritten",
    ])
      expect(notes).toContain(expected);
    // The hooks are read by Gemini's rules now: no note says otherwise.
    expect(notes).not.toMatch(/dialect: native|neither Claude Code's nor hookrun's/);
  });

  it("adds nothing twice, and the result loads as a valid hooks.yaml", async () => {
    const first = importGeminiSettings(settings, []);
    const again = importGeminiSettings(
      settings,
      first.hooks.map((h) => ({ event: h.event, name: h.hook.name, command: h.hook.command, matcher: h.hook.matcher })),
    );
    expect(again.hooks).toEqual([]);
    const file = path.join(dir, "hooks.yaml");
    writeFileSync(file, renderImport(first, ".gemini/settings.json"));
    const loaded = await loadConfig({ configPath: file, userConfig: false, env: {} });
    expect(loaded.hooks.map((h) => [h.name, h.event, h.timeoutMs])).toContainEqual(["block-rm", "pre_tool_use", 5000]);
  });

  it("refuses input that is not Gemini settings, and says when there are no hooks", () => {
    expect(() => importGeminiSettings([], [])).toThrow(/JSON object/);
    expect(() => importGeminiSettings({ hooks: [] }, [])).toThrow(/object of events/);
    expect(importGeminiSettings({}, []).notes).toEqual(["the settings have no `hooks` object; nothing to import"]);
    expect(importGeminiSettings({ hooks: { BeforeTool: "x" } }, []).notes).toContain("hooks.BeforeTool: not a list of hook groups; skipped");
  });

  it("rewrites placeholders by their quoting", () => {
    expect(rewritePlaceholders("$GEMINI_PROJECT_DIR/a.sh")).toBe('"$HOOK_PROJECT_DIR"/a.sh');
    expect(rewritePlaceholders('cd "$GEMINI_CWD" && ./x')).toBe('cd "$HOOK_PROJECT_DIR" && ./x');
    expect(rewritePlaceholders("echo '$CLAUDE_PROJECT_DIR'")).toBe(`echo ''"$HOOK_PROJECT_DIR"''`);
    expect(rewritePlaceholders("log $GEMINI_SESSION_ID \\$GEMINI_CWD")).toBe('log "$GEMINI_SESSION_ID" \\$GEMINI_CWD');
    expect(rewritePlaceholders("echo ${GEMINI_PROJECT_DIR}")).toBe("echo ${GEMINI_PROJECT_DIR}");
  });
});
