import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { asyncSessionDir } from "../src/async/paths.js";
import { CLI, ROOT, runMain } from "./helpers/cli.js";
import { cleanEnv, expectNoSurvivors, markProcesses, sandbox, type Sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// examples/background-analysis (docs/background-work.md): fasthooks-style background work made
// durable. Every event is a new `hooks run` process started by Claude Code's own command line,
// with real python3 hooks and a private state dir per test.
const EXAMPLE = path.join(ROOT, "examples/background-analysis");
const settings = JSON.parse(readFileSync(path.join(EXAMPLE, ".claude/settings.json"), "utf8")) as {
  hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
};

// Suite-level: no analysis, guard or worker process of this file outlives it.
const survivors = markProcesses();
afterAll(() => expectNoSurvivors(survivors));
afterEach(async () => {
  // The analyses run detached; a test ends when they have all finished, then its sandbox goes.
  await waitFor(() => survivors().length === 0, { timeoutMs: 20_000, what: "every process of the test to exit" });
});

async function project(): Promise<Sandbox> {
  const p = sandbox({ fixture: EXAMPLE });
  // What `npm install --save-dev hookrun` provides, and the settings' commands run.
  mkdirSync(p.path("node_modules/.bin"), { recursive: true });
  writeFileSync(p.path("node_modules/.bin/hooks"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(p.path("node_modules/.bin/hooks"), 0o755);
  expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
  return p;
}

interface Answer {
  code: number | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
}

/** Run a command line with a JSON payload on stdin, as an agent runs a hook command: `sh -c`. */
function shell(p: Sandbox, command: string, payload: Record<string, unknown>, env: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const child = execFile("sh", ["-c", command], { cwd: p.dir, env: cleanEnv({ ...p.env, CLAUDE_PROJECT_DIR: p.dir, ...env }), timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? null) : 0;
      resolve({ code, stdout, stderr, json: stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : null });
    });
    child.stdin!.end(JSON.stringify(payload));
  });
}

/** One Claude Code event through the example's own settings entry, with Claude's payload. */
function claude(p: Sandbox, event: string, session: string, fields: Record<string, unknown>, env: Record<string, string> = {}): Promise<Answer> {
  const payload = { session_id: session, transcript_path: path.join(p.root, `${session}.jsonl`), cwd: p.dir, permission_mode: "default", hook_event_name: event, ...fields };
  return shell(p, settings.hooks[event][0].hooks[0].command, payload, env);
}

const write = (file: string, id: string) => ({ tool_name: "Write", tool_input: { file_path: file, content: "…" }, tool_response: { success: true }, tool_use_id: id });
const read = (id: string) => ({ tool_name: "Read", tool_input: { file_path: "README.md" }, tool_use_id: id });

/** The finished results waiting for a session, by the name of the file their analysis read. */
function finished(p: Sandbox, session: string): Array<{ stdout: string; finished_at: string }> {
  const dir = asyncSessionDir(p.env.HOOKS_STATE_DIR, p.dir, session);
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(".result.json"))
      .map((n) => JSON.parse(readFileSync(path.join(dir, n), "utf8")) as { stdout: string; finished_at: string });
  } catch {
    return [];
  }
}

const BAD_PY = "def area(r):\n    return 3.14 * r * r  # TODO: math.pi\n";
const BAD_TXT = "notes\nFIXME: say why\n";

describe("examples/background-analysis", () => {
  it("its Claude Code settings are exactly what `hooks install claude` writes; every tool call and Stop reach hookrun", async () => {
    const env = sandbox().env;
    const valid = await runMain(["--no-user-config", "validate"], { cwd: EXAMPLE, env });
    expect(valid).toMatchObject({ code: 0, stdout: "valid: 3 hooks in hooks.yaml\n", stderr: "" });
    const check = await runMain(["--no-user-config", "install", "claude", "--check"], { cwd: EXAMPLE, env });
    expect(check.stdout).toBe(".claude/settings.json: up to date\n");
    expect(check.code).toBe(0);
    expect(settings.hooks.PreToolUse[0].matcher).toBeUndefined();
    expect(settings.hooks.PostToolUse[0].matcher).toBe("Write|Edit|MultiEdit");
    expect(settings.hooks.Stop[0].hooks[0].command).toMatch(/ run stop --host claude$/);
  });

  it("post_tool_use returns at once; the next tool call of the same session gives the model the finding, once; another session never gets it", async () => {
    const p = await project();
    writeFileSync(p.path("area.py"), BAD_PY);
    const post = await claude(p, "PostToolUse", "S1", write("area.py", "t1"), { ANALYSIS_DELAY: "4" });
    expect(post).toEqual(expect.objectContaining({ code: 0, json: {} }));
    // The dispatch did not wait for the analysis (it sleeps 4 s before reading the file): no result yet.
    expect(finished(p, "S1")).toEqual([]);
    // The `hooks run` that started it has exited; the analysis finishes without it.
    await waitFor(() => finished(p, "S1").length === 1, { what: "the analysis to finish" });

    // Another session's tool call: the guard runs, nothing of S1 is delivered.
    const other = await claude(p, "PreToolUse", "S2", read("t2"));
    expect(other).toEqual(expect.objectContaining({ code: 0, json: {} }));
    expect(finished(p, "S1")).toHaveLength(1);

    const next = await claude(p, "PreToolUse", "S1", read("t3"));
    expect(next.code).toBe(0);
    expect(next.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        additionalContext: "background analysis of area.py (2 findings):\n- function area (line 1) has no docstring\n- line 2: return 3.14 * r * r  # TODO: math.pi",
      },
    });
    // Exactly once: the next call, and the stop, have nothing more to say.
    expect(await claude(p, "PreToolUse", "S1", read("t4"))).toEqual(expect.objectContaining({ code: 0, json: {} }));
    expect(await claude(p, "Stop", "S1", { stop_hook_active: false })).toEqual(expect.objectContaining({ code: 0, json: {} }));
    expect(await claude(p, "Stop", "S2", { stop_hook_active: false })).toEqual(expect.objectContaining({ code: 0, json: {} }));
  }, 60_000);

  it("two analyses that finish out of order reach the model at Stop in the order of the tool calls, once", async () => {
    const p = await project();
    writeFileSync(p.path("area.py"), BAD_PY);
    writeFileSync(p.path("notes.txt"), BAD_TXT);
    expect((await claude(p, "PostToolUse", "S1", write("area.py", "t1"), { ANALYSIS_DELAY: "4" })).json).toEqual({});
    expect((await claude(p, "PostToolUse", "S1", write(path.join(p.dir, "notes.txt"), "t2"), { ANALYSIS_DELAY: "0.1" })).json).toEqual({});
    await waitFor(() => finished(p, "S1").length === 2, { what: "both analyses to finish" });
    const [first] = finished(p, "S1").sort((a, b) => a.finished_at.localeCompare(b.finished_at));
    expect(first.stdout).toContain("notes.txt"); // the second call's analysis finished first

    const stop = await claude(p, "Stop", "S1", { stop_hook_active: false });
    expect(stop.code).toBe(0);
    // Claude's Stop additionalContext: the model gets it and the turn goes on (once).
    expect(stop.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "Stop",
        additionalContext: `background analysis of area.py (2 findings):\n- function area (line 1) has no docstring\n- line 2: return 3.14 * r * r  # TODO: math.pi\n\nbackground analysis of ${path.join(p.dir, "notes.txt")} (1 finding):\n- line 2: FIXME: say why`,
      },
    });
    expect(await claude(p, "Stop", "S1", { stop_hook_active: true })).toEqual(expect.objectContaining({ code: 0, json: {} }));
  }, 60_000);

  it("a clean file gives no finding, and a tool call while the analysis runs has nothing yet (it waits for a later one)", async () => {
    const p = await project();
    writeFileSync(p.path("ok.py"), 'def ok():\n    """Fine."""\n    return 1\n');
    writeFileSync(p.path("area.py"), BAD_PY);
    // The clean file's analysis finishes and is delivered (by the next event) as nothing at all.
    await claude(p, "PostToolUse", "S1", write("ok.py", "t1"), { ANALYSIS_DELAY: "0" });
    await waitFor(() => finished(p, "S1").length === 1, { what: "the clean file's analysis to finish" });
    expect(await claude(p, "PreToolUse", "S1", read("t2"))).toEqual(expect.objectContaining({ code: 0, json: {} }));
    expect(finished(p, "S1")).toEqual([]);
    // A tool call while an analysis still runs (6 s) gets nothing yet; a later one gets the finding.
    await claude(p, "PostToolUse", "S1", write("area.py", "t3"), { ANALYSIS_DELAY: "6" });
    expect(await claude(p, "PreToolUse", "S1", read("t4"))).toEqual(expect.objectContaining({ code: 0, json: {} }));
    await waitFor(() => finished(p, "S1").length === 1, { what: "the second analysis to finish" });
    const later = await claude(p, "PreToolUse", "S1", read("t5"));
    expect(later.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: expect.stringMatching(/^background analysis of area\.py /) } });
  }, 60_000);
});

describe("the fasthooks-style guard (dialect: claude) runs unchanged", () => {
  const GUARD = path.join(EXAMPLE, "hooks/guard.py");
  const claudePayload = {
    session_id: "S1",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/tmp",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
    tool_use_id: "toolu_1",
  };

  it("as a Claude Code command hook: Claude's JSON in, Claude's JSON out; a payload without fasthooks' required fields is exit 1", async () => {
    const p = sandbox();
    const deny = await shell(p, `python3 "${GUARD}"`, claudePayload);
    expect(deny).toMatchObject({
      code: 0,
      json: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "destructive command refused by the guard: rm -rf build" } },
    });
    expect(await shell(p, `python3 "${GUARD}"`, { ...claudePayload, tool_input: { command: "ls" } })).toMatchObject({ code: 0, stdout: "" });
    const { permission_mode: _m, tool_use_id: _t, ...partial } = claudePayload;
    const invalid = await shell(p, `python3 "${GUARD}"`, partial);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("missing required fields: permission_mode, tool_use_id");
  });

  it("fired from Gemini CLI (`--host gemini`): it gets Claude's field set, and its deny becomes Gemini's", async () => {
    const p = await project();
    // BeforeTool as Gemini CLI sends it: no permission_mode, no tool_use_id, Gemini's tool names.
    const gemini = { session_id: "g1", transcript_path: path.join(p.root, "g.jsonl"), cwd: p.dir, hook_event_name: "BeforeTool", timestamp: "2026-11-24T12:00:00.000Z" };
    const hooks = `"${p.path("node_modules/.bin/hooks")}" -C "${p.dir}" run pre_tool_use --host gemini`;
    const rm = await shell(p, hooks, { ...gemini, tool_name: "run_shell_command", tool_input: { command: "rm -rf build" } });
    expect(rm).toMatchObject({ code: 0, json: { decision: "deny", reason: "destructive command refused by the guard: rm -rf build" } });
    const env = await shell(p, hooks, { ...gemini, tool_name: "write_file", tool_input: { file_path: ".env", content: "K=1" } });
    expect(env).toMatchObject({ code: 0, json: { decision: "deny", reason: ".env holds secrets; edit it yourself" } });
    // Allowed, and not by failing open: a guard that failed (exit 1 on a missing field) would
    // be named in Gemini's systemMessage.
    const ls = await shell(p, hooks, { ...gemini, tool_name: "run_shell_command", tool_input: { command: "ls" } });
    expect(ls).toEqual(expect.objectContaining({ code: 0, json: {} }));
    expect(ls.json).toEqual({});
    // The same guard without hookrun's Claude fields fails, and the dispatch says so (fails open).
    writeFileSync(p.path("hooks.yaml"), readFileSync(p.path("hooks.yaml"), "utf8").replace("dialect: claude", "dialect: native"));
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const native = await shell(p, hooks, { ...gemini, tool_name: "run_shell_command", tool_input: { command: "rm -rf build" } });
    expect(native.code).toBe(0);
    expect(native.json).toEqual({
      systemMessage: expect.stringMatching(/^hook guard failed: exit code 1: \[guard\] invalid payload: ToolEvent: missing required fields: permission_mode, tool_use_id/),
    });
  }, 60_000);
});
