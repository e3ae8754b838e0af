import { execFile } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI, ROOT, runMain } from "./helpers/cli.js";
import { cleanEnv, sandbox } from "./helpers/sandbox.js";

const exec = promisify(execFile);

describe("examples/node-agent", () => {
  it("fires the lifecycle events through the library and honours block, stop-block and continue: false", async () => {
    const p = sandbox();
    const stopLog = path.join(p.dir, "stop.log");
    const auditLog = path.join(p.dir, "audit.log");
    const { stdout } = await exec(process.execPath, [path.join(ROOT, "examples/node-agent/agent.mjs"), "list the files, then clean up", "what is my password?", "deploy it", "never reached"], {
      env: cleanEnv({ ...p.env, AGENT_STOP_LOG: stopLog, AGENT_AUDIT_LOG: auditLog }),
      timeout: 60_000,
    });
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toEqual([
      "  [session_start] rules: House rules: never delete files.",
      "user: list the files, then clean up",
      "assistant: Let me look first.",
      "  tool Bash: ran: ls",
      "  tool Bash: blocked by hook guard-bash: rm -rf is not allowed; delete files one by one",
      "assistant: I listed the files.",
      "  stop blocked: End your answer with a Summary: line.",
      "assistant: Summary: listed the files; build/ was kept because a hook refused rm -rf.",
      "user: what is my password?",
      "prompt refused: prompts about passwords are not allowed here",
      "user: deploy it",
      "agent stopped by deploy-freeze: deploys are frozen today",
    ]);
    // `stop` fired once per response, with the latest assistant text (tool-only turns skipped).
    const stops = readFileSync(stopLog, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(stops.map((s) => [s.last_assistant_message, s.stop_hook_active])).toEqual([
      ["I listed the files.", false],
      ["Summary: listed the files; build/ was kept because a hook refused rm -rf.", true],
    ]);
    expect(stops[0].turn_count).toBe(3);
    // The async audit hook saw every tool that ran (not the blocked one), finished before exit (drain).
    const audited = readFileSync(auditLog, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { tool_name: string; tool_input: unknown });
    expect(audited.map((a) => [a.tool_name, a.tool_input])).toEqual([
      ["Bash", { command: "ls" }],
      ["Deploy", { env: "prod" }],
    ]);
  }, 60_000);
});

describe("examples/python-agent", () => {
  it("runs the hooks CLI with JSON on stdin, reads --output json, honours blocks", async () => {
    const p = sandbox();
    const { stdout } = await exec("python3", [path.join(ROOT, "examples/python-agent/agent.py"), "clean up the build", "what is the admin password?"], {
      env: cleanEnv({ ...p.env, HOOKS_BIN: `${process.execPath} ${CLI}`, HOOKS_TRUST: "1" }),
      timeout: 60_000,
    });
    expect(stdout.trimEnd().split("\n")).toEqual([
      "user: clean up the build",
      "  tool Bash blocked by guard-bash: rm -rf is not allowed",
      "assistant: I could not clean up.",
      "  stop blocked: Start your answer with a Summary: line.",
      "assistant: Summary: kept build/ because a hook refused rm -rf.",
      "user: what is the admin password?",
      "prompt refused: prompts about passwords are not allowed here",
    ]);
  }, 120_000);
});

describe("examples/claude-code", () => {
  const settings = JSON.parse(readFileSync(path.join(ROOT, "examples/claude-code/.claude/settings.json"), "utf8")) as {
    hooks: Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;
  };

  /** Run the exact command line of the settings for a Claude event, as Claude Code does: `sh -c`, JSON on stdin. */
  async function asClaudeCode(dir: string, env: Record<string, string>, claudeEvent: string, input: Record<string, unknown>) {
    const command = settings.hooks[claudeEvent][0].hooks[0].command;
    const child = execFile("sh", ["-c", command], { cwd: dir, env: cleanEnv({ ...env, CLAUDE_PROJECT_DIR: dir }), timeout: 60_000 });
    child.stdin!.end(JSON.stringify({ session_id: "c1", transcript_path: path.join(dir, "t.jsonl"), cwd: dir, hook_event_name: claudeEvent, ...input }));
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += String(d)));
    child.stderr!.on("data", (d: Buffer) => (stderr += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, stdout, stderr, json: stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : null };
  }

  function project() {
    const p = sandbox();
    cpSync(path.join(ROOT, "examples/claude-code"), p.dir, { recursive: true });
    // What `npm install --save-dev hookrun` provides: node_modules/.bin/hooks.
    mkdirSync(path.join(p.dir, "node_modules/.bin"), { recursive: true });
    const bin = path.join(p.dir, "node_modules/.bin/hooks");
    writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(bin, 0o755);
    return p;
  }

  it("dispatches every Claude Code event it lists to `hooks run EVENT --host claude`, exactly as `hooks install claude` writes it", async () => {
    for (const [event, groups] of Object.entries(settings.hooks)) {
      // PreSkillShellCommand (a skill's embedded shell command) is pre_tool_use to hookrun
      const canonical = event === "PreSkillShellCommand" ? "pre_tool_use" : event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
      expect(groups[0].hooks[0].command).toMatch(new RegExp(` run ${canonical} --host claude$`));
    }
    const check = await runMain(["--no-user-config", "install", "claude", "--check"], { cwd: path.join(ROOT, "examples/claude-code") });
    expect(check.stdout).toBe(".claude/settings.json: up to date\n");
    expect(check.code).toBe(0);
  });

  it("answers each event with the JSON Claude Code reads, always on exit 0", async () => {
    const p = project();
    const env = p.env;
    // Untrusted, nothing runs and the dispatch says so in the agent, on exit 0 (fail open)…
    const untrusted = await asClaudeCode(p.dir, env, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } });
    expect(untrusted.code).toBe(0);
    expect(untrusted.json).toEqual({ systemMessage: expect.stringMatching(/^hookrun: the project's hooks did not run: .*hooks\.yaml is not trusted.*run `hooks -C \S+ trust` in a terminal\.$/) });
    // …until the project's hooks are reviewed once, as the guide says.
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env })).code).toBe(0);
    const start = await asClaudeCode(p.dir, env, "SessionStart", { source: "startup" });
    expect(start).toMatchObject({ code: 0, json: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Use pnpm, never npm." } } });

    const rm = await asClaudeCode(p.dir, env, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" }, tool_use_id: "t1" });
    expect(rm).toMatchObject({
      code: 0,
      json: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "destructive command refused by guard-bash" } },
    });
    const dotenv = await asClaudeCode(p.dir, env, "PreToolUse", { tool_name: "Write", tool_input: { file_path: ".env.local", content: "X=1" } });
    expect(dotenv.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ".env.local holds secrets; edit it yourself" } });
    const ls = await asClaudeCode(p.dir, env, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } });
    expect(ls).toEqual(expect.objectContaining({ code: 0, json: {} }));

    const key = await asClaudeCode(p.dir, env, "UserPromptSubmit", { prompt: "use this: -----BEGIN RSA PRIVATE KEY-----" });
    expect(key.json).toEqual({ decision: "block", reason: "that prompt contains a private key; remove it and try again" });

    const wrote = await asClaudeCode(p.dir, env, "PostToolUse", { tool_name: "Write", tool_input: { file_path: "src/a.ts" }, tool_response: { success: true } });
    expect(wrote.json).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "TypeScript file changed: run `pnpm tsc --noEmit` before you finish." } });

    writeFileSync(path.join(p.dir, "TODO.md"), "- [ ] write the changelog\n");
    const stop = await asClaudeCode(p.dir, env, "Stop", { stop_hook_active: false });
    expect(stop).toMatchObject({ code: 0, json: { decision: "block", reason: "TODO.md still has open items: finish them first." } });
    const stopAgain = await asClaudeCode(p.dir, env, "Stop", { stop_hook_active: true });
    expect(stopAgain).toEqual(expect.objectContaining({ code: 0, json: {} }));
  }, 120_000);

  it("importing these settings does not make hookrun call itself", async () => {
    const p = project();
    const r = await runMain(["import", "claude"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("--output claude");
    expect(r.stderr).toContain("already hands this event to hookrun");
  });
});

describe("examples/github-actions.yml", () => {
  const workflow = parse(readFileSync(path.join(ROOT, "examples/github-actions.yml"), "utf8")) as {
    jobs: Record<string, { steps: { name?: string; run?: string }[] }>;
  };
  const runs = Object.values(workflow.jobs).flatMap((j) => j.steps.map((s) => s.run).filter((r): r is string => typeof r === "string"));

  it("validates the config and writes a JUnit report", () => {
    expect(runs).toContain("npm exec --no -- hooks validate");
    expect(runs.some((r) => /^npm exec --no -- hooks run \S+ .*--output junit > \S+\.xml$/.test(r))).toBe(true);
    // Never a bare `npx hooks`: it fetches the unrelated registry package `hooks` when hookrun is missing.
    expect(runs.filter((r) => /\bnpx\b/.test(r))).toEqual([]);
  });

  it("its `hooks run` steps work as written, as GitHub runs them (CI, GITHUB_ACTIONS, bash -e)", async () => {
    const p = sandbox();
    writeFileSync(path.join(p.dir, "hooks.yaml"), "hooks:\n  stop:\n    - name: lint\n      command: echo lint ok\n    - name: flaky\n      command: echo 'oops' >&2; exit 1\n");
    mkdirSync(path.join(p.dir, "node_modules/.bin"), { recursive: true });
    const bin = path.join(p.dir, "node_modules/.bin/hooks");
    writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(bin, 0o755);
    const env = cleanEnv({ ...p.env, CI: "true", GITHUB_ACTIONS: "true" });
    for (const step of runs.filter((r) => r.startsWith("npm exec --no -- hooks run"))) {
      const command = step.replace(/\$\{\{ github\.sha \}\}/g, "abc123");
      // A step's stdin is empty, as on GitHub's runners.
      const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = execFile("bash", ["-c", command], { cwd: p.dir, env, timeout: 60_000 }, (error, stdout) => resolve({ code: error ? (error.code as number) : 0, stdout }));
        child.stdin!.end();
      });
      expect(r.code, command).toBe(1); // the flaky hook fails the step
      if (command.includes("--output junit")) {
        const xml = readFileSync(path.join(p.dir, "hooks-junit.xml"), "utf8");
        expect(xml).toContain('<testsuite name="stop" tests="2" failures="1"');
      } else {
        expect(r.stdout).toContain("::group::");
        expect(r.stdout).toMatch(/^::error title=hookrun stop%3A flaky::/m);
      }
    }
  }, 120_000);
});

describe("the examples' hooks.yaml files", () => {
  it.each(["node-agent", "python-agent", "claude-code"])("examples/%s/hooks.yaml is valid, without warnings", async (name) => {
    const p = sandbox();
    const r = await runMain(["--no-user-config", "validate"], { cwd: path.join(ROOT, "examples", name), env: p.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});
