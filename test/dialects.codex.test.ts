import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md#codex-hooks-written-for-codex-cli: a hook written for Codex CLI (`dialect: codex`)
// receives Codex's payload and is read by Codex's rules, whichever host fires the event.
const sb = useSandbox();

/** hooks.yaml with `dialect: codex` hooks on one event. */
function configure(event: string, hooks: { name: string; command: string; extra?: string }[]): void {
  const body = hooks.map((h) => `    - name: ${h.name}\n      dialect: codex\n      command: ${JSON.stringify(h.command)}\n${h.extra ?? ""}`).join("");
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

/** `hooks run EVENT --host HOST` with the host's payload on stdin. */
async function fire(host: string, event: string, payload: Record<string, unknown>) {
  const r = await runMain(["--trust", "run", event, "--host", host], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
  return { ...r, json: r.stdout.trim().startsWith("{") ? (JSON.parse(r.stdout) as Record<string, unknown>) : null };
}

const printing = (json: unknown) => `printf '%s' '${JSON.stringify(json)}'`;

/** A guard written for Codex (as in real setups): on apply_patch, deny a patch that touches a private key file. */
const KEY_GUARD = `#!/bin/sh
input=$(cat)
[ "$(printf '%s' "$input" | jq -r .tool_name)" = apply_patch ] || exit 0
files=$(printf '%s' "$input" | jq -r .tool_input.command | sed -n -E 's/^\\*\\*\\* (Add|Update|Delete) File: //p')
for f in $files; do
  case "$(basename "$f")" in
    *.pem|id_rsa|id_ed25519|*.key)
      jq -n --arg f "$f" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ("refusing to write the private key file " + $f)}}'
      exit 0;;
  esac
done
`;

function keyGuard(): void {
  sb.current.write("guard.sh", KEY_GUARD);
  configure("pre_tool_use", [{ name: "keys", command: "sh guard.sh", extra: "      matcher: Write|Edit\n" }]);
}

/** A hook that saves its stdin to stdin.json. */
const SAVE_STDIN = `cat > "$HOOK_PROJECT_DIR/stdin.json"`;
const saved = (): Record<string, unknown> => JSON.parse(readFileSync(sb.current.path("stdin.json"), "utf8")) as Record<string, unknown>;

describe("dialect: codex, what the hook receives", () => {
  it("fired by Claude Code, a Write reaches the hook as Codex's apply_patch with an Add File patch, plus turn_id and model", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE_STDIN }]);
    const file = sb.current.path("src/a.ts");
    const r = await fire("claude", "PreToolUse", {
      session_id: "s1",
      transcript_path: "/t.jsonl",
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      permission_mode: "acceptEdits",
      tool_name: "Write",
      tool_input: { file_path: file, content: "one\ntwo\n" },
      tool_use_id: "toolu_1",
    });
    expect(r.code).toBe(0);
    const input = saved();
    expect(input).toMatchObject({
      session_id: "s1",
      transcript_path: "/t.jsonl",
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      permission_mode: "acceptEdits",
      model: "",
      turn_id: "",
      tool_name: "apply_patch",
      tool_use_id: "toolu_1",
      tool_input: { command: "*** Begin Patch\n*** Add File: src/a.ts\n+one\n+two\n*** End Patch\n" },
    });
  });

  it("an Edit is an Update File patch; Bash stays Bash with tool_input.command; a file outside the cwd keeps its absolute path", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE_STDIN }]);
    await result("pre_tool_use", { cwd: sb.current.dir, tool_name: "Edit", tool_input: { file_path: "/etc/hosts", old_string: "a\nb", new_string: "c" } });
    expect(saved().tool_input).toEqual({ command: "*** Begin Patch\n*** Update File: /etc/hosts\n@@\n-a\n-b\n+c\n*** End Patch\n" });
    await result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "ls" } });
    expect(saved()).toMatchObject({ tool_name: "Bash", tool_input: { command: "ls" }, hook_event_name: "PreToolUse", transcript_path: null, permission_mode: "default" });
    // SessionStart has no turn_id in Codex's payload.
    configure("session_start", [{ name: "save", command: SAVE_STDIN }]);
    await result("session_start", { source: "startup" });
    expect(saved()).toMatchObject({ hook_event_name: "SessionStart", model: "", source: "startup" });
    expect(saved()).not.toHaveProperty("turn_id");
  });

  it("fired by Codex, the hook gets Codex's own payload back: apply_patch, turn_id, model", async () => {
    configure("pre_tool_use", [{ name: "save", command: SAVE_STDIN }]);
    const patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch";
    const payload = {
      session_id: "s2",
      turn_id: "t-9",
      transcript_path: "/r/rollout-1.jsonl",
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      model: "gpt-5.5",
      permission_mode: "default",
      tool_name: "apply_patch",
      tool_input: { command: patch },
      tool_use_id: "call_1",
    };
    await fire("codex", "PreToolUse", payload);
    expect(saved()).toMatchObject(payload);
  });
});

describe("dialect: codex, the key-file guard written for Codex", () => {
  it("denies a Write of id_rsa fired by Claude Code (the guard sees apply_patch), and lets src/a.ts through", async () => {
    keyGuard();
    const write = (file: string) => ({
      session_id: "s",
      transcript_path: "",
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: sb.current.path(file), content: "-----BEGIN OPENSSH PRIVATE KEY-----\n" },
      tool_use_id: "toolu_1",
    });
    const denied = await fire("claude", "PreToolUse", write(".ssh/id_rsa"));
    expect(denied.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "refusing to write the private key file .ssh/id_rsa" } });
    const allowed = await fire("claude", "PreToolUse", write("src/a.ts"));
    expect(allowed.code).toBe(0);
    expect(allowed.json?.hookSpecificOutput).toBeUndefined();
  });

  it("denies Codex's own apply_patch of server.pem fired by Codex", async () => {
    keyGuard();
    const r = await fire("codex", "PreToolUse", {
      session_id: "s",
      turn_id: "t",
      transcript_path: null,
      cwd: sb.current.dir,
      hook_event_name: "PreToolUse",
      model: "gpt-5.5",
      permission_mode: "default",
      tool_name: "apply_patch",
      tool_input: { command: "*** Begin Patch\n*** Add File: certs/server.pem\n+x\n*** End Patch" },
      tool_use_id: "c1",
    });
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "refusing to write the private key file certs/server.pem" } });
  });
});

describe("dialect: codex reads the answer by Codex's rules", () => {
  const deny = (reason: string) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } });

  it("PreToolUse: deny + reason blocks; exit 2 + stderr blocks; exit 2 without stderr fails open; exit 1 fails open", async () => {
    configure("pre_tool_use", [{ name: "g", command: printing(deny("no")) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "no", dialect: "codex" });
    configure("pre_tool_use", [{ name: "g", command: "echo 'not here' >&2; exit 2" }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "not here" });
    configure("pre_tool_use", [{ name: "g", command: "exit 2" }]);
    const silent = await result("pre_tool_use", { tool_name: "Bash" });
    expect(silent.blocked).toBe(false);
    expect(silent.hooks[0]).toMatchObject({ status: "failed" });
    configure("pre_tool_use", [{ name: "g", command: `${printing(deny("no"))}; exit 1` }]);
    const one = await result("pre_tool_use", { tool_name: "Bash" });
    expect(one.blocked).toBe(false);
    expect(one.hooks[0]).toMatchObject({ status: "failed" });
  });

  it("PreToolUse: what Codex rejects fails open (the call proceeds): deny without reason, ask, bare allow, continue:false, stopReason, suppressOutput, an unknown field", async () => {
    const rejected: unknown[] = [
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } },
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "  " } },
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" } },
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } },
      { continue: false, stopReason: "halt" },
      { stopReason: "halt" },
      { suppressOutput: true },
      { decision: "approve" },
      { decision: "block" },
      { reason: "why" },
      { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "ls" } } },
      { ...deny("no"), extra: 1 },
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no", sessionTitle: "x" } },
    ];
    for (const answer of rejected) {
      configure("pre_tool_use", [{ name: "g", command: printing(answer) }]);
      const r = await result("pre_tool_use", { tool_name: "Bash" });
      expect(r.blocked, JSON.stringify(answer)).toBe(false);
      expect(r.hooks[0].status, JSON.stringify(answer)).toBe("invalid_output");
      expect(r.hooks[0].error, JSON.stringify(answer)).toContain("Codex counts the hook failed and goes on");
    }
    // Rendered for Claude Code: the call proceeds (no deny), the failure is shown to the user.
    configure("pre_tool_use", [{ name: "g", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } }) }]);
    const claude = await fire("claude", "PreToolUse", { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    expect(JSON.stringify(claude.json)).not.toContain('"deny"');
  });

  it("PreToolUse: legacy decision block + reason blocks; allow + updatedInput rewrites; additionalContext reaches the model; plain stdout is ignored", async () => {
    configure("pre_tool_use", [{ name: "g", command: printing({ decision: "block", reason: "legacy" }) }]);
    expect((await result("pre_tool_use", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "legacy" });
    configure("pre_tool_use", [{ name: "g", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls -la" } } }) }]);
    const rewrite = await result("pre_tool_use", { tool_name: "Bash", tool_input: { command: "ls" } });
    expect(rewrite.updated_input).toEqual({ command: "ls -la" });
    expect(rewrite.hooks[0].decision).toBe("allow");
    configure("pre_tool_use", [{ name: "g", command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "mind the tests" }, systemMessage: "checked" }) }]);
    const ctx = await result("pre_tool_use", { tool_name: "Bash" });
    expect(ctx.messages).toEqual([
      { role: "system", content: "checked", kind: "notice", hook: "g" },
      { role: "system", content: "mind the tests", hook: "g" },
    ]);
    configure("pre_tool_use", [{ name: "g", command: "echo chatter" }]);
    const plain = await result("pre_tool_use", { tool_name: "Bash" });
    expect(plain.messages).toEqual([]);
    expect(plain.hooks[0].status).toBe("ok");
  });

  it("PreToolUse: a rewritten patch of a Write fired elsewhere maps back onto the Write", async () => {
    configure("pre_tool_use", [
      {
        name: "g",
        command: printing({
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "*** Begin Patch\n*** Add File: b.txt\n+hi\n*** End Patch\n" } },
        }),
      },
    ]);
    const r = await result("pre_tool_use", { cwd: sb.current.dir, tool_name: "Write", tool_input: { file_path: sb.current.path("a.txt"), content: "x" } });
    expect(r.updated_input).toEqual({ file_path: sb.current.path("b.txt"), content: "hi\n" });
  });

  it("PostToolUse: exit 2 and decision block are feedback; continue:false is feedback too (the turn goes on); reason without decision and suppressOutput fail", async () => {
    configure("post_tool_use", [{ name: "lint", command: "echo 'lint failed' >&2; exit 2" }]);
    const two = await result("post_tool_use", { tool_name: "Bash" });
    expect(two.hooks[0]).toMatchObject({ status: "ok", decision: null });
    expect(two.messages).toEqual([{ role: "system", content: "lint failed", kind: "feedback", hook: "lint" }]);
    configure("post_tool_use", [{ name: "lint", command: printing({ decision: "block", reason: "fix a.ts" }) }]);
    expect((await result("post_tool_use", { tool_name: "Bash" })).messages).toEqual([{ role: "system", content: "fix a.ts", kind: "feedback", hook: "lint" }]);
    configure("post_tool_use", [{ name: "lint", command: printing({ continue: false, stopReason: "enough" }) }]);
    const stop = await result("post_tool_use", { tool_name: "Bash" });
    expect(stop.continue).toBe(true);
    expect(stop.messages).toEqual([{ role: "system", content: "enough", kind: "feedback", hook: "lint" }]);
    for (const bad of [{ reason: "x" }, { suppressOutput: true }, { decision: "block" }]) {
      configure("post_tool_use", [{ name: "lint", command: printing(bad) }]);
      expect((await result("post_tool_use", { tool_name: "Bash" })).hooks[0].status, JSON.stringify(bad)).toBe("invalid_output");
    }
    // Under Claude Code the feedback is Claude's post-tool block.
    configure("post_tool_use", [{ name: "lint", command: printing({ decision: "block", reason: "fix a.ts" }) }]);
    expect((await fire("claude", "PostToolUse", { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: "" })).json).toEqual({
      decision: "block",
      reason: "fix a.ts",
    });
  });

  it("SessionStart / UserPromptSubmit: plain stdout and additionalContext are model context; UserPromptSubmit blocks; SessionStart continue:false stops", async () => {
    for (const event of ["session_start", "user_prompt_submit"]) {
      configure(event, [{ name: "ctx", command: "echo 'Branch: main'" }]);
      expect((await result(event, { prompt: "hi" })).messages, event).toEqual([{ role: "system", content: "Branch: main", hook: "ctx" }]);
    }
    configure("user_prompt_submit", [{ name: "p", command: printing({ decision: "block", reason: "no secrets in prompts" }) }]);
    expect((await result("user_prompt_submit", { prompt: "hi" })).hooks[0]).toMatchObject({ status: "blocked", reason: "no secrets in prompts" });
    configure("session_start", [{ name: "p", command: printing({ continue: false, stopReason: "not today" }) }]);
    const stop = await result("session_start", {});
    expect(stop).toMatchObject({ continue: false, stop_reason: "not today" });
    // SessionStart has no decision field: the answer is refused.
    configure("session_start", [{ name: "p", command: printing({ decision: "block", reason: "x" }) }]);
    expect((await result("session_start", {})).hooks[0].status).toBe("invalid_output");
  });

  it("Stop: decision block + reason and exit 2 keep the turn going; plain stdout is invalid; additionalContext is not a Stop field", async () => {
    configure("stop", [{ name: "tests", command: printing({ decision: "block", reason: "run the tests" }) }]);
    expect((await result("stop", {})).hooks[0]).toMatchObject({ status: "blocked", reason: "run the tests" });
    configure("stop", [{ name: "tests", command: "echo 'again' >&2; exit 2" }]);
    expect((await result("stop", {})).hooks[0]).toMatchObject({ status: "blocked", reason: "again" });
    configure("stop", [{ name: "tests", command: "echo done" }]);
    expect((await result("stop", {})).hooks[0].status).toBe("invalid_output");
    configure("stop", [{ name: "tests", command: printing({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "x" } }) }]);
    expect((await result("stop", {})).hooks[0].status).toBe("invalid_output");
    // Codex gives the model every Stop hook's reason, joined by a blank line.
    configure("stop", [
      { name: "tests", command: printing({ decision: "block", reason: "run the tests" }) },
      { name: "lint", command: "echo 'run the linter' >&2; exit 2" },
    ]);
    expect(await result("stop", {})).toMatchObject({ blocked: true, reason: "run the tests\n\nrun the linter" });
    // continue:false wins over a block.
    configure("stop", [{ name: "tests", command: printing({ continue: false, stopReason: "done", decision: "block", reason: "go on" }) }]);
    const r = await result("stop", {});
    expect(r).toMatchObject({ blocked: false, continue: false, stop_reason: "done" });
  });

  it("the other events: SessionStart exit 2 is a failure; SubagentStart additionalContext is context; PreCompact takes no decision; an unknown hookEventName or a JSON array is invalid; updatedMCPToolOutput is kept with a warning", async () => {
    configure("session_start", [{ name: "h", command: "echo 'no db' >&2; exit 2" }]);
    expect((await result("session_start", {})).hooks[0]).toMatchObject({ status: "failed" });
    configure("subagent_start", [{ name: "h", command: printing({ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "be brief" } }) }]);
    expect((await result("subagent_start", { agent_type: "x" })).messages).toEqual([{ role: "system", content: "be brief", hook: "h" }]);
    configure("pre_compact", [{ name: "h", command: printing({ decision: "block", reason: "x" }) }]);
    expect((await result("pre_compact", {})).hooks[0].status).toBe("invalid_output");
    configure("pre_compact", [{ name: "h", command: printing({ systemMessage: "compacting" }) }]);
    expect((await result("pre_compact", {})).messages).toEqual([{ role: "system", content: "compacting", kind: "notice", hook: "h" }]);
    configure("session_start", [{ name: "h", command: printing({ hookSpecificOutput: { hookEventName: "Setup", additionalContext: "x" } }) }]);
    expect((await result("session_start", {})).hooks[0].status).toBe("invalid_output");
    configure("session_start", [{ name: "h", command: "echo '[1, 2]'" }]);
    expect((await result("session_start", {})).hooks[0].status).toBe("invalid_output");
    configure("post_tool_use", [{ name: "h", command: printing({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: { ok: true } } }) }]);
    const mcp = (await result("post_tool_use", { tool_name: "mcp__s__t" })).hooks[0];
    expect(mcp).toMatchObject({ status: "ok", json: { hookSpecificOutput: { updatedMCPToolOutput: { ok: true } } } });
    expect(mcp.warnings).toEqual(["hookSpecificOutput.updatedMCPToolOutput: not carried by hookrun (kept in the result's json)"]);
  });

  it("PermissionRequest: decision deny + message blocks, allow allows, updatedInput is refused", async () => {
    const answer = (decision: unknown) => printing({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
    configure("permission_request", [{ name: "p", command: answer({ behavior: "deny", message: "not that" }) }]);
    expect((await result("permission_request", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "not that" });
    configure("permission_request", [{ name: "p", command: answer({ behavior: "deny" }) }]);
    expect((await result("permission_request", { tool_name: "Bash" })).hooks[0]).toMatchObject({ status: "blocked", reason: "PermissionRequest hook denied approval" });
    configure("permission_request", [{ name: "p", command: answer({ behavior: "allow" }) }]);
    expect((await result("permission_request", { tool_name: "Bash" })).hooks[0].decision).toBe("allow");
    configure("permission_request", [{ name: "p", command: answer({ behavior: "allow", updatedInput: { command: "ls" } }) }]);
    expect((await result("permission_request", { tool_name: "Bash" })).hooks[0].status).toBe("invalid_output");
  });

  it("runs an event's codex hooks at once, all of them even when one denies, with Codex's 600 s default timeout", async () => {
    configure("pre_tool_use", [
      { name: "deny", command: printing(deny("no")) },
      { name: "audit", command: "echo audited > audit.txt" },
    ]);
    const r = await result("pre_tool_use", { tool_name: "Bash", cwd: sb.current.dir });
    expect(r.blocked).toBe(true);
    expect(r.hooks.map((h) => h.status)).toEqual(["blocked", "ok"]);
    expect(readFileSync(sb.current.path("audit.txt"), "utf8")).toBe("audited\n");
    const config = await sb.current.load();
    expect(config.hooks.find((h) => h.name === "deny")?.timeoutMs).toBe(600_000);
  });
});
