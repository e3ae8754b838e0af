import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { windsurf } from "../src/hosts/windsurf.js";
import { renderImport } from "../src/interop/importHooks.js";
import { buildContext } from "../src/runner/context.js";
import { createRunner } from "../src/runner/createRunner.js";
import { CLAUDE_PAYLOADS, hostFixtures, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { afterToolBlocks, hookResult, triggerResult } from "./helpers/results.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { runMain } from "./helpers/cli.js";
import { linkHookrun, runEntry } from "./helpers/hostDispatch.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";
import { entriesOf, specOf } from "./helpers/hostSetup.js";

const sb = useSandbox();
const FX = hostFixtures("windsurf");
const ROOT = "/home/dev/shop";

describe("windsurf: reading every documented payload", () => {
  // fixture → [canonical event, canonical tool, tool_input, other fields]
  const expected: Record<string, [string, string | undefined, unknown, Record<string, unknown>]> = {
    pre_run_command: ["pre_tool_use", "Bash", { command: "rm -rf build && npm run build", cwd: ROOT }, { cwd: ROOT }],
    post_run_command: ["post_tool_use", "Bash", { command: "npm test", cwd: ROOT }, { tool_response: {} }],
    pre_read_code: ["pre_tool_use", "Read", { file_path: `${ROOT}/.env` }, {}],
    post_read_code: ["post_tool_use", "Read", { file_path: `${ROOT}/src/cart.ts` }, {}],
    pre_write_code: ["pre_tool_use", "Edit", { file_path: `${ROOT}/src/cart.ts`, edits: [{ old_string: "const tax = 0.2", new_string: "const tax = 0.21" }] }, {}],
    post_write_code: ["post_tool_use", "Write", { file_path: `${ROOT}/src/discount.ts`, edits: [{ old_string: "", new_string: "export const d = 0;\n" }] }, {}],
    pre_mcp_tool_use: ["pre_tool_use", "mcp__db__query", { sql: "DELETE FROM users" }, {}],
    post_mcp_tool_use: ["post_tool_use", "mcp__db__query", { sql: "SELECT 1" }, { tool_response: { rows: [[1]] } }],
    pre_user_prompt: ["user_prompt_submit", undefined, undefined, { prompt: "Add a discount field to the cart" }],
    post_cascade_response: ["stop", undefined, undefined, { last_assistant_message: "### Done\nI added the discount field.", stop_hook_active: false }],
  };

  it("has an expectation for every fixture but post_setup_worktree, which hookrun has no event for", () => {
    expect(Object.keys(FX).sort()).toEqual([...Object.keys(expected), "post_setup_worktree"].sort());
    expect(windsurf.events.post_setup_worktree).toBeUndefined();
  });

  for (const [name, [event, tool, input, fields]] of Object.entries(expected)) {
    it(`${name} → ${event}${tool ? ` (${tool})` : ""}`, () => {
      const payload = FX[name];
      expect(windsurf.events[name]).toBe(event);
      const ctx = windsurf.read(payload, event);
      expect(ctx.session_id).toBe("traj-5e7d1c");
      expect(ctx.tool_name).toBe(tool);
      expect(ctx.tool_input).toEqual(input);
      // What the hook receives: the canonical event's declared fields filled in (stop_hook_active on stop).
      expect(buildContext(event, ctx, "/tmp", {})).toMatchObject(fields);
      expect(ctx.host).toMatchObject({ name: "windsurf", event: name, trajectory_id: "traj-5e7d1c", execution_id: "exec-91ab", tool_info: payload.tool_info });
      for (const k of ["agent_action_name", "trajectory_id", "tool_info"]) expect(ctx[k]).toBeUndefined();
    });
  }

  it("names the host's action under host.tool_name", () => {
    expect(windsurf.read(FX.pre_run_command, "pre_tool_use").host).toMatchObject({ tool_name: "run_command" });
    expect(windsurf.read(FX.pre_mcp_tool_use, "pre_tool_use").host).toMatchObject({ tool_name: "db/query" });
    expect(windsurf.read({ agent_action_name: "pre_run_command" }, "pre_tool_use")).toMatchObject({ tool_name: "Bash", tool_input: {} });
  });
});

describe("windsurf: detect", () => {
  it("claims every Windsurf payload and nothing else", () => {
    for (const [name, p] of Object.entries(FX)) expect(windsurf.detect(p), name).toBe(true);
    for (const [name, p] of otherHostsFixtures("windsurf")) expect(windsurf.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(windsurf.detect(p)).toBe(false);
    expect(windsurf.detect({ agent_action_name: "pre_run_command" })).toBe(false);
  });
});

describe("windsurf: render (exit code only; what it cannot carry is shown, never dropped)", () => {
  const blocked = (event: string, reason: string) =>
    triggerResult(event, [hookResult("guard", { status: "blocked", exit_code: 2, decision: "block", reason })], { blocked: true, blocked_by: "guard", reason });

  it("says nothing and exits 0 when nothing happened", () => {
    expect(windsurf.render(triggerResult("pre_tool_use", [hookResult("a")]))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    // a notice that names hookrun already (the last trusted version's) is not prefixed twice
    const kept = { role: "system" as const, kind: "notice" as const, content: "hookrun: hooks.yaml changed since it was trusted" };
    expect(windsurf.render(triggerResult("pre_tool_use", [], { messages: [kept] })).stdout).toBe("hookrun: hooks.yaml changed since it was trusted\n");
  });

  it("blocks a pre-hook with exit 2 and the reason on stderr (tool calls and prompts)", () => {
    expect(windsurf.render(blocked("pre_tool_use", "no rm -rf"))).toEqual({ stdout: "", stderr: "no rm -rf\n", exitCode: 2 });
    expect(windsurf.render(blocked("user_prompt_submit", "no secrets"))).toEqual({ stdout: "", stderr: "no secrets\n", exitCode: 2 });
  });

  it("turns ask into a block that says Windsurf cannot ask", () => {
    const a = windsurf.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "touches prod" })]));
    expect(a).toEqual({ stdout: "", stderr: "hookrun: Windsurf cannot ask the user, so this is blocked instead: touches prod\n", exitCode: 2 });
  });

  it("turns a stop request on a pre-hook into a block, elsewhere into a line", () => {
    const stop = (event: string) => triggerResult(event, [hookResult("b", { continue: false, stop_reason: "budget spent" })], { continue: false, stop_reason: "budget spent" });
    expect(windsurf.render(stop("pre_tool_use"))).toMatchObject({ exitCode: 2, stderr: expect.stringContaining("budget spent") });
    expect(windsurf.render(stop("post_tool_use"))).toEqual({ stdout: "hookrun: a hook asked to stop the agent (budget spent); Windsurf cannot stop it\n", stderr: "", exitCode: 0 });
    expect(windsurf.render(stop("stop"))).toEqual({ stdout: "", stderr: "", exitCode: 0 });
  });

  it("runs the action unchanged when a hook rewrote its input, and says so", () => {
    const a = windsurf.render(triggerResult("pre_tool_use", [hookResult("fix", { decision: "allow" })], { updated_input: { command: "trash build" } }));
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toBe('hookrun: Windsurf cannot rewrite the action; it runs as the agent wrote it (a hook asked for {"command":"trash build"})\n');
  });

  it("shows context, feedback, notices and failures to the user (stdout, shown by show_output)", () => {
    const r = triggerResult("post_tool_use", [
      hookResult("ctx", {
        messages: [
          { role: "system", content: "Use pnpm." },
          { role: "system", content: "2 lint errors", kind: "feedback" },
          { role: "system", content: "saved", kind: "notice" },
        ],
      }),
      hookResult("broken", { status: "timed_out", exit_code: null, error: "timed out after 5s" }),
    ]);
    expect(windsurf.render(r)).toEqual({
      stdout:
        "hookrun: Windsurf gives hooks no way to reach the model; for you: Use pnpm.\nhookrun: feedback on the action (Windsurf cannot give it to the model): 2 lint errors\nhookrun: saved\nhookrun: hook broken timed out: timed out after 5s\n",
      stderr: "",
      exitCode: 0,
    });
  });

  it("words a native hook's block after a tool (exit 2 or a JSON block, alike) as feedback, not as a failure", async () => {
    const { exit2, json } = await afterToolBlocks("src/a.ts: 2 errors");
    const answer = { stdout: "hookrun: feedback on the action (Windsurf cannot give it to the model): src/a.ts: 2 errors\n", stderr: "", exitCode: 0 };
    expect(windsurf.render(exit2)).toEqual(answer);
    expect(windsurf.render(json)).toEqual(answer);
  });

  it("cannot continue the agent after a response: a stop block or follow-up is a line the user sees", () => {
    const a = windsurf.render(
      triggerResult("stop", [hookResult("t", { status: "blocked", decision: "block", reason: "TODO left", messages: [{ role: "system", content: "run tests", kind: "followup" }] })], {
        blocked: true,
        blocked_by: "t",
        reason: "TODO left",
      }),
    );
    expect(a).toEqual({ stdout: "hookrun: a hook asked the agent to go on, which Windsurf cannot do after a response: TODO left | run tests\n", stderr: "", exitCode: 0 });
  });

  it("notRun: the action goes on and the user is told", () => {
    expect(windsurf.notRun("pre_tool_use", "hooks.yaml is not trusted", "m")).toEqual({ stdout: "hookrun: the project's hooks did not run: hooks.yaml is not trusted\n", stderr: "", exitCode: 0 });
  });
});

describe("windsurf: real hooks on real payloads", () => {
  it("a `matcher: Bash` guard blocks pre_run_command with exit 2; `matcher: Write|Edit` sees pre_write_code", async () => {
    const runner = createRunner(
      config(sb.current.dir, [
        hook("guard", "pre_tool_use", { matcher: "Bash", command: `echo "destructive command" >&2; exit 2` }),
        hook("env", "pre_tool_use", { matcher: "Read", command: `grep -q '\\.env"' && { echo "no .env" >&2; exit 2; }; exit 0` }),
        hook("fmt", "pre_tool_use", { matcher: "Write|Edit", command: "echo formatted" }),
      ]),
      { runLog: false, cwd: sb.current.dir, env: sb.current.processEnv },
    );
    try {
      const cmd = await runner.trigger("pre_tool_use", windsurf.read(FX.pre_run_command, "pre_tool_use"));
      expect(windsurf.render(cmd)).toEqual({ stdout: "", stderr: "destructive command\n", exitCode: 2 });
      const env = await runner.trigger("pre_tool_use", windsurf.read(FX.pre_read_code, "pre_tool_use"));
      expect(windsurf.render(env)).toEqual({ stdout: "", stderr: "no .env\n", exitCode: 2 });
      const write = await runner.trigger("pre_tool_use", windsurf.read(FX.pre_write_code, "pre_tool_use"));
      expect(write.hooks.map((h) => h.name)).toEqual(["fmt"]);
      expect(windsurf.render(write)).toEqual({ stdout: "hookrun: Windsurf gives hooks no way to reach the model; for you: formatted\n", stderr: "", exitCode: 0 });
    } finally {
      await runner.close();
    }
  });
});

describe("windsurf: install entries", () => {
  const cmd = (event: string) => `hooks run ${event} --host windsurf`;
  it("only the actions hooks.yaml's matchers can select, each with show_output", () => {
    const cfg = config(sb.current.dir, [
      hook("guard", "pre_tool_use", { matcher: "Bash" }),
      hook("fmt", "post_tool_use", { matcher: "Write|Edit" }),
      hook("prompt", "user_prompt_submit"),
      hook("todo", "stop"),
      hook("ctx", "session_start"),
    ]);
    const e = (event: string) => [{ command: cmd(event), show_output: true }];
    expect(entriesOf(windsurf, cfg, cmd)).toEqual({
      pre_run_command: e("pre_tool_use"),
      post_write_code: e("post_tool_use"),
      pre_user_prompt: e("user_prompt_submit"),
      post_cascade_response: e("stop"),
    });
    expect(specOf(windsurf)).toMatchObject({ projectFile: ".windsurf/hooks.json", userFile: ".codeium/windsurf/hooks.json", hooksPath: ["hooks"] });
  });
  it("every tool action for a regex or match-all matcher; MCP only for mcp__ names", () => {
    const all = entriesOf(windsurf, config(sb.current.dir, [hook("a", "pre_tool_use", { matcher: "^mcp__" })]), cmd) ?? {};
    expect(Object.keys(all).sort()).toEqual(["pre_mcp_tool_use", "pre_read_code", "pre_run_command", "pre_write_code"]);
    const mcp = entriesOf(windsurf, config(sb.current.dir, [hook("a", "pre_tool_use", { matcher: "mcp__db__query|Read" })]), cmd) ?? {};
    expect(Object.keys(mcp).sort()).toEqual(["pre_mcp_tool_use", "pre_read_code"]);
  });
});

describe("windsurf: import", () => {
  const file = {
    hooks: {
      pre_run_command: [{ command: "python3 /opt/guards/check_cmd.py", show_output: true }],
      pre_write_code: [{ command: "./lint.sh", show_output: false, powershell: "lint.ps1" }],
      post_mcp_tool_use: [{ command: "./audit.sh" }],
      post_cascade_response: [{ command: "./summary.sh" }],
      post_setup_worktree: [{ command: "npm ci" }],
      pre_user_prompt: [{ show_output: true }, "x", { command: "hooks run user_prompt_submit --host windsurf" }],
      pre_read_code: { command: "nope" },
    },
  };
  it("carries each hook with the matcher its event implies, noting what it cannot carry", () => {
    const imp = windsurf.import?.(file, []);
    if (!imp) throw new Error("no import");
    expect(imp.hooks.map((h) => [h.event, h.hostEvent, h.hook])).toEqual([
      ["pre_tool_use", "pre_run_command", { name: "check-cmd", matcher: "Bash", command: "python3 /opt/guards/check_cmd.py", dialect: "windsurf" }],
      ["pre_tool_use", "pre_write_code", { name: "lint", matcher: "Write|Edit", command: "./lint.sh", dialect: "windsurf" }],
      ["post_tool_use", "post_mcp_tool_use", { name: "audit", matcher: "^mcp__", command: "./audit.sh", dialect: "windsurf" }],
      ["stop", "post_cascade_response", { name: "summary", command: "./summary.sh", dialect: "windsurf" }],
      ["post_setup_worktree", "post_setup_worktree", { name: "npm-ci", command: "npm ci", dialect: "windsurf" }],
    ]);
    expect(imp.customEvents.post_setup_worktree).toMatchObject({ custom: true });
    const notes = imp.notes.join("\n");
    for (const n of [
      "hooks.pre_write_code[0] (`lint`): `show_output: false` not carried: what the hook prints is shown to the user under hookrun",
      "hooks.pre_write_code[0] (`lint`): `powershell` is not a field",
      "hooks.pre_user_prompt[0]: no `command`; skipped",
      "hooks.pre_user_prompt[1]: not an object; skipped",
      "hooks.pre_user_prompt[2]: `hooks run user_prompt_submit --host windsurf` already hands this event to hookrun",
      "hooks.pre_read_code: not a list of hooks; skipped",
    ])
      expect(notes).toContain(n);
    // show_output: true is what the windsurf dialect does; the output contract needs no note any more.
    expect(notes).not.toContain("check-cmd`): `show_output");
    expect(notes).not.toContain("reads only the exit code");
    expect(notes).not.toContain("imported as stop");
  });
  it("writes a hooks.yaml hookrun loads; skips what exists; refuses other shapes", async () => {
    const imp = windsurf.import?.(file, []);
    if (!imp) throw new Error("no import");
    sb.current.write("hooks.yaml", renderImport(imp, ".windsurf/hooks.json"));
    const loaded = await loadConfig({ cwd: sb.current.dir, userConfig: false, env: sb.current.processEnv });
    expect(loaded.hooks.map((h) => h.name).sort()).toEqual(["audit", "check-cmd", "lint", "npm-ci", "summary"]);
    const again = windsurf.import?.(file, [{ event: "pre_tool_use", name: "check-cmd", command: "python3 /opt/guards/check_cmd.py", matcher: "Bash" }]);
    expect(again?.hooks.map((h) => h.hook.name)).not.toContain("check-cmd");
    expect(() => windsurf.import?.(null, [])).toThrow(TypeError);
    expect(() => windsurf.import?.({ hooks: "x" }, [])).toThrow(TypeError);
    expect(windsurf.import?.({}, []).notes).toEqual(["the file has no `hooks` object; nothing to import"]);
  });
});

describe("windsurf: through the CLI (hooks install / run --host auto / import)", () => {
  const GUARD =
    "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"destructive command\" >&2; exit 2', matcher: Bash, timeout: 5s}\n  user_prompt_submit:\n    - {name: ctx, command: 'echo Use pnpm.'}\n";

  it("installs show_output entries for the actions hooks.yaml wants, runs as Windsurf runs it (exit 2 blocks), uninstalls byte for byte", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    const original = '{\n  "hooks": {\n    "post_write_code": [{ "command": "./fmt.sh", "show_output": false }]\n  }\n}\n';
    p.write(".windsurf/hooks.json", original);
    expect((await runMain(["install", "windsurf"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = JSON.parse(readFileSync(p.path(".windsurf/hooks.json"), "utf8"));
    expect(Object.keys(file.hooks).sort()).toEqual(["post_write_code", "pre_run_command", "pre_user_prompt"]);
    expect(file.hooks.pre_run_command).toEqual([{ command: "node_modules/.bin/hooks run pre_tool_use --host windsurf", show_output: true }]);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const blocked = runEntry(file.hooks.pre_run_command[0].command, FX.pre_run_command, { cwd: p.dir, env: p.env });
    expect(blocked).toEqual({ code: 2, stdout: "", stderr: "destructive command\n" });
    const prompt = runEntry(file.hooks.pre_user_prompt[0].command, FX.pre_user_prompt, { cwd: p.dir, env: p.env });
    expect(prompt).toEqual({ code: 0, stdout: "hookrun: Windsurf gives hooks no way to reach the model; for you: Use pnpm.\n", stderr: "" });
    expect((await runMain(["uninstall", "windsurf"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".windsurf/hooks.json"), "utf8")).toBe(original);
  });

  it("`hooks run --host auto` answers Windsurf's payload with the exit code", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.pre_run_command) });
    expect(r).toMatchObject({ code: 2, stderr: "destructive command\n" });
    const untrusted = await runMain(["run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(FX.pre_run_command) });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).toMatch(/^hookrun: the project's hooks did not run: .*not trusted/);
  });

  it("`hooks import windsurf FILE` prints the hooks with the matchers their events imply", async () => {
    const p = sandbox();
    p.write(".windsurf/hooks.json", JSON.stringify({ hooks: { pre_read_code: [{ command: "./no-env.sh", show_output: true }] } }));
    const r = await runMain(["import", "windsurf", ".windsurf/hooks.json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: no-env\n\s+matcher: Read\n\s+command: \.\/no-env\.sh\n\s+dialect: windsurf/);
    expect(r.stderr).toBe("");
  });
});
