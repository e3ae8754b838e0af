import { chmodSync, readdirSync, readFileSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cline, clineHookScripts } from "../src/hosts/cline.js";
import { dispatchCommand } from "../src/hosts/dispatch.js";
import { cannotStartAnswer } from "../src/hosts/runHostEvent.js";
import { buildContext } from "../src/runner/context.js";
import { createRunner } from "../src/runner/createRunner.js";
import { CLAUDE_PAYLOADS, hostFixtures, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { afterToolBlocks, hookResult, triggerResult } from "./helpers/results.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { cliEnv, runMain } from "./helpers/cli.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox();
const FX = hostFixtures("cline");
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe("cline: reading every documented payload", () => {
  const expected: Record<string, [string, string | undefined, unknown, Record<string, unknown>]> = {
    PreToolUse: ["pre_tool_use", "Bash", { command: "rm -rf build", requires_approval: "false" }, {}],
    "PreToolUse-write": ["pre_tool_use", "Write", { path: "src/discount.js", file_path: "src/discount.js", content: "export const d = 0;\n" }, {}],
    "PreToolUse-mcp": ["pre_tool_use", "mcp__db__query", { sql: "DELETE FROM users" }, {}],
    "PreToolUse-tool_call": ["pre_tool_use", "Read", { path: ".env", file_path: ".env" }, { tool_use_id: "call_7" }],
    PostToolUse: [
      "post_tool_use",
      "Edit",
      expect.objectContaining({ file_path: "src/cart.ts" }),
      { tool_response: { result: "The content was successfully saved to src/cart.ts.", success: true, executionTimeMs: 42 } },
    ],
    UserPromptSubmit: ["user_prompt_submit", undefined, undefined, { prompt: "Add a discount field to the cart" }],
    TaskStart: ["session_start", undefined, undefined, { source: "startup" }],
    TaskResume: ["session_start", undefined, undefined, { source: "resume" }],
    TaskCancel: ["session_end", undefined, undefined, { reason: "cancel" }],
    TaskComplete: ["stop", undefined, undefined, { stop_hook_active: false }],
  };
  it("has an expectation for every fixture", () => expect(Object.keys(FX).sort()).toEqual(Object.keys(expected).sort()));
  for (const [name, [event, tool, input, fields]] of Object.entries(expected)) {
    it(`${name} → ${event}${tool ? ` (${tool})` : ""}`, () => {
      const payload = FX[name];
      expect(cline.events[payload.hookName as string]).toBe(event);
      const ctx = cline.read(payload, event);
      expect(ctx).toMatchObject({ session_id: "1764000000000", cwd: "/home/dev/shop" });
      // What the hook receives: the canonical event's declared fields filled in (stop_hook_active on stop).
      expect(buildContext(event, ctx, "/tmp", {})).toMatchObject(fields);
      expect(ctx.tool_name).toBe(tool);
      expect(ctx.tool_input).toEqual(input);
      expect(ctx.host).toMatchObject({ name: "cline", event: payload.hookName, clineVersion: "3.62.0", userId: "user_2x9" });
    });
  }
});

describe("cline: detect", () => {
  it("claims Cline's payloads and nothing else", () => {
    for (const [name, p] of Object.entries(FX)) expect(cline.detect(p), name).toBe(true);
    for (const [name, p] of otherHostsFixtures("cline")) expect(cline.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(cline.detect(p)).toBe(false);
  });
});

describe("cline: render (exit 0 always: Cline blocks on any other exit)", () => {
  const blocked = (event: string, reason: string) => triggerResult(event, [hookResult("g", { status: "blocked", decision: "block", reason })], { blocked: true, blocked_by: "g", reason });
  it("allows with cancel: false and nothing else when nothing was said", () => {
    expect(cline.render(triggerResult("pre_tool_use", [hookResult("a")]))).toEqual({ stdout: '{"cancel":false}\n', stderr: "", exitCode: 0 });
  });
  it("blocks with cancel, the reason as errorMessage (user) and as context (model)", () => {
    expect(json(cline.render(blocked("pre_tool_use", "no rm -rf")).stdout)).toEqual({ cancel: true, errorMessage: "no rm -rf", contextModification: "no rm -rf" });
    expect(json(cline.render(blocked("user_prompt_submit", "no secrets")).stdout)).toMatchObject({ cancel: true, errorMessage: "no secrets" });
  });
  it("turns ask and a rewritten input into blocks that say why", () => {
    expect(json(cline.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })])).stdout).errorMessage).toBe(
      "hookrun: Cline's hooks cannot ask the user, so this is blocked instead: prod",
    );
    const rewrite = json(cline.render(triggerResult("pre_tool_use", [hookResult("a")], { updated_input: { command: "trash build" } })).stdout);
    expect(rewrite).toMatchObject({ cancel: true, errorMessage: 'hookrun: Cline cannot rewrite a tool call, so it is blocked (a hook asked for {"command":"trash build"})' });
    // defer leaves it to Cline, rewrite or not.
    expect(json(cline.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "defer" })], { updated_input: { x: 1 } })).stdout)).toEqual({ cancel: false });
  });
  it("gives context and feedback as contextModification; a stop block becomes context (Cline cannot go on)", () => {
    const ctx = triggerResult("post_tool_use", [
      hookResult("c", {
        messages: [
          { role: "system", content: "Use pnpm." },
          { role: "system", content: "2 lint errors", kind: "feedback" },
        ],
      }),
    ]);
    expect(json(cline.render(ctx).stdout)).toEqual({ cancel: false, contextModification: "Use pnpm.\n\n2 lint errors" });
    expect(json(cline.render(blocked("stop", "TODO left")).stdout)).toEqual({
      cancel: false,
      contextModification: "hookrun: a hook asked the agent to go on, which Cline cannot do once the task is complete: TODO left",
    });
  });
  it("gives a native hook's block after a tool (exit 2 or a JSON block, alike) to the model as feedback, not as a failure", async () => {
    const { exit2, json } = await afterToolBlocks("src/a.ts: 2 errors");
    const answer = { stdout: `${JSON.stringify({ cancel: false, contextModification: "src/a.ts: 2 errors" })}\n`, stderr: "", exitCode: 0 };
    expect(cline.render(exit2)).toEqual(answer);
    expect(cline.render(json)).toEqual(answer);
  });
  it("stops the task with cancel on continue: false; notices and failures go to stderr", () => {
    const r = triggerResult("session_start", [hookResult("b", { continue: false, stop_reason: "budget" }), hookResult("x", { status: "failed", exit_code: 1 })], {
      continue: false,
      stop_reason: "budget",
    });
    const a = cline.render(r);
    expect(json(a.stdout)).toMatchObject({ cancel: true, errorMessage: "hookrun: a hook asked to stop the agent: budget" });
    expect(a.stderr).toBe("hookrun: hook x failed: exit 1\n");
    expect(a.exitCode).toBe(0);
    // TaskComplete: the task is over anyway, nothing is cancelled.
    expect(json(cline.render(triggerResult("stop", [hookResult("b")], { continue: false, stop_reason: "budget" })).stdout)).toEqual({ cancel: false });
  });
  it("notRun: the task goes on, the model is told", () => {
    expect(json(cline.notRun("pre_tool_use", "u", "m").stdout)).toEqual({ cancel: false, contextModification: "hookrun: the project's hooks are not running in this session: m" });
  });
});

describe("cline: real hooks, and the hook file Cline runs", () => {
  it("a `matcher: Bash` guard blocks execute_command and not write_to_file", async () => {
    const runner = createRunner(config(sb.current.dir, [hook("guard", "pre_tool_use", { matcher: "Bash", command: `echo "destructive" >&2; exit 2` })]), {
      runLog: false,
      cwd: sb.current.dir,
      env: sb.current.processEnv,
    });
    try {
      const exec = await runner.trigger("pre_tool_use", cline.read(FX.PreToolUse, "pre_tool_use"));
      expect(json(cline.render(exec).stdout)).toEqual({ cancel: true, errorMessage: "destructive", contextModification: "destructive" });
      const write = await runner.trigger("pre_tool_use", cline.read(FX["PreToolUse-write"], "pre_tool_use"));
      expect(json(cline.render(write).stdout)).toEqual({ cancel: false });
    } finally {
      await runner.close();
    }
  });

  it("clineHookScripts: one executable per Cline hook of the config's events, which runs the dispatch command", () => {
    const cfg = config(sb.current.dir, [hook("a", "pre_tool_use"), hook("b", "session_start"), hook("c", "file_changed")]);
    const scripts = clineHookScripts(cfg, (e) => `echo dispatched ${e}`);
    expect(Object.keys(scripts).sort()).toEqual(["PreToolUse", "TaskResume", "TaskStart"]);
    const file = sb.current.write(".clinerules/hooks/PreToolUse", scripts.PreToolUse);
    chmodSync(file, 0o755);
    const run = spawnSync(file, { input: JSON.stringify(FX.PreToolUse), encoding: "utf8" });
    expect(run.stdout).toBe("dispatched pre_tool_use\n");
    expect(cline.setup?.summary).toBe("one script per hook in `.clinerules/hooks/`");
    expect(cline.setup?.wanted(cfg, (e) => `echo dispatched ${e}`)).toEqual(scripts);
    // hooks import cline reads the folder these scripts live in (test/dialects.cline.test.ts).
    expect(cline.import).toBeDefined();
  });
});

describe("cline: through the CLI", () => {
  const GUARD = "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"destructive\" >&2; exit 2', matcher: Bash, timeout: 5s}\n";

  it("hooks install cline writes the hook file Cline runs (in the workspace root), which dispatches to the project's hookrun and answers in Cline's JSON", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    p.write(".clinerules/rules.md", "# the user's rules\n");
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const install = await runMain(["install"], { cwd: p.dir, env: p.env });
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/\.clinerules\/hooks: created; Cline hands PreToolUse to hookrun/);
    const file = p.path(".clinerules/hooks/PreToolUse");
    expect(statSync(file).mode & 0o777).toBe(0o755);
    // the dispatch answers Cline's not-run JSON itself when hookrun cannot start (a non-zero exit would cancel the call)
    const failOpen = cannotStartAnswer(cline, "pre_tool_use", false);
    expect(readFileSync(file, "utf8")).toBe(clineHookScripts(await p.load(), (e) => dispatchCommand("cline", e, { root: null, bin: null, exec: true, failOpen })).PreToolUse);
    const run = spawnSync(file, { cwd: p.dir, env: cliEnv(p.env), input: JSON.stringify(FX.PreToolUse), encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(json(run.stdout)).toEqual({ cancel: true, errorMessage: "destructive", contextModification: "destructive" });
    expect((await runMain(["install", "cline"], { cwd: p.dir, env: p.env })).stdout).toMatch(/up to date/);

    // hooks.yaml moves to session_start: validate warns, --check fails, install swaps the files.
    p.write("hooks.yaml", "hooks:\n  session_start:\n    - {name: hello, command: echo hi}\n");
    expect((await runMain(["validate"], { cwd: p.dir, env: p.env })).stderr).toMatch(/hookrun's entries are stale for TaskStart, TaskResume, PreToolUse/);
    expect((await runMain(["install", "cline", "--check"], { cwd: p.dir, env: p.env })).code).toBe(1);
    expect((await runMain(["install", "cline"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readdirSync(p.path(".clinerules/hooks")).sort()).toEqual(["TaskResume", "TaskStart"]);

    // The user's own hook file is never overwritten; uninstall removes only hookrun's.
    p.write(".clinerules/hooks/TaskStart", "#!/bin/sh\necho mine\n");
    const refused = await runMain(["install", "cline"], { cwd: p.dir, env: p.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/TaskStart: your own Cline hook, not hookrun's; hookrun will not overwrite it.*nothing was written/);
    expect(readFileSync(p.path(".clinerules/hooks/TaskStart"), "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect((await runMain(["uninstall", "cline"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readdirSync(p.path(".clinerules/hooks"))).toEqual(["TaskStart"]);
    expect(readFileSync(p.path(".clinerules/rules.md"), "utf8")).toBe("# the user's rules\n");
  });

  it("a user's hook file that mentions hookrun (a comment, an echo of its mark) is still the user's: never overwritten, never removed", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const mine = "#!/bin/sh\n# hookrun: docs say hooks.yaml is nicer\necho guard\n";
    const notify = '#!/bin/sh\necho "# hookrun: hands Cline\'s Notification to hooks.yaml"\n';
    p.write(".clinerules/hooks/PreToolUse", mine);
    p.write(".clinerules/hooks/Notification", notify);
    const refused = await runMain(["install", "cline"], { cwd: p.dir, env: p.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/PreToolUse: your own Cline hook, not hookrun's/);
    expect(readFileSync(p.path(".clinerules/hooks/PreToolUse"), "utf8")).toBe(mine);
    // a script shaped as hookrun's but running anything else is not hookrun's either
    p.write(".clinerules/hooks/PreToolUse", "#!/bin/sh\n# hookrun: hands Cline's PreToolUse to hooks.yaml\ncurl x | sh\n");
    expect((await runMain(["install", "cline"], { cwd: p.dir, env: p.env })).code).toBe(1);
    // uninstall removes none of them
    expect((await runMain(["uninstall", "cline"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readdirSync(p.path(".clinerules/hooks")).sort()).toEqual(["Notification", "PreToolUse"]);
    expect(readFileSync(p.path(".clinerules/hooks/Notification"), "utf8")).toBe(notify);
  });

  it("`hooks run --host auto` answers Cline's payload; untrusted hooks let the task go on and tell the model", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["--trust", "run", "PreToolUse"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.PreToolUse) });
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toMatchObject({ cancel: true });
    const untrusted = await runMain(["run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.PreToolUse) });
    expect(untrusted.code).toBe(0);
    expect(json(untrusted.stdout)).toMatchObject({ cancel: false, contextModification: expect.stringMatching(/not running in this session/) });
  });
});
