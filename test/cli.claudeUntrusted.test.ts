import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { trustCommand } from "../src/hosts/notRunWords.js";
import { runCli, runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/integrations.md#untrusted-config-under-claude-code: under Claude Code an untrusted hooks.yaml must not turn every guard off in
// silence. `--output claude` exits 0 with a response the user sees (systemMessage) and, on
// SessionStart / UserPromptSubmit, context that lets the model tell a `claude -p` user.
const sb = useSandbox({ prefix: "hookrun-claude-untrusted-" });

const CONFIG = `hooks:\n  pre_tool_use:\n    - {name: guard, command: "touch ran; exit 2"}\n  user_prompt_submit:\n    - {name: ctx, command: "touch ran; echo hi"}\n`;
const claude = (event: string, input: object = { session_id: "s1" }) => runCli(["run", event, "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(input) });

describe("an untrusted config under `--output claude` (docs/integrations.md#untrusted-config-under-claude-code)", () => {
  it("PreToolUse: exit 0, a systemMessage naming the file, why, and the trust command; no hook runs", async () => {
    const file = sb.current.write("hooks.yaml", CONFIG);
    const r = await claude("PreToolUse", { session_id: "s1", tool_name: "Bash", tool_input: { command: "rm -rf /" } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      systemMessage: `hookrun: the project's hooks did not run: ${file} is not trusted (new or changed since it was last reviewed). None of its hooks (guards included) run until you review and trust it: run \`hooks -C ${sb.current.dir} trust\` in a terminal.`,
    });
    // The usual error stays on stderr (Claude Code's debug log, a person running it by hand).
    expect(r.stderr).toMatch(/is not trusted .*hooks trust/);
    expect(existsSync(sb.current.path("ran"))).toBe(false);
  });

  it("SessionStart with no session_start hook at all: also additionalContext for the model, telling it not to trust the config itself", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    const r = await claude("SessionStart", { session_id: "s1", source: "startup" });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.systemMessage).toMatch(/^hookrun: the project's hooks did not run: .*hooks\.yaml is not trusted/);
    expect(out.hookSpecificOutput).toEqual({
      hookEventName: "SessionStart",
      additionalContext: expect.stringMatching(/not running in this session.*Tell the user.*Do not run `hooks trust` yourself/),
    });
    expect(out.hookSpecificOutput.additionalContext).toContain(`\`hooks -C ${sb.current.dir} trust\``);
  });

  it("UserPromptSubmit after the trusted file changed: its last trusted version runs, and the user is told what changed and how to review it", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    expect((await runMain(["trust", "--yes"], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(0);
    expect((await claude("UserPromptSubmit", { session_id: "s1", prompt: "x" })).code).toBe(0);
    expect(existsSync(sb.current.path("ran"))).toBe(true);
    rmSync(sb.current.path("ran"));
    // The edit would switch the hook off; until a person trusts it, the trusted version runs.
    sb.current.write("hooks.yaml", `hooks:\n  user_prompt_submit:\n    - {name: ctx, command: "echo changed"}\n`);
    const r = await runMain(["run", "UserPromptSubmit", "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: '{"session_id":"s1","prompt":"x"}' });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput).toEqual({ hookEventName: "UserPromptSubmit", additionalContext: "hi" });
    expect(out.systemMessage).toBe(
      `hookrun: ${sb.current.path("hooks.yaml")} changed since it was trusted: its last trusted version is running instead, guards included, until the change is reviewed: hooks -C ${sb.current.dir} trust`,
    );
    expect(existsSync(sb.current.path("ran"))).toBe(true);
  });

  it("trusted config: SessionStart with no hook prints {} (the early trust check finds nothing)", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    expect((await runMain(["trust", "--yes"], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(0);
    const r = await claude("SessionStart");
    expect({ code: r.code, out: JSON.parse(r.stdout) }).toEqual({ code: 0, out: {} });
  });

  it("HOOKS=0 (every hook off by the user's choice): SessionStart says nothing", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    const r = await runMain(["run", "SessionStart", "--output", "claude"], { cwd: sb.current.dir, env: { ...sb.current.env, HOOKS: "0" }, input: "{}" });
    expect({ code: r.code, out: JSON.parse(r.stdout) }).toEqual({ code: 0, out: {} });
  });

  it("Stop with no stop hook: nothing would run, so nothing to report ({}); other outputs still exit 77", async () => {
    sb.current.write("hooks.yaml", CONFIG);
    expect(JSON.parse((await claude("Stop")).stdout)).toEqual({});
    const json = await runMain(["run", "PreToolUse", "--output", "json"], { cwd: sb.current.dir, env: sb.current.env, input: '{"tool_name":"Bash"}' });
    expect(json.code).toBe(77);
    expect(JSON.parse(json.stdout).error.code).toBe("trust");
  });
});

describe("trustCommand", () => {
  it("names the project's installed binary when that is what runs, quoting paths for a shell", () => {
    const root = sb.current.root;
    const modules = path.join(root, "my proj", "node_modules");
    mkdirSync(path.join(modules, ".bin"), { recursive: true });
    writeFileSync(path.join(modules, ".bin", "hooks"), "");
    const dir = path.join(root, "it's here");
    const quoted = `'${dir.replaceAll("'", "'\\''")}'`;
    expect(trustCommand({ entry: path.join(modules, "hookrun", "dist", "bin", "hooks.js") }, dir)).toBe(`'${path.join(modules, ".bin", "hooks")}' -C ${quoted} trust`);
    expect(trustCommand({ entry: path.join(modules, ".bin", "hooks") }, "/p")).toBe(`'${path.join(modules, ".bin", "hooks")}' -C /p trust`);
    // A global install (no .bin beside it) or any other entry: `hooks` on PATH; -c is carried.
    expect(trustCommand({ entry: "/usr/lib/node_modules/hookrun/dist/bin/hooks.js", configPath: "/p/ci/hooks.yaml" }, "/p")).toBe("hooks -C /p -c /p/ci/hooks.yaml trust");
    expect(trustCommand({}, "/p")).toBe("hooks -C /p trust");
  });
});

describe("an invalid config under `--output claude` (exit 78 would be as silent as 77)", () => {
  const BROKEN = `hooks:\n  pre_tool_use:\n    - {name: guard, comand: "touch ran; exit 2"}\n`;

  it("PreToolUse: exit 0 and a systemMessage naming the first problem and `hooks validate`; nothing runs", async () => {
    const file = sb.current.write("hooks.yaml", BROKEN);
    const r = await runMain(["--trust", "run", "PreToolUse", "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify({ session_id: "s1", tool_name: "Bash" }) });
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(Object.keys(answer)).toEqual(["systemMessage"]);
    expect(answer.systemMessage).toMatch(
      new RegExp(`^hookrun: the project's hooks did not run: the config is invalid \\(${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:3:\\d+: unknown key \`comand\``),
    );
    expect(answer.systemMessage).toContain("run `hooks validate` to see every problem");
    expect(r.stderr).toContain("comand");
    expect(existsSync(sb.current.path("ran"))).toBe(false);
  });

  it("SessionStart: the model is told too; other outputs keep exit 78", async () => {
    sb.current.write("hooks.yaml", BROKEN);
    const start = await runMain(["run", "session_start", "--output", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: "{}" });
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout).hookSpecificOutput).toEqual({
      hookEventName: "SessionStart",
      additionalContext: expect.stringMatching(/^hookrun: the project's hooks are not running in this session: its config is invalid .*`hooks validate` lists every problem\.$/),
    });
    const json = await runMain(["run", "session_start", "--output", "json"], { cwd: sb.current.dir, env: sb.current.env, input: "{}" });
    expect(json.code).toBe(78);
  });
});
