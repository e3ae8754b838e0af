import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { crush } from "../src/hosts/crush.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { runMain } from "./helpers/cli.js";
import { linkHookrun, runEntry } from "./helpers/hostDispatch.js";
import { CLAUDE_PAYLOADS, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";

useSandbox();
const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

// Crush's PreToolUse stdin as internal/hooks/input.go's BuildPayload writes it.
const PAYLOAD = { event: "PreToolUse", session_id: "s-1", cwd: "/home/me/p", tool_name: "bash", tool_input: { command: "rm -rf build", description: "clean" } };

describe("crush: read, detect", () => {
  it("reads Crush's payload: `event` is the host's, bash is Bash", () => {
    const ctx = crush.read(PAYLOAD, "pre_tool_use");
    expect(ctx).toMatchObject({ session_id: "s-1", cwd: "/home/me/p", tool_name: "Bash", tool_input: { command: "rm -rf build", description: "clean" } });
    expect(ctx.host).toEqual({ name: "crush", event: "PreToolUse", tool_name: "bash" });
    expect(ctx.event).toBeUndefined();
    expect(crush.read({ ...PAYLOAD, tool_name: "view" }, "pre_tool_use").tool_name).toBe("Read");
  });

  it("claims Crush's payload and no other host's", () => {
    expect(crush.detect(PAYLOAD)).toBe(true);
    for (const [name, p] of otherHostsFixtures("crush")) expect(crush.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(crush.detect(p)).toBe(false);
    expect(crush.detect({ ...PAYLOAD, tool_name: "developer__shell" })).toBe(false);
  });
});

describe("crush: render (Crush's envelope)", () => {
  it("a block is decision deny with the reason; an allow is allow; ask says nothing", () => {
    const blocked = triggerResult("pre_tool_use", [hookResult("g", { status: "blocked", exit_code: 2, decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "g", reason: "no rm" });
    expect(crush.render(blocked)).toEqual({ stdout: '{"version":1,"decision":"deny","reason":"no rm"}\n', stderr: "", exitCode: 0 });
    expect(json(crush.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" })])).stdout)).toEqual({ version: 1, decision: "allow" });
    expect(json(crush.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })])).stdout)).toEqual({ version: 1 });
  });

  it("a rewrite is updated_input; context, notices and failures go to context; a stop is halt", () => {
    const r = triggerResult("pre_tool_use", [hookResult("c", { messages: [{ role: "system", content: "Use pnpm." }] }), hookResult("f", { status: "failed", exit_code: 1, stderr: "boom\n" })], {
      updated_input: { command: "ls" },
    });
    const out = json(crush.render(r).stdout);
    expect(out.updated_input).toEqual({ command: "ls" });
    expect(out.context).toMatch(/^Use pnpm\.\n\nhookrun: hook f failed/);
    const stop = json(crush.render(triggerResult("pre_tool_use", [hookResult("s", { continue: false, stop_reason: "done" })], { continue: false, stop_reason: "done" })).stdout);
    expect(stop).toEqual({ version: 1, halt: true, reason: "done" });
  });
});

describe("crush: through the CLI (hooks install / run / uninstall / import)", () => {
  const GUARD = "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo \"no rm in this repo\" >&2; exit 2', matcher: Bash|Read, timeout: 5s}\n";

  it("installs a flat entry into crush.json (anchored matcher, seconds), runs as Crush runs it, uninstalls byte for byte", async () => {
    const p = sandbox({ config: GUARD });
    linkHookrun(p.dir);
    const original = '{\n  "options": { "debug": false },\n  "hooks": {\n    "PreToolUse": [{ "matcher": "^edit$", "command": "./mine.sh" }]\n  }\n}\n';
    p.write("crush.json", original);
    expect((await runMain(["install", "crush"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = JSON.parse(readFileSync(p.path("crush.json"), "utf8"));
    expect(file.options).toEqual({ debug: false });
    expect(file.hooks.PreToolUse[0]).toEqual({ matcher: "^edit$", command: "./mine.sh" });
    const entry = file.hooks.PreToolUse[1];
    expect(entry.matcher).toBe("^(bash|view)$");
    expect(entry.timeout).toBe(15);
    expect(entry.command).toBe('"$CRUSH_PROJECT_DIR"/node_modules/.bin/hooks -C "$CRUSH_PROJECT_DIR" run pre_tool_use --host crush');
    expect((await runMain(["install", "crush", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    p.write("src/.keep", "");
    const r = runEntry(entry.command, PAYLOAD, { cwd: p.path("src"), env: { ...p.env, CRUSH_PROJECT_DIR: p.dir } });
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual({ version: 1, decision: "deny", reason: "no rm in this repo" });
    expect((await runMain(["uninstall", "crush"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path("crush.json"), "utf8")).toBe(original);
  });

  it("`hooks install` with no host name leaves a project without crush.json alone", async () => {
    const p = sandbox({ config: GUARD });
    p.write(".claude/.keep", "");
    linkHookrun(p.dir);
    expect((await runMain(["install"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(() => readFileSync(p.path("crush.json"))).toThrow();
  });

  it("`hooks run --host auto` tells Crush's payload by its `event` field and tool names", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify(PAYLOAD) });
    expect(json(r.stdout)).toEqual({ version: 1, decision: "deny", reason: "no rm in this repo" });
  });

  it("`hooks import crush` reads crush.json's flat entries: regex of Crush's names to canonical, seconds, notes for CRUSH_* variables", async () => {
    const p = sandbox();
    p.write("crush.json", JSON.stringify({ hooks: { PreToolUse: [{ name: "no-haskell", matcher: "^bash$", command: './no-haskell.sh "$CRUSH_TOOL_INPUT_COMMAND"', timeout: 10 }] } }));
    const r = await runMain(["import", "crush"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: no-haskell\n\s+matcher: Bash\n/);
    expect(r.stdout).toMatch(/timeout: 10/);
    expect(r.stdout).toMatch(/dialect: claude/);
    expect(r.stderr + r.stdout).toMatch(/CRUSH_\* variables/);
  });
});
