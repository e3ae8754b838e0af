import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { renderClaude } from "../src/hosts/claude.js";
import { droid } from "../src/hosts/droid.js";
import { renderImport } from "../src/interop/importHooks.js";
import { createRunner } from "../src/runner/createRunner.js";
import { CLAUDE_PAYLOADS, hostFixtures, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { runMain } from "./helpers/cli.js";
import { linkHookrun, runEntry } from "./helpers/hostDispatch.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";
import { entriesOf, specOf } from "./helpers/hostSetup.js";

const sb = useSandbox();
const FX = hostFixtures("droid");
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe("droid: reading every documented payload", () => {
  const expected: Record<string, [string, string | undefined, string | undefined]> = {
    "PreToolUse-Execute": ["pre_tool_use", "Bash", "Execute"],
    "PreToolUse-Create": ["pre_tool_use", "Write", "Create"],
    "PostToolUse-Edit": ["post_tool_use", "Edit", "Edit"],
    UserPromptSubmit: ["user_prompt_submit", undefined, undefined],
    SessionStart: ["session_start", undefined, undefined],
    SessionEnd: ["session_end", undefined, undefined],
    Stop: ["stop", undefined, undefined],
    SubagentStop: ["subagent_stop", undefined, undefined],
    Notification: ["notification", undefined, undefined],
    PreCompact: ["pre_compact", undefined, undefined],
  };

  it("has an expectation for every fixture, and Droid's nine events", () => {
    expect(Object.keys(FX).sort()).toEqual(Object.keys(expected).sort());
    expect(Object.keys(droid.events)).toHaveLength(9);
  });

  for (const [name, [event, tool, hostTool]] of Object.entries(expected)) {
    it(`${name} → ${event}${tool ? ` (${tool})` : ""}`, () => {
      const payload = FX[name];
      expect(droid.events[payload.hook_event_name as string]).toBe(event);
      const ctx = droid.read(payload, event);
      expect(ctx.tool_name).toBe(tool);
      expect(ctx.host).toEqual({ name: "droid", event: payload.hook_event_name, ...(hostTool && { tool_name: hostTool }) });
      // Every other field is Claude's and passes unchanged.
      const { hook_event_name, tool_name, ...rest } = payload;
      expect(ctx).toMatchObject(rest);
      expect(ctx.hook_event_name).toBeUndefined();
    });
  }

  it("keeps the Execute command where Claude's Bash has it", () => {
    expect(droid.read(FX["PreToolUse-Execute"], "pre_tool_use").tool_input).toEqual({ command: "rm -rf build" });
    expect(droid.read({ tool_name: "FetchUrl" }, "PreToolUse")).toMatchObject({ tool_name: "WebFetch", host: { event: "PreToolUse", tool_name: "FetchUrl" } });
  });
});

describe("droid: detect", () => {
  it("claims Droid's payloads (by a Droid-only tool name or its ~/.factory transcript)", () => {
    for (const [name, p] of Object.entries(FX)) expect(droid.detect(p), name).toBe(true);
  });
  it("claims no other host's payload and no Claude Code payload (same shape, Claude's tool names and transcript)", () => {
    for (const [name, p] of otherHostsFixtures("droid")) expect(droid.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(droid.detect(p)).toBe(false);
    expect(droid.detect({ hook_event_name: "PreToolUse", tool_name: "Execute" })).toBe(false);
  });
});

describe("droid: render (Claude's contract)", () => {
  const cases = [
    triggerResult("pre_tool_use", [hookResult("g", { status: "blocked", exit_code: 2, decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "g", reason: "no rm" }),
    triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })], { updated_input: { command: "ls" } }),
    triggerResult("user_prompt_submit", [hookResult("c", { messages: [{ role: "system", content: "Use pnpm." }] })]),
    triggerResult("post_tool_use", [hookResult("l", { messages: [{ role: "system", content: "2 lint errors", kind: "feedback" }] })]),
    triggerResult("stop", [hookResult("t", { status: "blocked", decision: "block", reason: "TODO left" })], { blocked: true, blocked_by: "t", reason: "TODO left" }),
    triggerResult("session_end", [hookResult("b", { status: "failed", exit_code: 1, stderr: "boom\n" })]),
  ];
  it("answers every decision exactly as Claude Code's render does", () => {
    for (const r of cases) expect(droid.render(r)).toEqual(renderClaude(r));
  });
  it("denies with Claude's PreToolUse JSON and continues a stop with decision block", () => {
    expect(json(droid.render(cases[0]).stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" } });
    expect(json(droid.render(cases[4]).stdout)).toMatchObject({ decision: "block", reason: "TODO left" });
  });
  it("notRun: systemMessage for the user; context for the model at session start and prompt", () => {
    expect(json(droid.notRun("pre_tool_use", "u", "m").stdout)).toEqual({ systemMessage: "hookrun: the project's hooks did not run: u" });
    expect(json(droid.notRun("session_start", "u", "m").stdout)).toEqual({
      systemMessage: "hookrun: the project's hooks did not run: u",
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hookrun: the project's hooks are not running in this session: m" },
    });
  });
});

describe("droid: real hooks on real payloads", () => {
  it("a `matcher: Bash` guard blocks Droid's Execute; a `matcher: Write` hook sees Create", async () => {
    const runner = createRunner(
      config(sb.current.dir, [
        hook("guard", "pre_tool_use", { matcher: "Bash", command: `echo "no rm in this repo" >&2; exit 2` }),
        hook("newfile", "pre_tool_use", { matcher: "Write", command: `echo '{"decision":"block","reason":"new files need review"}'` }),
      ]),
      { runLog: false, cwd: sb.current.dir, env: sb.current.processEnv },
    );
    try {
      const exec = await runner.trigger("pre_tool_use", droid.read(FX["PreToolUse-Execute"], "pre_tool_use"));
      expect(exec.hooks.map((h) => h.name)).toEqual(["guard"]);
      expect(json(droid.render(exec).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "no rm in this repo" } });
      const create = await runner.trigger("pre_tool_use", droid.read(FX["PreToolUse-Create"], "pre_tool_use"));
      expect(create.hooks.map((h) => h.name)).toEqual(["newfile"]);
      expect(json(droid.render(create).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "new files need review" } });
    } finally {
      await runner.close();
    }
  });
});

describe("droid: install entries (the hooks key of .factory/settings.json)", () => {
  const cmd = (event: string) => `hooks run ${event} --host droid`;
  it("one Claude-shaped group per Droid event, matchers in Droid's tool names, seconds covering the run", () => {
    const cfg = config(sb.current.dir, [
      hook("guard", "pre_tool_use", { matcher: "Bash|Write", timeoutMs: 5_000 }),
      hook("fmt", "post_tool_use", { matcher: "Edit", timeoutMs: 30_000 }),
      hook("ctx", "session_start", { timeoutMs: 1_000 }),
      hook("todo", "stop"),
      hook("fail", "post_tool_use_failure"),
      hook("perm", "permission_request"),
    ]);
    expect(entriesOf(droid, cfg, cmd)).toEqual({
      PreToolUse: [{ matcher: "Bash|Execute|Write|Create", hooks: [{ type: "command", command: "hooks run pre_tool_use --host droid", timeout: 15 }] }],
      PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "hooks run post_tool_use --host droid", timeout: 40 }] }],
      SessionStart: [{ hooks: [{ type: "command", command: "hooks run session_start --host droid", timeout: 11 }] }],
      Stop: [{ hooks: [{ type: "command", command: "hooks run stop --host droid", timeout: 20 }] }],
    });
    expect(specOf(droid)).toMatchObject({ projectFile: ".factory/settings.json", userFile: ".factory/settings.json", hooksPath: ["hooks"] });
    expect(specOf(droid).skeleton).toBeUndefined();
  });
  it("leaves the matcher out when a hook can select any tool", () => {
    const cfg = config(sb.current.dir, [hook("a", "pre_tool_use", { matcher: "Bash" }), hook("b", "pre_tool_use", { matcher: "*" })]);
    expect(entriesOf(droid, cfg, cmd).PreToolUse[0].matcher).toBeUndefined();
  });
});

describe("droid: import", () => {
  const settings = {
    model: "claude-opus",
    hooks: {
      PreToolUse: [
        { matcher: "Execute", hooks: [{ type: "command", command: '"$FACTORY_PROJECT_DIR"/.factory/hooks/guard.sh', timeout: 10 }] },
        { matcher: "Edit|Create", hooks: [{ type: "command", command: "npx prettier --check" }] },
        { matcher: "Exec.*", hooks: [{ type: "command", command: "./audit.sh" }] },
      ],
      Stop: [{ hooks: [{ type: "command", command: "./verify.sh", onFailure: "block" }] }],
      PermissionRequest: [{ hooks: [{ type: "command", command: "./perm.sh" }] }],
    },
  };

  it("maps Droid's tool names in matchers, carries Claude's fields and marks the dialect", () => {
    const imp = droid.import?.(settings, []);
    if (!imp) throw new Error("no import");
    expect(imp.hooks.map((h) => [h.event, h.hook])).toEqual([
      ["pre_tool_use", { name: "guard", matcher: "Bash", command: '"$FACTORY_PROJECT_DIR"/.factory/hooks/guard.sh', timeout: 10, dialect: "droid" }],
      ["pre_tool_use", { name: "prettier", matcher: "Edit|Write", command: "npx prettier --check", dialect: "droid" }],
      ["pre_tool_use", { name: "audit", matcher: "Exec.*", command: "./audit.sh", dialect: "droid" }],
      ["stop", { name: "verify", command: "./verify.sh", dialect: "droid" }],
      ["permission_request", { name: "perm", command: "./perm.sh", dialect: "droid" }],
    ]);
    const notes = imp.notes.join("\n");
    expect(notes).toContain("uses $FACTORY_PROJECT_DIR in its command line; hookrun sets it to the project's directory for droid-dialect hooks under every host");
    expect(notes).toContain("matcher `Exec.*` is a regex over Droid's tool names");
    expect(notes).toContain("`onFailure: block` not carried: Droid ignores it on stop");
    expect(notes).toContain("Droid does not fire PermissionRequest");
    expect(notes).not.toContain("Claude Code");
  });

  it("reads a standalone hooks.json (events at the top level) too, and writes a hooks.yaml hookrun loads", async () => {
    const imp = droid.import?.(settings.hooks, []);
    if (!imp) throw new Error("no import");
    expect(imp.notes[0]).toBe("read as a standalone hooks.json (events at the top level)");
    expect(imp.hooks).toHaveLength(5);
    sb.current.write("hooks.yaml", renderImport(imp, ".factory/hooks.json"));
    const loaded = await loadConfig({ cwd: sb.current.dir, userConfig: false, env: sb.current.processEnv });
    expect(loaded.hooks.find((h) => h.name === "guard")).toMatchObject({ matcher: "Bash", dialect: "droid", timeoutMs: 10_000 });
  });

  it("skips what exists, and refuses what is not Droid's shape", () => {
    const again = droid.import?.(settings, [{ event: "pre_tool_use", name: "guard", command: '"$FACTORY_PROJECT_DIR"/.factory/hooks/guard.sh', matcher: "Bash" }]);
    expect(again?.hooks.map((h) => h.hook.name)).not.toContain("guard");
    expect(() => droid.import?.("x", [])).toThrow(TypeError);
    expect(droid.import?.({ model: "m" }, []).notes).toEqual(["the file has no `hooks` object and names no Droid event; nothing to import"]);
    expect(() => droid.import?.({ hooks: [] }, [])).toThrow(TypeError);
  });

  it("names a key of the file that is no event (Droid ignores it) in a note, and imports the rest", () => {
    const group = [{ matcher: "Execute", hooks: [{ type: "command", command: "./guard.sh" }] }];
    for (const [file, at] of [
      [{ PreToolUse: group, $schema: "https://example.com/s.json", version: 1 }, ""],
      [{ hooks: { PreToolUse: group, _comment: "team guards" } }, "hooks."],
    ] as const) {
      const imp = droid.import?.(file, []);
      expect(imp?.hooks.map((h) => [h.event, h.hook.name, h.hook.dialect])).toEqual([["pre_tool_use", "guard", "droid"]]);
      expect(imp?.customEvents).toEqual({});
      for (const key of Object.keys("hooks" in file ? file.hooks : file).filter((k) => k !== "PreToolUse"))
        expect(imp?.notes).toContain(`${at}${key}: not an event of Droid (Droid ignores it); not imported`);
    }
  });
});

describe("droid: through the CLI (hooks install / run --host auto / import)", () => {
  const GUARD = "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"no rm in this repo\" >&2; exit 2', matcher: Bash, timeout: 5s}\n";

  it("installs into the hooks key of .factory/settings.json, runs as Droid runs it (from another cwd, FACTORY_PROJECT_DIR set), uninstalls byte for byte", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    const original = '{\n  "model": "claude-opus-4-5",\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "./notify.sh" }] }]\n  }\n}\n';
    p.write(".factory/settings.json", original);
    expect((await runMain(["install", "droid"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = JSON.parse(readFileSync(p.path(".factory/settings.json"), "utf8"));
    expect(file.model).toBe("claude-opus-4-5");
    expect(file.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "./notify.sh" }] }]);
    const group = file.hooks.PreToolUse[0];
    expect(group.matcher).toBe("Bash|Execute");
    const command = group.hooks[0].command;
    expect(command).toBe('"$FACTORY_PROJECT_DIR"/node_modules/.bin/hooks -C "$FACTORY_PROJECT_DIR" run pre_tool_use --host droid');
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    // Droid's cwd may have moved (a subfolder); the project dir comes from FACTORY_PROJECT_DIR.
    p.write("src/.keep", "");
    const r = runEntry(command, FX["PreToolUse-Execute"], { cwd: p.path("src"), env: { ...p.env, FACTORY_PROJECT_DIR: p.dir } });
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm in this repo" } });
    expect((await runMain(["uninstall", "droid"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".factory/settings.json"), "utf8")).toBe(original);
  });

  it("`hooks run --host auto` tells Droid's payload from Claude's", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX["PreToolUse-Execute"]) });
    expect(json(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
  });

  it("`hooks import droid FILE` reads settings.json and marks the hooks droid-dialect", async () => {
    const p = sandbox();
    p.write(".factory/settings.json", JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Execute", hooks: [{ type: "command", command: "./guard.sh", timeout: 5 }] }] } }));
    const r = await runMain(["import", "droid", ".factory/settings.json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: guard\n\s+matcher: Bash\n\s+command: \.\/guard\.sh\n\s+timeout: 5\n\s+dialect: droid/);
  });
});
