import { describe, expect, it } from "vitest";
import { copilot, copilotDialect, formatCopilot } from "../src/hosts/copilot.js";
import { dispatchCommand } from "../src/hosts/dispatch.js";
import { detectHost, resolveHost } from "../src/hosts/adapters.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { afterToolBlocks, hookResult, triggerResult } from "./helpers/results.js";
import { entriesOf, specOf } from "./helpers/hostSetup.js";

// Payloads as Copilot CLI 1.0.102 wrote them to hooks' stdin (captured in a real `copilot -p` run).
const SID = "f59f491c-2e71-4b8c-a069-2f00106d58d4";
const CAMEL = {
  sessionStart: { sessionId: SID, timestamp: 1795523520551, cwd: "/p", source: "new", initialPrompt: "say hi" },
  userPromptSubmitted: { sessionId: SID, timestamp: 1795523520672, cwd: "/p", prompt: "say hi" },
  preToolUse: { sessionId: SID, timestamp: 1795523520870, cwd: "/p", toolName: "bash", toolArgs: { command: "echo hi > out.txt", description: "write" } },
  postToolUse: {
    sessionId: SID,
    timestamp: 1795523521001,
    cwd: "/p",
    toolName: "create",
    toolArgs: { path: "/p/new.txt", file_text: "x\n" },
    toolResult: { resultType: "success", textResultForLlm: "Created file /p/new.txt with 2 characters" },
  },
  agentStop: { sessionId: SID, timestamp: 1795523521096, cwd: "/p", transcriptPath: "/h/.copilot/session-state/x/events.jsonl", stopReason: "end_turn", stop_hook_active: false },
  sessionEnd: { sessionId: SID, timestamp: 1795523521125, cwd: "/p", reason: "complete" },
  permissionRequest: { hookName: "permissionRequest", sessionId: SID, timestamp: 1795523520939, cwd: "/p", toolName: "bash", toolInput: { command: "ls" }, permissionSuggestions: [] },
};
const PASCAL = {
  SessionStart: { hook_event_name: "SessionStart", session_id: SID, timestamp: "2026-11-24T12:32:00.551Z", cwd: "/p", source: "new", initial_prompt: "say hi" },
  PreToolUse: { hook_event_name: "PreToolUse", session_id: SID, timestamp: "2026-11-24T12:32:00.870Z", cwd: "/p", tool_name: "Bash", tool_input: { command: "echo hi", description: "write" } },
  PostToolUse: {
    hook_event_name: "PostToolUse",
    session_id: SID,
    timestamp: "2026-11-24T12:32:27.648Z",
    cwd: "/p",
    tool_name: "Write",
    tool_input: { path: "/p/new.txt", file_text: "x\n" },
    tool_result: { result_type: "success", text_result_for_llm: "Created file /p/new.txt with 2 characters" },
  },
  Stop: {
    hook_event_name: "Stop",
    session_id: SID,
    timestamp: "2026-11-24T12:32:01.096Z",
    cwd: "/p",
    transcript_path: "/h/.copilot/session-state/x/events.jsonl",
    stop_reason: "end_turn",
    stop_hook_active: false,
  },
};

describe("copilot.read", () => {
  it("reads a camelCase preToolUse: snake_case fields, the canonical tool name, Copilot's own kept under host", () => {
    const c = copilot.read(CAMEL.preToolUse, "pre_tool_use");
    expect(c).toEqual({
      session_id: SID,
      timestamp: "2026-11-24T12:32:00.870Z",
      cwd: "/p",
      tool_name: "Bash",
      tool_input: { command: "echo hi > out.txt", description: "write" },
      host: { name: "copilot", dialect: "camel", event: "preToolUse", tool_name: "bash", timestamp: 1795523520870 },
    });
  });

  it("reads a camelCase postToolUse's result as tool_response and maps create to Write", () => {
    const c = copilot.read(CAMEL.postToolUse, "post_tool_use");
    expect(c.tool_name).toBe("Write");
    expect(c.tool_input).toEqual({ path: "/p/new.txt", file_text: "x\n" });
    expect(c.tool_response).toEqual({ resultType: "success", textResultForLlm: "Created file /p/new.txt with 2 characters" });
    expect(c.toolResult).toBeUndefined();
    expect((c.host as Record<string, unknown>).tool_name).toBe("create");
  });

  it("reads agentStop's fields (stop_hook_active arrives in snake_case already) and sessionStart's", () => {
    const stop = copilot.read(CAMEL.agentStop, "stop");
    expect(stop).toMatchObject({ session_id: SID, transcript_path: "/h/.copilot/session-state/x/events.jsonl", stop_reason: "end_turn", stop_hook_active: false });
    expect((stop.host as Record<string, unknown>).event).toBe("agentStop");
    expect(copilot.read(CAMEL.sessionStart, "session_start")).toMatchObject({ source: "new", initial_prompt: "say hi" });
  });

  it("reads permissionRequest's toolInput as tool_input and its hookName as the host event", () => {
    const c = copilot.read(CAMEL.permissionRequest, "permission_request");
    expect(c).toMatchObject({ tool_name: "Bash", tool_input: { command: "ls" }, permission_suggestions: [] });
    expect(c.hook_name).toBeUndefined();
    expect((c.host as Record<string, unknown>).event).toBe("permissionRequest");
  });

  it("reads a PascalCase payload: fields as sent, tool_result as tool_response, the host event from hook_event_name", () => {
    const c = copilot.read(PASCAL.PostToolUse, "post_tool_use");
    expect(c).toMatchObject({ hook_event_name: "PostToolUse", session_id: SID, tool_name: "Write", timestamp: "2026-11-24T12:32:27.648Z" });
    expect(c.tool_response).toEqual({ result_type: "success", text_result_for_llm: "Created file /p/new.txt with 2 characters" });
    expect(c.host).toEqual({ name: "copilot", dialect: "pascal", event: "PostToolUse", tool_name: "Write", timestamp: "2026-11-24T12:32:27.648Z" });
  });

  it("keeps a payload's own `host` field under host.payload_host and passes unknown tools unchanged", () => {
    const c = copilot.read({ ...CAMEL.preToolUse, toolName: "sql", host: "x" }, "pre_tool_use");
    expect(c.tool_name).toBe("sql");
    expect(c.host).toMatchObject({ payload_host: "x", tool_name: "sql" });
  });

  it("tells the dialects apart", () => {
    expect(copilotDialect(CAMEL.preToolUse)).toBe("camel");
    expect(copilotDialect(PASCAL.PreToolUse)).toBe("pascal");
  });
});

describe("copilot.detect", () => {
  it("recognises every captured payload of both dialects", () => {
    for (const p of [...Object.values(CAMEL), ...Object.values(PASCAL)]) expect(copilot.detect(p), JSON.stringify(p)).toBe(true);
  });

  it("refuses other hosts' payloads and bad input", () => {
    const claude = { session_id: SID, transcript_path: "/t.jsonl", cwd: "/p", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {}, tool_use_id: "toolu_1" };
    const qwen = { ...claude, timestamp: "2026-11-24T12:32:00.870Z", tool_call_id: "c1" };
    const gemini = { session_id: SID, transcript_path: "/t.json", cwd: "/p", hook_event_name: "SessionStart", timestamp: "2026-11-24T12:32:00.870Z", source: "startup" };
    const codex = { ...claude, turn_id: "t1", model: "m" };
    const cline = { hookName: "PreToolUse", taskId: "t", workspaceRoots: [] };
    for (const p of [
      claude,
      qwen,
      gemini,
      codex,
      cline,
      {},
      { sessionId: SID },
      { sessionId: SID, timestamp: "x" },
      { ...PASCAL.PreToolUse, timestamp: "not a date" },
      { ...PASCAL.PreToolUse, hook_event_name: "BeforeTool" },
    ])
      expect(copilot.detect(p), JSON.stringify(p)).toBe(false);
  });
});

const parse = (r: ReturnType<typeof copilot.render>) => ({ ...r, json: JSON.parse(r.stdout) });

describe("the host table with Copilot in it", () => {
  it("detects Copilot's payloads of both dialects, and answers a Claude dispatch entry that Copilot fired as Copilot", () => {
    for (const p of [...Object.values(CAMEL), ...Object.values(PASCAL)]) expect(detectHost(p)?.name).toBe("copilot");
    expect(resolveHost("claude", PASCAL.PreToolUse)?.name).toBe("copilot");
    const claude = { session_id: SID, transcript_path: "/t.jsonl", cwd: "/p", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {}, tool_use_id: "toolu_1" };
    expect(resolveHost("claude", claude)?.name).toBe("claude");
    expect(detectHost(claude)?.name).toBe("claude");
  });
});

describe("copilot.render", () => {
  it("a notice that names hookrun already (the last trusted version's) is not prefixed twice; others get the prefix", () => {
    const notices = [
      { role: "system" as const, kind: "notice" as const, content: "hookrun: hooks.yaml changed since it was trusted" },
      { role: "system" as const, kind: "notice" as const, content: "slow hook" },
    ];
    const r = copilot.render(triggerResult("notification", [], { messages: notices }));
    expect(r.stderr).toBe("hookrun: hooks.yaml changed since it was trusted\nhookrun: slow hook\n");
  });

  it("always exits 0 with one JSON object; an empty object when nothing is said", () => {
    const r = parse(copilot.render(triggerResult("pre_tool_use", [hookResult("a")])));
    expect(r).toEqual(expect.objectContaining({ exitCode: 0, stderr: "", json: {} }));
  });

  it("denies a blocked tool call with the reason, flat", () => {
    const r = parse(
      copilot.render(
        triggerResult("pre_tool_use", [hookResult("guard", { status: "blocked", exit_code: 2, decision: "block", reason: "no rm -rf" })], { blocked: true, blocked_by: "guard", reason: "no rm -rf" }),
      ),
    );
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no rm -rf" });
  });

  it("passes ask on (ask over allow) with the asking hooks' reasons, and allow with the rewritten arguments", () => {
    const ask = formatCopilot(triggerResult("pre_tool_use", [hookResult("a", { decision: "allow", reason: "safe" }), hookResult("b", { decision: "ask", reason: "touches prod" })]));
    expect(ask.response).toEqual({ permissionDecision: "ask", permissionDecisionReason: "touches prod" });
    const allow = formatCopilot(triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" })], { updated_input: { command: "ls -la" } }));
    expect(allow.response).toEqual({ permissionDecision: "allow", modifiedArgs: { command: "ls -la" } });
  });

  it("rewrites arguments with no decision, never on a deny, never on a defer", () => {
    expect(formatCopilot(triggerResult("pre_tool_use", [hookResult("a")], { updated_input: { command: "ls" } })).response).toEqual({ modifiedArgs: { command: "ls" } });
    const denied = formatCopilot(
      triggerResult("pre_tool_use", [hookResult("a", { status: "blocked", decision: "block", reason: "no" })], { blocked: true, blocked_by: "a", reason: "no", updated_input: { command: "ls" } }),
    );
    expect(denied.response).toEqual({ permissionDecision: "deny", permissionDecisionReason: "no" });
    expect(formatCopilot(triggerResult("pre_tool_use", [hookResult("a", { decision: "defer" })], { updated_input: { command: "ls" } })).response).toEqual({});
  });

  it("degrades continue: false on preToolUse to a deny, and on userPromptSubmitted to a block, saying why", () => {
    const stop = { continue: false, stop_reason: "budget spent", stopped_by: "budget" };
    const pre = formatCopilot(triggerResult("pre_tool_use", [hookResult("budget", { continue: false, stop_reason: "budget spent" })], stop)).response;
    expect(pre.permissionDecision).toBe("deny");
    expect(pre.permissionDecisionReason).toContain("budget spent");
    expect(pre.permissionDecisionReason).toContain("Copilot cannot stop the agent");
    const prompt = formatCopilot(triggerResult("user_prompt_submit", [hookResult("budget")], stop)).response;
    expect(prompt).toEqual({ decision: "block", reason: "hookrun: the hooks asked to stop the agent: budget spent (hook budget)" });
  });

  it("gives context as flat additionalContext where Copilot reads it", () => {
    for (const event of ["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "subagent_start"]) {
      const r = formatCopilot(
        triggerResult(event, [
          hookResult("ctx", {
            messages: [
              { role: "system", content: "Use pnpm." },
              { role: "system", content: "hidden", hide: true },
            ],
          }),
        ]),
      );
      expect(r.response, event).toEqual({ additionalContext: "Use pnpm." });
    }
  });

  it("says on stderr what it cannot give the model (context on sessionEnd)", () => {
    const r = copilot.render(triggerResult("session_end", [hookResult("ctx", { messages: [{ role: "system", content: "bye" }] })]));
    expect(JSON.parse(r.stdout)).toEqual({});
    expect(r.stderr).toBe("hookrun: not given to the model (Copilot takes no context on session_end): bye\n");
  });

  it("gives post-tool feedback to the model as additionalContext beside the tool's result, not as a block", () => {
    const r = formatCopilot(
      triggerResult("post_tool_use", [
        hookResult("lint", { messages: [{ role: "system", content: "2 lint errors", kind: "feedback" }] }),
        hookResult("fmt", { messages: [{ role: "system", content: "run prettier", kind: "feedback" }] }),
      ]),
    );
    expect(r.response).toEqual({ additionalContext: "2 lint errors\n\nrun prettier" });
    expect(r.notes).toEqual([]);
  });

  it("answers a native hook's block after the tool ran alike whether it exited 2 or printed a JSON block", async () => {
    const { exit2, json } = await afterToolBlocks("run prettier on a.ts");
    const answer = { stdout: `${JSON.stringify({ additionalContext: "run prettier on a.ts" })}\n`, stderr: "", exitCode: 0 };
    expect(copilot.render(exit2)).toEqual(answer);
    expect(copilot.render(json)).toEqual(answer);
  });

  it("blocks a prompt with decision/reason", () => {
    const r = formatCopilot(
      triggerResult("user_prompt_submit", [hookResult("p", { status: "blocked", decision: "block", reason: "no secrets" })], { blocked: true, blocked_by: "p", reason: "no secrets" }),
    );
    expect(r.response).toEqual({ decision: "block", reason: "no secrets" });
  });

  it("continues the agent on stop with a block or follow-ups (as the reason), and lets it stop on continue: false", () => {
    const blocked = formatCopilot(
      triggerResult(
        "stop",
        [hookResult("todo", { status: "blocked", decision: "block", reason: "TODO.md is not empty", messages: [{ role: "system", content: "also run the tests", kind: "followup" }] })],
        {
          blocked: true,
          blocked_by: "todo",
          reason: "TODO.md is not empty",
        },
      ),
    );
    expect(blocked.response).toEqual({ decision: "block", reason: "TODO.md is not empty\n\nalso run the tests" });
    const follow = formatCopilot(triggerResult("subagent_stop", [hookResult("f", { messages: [{ role: "system", content: "check again", kind: "followup" }] })]));
    expect(follow.response).toEqual({ decision: "block", reason: "check again" });
    const stopped = formatCopilot(
      triggerResult("stop", [hookResult("todo", { status: "blocked", decision: "block", reason: "x", continue: false })], {
        blocked: true,
        blocked_by: "todo",
        reason: "x",
        continue: false,
        stop_reason: "done",
      }),
    );
    expect(stopped.response).toEqual({});
    expect(stopped.notes).toEqual(["the hooks asked to stop the agent: done"]);
  });

  it("reports a native message on stop, failures, notices and what Copilot cannot do on stderr (fail open), never in the answer", () => {
    const r = copilot.render(
      triggerResult(
        "stop",
        [
          hookResult("notes", {
            messages: [
              { role: "system", content: "3 files changed" },
              { role: "system", content: "heads up", kind: "notice" },
            ],
          }),
          hookResult("broken", { status: "failed", exit_code: 1, stderr: "Traceback...\nKeyError: 'x'\n" }),
          hookResult("missing", { status: "spawn_error", exit_code: null, error: "command not found: lintx" }),
        ],
        { updated_input: { a: 1 } },
      ),
    );
    expect(JSON.parse(r.stdout)).toEqual({});
    expect(r.exitCode).toBe(0);
    expect(r.stderr.split("\n")).toEqual([
      "hookrun: not given to the model (Copilot takes no context on stop): 3 files changed",
      "hookrun: heads up",
      "hookrun: hook broken failed: exit 1 (KeyError: 'x')",
      "hookrun: hook missing spawn error: command not found: lintx",
      "hookrun: updated_input on stop is not applied (Copilot rewrites only a pre_tool_use call's arguments)",
      "",
    ]);
  });

  it("tells the model of a failed hook where it has a channel (Copilot shows the user nothing), the call not guarded by it", () => {
    const r = copilot.render(triggerResult("pre_tool_use", [hookResult("guard", { status: "failed", exit_code: 1, stderr: "jq: not found\n" })]));
    expect(JSON.parse(r.stdout)).toEqual({ additionalContext: "hookrun: hook guard failed: exit 1 (jq: not found). Copilot shows the user nothing of this: tell them." });
    expect(r.stderr).toBe("hookrun: hook guard failed: exit 1 (jq: not found)\n");
  });

  it("says when a block lands on an event Copilot cannot block", () => {
    const r = formatCopilot(triggerResult("pre_compact", [hookResult("c", { status: "blocked", decision: "block", reason: "not now" })], { blocked: true, blocked_by: "c", reason: "not now" }));
    expect(r.response).toEqual({});
    expect(r.notes).toEqual(["Copilot cannot block pre_compact; not blocked: not now"]);
  });
});

describe("copilot.notRun", () => {
  it("tells the model on sessionStart and userPromptSubmitted, the user on stderr, and exits 0 (fail open)", () => {
    const r = copilot.notRun("session_start", "hooks.yaml is not trusted", "hooks.yaml is not trusted; tell the user");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ additionalContext: "hookrun: the project's hooks are not running in this session: hooks.yaml is not trusted; tell the user" });
    expect(r.stderr).toBe("hookrun: the project's hooks did not run: hooks.yaml is not trusted\n");
    expect(JSON.parse(copilot.notRun("pre_tool_use", "u", "m").stdout)).toEqual({});
  });
});

describe("copilot.install", () => {
  const cmd = (event: string) => `hooks run ${event} --host copilot`;

  it("writes hookrun's own file under .github/hooks, version 1, camelCase events", () => {
    expect(specOf(copilot)).toMatchObject({
      root: '"$COPILOT_PROJECT_DIR"',
      exec: true,
      projectFile: ".github/hooks/hookrun.json",
      userFile: ".copilot/hooks/hookrun.json",
      hooksPath: ["hooks"],
      skeleton: { version: 1 },
    });
  });

  it("gives one entry per event Copilot fires, timeoutSec covering the event's run, matchers in Copilot's tool names", () => {
    const cfg = config("/p", [
      hook("guard", "pre_tool_use", { matcher: "Bash", timeoutMs: 5_000 }),
      hook("write-guard", "pre_tool_use", { matcher: "Write|Edit", timeoutMs: 20_000 }),
      hook("bg", "pre_tool_use", { matcher: "Bash", async: true, timeoutMs: 600_000 }),
      hook("lint", "post_tool_use", { timeoutMs: 1_500 }),
      hook("todo", "stop"),
      hook("src", "session_start", { matcher: "startup" }),
      hook("perm", "permission_request"),
      hook("gptme", "loop_continue"),
    ]);
    expect(entriesOf(copilot, cfg, cmd)).toEqual({
      sessionStart: [{ type: "command", bash: "hooks run session_start --host copilot", timeoutSec: 20 }],
      preToolUse: [{ type: "command", bash: "hooks run pre_tool_use --host copilot", timeoutSec: 35, matcher: "Bash|Edit|Write|bash|create|edit" }],
      postToolUse: [{ type: "command", bash: "hooks run post_tool_use --host copilot", timeoutSec: 12 }],
      agentStop: [{ type: "command", bash: "hooks run stop --host copilot", timeoutSec: 20 }],
    });
  });

  it("leaves the matcher out (every tool) when one hook has none or a regex, and sums parallel groups by their longest", () => {
    const entry = (...hooks: ReturnType<typeof hook>[]) => entriesOf(copilot, config("/p", hooks), cmd).preToolUse[0].matcher;
    expect(entry(hook("a", "pre_tool_use", { matcher: "Bash" }), hook("b", "pre_tool_use"))).toBeUndefined();
    expect(entry(hook("a", "pre_tool_use", { matcher: "Bash" }), hook("b", "pre_tool_use", { matcher: "mcp__.*" }))).toBeUndefined();
    expect(entry(hook("a", "pre_tool_use", { matcher: "mcp__github__x|Read" }))).toBe("Read|mcp__github__x|view");
    const cfg = config("/p", [hook("a", "session_start", { timeoutMs: 4_000 }), hook("b", "session_start", { timeoutMs: 7_000 })], { session_start: { parallel: true } });
    expect(entriesOf(copilot, cfg, cmd)).toEqual({ sessionStart: [{ type: "command", bash: "hooks run session_start --host copilot", timeoutSec: 17 }] });
  });

  it("Copilot anchors its matcher: the one written selects exactly the named tools", () => {
    const m = entriesOf(copilot, config("/p", [hook("a", "pre_tool_use", { matcher: "Write|Edit" })]), cmd).preToolUse[0].matcher as string;
    const re = new RegExp(`^(?:${m})$`);
    expect(["create", "edit", "Write", "Edit"].every((t) => re.test(t))).toBe(true);
    expect(["bash", "view", "edit_file", "xcreate"].some((t) => re.test(t))).toBe(false);
  });

  it("dispatches through $COPILOT_PROJECT_DIR with exec, so Copilot's timeout kills hookrun itself", () => {
    expect(dispatchCommand("copilot", "stop", { root: copilot.setup!.root, bin: null, exec: copilot.setup!.exec })).toBe(
      'exec "$COPILOT_PROJECT_DIR"/node_modules/.bin/hooks -C "$COPILOT_PROJECT_DIR" run stop --host copilot',
    );
  });
});

describe("copilot.import", () => {
  it("imports flat camelCase entries as `dialect: copilot` hooks: canonical matchers, timeoutSec, cwd, env, a note on powershell", () => {
    const imp = copilot.import!(
      {
        version: 1,
        hooks: {
          preToolUse: [
            { type: "command", bash: "./scripts/guard.sh", powershell: "./scripts/guard.ps1", matcher: "bash|create", cwd: "tools", env: { A: "1" }, timeoutSec: 5, comment: "shell guard" },
          ],
          agentStop: [{ type: "command", command: "npm test", timeout: 120 }],
        },
      },
      [],
    );
    expect(imp.hooks.map((h) => [h.event, h.hostEvent, h.hook])).toEqual([
      [
        "pre_tool_use",
        "preToolUse",
        { name: "guard", description: "shell guard", matcher: "Bash|Write", command: "./scripts/guard.sh", timeout: 5, cwd: "tools", env: { A: "1" }, dialect: "copilot" },
      ],
      ["stop", "agentStop", { name: "npm-test", command: "npm test", timeout: 120, dialect: "copilot" }],
    ]);
    expect(imp.notes.some((n) => n.includes("`powershell` not carried"))).toBe(true);
    // Read by Copilot's rules now: no note says otherwise.
    expect(imp.notes.join("\n")).not.toMatch(/neither Claude's nor hookrun's|dialect: native/);
    // Without timeoutSec, the dialect's default is Copilot's (30 s): nothing is written.
    expect(copilot.import!({ hooks: { sessionStart: [{ bash: "./ctx.sh" }] } }, []).hooks[0].hook).toEqual({ name: "ctx", command: "./ctx.sh", dialect: "copilot" });
  });

  it("marks each hook by its key's casing: PascalCase `copilot-pascal`, camelCase `copilot`, nested groups too", () => {
    const imp = copilot.import!(
      {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] }],
          Stop: [{ bash: "./stop.sh", timeoutSec: 9 }],
          postToolUse: [{ matcher: "edit", hooks: [{ bash: "./fmt.sh" }] }],
        },
      },
      [],
    );
    expect(imp.hooks.map((h) => h.hook)).toEqual([
      { name: "check", matcher: "Bash", command: "./check.sh", dialect: "copilot-pascal" },
      { name: "stop", command: "./stop.sh", timeout: 9, dialect: "copilot-pascal" },
      { name: "fmt", matcher: "Edit", command: "./fmt.sh", dialect: "copilot" },
    ]);
  });

  it("notes or skips what it cannot carry, never silently", () => {
    const imp = copilot.import!(
      {
        version: 2,
        description: "x",
        hooks: {
          preToolUse: [
            { type: "prompt", prompt: "x" },
            { powershell: "x.ps1" },
            { bash: "./a.sh", timeoutSec: -1 },
            { bash: '"$COPILOT_PROJECT_DIR"/node_modules/.bin/hooks -C "$COPILOT_PROJECT_DIR" run pre_tool_use --host copilot' },
            { bash: "./b.sh", matcher: "ba.*", extra: true, comment: 7 },
            "nope",
            { bash: "./c.sh", cwd: 3 },
          ],
          sessionStart: [{ bash: "./ctx.sh", matcher: "startup" }],
          postResult: [{ bash: "./r.sh" }],
          agentStop: "x",
        },
      },
      [{ event: "session_start", name: "ctx", command: "./ctx.sh" }],
    );
    expect(imp.hooks.map((h) => h.hook.name)).toEqual(["b", "r"]);
    expect(imp.hooks[0].hook.matcher).toBe("^(?:ba.*)$");
    const notes = imp.notes.join("\n");
    for (const s of [
      "`version` 2",
      "`description` is not carried",
      "type `prompt`",
      "only a `powershell` command",
      "timeoutSec -1",
      "already hands this event to hookrun",
      "`extra` is not carried",
      "regex matcher `ba.*`",
      "hooks.preToolUse[5]: not an object",
      "`comment` 7 is not text; not carried",
      "hooks.preToolUse[6] (`./c.sh`): not imported: cwd 3 is not a path",
      "is already a session_start hook",
      "no event for Copilot's `postResult`",
      "hooks.agentStop: not a list",
    ])
      expect(notes).toContain(s);
  });

  it("refuses what is not a hooks file", () => {
    expect(() => copilot.import!([], [])).toThrow(TypeError);
    expect(() => copilot.import!({ hooks: [] }, [])).toThrow(TypeError);
    expect(copilot.import!({}, []).notes).toEqual(["the file has no `hooks` object; nothing to import"]);
  });

  it("imports the hooks of an event hookrun has none for under a custom event named after it, in the dialect of the key's spelling", () => {
    const imp = copilot.import!(
      {
        version: 1,
        hooks: {
          notificationSent: [{ type: "command", bash: "./n.sh" }],
          PreToolUse: [{ hooks: [{ type: "command", command: "./g.sh" }] }],
          SomethingNew: [{ hooks: [{ type: "command", command: "./s.sh" }] }],
        },
      },
      [],
    );
    expect(imp.hooks.map((h) => [h.event, h.hook.command, h.hook.dialect])).toEqual([
      ["notification_sent", "./n.sh", "copilot"],
      ["pre_tool_use", "./g.sh", "copilot-pascal"],
      ["something_new", "./s.sh", "copilot-pascal"],
    ]);
    expect(imp.customEvents).toMatchObject({ notification_sent: { custom: true }, something_new: { custom: true } });
    expect(imp.notes).toContain("hooks.notificationSent: hookrun has no event for Copilot's `notificationSent`; its hooks are imported under the custom event `notification_sent`");
  });
});
