import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md#droid-hooks-written-for-factory-droid: a hook written for Factory Droid
// (`dialect: droid`) receives Droid's payload (Claude's with Droid's tool names) and
// FACTORY_PROJECT_DIR, and is read by Claude Code's rules, which Droid follows.
const sb = useSandbox();

function configure(event: string, hooks: { name: string; command: string; extra?: string }[]): void {
  const body = hooks.map((h) => `    - name: ${h.name}\n      dialect: droid\n      command: ${JSON.stringify(h.command)}\n${h.extra ?? ""}`).join("");
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n${body}`);
}

async function result(event: string, context: Record<string, unknown> = {}) {
  const config = await sb.current.load();
  const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.current.dir, env: sb.current.processEnv });
  try {
    return await runner.trigger(event, { session_id: "s", ...context });
  } finally {
    await runner.close();
  }
}

async function fire(host: string, event: string, payload: Record<string, unknown>, env: Record<string, string> = {}) {
  const r = await runMain(["--trust", "run", event, "--host", host], { cwd: sb.current.dir, env: { ...sb.current.env, ...env }, input: JSON.stringify(payload) });
  return { ...r, json: r.stdout.trim().startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : null };
}

const printing = (json: unknown) => `printf '%s' '${JSON.stringify(json)}'`;
const SAVE = `cat > "$HOOK_PROJECT_DIR/stdin.json"; printf '%s' "$FACTORY_PROJECT_DIR" > "$HOOK_PROJECT_DIR/env.txt"`;
const saved = (): Record<string, unknown> => JSON.parse(readFileSync(sb.current.path("stdin.json"), "utf8")) as Record<string, unknown>;

/** A guard written for Droid (as in real setups): no `git commit` from the Execute tool. */
const COMMIT_GUARD = `#!/bin/sh
input=$(cat)
[ "$(printf '%s' "$input" | jq -r .tool_name)" = Execute ] || exit 0
case "$(printf '%s' "$input" | jq -r .tool_input.command)" in
  *"git commit"*) echo "commits go through the release script" >&2; exit 2;;
esac
`;

const claudeBash = (command: string) => ({ session_id: "s", transcript_path: "/t.jsonl", cwd: "", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" });

describe("dialect: droid, what the hook receives", () => {
  it("fired by Claude Code, Bash is Droid's Execute and Write its Create, with Claude's field set and FACTORY_PROJECT_DIR", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE }]);
    await fire("claude", "PreToolUse", { ...claudeBash("ls"), cwd: sb.current.dir });
    expect(saved()).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Execute",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_1",
      transcript_path: "/t.jsonl",
      permission_mode: "default",
    });
    expect(readFileSync(sb.current.path("env.txt"), "utf8")).toBe(sb.current.dir);
    await result("pre_tool_use", { tool_name: "Write", tool_input: { file_path: "a.txt", content: "x" } });
    expect(saved()).toMatchObject({ tool_name: "Create", tool_input: { file_path: "a.txt", content: "x" } });
    await result("pre_tool_use", { tool_name: "Edit", tool_input: { file_path: "a.txt" } });
    expect(saved().tool_name).toBe("Edit");
  });

  it("fired by Droid, the hook gets Droid's own tool name and Droid's FACTORY_PROJECT_DIR", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE }]);
    const payload = {
      session_id: "d1",
      transcript_path: `${sb.current.dir}/.factory/sessions/x.jsonl`,
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Execute",
      tool_input: { command: "ls" },
    };
    await fire("droid", "PreToolUse", payload, { FACTORY_PROJECT_DIR: "/droid/said/so" });
    expect(saved()).toMatchObject(payload);
    expect(readFileSync(sb.current.path("env.txt"), "utf8")).toBe("/droid/said/so");
  });
});

describe("dialect: droid, the git-commit guard written for Droid", () => {
  it("denies `git commit` fired by Claude Code (Bash) and by Codex, and lets `git status` through", async () => {
    sb.current.write("guard.sh", COMMIT_GUARD);
    configure("pre_tool_use", [{ name: "commits", command: "sh guard.sh", extra: "      matcher: Bash\n" }]);
    // Claude Code: the block of one claude-shaped hook's exit 2 is answered with exit 2 and its stderr.
    const denied = await fire("claude", "PreToolUse", { ...claudeBash("git commit -m wip"), cwd: sb.current.dir });
    expect(denied.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "commits go through the release script" } });
    const allowed = await fire("claude", "PreToolUse", { ...claudeBash("git status"), cwd: sb.current.dir });
    expect(allowed.code).toBe(0);
    expect(allowed.json?.hookSpecificOutput).toBeUndefined();
    const codex = await fire("codex", "PreToolUse", {
      session_id: "s",
      turn_id: "t",
      transcript_path: null,
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      model: "m",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command: "git commit -am x" },
      tool_use_id: "c",
    });
    expect(codex.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "commits go through the release script" } });
  });
});

describe("dialect: droid reads the answer by Claude Code's rules (Droid's)", () => {
  it("JSON deny blocks, on exit 1 too; systemMessage is for the user; post-tool block is feedback; plain stdout on post_tool_use reaches no one", async () => {
    const deny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } };
    configure("pre_tool_use", [{ name: "g", command: `${printing(deny)}; exit 1` }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "no", dialect: "droid" });
    configure("pre_tool_use", [{ name: "g", command: printing({ systemMessage: "checked" }) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).messages).toEqual([{ role: "system", content: "checked", kind: "notice", hook: "g" }]);
    configure("post_tool_use", [{ name: "lint", command: printing({ decision: "block", reason: "fix it" }) }]);
    expect((await result("post_tool_use", { tool_name: "Bash" })).messages).toEqual([{ role: "system", content: "fix it", kind: "feedback", hook: "lint" }]);
    configure("post_tool_use", [{ name: "lint", command: "echo chatter" }]);
    expect((await result("post_tool_use", { tool_name: "Bash" })).messages).toEqual([]);
  });

  it("every other field and exit code as Claude Code reads it: context, notices, ask, rewrites, follow-ups, stop, failures", async () => {
    const run = async (event: string, command: string) => {
      configure(event, [{ name: "h", command }]);
      return result(event, { tool_name: "Bash", tool_input: { command: "ls" } });
    };
    expect((await run("session_start", "echo 'Branch: main'")).messages).toEqual([{ role: "system", content: "Branch: main", hook: "h" }]);
    expect((await run("session_start", "echo 'no db' >&2; exit 2")).messages).toEqual([{ role: "system", content: "no db", kind: "notice", hook: "h" }]);
    expect((await run("stop", printing({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "also run lint" } }))).messages).toEqual([
      { role: "system", content: "also run lint", kind: "followup", hook: "h" },
    ]);
    expect((await run("pre_tool_use", printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" } }))).hooks[0]).toMatchObject({
      decision: "ask",
      reason: "sure?",
    });
    const rewrite = await run("pre_tool_use", printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls -la" } } }));
    expect(rewrite.updated_input).toEqual({ command: "ls -la" });
    expect(await run("post_tool_use", printing({ continue: false, stopReason: "enough" }))).toMatchObject({ continue: false, stop_reason: "enough" });
    expect((await run("post_tool_use", "echo 'lint failed' >&2; exit 2")).messages).toEqual([{ role: "system", content: "lint failed", kind: "feedback", hook: "h" }]);
    expect((await run("pre_tool_use", "echo oops >&2; exit 1")).hooks[0]).toMatchObject({ status: "failed", error: "exit code 1: oops" });
  });

  it("output outside the schema is a non-blocking error named as Droid's, and the call proceeds", async () => {
    configure("pre_tool_use", [{ name: "g", command: printing({ decision: "deny" }) }]);
    const r = await result("pre_tool_use", { tool_name: "Bash" });
    expect(r.blocked).toBe(false);
    expect(r.hooks[0].status).toBe("invalid_output");
    expect(r.hooks[0].error).toContain("Droid ignores it and goes on");
    expect(r.hooks[0].error).not.toContain("Claude Code");
  });

  it("runs an event's droid hooks at once (all of them when one blocks), with Droid's 60 s default timeout", async () => {
    configure("pre_tool_use", [
      { name: "deny", command: "echo no >&2; exit 2" },
      { name: "audit", command: "echo audited > audit.txt" },
    ]);
    const r = await result("pre_tool_use", { tool_name: "Bash", cwd: sb.current.dir });
    expect(r.hooks.map((h) => h.status)).toEqual(["blocked", "ok"]);
    expect(readFileSync(sb.current.path("audit.txt"), "utf8")).toBe("audited\n");
    expect((await sb.current.load()).hooks.find((h) => h.name === "deny")?.timeoutMs).toBe(60_000);
  });
});
