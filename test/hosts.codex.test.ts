import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codex, codexDispatchCommand, formatCodex, patchFiles } from "../src/hosts/codex.js";
import { ownsEntry } from "../src/hosts/install.js";
import { dispatchCommand } from "../src/hosts/dispatch.js";
import { detectHost, hostByName } from "../src/hosts/adapters.js";
import { afterToolBlocks, hookResult, triggerResult } from "./helpers/results.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { removeTree } from "./helpers/removeTree.js";
import { entriesOf } from "./helpers/hostSetup.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

/** A payload as Codex 0.169.0 (and 0.171.0) sends it (captured from a real run; paths shortened). */
const base = {
  session_id: "01a20d8b-0a7f-7983-bf77-84da4c2c0ddc",
  turn_id: "01a20d8b-0a91-7972-b73c-298ec114092d",
  transcript_path: "/h/.codex/sessions/2026/11/24/rollout-2026-11-24T12-32-25-01a20d8b-0a7f-7983-bf77-84da4c2c0ddc.jsonl",
  cwd: "/p",
  model: "gpt-5.5",
  permission_mode: "bypassPermissions",
};
const PATCH_ADD = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n";
const PATCH_UPDATE = "*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+z\n*** End Patch\n";

describe("codex.read", () => {
  it("keeps Claude's fields, Bash stays Bash, and Codex's own values go under host", () => {
    const ctx = codex.read({ ...base, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "call_1" }, "pre_tool_use");
    expect(ctx).toMatchObject({ session_id: base.session_id, cwd: "/p", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "call_1" });
    expect(ctx.host).toEqual({ name: "codex", event: "PreToolUse", tool_name: "Bash", turn_id: base.turn_id, model: "gpt-5.5", permission_mode: "bypassPermissions" });
  });

  it("reads apply_patch as Edit, or Write when the patch only adds files, and lists the patch's files", () => {
    const update = codex.read({ ...base, hook_event_name: "PostToolUse", tool_name: "apply_patch", tool_input: { command: PATCH_UPDATE }, tool_response: "ok" }, "post_tool_use");
    expect(update.tool_name).toBe("Edit");
    expect(update.tool_input).toEqual({ command: PATCH_UPDATE });
    expect(update.host).toMatchObject({ tool_name: "apply_patch", patch_files: ["a.ts", "b.ts"] });
    const add = codex.read({ ...base, hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: { command: PATCH_ADD } }, "pre_tool_use");
    expect(add.tool_name).toBe("Write");
    expect(patchFiles("no patch here")).toEqual({ files: [], addsOnly: false });
  });

  it("passes an MCP tool's name unchanged and tolerates a payload without tool fields or hook_event_name", () => {
    expect(codex.read({ ...base, hook_event_name: "PreToolUse", tool_name: "mcp__gh__create_issue", tool_input: {} }, "pre_tool_use").tool_name).toBe("mcp__gh__create_issue");
    const ctx = codex.read({ session_id: "s" }, "stop");
    expect(ctx.host).toEqual({ name: "codex", event: "Stop" });
    expect(ctx.tool_name).toBeUndefined();
    // apply_patch whose input is not the expected object: still Edit, no crash
    expect(codex.read({ ...base, hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: "raw" }, "pre_tool_use").tool_name).toBe("Edit");
  });
});

describe("Codex edits are patches: `if: Edit(…)` and `paths:` test each file a patch adds, changes or deletes", () => {
  const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
  const call = (cwd: string, text: string) => JSON.stringify({ session_id: "s", turn_id: "t", hook_event_name: "PreToolUse", cwd, tool_name: "apply_patch", tool_input: { command: text } });
  const GUARDS = [
    "hooks:",
    "  pre_tool_use:",
    "    - name: env-edit",
    '      if: "Edit(.env)"',
    "      command: 'echo env-edit >&2; exit 2'",
    "    - name: env-write",
    '      if: "Write(.env)"',
    "      command: 'echo env-write >&2; exit 2'",
    "    - name: secrets",
    '      paths: ["secrets/**"]',
    "      command: 'echo secrets >&2; exit 2'",
    "",
  ].join("\n");

  it("blocks a patch that updates, deletes or adds a guarded file among others, and lets one that does not through", async () => {
    const p = sandbox({ config: GUARDS });
    const run = async (text: string) => {
      const r = await runMain(["run", "PreToolUse", "--host", "codex"], { cwd: p.dir, env: { ...p.env, HOOKS_TRUST: "1" }, input: call(p.dir, text) });
      const out = r.stdout ? JSON.parse(r.stdout) : {};
      return { denied: out.hookSpecificOutput?.permissionDecision === "deny", why: String(out.hookSpecificOutput?.permissionDecisionReason ?? "") };
    };
    const update = await run(patch("*** Update File: src/a.ts", "@@", "-a", "+b", "*** Update File: .env", "@@", "-A=1", "+A=2"));
    expect(update).toMatchObject({ denied: true });
    expect(update.why).toMatch(/env-edit/);
    expect((await run(patch("*** Delete File: .env"))).why).toMatch(/env-edit/);
    // a patch that only adds files is a Write
    expect((await run(patch("*** Add File: .env", "+A=1"))).why).toMatch(/env-write/);
    expect((await run(patch("*** Add File: notes/x.md", "+x", "*** Add File: secrets/key.pem", "+k"))).why).toMatch(/secrets/);
    expect(await run(patch("*** Update File: src/a.ts", "@@", "-a", "+b"))).toEqual({ denied: false, why: "" });
    // `paths:` tests an event's path and a patch's files, not a tool call's input (that is `if: "Edit(…)"`'s)
    const claudeEdit = JSON.stringify({
      session_id: "s",
      hook_event_name: "PreToolUse",
      cwd: p.dir,
      tool_name: "Edit",
      tool_input: { file_path: "secrets/key.pem", old_string: "a", new_string: "b" },
    });
    const edit = await runMain(["run", "PreToolUse", "--host", "claude"], { cwd: p.dir, env: { ...p.env, HOOKS_TRUST: "1" }, input: claudeEdit });
    expect(edit.stdout + edit.stderr).not.toMatch(/secrets/);
  });
});

describe("codex.detect", () => {
  it("tells Codex by turn_id, and its SessionStart (no turn_id) by the rollout transcript", () => {
    expect(codex.detect({ ...base, hook_event_name: "Stop" })).toBe(true);
    const { turn_id: _t, ...start } = base;
    expect(codex.detect({ ...start, hook_event_name: "SessionStart", source: "startup" })).toBe(true);
    // SessionEnd (0.169+) has no turn_id either: only session_id, transcript_path, cwd, reason
    expect(codex.detect({ session_id: base.session_id, transcript_path: base.transcript_path, cwd: "/p", hook_event_name: "SessionEnd", reason: "other" })).toBe(true);
    expect(codex.detect({ ...base, hook_event_name: "Interrupt" })).toBe(true);
  });

  it("says no to Claude Code, to events Codex does not have and to junk", () => {
    expect(codex.detect({ session_id: "s", transcript_path: "/h/.claude/projects/x/abc.jsonl", cwd: "/p", hook_event_name: "PreToolUse", tool_name: "Bash" })).toBe(false);
    expect(codex.detect({ ...base, hook_event_name: "PreSkillShellCommand" })).toBe(false);
    expect(codex.detect({ turn_id: "t" })).toBe(false);
    expect(codex.detect({ hook_event_name: "Stop", turn_id: 3 })).toBe(false);
  });
});

describe("formatCodex (render)", () => {
  const denyOf = (r: ReturnType<typeof formatCodex>) => r.hookSpecificOutput;

  it("prints {} when nothing has anything to say, exit 0", () => {
    expect(codex.render(triggerResult("pre_tool_use", [hookResult("a")]))).toEqual({ stdout: "{}\n", stderr: "", exitCode: 0 });
  });

  it("a PreToolUse block is permissionDecision deny with a non-empty reason", () => {
    const r = triggerResult("pre_tool_use", [hookResult("guard", { status: "blocked", decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "guard", reason: "no rm" });
    expect(formatCodex(r)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" } });
    const noReason = triggerResult("pre_tool_use", [hookResult("guard", { status: "blocked", decision: "block" })], { blocked: true, blocked_by: "guard" });
    expect(denyOf(formatCodex(noReason))?.permissionDecisionReason).toBe("blocked by guard");
  });

  it("ask degrades to a deny that says Codex cannot ask (never `ask`, which Codex rejects and runs the tool)", () => {
    const r = triggerResult("pre_tool_use", [hookResult("a", { decision: "allow" }), hookResult("b", { decision: "ask", reason: "touches prod" })], { updated_input: { command: "ls" } });
    const out = formatCodex(r);
    expect(out.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(out.hookSpecificOutput?.permissionDecisionReason).toMatch(/^hookrun: a hook asked for the user's confirmation \(touches prod\), and Codex hooks cannot ask/);
    expect(out.hookSpecificOutput?.updatedInput).toBeUndefined();
    expect(JSON.stringify(out)).not.toContain('"ask"');
  });

  it("allow is emitted only with updatedInput; a bare allow and defer print nothing", () => {
    const rewrite = triggerResult("pre_tool_use", [hookResult("r", { decision: "allow" })], { updated_input: { command: "echo hi" } });
    expect(formatCodex(rewrite).hookSpecificOutput).toEqual({ hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo hi" } });
    const rewriteNoDecision = triggerResult("pre_tool_use", [hookResult("r")], { updated_input: { command: "echo hi" } });
    expect(formatCodex(rewriteNoDecision).hookSpecificOutput?.permissionDecision).toBe("allow");
    expect(formatCodex(triggerResult("pre_tool_use", [hookResult("a", { decision: "allow", reason: "safe" })]))).toEqual({});
    expect(formatCodex(triggerResult("pre_tool_use", [hookResult("a", { decision: "defer" })]))).toEqual({});
  });

  it("continue: false is never printed on PreToolUse (Codex rejects it): it becomes a deny saying so", () => {
    const r = triggerResult("pre_tool_use", [hookResult("budget", { continue: false, stop_reason: "budget spent" })], { continue: false, stop_reason: "budget spent", stopped_by: "budget" });
    const out = formatCodex(r);
    expect(out.continue).toBeUndefined();
    expect(out.stopReason).toBeUndefined();
    expect(out.hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringContaining("asked to stop the agent (budget spent)") });
  });

  it("continue: false where Codex accepts it is continue:false + stopReason", () => {
    const r = triggerResult("post_tool_use", [hookResult("budget")], { continue: false, stop_reason: null, stopped_by: "budget" });
    expect(formatCodex(r)).toEqual({ continue: false, stopReason: "stopped by budget" });
    const ups = triggerResult("user_prompt_submit", [hookResult("b")], { continue: false, stop_reason: "quota" });
    expect(formatCodex(ups)).toEqual({ continue: false, stopReason: "quota" });
  });

  it("context is additionalContext where Codex has it and systemMessage elsewhere; hidden messages are dropped", () => {
    const start = triggerResult("session_start", [
      hookResult("ctx", {
        messages: [
          { role: "system", content: "Use pnpm." },
          { role: "system", content: "secret", hide: true },
        ],
      }),
    ]);
    expect(formatCodex(start)).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Use pnpm." } });
    const pre = triggerResult("pre_tool_use", [hookResult("c", { messages: [{ role: "system", content: "careful" }] })]);
    expect(formatCodex(pre).hookSpecificOutput).toEqual({ hookEventName: "PreToolUse", additionalContext: "careful" });
    const compact = triggerResult("pre_compact", [hookResult("c", { messages: [{ role: "system", content: "saved notes" }] })]);
    expect(formatCodex(compact)).toEqual({ systemMessage: "saved notes" });
    const stop = triggerResult("stop", [hookResult("c", { messages: [{ role: "system", content: "3 files changed" }] })]);
    expect(formatCodex(stop)).toEqual({ systemMessage: "3 files changed" });
  });

  it("post-tool feedback is decision block + reason; failures go to systemMessage", () => {
    const r = triggerResult("post_tool_use", [
      hookResult("lint", { messages: [{ role: "system", content: "lint: 2 errors", kind: "feedback" }] }),
      hookResult("typecheck", { messages: [{ role: "system", content: "TS2322 in a.ts", kind: "feedback" }] }),
      hookResult("broken", { status: "failed", exit_code: 1, stderr: "KeyError: 'x'\n" }),
    ]);
    expect(formatCodex(r)).toEqual({ decision: "block", reason: "lint: 2 errors\nTS2322 in a.ts", systemMessage: "hook broken failed: exit 1 (KeyError: 'x')" });
  });

  it("answers a native hook's block after the tool ran alike whether it exited 2 or printed a JSON block", async () => {
    const { exit2, json } = await afterToolBlocks("TS2322 in a.ts");
    const answer = { stdout: `${JSON.stringify({ decision: "block", reason: "TS2322 in a.ts" })}\n`, stderr: "", exitCode: 0 };
    expect(codex.render(exit2)).toEqual(answer);
    expect(codex.render(json)).toEqual(answer);
  });

  it("a Stop block and Stop follow-ups are decision block + reason (the turn goes on)", () => {
    const block = triggerResult("stop", [hookResult("todo", { status: "blocked", decision: "block", reason: "TODO.md is not empty" })], {
      blocked: true,
      blocked_by: "todo",
      reason: "TODO.md is not empty",
    });
    expect(formatCodex(block)).toEqual({ decision: "block", reason: "TODO.md is not empty" });
    const follow = triggerResult("subagent_stop", [hookResult("f", { messages: [{ role: "system", content: "run the tests", kind: "followup" }] })]);
    expect(formatCodex(follow)).toEqual({ decision: "block", reason: "run the tests" });
  });

  it("a block on an event Codex cannot block is told to the user, never dropped", () => {
    const r = triggerResult("session_start", [hookResult("g", { status: "blocked", decision: "block", reason: "no" })], { blocked: true, blocked_by: "g", reason: "no" });
    expect(formatCodex(r).systemMessage).toBe("hookrun: blocked by g (no), but Codex cannot block SessionStart");
    expect(formatCodex(r).decision).toBeUndefined();
  });

  it("updated_input outside PreToolUse is a systemMessage, not applied", () => {
    const r = triggerResult("post_tool_use", [hookResult("r")], { updated_input: { command: "x" } });
    expect(formatCodex(r)).toEqual({ systemMessage: "hookrun: a hook rewrote the input on post_tool_use, which Codex cannot take there: not applied" });
  });

  it("answers a PermissionRequest with hookSpecificOutput.decision, never updatedInput or continue", () => {
    const deny = triggerResult("permission_request", [hookResult("p", { status: "blocked", decision: "block", reason: "not on Fridays" })], {
      blocked: true,
      blocked_by: "p",
      reason: "not on Fridays",
    });
    expect(formatCodex(deny)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "not on Fridays" } } });
    const allow = triggerResult("permission_request", [hookResult("p", { decision: "allow" })], { updated_input: { command: "ls" } });
    const out = formatCodex(allow);
    expect(out.hookSpecificOutput).toEqual({ hookEventName: "PermissionRequest", decision: { behavior: "allow" } });
    expect(out.systemMessage).toMatch(/cannot take on PermissionRequest/);
    const stop = formatCodex(triggerResult("permission_request", [hookResult("p")], { continue: false, stop_reason: "enough" }));
    expect(stop.continue).toBeUndefined();
    expect(stop.hookSpecificOutput?.decision?.behavior).toBe("deny");
  });

  it("never prints a field the event's Codex schema lacks (Codex denies unknown fields)", () => {
    const allowed: Record<string, string[]> = {
      session_start: ["continue", "stopReason", "systemMessage", "hookSpecificOutput"],
      pre_compact: ["continue", "stopReason", "systemMessage"],
      stop: ["continue", "stopReason", "systemMessage", "decision", "reason"],
      pre_tool_use: ["systemMessage", "hookSpecificOutput"],
      // Interrupt's output schema is systemMessage alone; SessionEnd has none (Codex reads nothing back)
      generation_interrupt: ["systemMessage"],
      session_end: ["systemMessage"],
    };
    const noisy = (event: string) =>
      triggerResult(
        event,
        [
          hookResult("a", {
            messages: [
              { role: "system", content: "ctx" },
              { role: "system", content: "note", kind: "notice" },
              { role: "system", content: "more", kind: "followup" },
            ],
          }),
          hookResult("b", { status: "failed", exit_code: 2, stderr: "x" }),
        ],
        { continue: false, stop_reason: "s", updated_input: { a: 1 } },
      );
    for (const [event, keys] of Object.entries(allowed)) {
      const out = formatCodex(noisy(event));
      for (const k of Object.keys(out)) expect(keys, `${event}: ${k}`).toContain(k);
      expect(out).not.toHaveProperty("suppressOutput");
    }
  });

  it("notRun: the user is told on every event, the model on SessionStart and UserPromptSubmit", () => {
    const start = JSON.parse(codex.notRun("session_start", "hooks.yaml is not trusted", "tell the user").stdout);
    expect(start).toEqual({
      systemMessage: "hookrun: the project's hooks did not run: hooks.yaml is not trusted",
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hookrun: the project's hooks are not running in this session: tell the user" },
    });
    const pre = codex.notRun("pre_tool_use", "invalid", "x");
    expect(JSON.parse(pre.stdout)).toEqual({ systemMessage: "hookrun: the project's hooks did not run: invalid" });
    expect(pre.exitCode).toBe(0);
  });
});

describe("codex.install.entries", () => {
  /** The engine's command for a project install (root null, exec) and for `--user` (an absolute bin). */
  const project = (e: string) => dispatchCommand("codex", e, { root: null, bin: null, exec: true, walkUp: ".codex" });
  const user = (e: string) => dispatchCommand("codex", e, { root: null, bin: "/opt/hookrun/bin/hooks.js", exec: true });

  it("is in the host table, and --host auto finds Codex's payloads but not Claude's", () => {
    expect(hostByName("codex")).toBe(codex);
    expect(detectHost({ ...base, hook_event_name: "PreToolUse", tool_name: "Bash" })).toBe(codex);
    expect(detectHost({ session_id: "s", transcript_path: "/h/.claude/projects/x/a.jsonl", cwd: "/p", hook_event_name: "PreToolUse", tool_name: "Bash" })).not.toBe(codex);
  });

  it("one entry per Codex event with hooks, timeout in seconds covering the run, events Codex lacks left out", () => {
    const cfg = config("/p", [
      hook("guard", "pre_tool_use", { matcher: "Bash", timeoutMs: 5_000 }),
      hook("audit", "pre_tool_use", { matcher: "Bash", timeoutMs: 20_000 }),
      hook("ctx", "session_start", { timeoutMs: 1_500 }),
      hook("compacted", "post_compact"),
      hook("saved", "file_post_save"),
    ]);
    const e = entriesOf(codex, cfg, project);
    expect(Object.keys(e).sort()).toEqual(["PostCompact", "PreToolUse", "SessionStart"]);
    expect(e.PreToolUse).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: codexDispatchCommand("pre_tool_use"), timeout: 35 }] }]);
    expect(e.SessionStart).toEqual([{ hooks: [{ type: "command", command: codexDispatchCommand("session_start"), timeout: 12 }] }]);
    // the engine recognises the walk-up command as hookrun's (idempotent install, exact uninstall)
    expect(ownsEntry(e.PreToolUse[0])).toBe(true);
    expect(ownsEntry({ hooks: [{ type: "command", command: "./guard.sh" }] })).toBe(false);
  });

  it("a --user command (absolute hookrun, no root) is kept as the engine gives it", () => {
    const e = entriesOf(codex, config("/p", [hook("s", "stop")]), user);
    expect((e.Stop[0].hooks as { command: string }[])[0].command).toBe("exec /opt/hookrun/bin/hooks.js run stop --host codex");
  });

  it("parallel events take the longest hook, async hooks add nothing", () => {
    const cfg = config("/p", [hook("a", "stop", { timeoutMs: 5_000 }), hook("b", "stop", { timeoutMs: 8_000 }), hook("c", "stop", { async: true, timeoutMs: 100_000 })], { stop: { parallel: true } });
    expect((entriesOf(codex, cfg, project).Stop[0].hooks as { timeout: number }[])[0].timeout).toBe(18);
  });

  it("narrows the matcher to what hooks.yaml's matchers select (Edit also as apply_patch), or none when one hook takes every tool", () => {
    const narrow = config("/p", [hook("guard", "pre_tool_use", { matcher: "Bash" }), hook("fmt", "pre_tool_use", { matcher: "Write|Edit" })]);
    expect(entriesOf(codex, narrow, project).PreToolUse[0].matcher).toBe("Bash|Write|Edit|apply_patch");
    const wide = config("/p", [hook("fmt", "post_tool_use", { matcher: "Write|Edit" }), hook("all", "post_tool_use")]);
    expect(entriesOf(codex, wide, project).PostToolUse[0]).not.toHaveProperty("matcher");
    const regex = config("/p", [hook("mcp", "post_tool_use", { matcher: "^mcp__" })]);
    expect(entriesOf(codex, regex, project).PostToolUse[0]).not.toHaveProperty("matcher");
  });

  describe("the dispatch command, run by a real shell as Codex runs it ($SHELL -lc in the session's cwd)", () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-codex-cmd-")));
    afterAll(() => removeTree(root));
    const fake = path.join(root, "proj", "node_modules", ".bin", "hooks");
    mkdirSync(path.dirname(fake), { recursive: true });
    mkdirSync(path.join(root, "proj", "src", "deep"), { recursive: true });
    writeFileSync(fake, '#!/bin/sh\necho "pid=$$ args=$*"\n');
    chmodSync(fake, 0o755);

    it("finds the project's node_modules/.bin/hooks from a subdirectory, and execs it (no shell left between)", () => {
      const r = spawnSync("/bin/sh", ["-lc", `echo "sh=$$"; ${codexDispatchCommand("pre_tool_use")}`], { cwd: path.join(root, "proj", "src", "deep"), encoding: "utf8" });
      expect(r.status).toBe(0);
      const [sh, run] = r.stdout.trim().split("\n");
      expect(run).toBe(`pid=${sh.slice(3)} args=-C ${path.join(root, "proj")} run pre_tool_use --host codex`);
    });

    it("says what is missing, on stderr with exit 1, when no hookrun is installed above the cwd", () => {
      const r = spawnSync("/bin/sh", ["-lc", codexDispatchCommand("stop")], { cwd: root, encoding: "utf8" });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("hookrun: no node_modules/.bin/hooks of yours in");
    });

    it("stops at the project root: a node_modules/.bin/hooks above a folder with .git or .codex is never run", () => {
      for (const marker of [".git", ".codex"]) {
        const inner = path.join(root, "proj", `inner-${marker.slice(1)}`);
        mkdirSync(path.join(inner, marker, "x"), { recursive: true });
        mkdirSync(path.join(inner, "src"), { recursive: true });
        const r = spawnSync("/bin/sh", ["-lc", codexDispatchCommand("stop")], { cwd: path.join(inner, "src"), encoding: "utf8" });
        expect(r.stdout, marker).toBe("");
        expect(r.status, marker).toBe(1);
        expect(r.stderr, marker).toContain("hookrun: no node_modules/.bin/hooks of yours in");
      }
    });

    // Only root can make a file of another user's here (CI runs as root).
    it.skipIf(process.getuid?.() !== 0)("never runs a binary, or a node_modules, that another user owns", () => {
      const shared = path.join(root, "shared");
      const planted = path.join(shared, "node_modules", ".bin", "hooks");
      mkdirSync(path.join(shared, "proj", "src"), { recursive: true });
      mkdirSync(path.join(shared, "proj", ".codex"));
      mkdirSync(path.dirname(planted), { recursive: true });
      writeFileSync(planted, '#!/bin/sh\necho "PLANTED ran"\n');
      chmodSync(planted, 0o755);
      // the project itself has hookrun, owned by another user (nobody)
      const own = path.join(shared, "proj", "node_modules", ".bin", "hooks");
      mkdirSync(path.dirname(own), { recursive: true });
      writeFileSync(own, '#!/bin/sh\necho "THEIRS ran"\n');
      chmodSync(own, 0o755);
      for (const f of [own, path.dirname(own), path.dirname(path.dirname(own))]) chownSync(f, 65534, 65534);
      const r = spawnSync("/bin/sh", ["-lc", codexDispatchCommand("stop")], { cwd: path.join(shared, "proj", "src"), encoding: "utf8" });
      expect(r.stdout).toBe("");
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("hookrun: no node_modules/.bin/hooks of yours in");
    });
  });
});

describe("codex.import", () => {
  it("imports command hooks with dialect codex, maps apply_patch matchers and carries timeout and statusMessage", () => {
    const r = codex.import!(
      {
        description: "team hooks",
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 30, statusMessage: "Checking" }] }],
          PostToolUse: [{ matcher: "apply_patch", hooks: [{ type: "command", command: "npx prettier --write", timeoutSec: 20 }] }],
        },
      },
      [],
    );
    expect(r.hooks.map((h) => [h.event, h.hook])).toEqual([
      ["pre_tool_use", { name: "guard", description: "Checking", matcher: "Bash", command: "./guard.sh", timeout: 30, dialect: "codex" }],
      ["post_tool_use", { name: "prettier", matcher: "Edit|Write", command: "npx prettier --write", timeout: 20, dialect: "codex" }],
    ]);
    expect(r.notes).toEqual(["`description` not carried (hooks.yaml has no file description)"]);
  });

  it("notes every handler or field it does not carry, and skips hookrun's own dispatch entries", () => {
    const r = codex.import!(
      {
        $schema: "x",
        hooks: {
          Stop: [
            {
              hooks: [
                { type: "prompt", prompt: "x" },
                { type: "mcp_tool", server: "s", tool: "t" },
                { type: "command", command: "./bg.sh", async: true },
                { type: "command", command: "./win.sh", commandWindows: "win.cmd", shell: "bash" },
                { type: "command", command: codexDispatchCommand("stop") },
              ],
            },
          ],
          Notification: [{ hooks: [{ type: "command", command: "./end.sh" }] }],
        },
      },
      [],
    );
    expect(r.hooks.map((h) => h.hook.command)).toEqual(["./win.sh", "./end.sh"]);
    const notes = r.notes.join("\n");
    expect(notes).toContain("`$schema`: Codex refuses a hooks.json with this key");
    expect(notes).toContain("hooks.Stop[0].hooks[0]: skipped a handler of type `prompt`");
    expect(notes).toContain("hooks.Stop[0].hooks[1]: skipped a handler of type `mcp_tool`");
    expect(notes).toContain("hooks.Stop[0].hooks[2]: skipped an `async: true` handler");
    expect(notes).toContain("hooks.Stop[0].hooks[3]: `commandWindows` not carried");
    expect(notes).toContain("hooks.Stop[0].hooks[3]: `shell` is not a field of Codex's command hooks");
    expect(notes).toContain(`hooks.Stop[0].hooks[4]: \`…${codexDispatchCommand("stop").slice(-60)}\` already hands this event to hookrun; skipped`);
    expect(notes).toContain("hooks.Notification: not an event of Codex");
  });

  it("a second import adds nothing twice; bad input is refused with a reason", () => {
    const settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: "./check.sh" }] }] } };
    const first = codex.import!(settings, []);
    const again = codex.import!(settings, [{ event: "stop", name: first.hooks[0].hook.name, command: "./check.sh" }]);
    expect(again.hooks).toEqual([]);
    expect(() => codex.import!([], [])).toThrow(/JSON object/);
    expect(() => codex.import!({ hooks: [] }, [])).toThrow();
  });
});

describe("Codex's SessionEnd and Interrupt (0.169+)", () => {
  /** As Codex 0.171.0 sends them (SessionEnd seen in a real `codex exec`; Interrupt from its input schema). */
  const sessionEnd = { session_id: base.session_id, transcript_path: base.transcript_path, cwd: "/p", hook_event_name: "SessionEnd", reason: "other" };
  const interrupt = { ...base, hook_event_name: "Interrupt" };

  it("SessionEnd is session_end, Interrupt is generation_interrupt (its turn_id kept under host)", () => {
    expect(codex.events.SessionEnd).toBe("session_end");
    expect(codex.events.Interrupt).toBe("generation_interrupt");
    expect(codex.read(sessionEnd, "session_end")).toMatchObject({ reason: "other", host: { name: "codex", event: "SessionEnd" } });
    expect(codex.read(interrupt, "generation_interrupt").host).toMatchObject({ name: "codex", event: "Interrupt", turn_id: base.turn_id });
  });

  it("hooks install codex writes their entries when hooks.yaml has hooks for them", () => {
    const project = (e: string) => dispatchCommand("codex", e, { root: null, bin: null, exec: true, walkUp: ".codex" });
    const e = entriesOf(codex, config("/p", [hook("bye", "session_end"), hook("stopped", "generation_interrupt")]), project);
    expect(Object.keys(e).sort()).toEqual(["Interrupt", "SessionEnd"]);
    expect(e.SessionEnd).toEqual([{ hooks: [{ type: "command", command: codexDispatchCommand("session_end"), timeout: 20 }] }]);
    expect((e.Interrupt[0].hooks as { command: string }[])[0].command).toBe(codexDispatchCommand("generation_interrupt"));
  });

  it("answered by Codex's rules: Interrupt takes systemMessage alone, for the user; a block, a stop, context and failures are said there", async () => {
    const p = sandbox({
      config: [
        "hooks:",
        "  generation_interrupt:",
        "    - {name: note, command: sh ./note.sh}",
        "    - {name: halt, command: sh ./halt.sh}",
        "    - {name: broken, command: sh ./broken.sh}",
        "  session_end:",
        "    - {name: bye, command: sh ./bye.sh}",
        "",
      ].join("\n"),
    });
    p.write("note.sh", "cat > seen.json; echo 'turn interrupted'\n");
    p.write("halt.sh", `echo '{"continue": false, "stopReason": "enough"}'\n`);
    p.write("broken.sh", "echo oops >&2; exit 1\n");
    p.write("bye.sh", "cat > bye.json; echo 'saved the notes'\n");
    const run = (event: string, payload: unknown) => runMain(["--trust", "run", event, "--host", "codex"], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
    const i = await run("Interrupt", { ...interrupt, cwd: p.dir });
    expect(i.code).toBe(0);
    const answer = JSON.parse(i.stdout);
    expect(Object.keys(answer)).toEqual(["systemMessage"]);
    expect(answer.systemMessage).toContain("turn interrupted");
    expect(answer.systemMessage).toContain("the hooks asked to stop the agent (enough), which Codex cannot do on Interrupt");
    expect(answer.systemMessage).toMatch(/broken.*exit code 1/);
    const seen = JSON.parse(readFileSync(p.path("seen.json"), "utf8"));
    expect(seen).toMatchObject({ event: "generation_interrupt", host: { name: "codex", event: "Interrupt", turn_id: base.turn_id } });
    const end = await run("SessionEnd", { ...sessionEnd, cwd: p.dir });
    expect(JSON.parse(end.stdout)).toEqual({ systemMessage: "saved the notes" });
    expect(JSON.parse(readFileSync(p.path("bye.json"), "utf8"))).toMatchObject({ event: "session_end", reason: "other", host: { event: "SessionEnd" } });
  });

  it("hooks import codex puts an Interrupt hook under generation_interrupt, not a custom event", () => {
    const r = codex.import!({ hooks: { Interrupt: [{ hooks: [{ type: "command", command: "./on-interrupt.sh" }] }], SessionEnd: [{ hooks: [{ type: "command", command: "./bye.sh" }] }] } }, []);
    expect(r.hooks.map((h) => h.event).sort()).toEqual(["generation_interrupt", "session_end"]);
    expect(Object.keys(r.customEvents)).toEqual([]);
  });
});
