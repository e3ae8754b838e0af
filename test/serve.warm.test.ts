import { mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliProcess, runCli, spawnCli } from "./helpers/cli.js";
import { sandbox, waitGone } from "./helpers/sandbox.js";
import { request, untilListening } from "./helpers/server.js";

/**
 * Warm mode's server side (src/hosts/warm.ts behind `hooks serve`): POST /v1/hosts/{host}/{event}
 * takes the host's payload and answers what the host's http hook reads (for Claude Code: the JSON
 * a command hook prints, status 200), with the server's token, limits and trust rules.
 */

const TOKEN = "warm-test-token-0123456789abcdef";
const CONFIG = [
  "hooks:",
  "  pre_tool_use:",
  "    - name: no-rm",
  "      matcher: Bash",
  `      command: 'if grep -q "rm -rf" ; then echo "rm -rf is not allowed here" >&2; exit 2; fi'`,
  "    - name: claude-guard",
  "      matcher: Write",
  "      dialect: claude",
  "      command: 'echo written files are frozen >&2; exit 2'",
  "  user_prompt_submit:",
  "    - name: branch",
  "      command: echo on branch main",
  "",
].join("\n");

/** A Claude Code payload of a session in `cwd` (the server's project: it refuses another's). */
const claudePayload = (cwd: string, event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: "s-warm", transcript_path: "", cwd, permission_mode: "default", hook_event_name: event, ...extra });

const servers: CliProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
    await s.exited;
  }
});

async function startWarm(p: ReturnType<typeof sandbox>, env: Record<string, string | undefined> = {}) {
  const proc = spawnCli(["serve", "--port", "0"], { cwd: p.dir, env: { ...p.env, HOOKS_SERVE_TOKEN: TOKEN, ...env } });
  servers.push(proc);
  const url = await untilListening(proc);
  return { proc, target: { port: Number(new URL(url).port) } };
}

const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

describe("hooks serve: POST /v1/hosts/{host}/{event} (warm mode)", () => {
  it("answers a Claude Code payload with the JSON a command hook would print: a deny with the guard's reason, context for the prompt", async () => {
    const p = sandbox({ config: CONFIG });
    const { target } = await startWarm(p, { HOOKS_TRUST: "1" });
    const deny = await request(target, "POST", "/v1/hosts/claude/PreToolUse", claudePayload(p.dir, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" }, tool_use_id: "t1" }), auth);
    expect(deny.status).toBe(200);
    expect(deny.json).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "rm -rf is not allowed here" } });
    const allow = await request(target, "POST", "/v1/hosts/claude/PreToolUse", claudePayload(p.dir, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t2" }), auth);
    expect(allow).toEqual(expect.objectContaining({ status: 200, json: {} }));
    // A claude-dialect exit 2 is an exit code on a command hook; over HTTP it is the JSON deny.
    const write = await request(target, "POST", "/v1/hosts/claude/PreToolUse", claudePayload(p.dir, "PreToolUse", { tool_name: "Write", tool_input: { file_path: "a" }, tool_use_id: "t3" }), auth);
    expect(write.json.hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "written files are frozen" });
    // The event may be spelled as the host spells it or canonically.
    const ctx = await request(target, "POST", "/v1/hosts/claude/user_prompt_submit", claudePayload(p.dir, "UserPromptSubmit", { prompt: "hi" }), auth);
    expect(ctx.json).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "on branch main" } });
  });

  it("answers a Copilot CLI payload with its flat JSON; with ?fail_closed=1&deadline=N it stops a guard (one ignoring SIGTERM too) and denies before Copilot's timeout, counted from the request", async () => {
    const stubborn = [
      "    - name: stubborn",
      "      matcher: Bash",
      `      command: 'grep -q slow || exit 0; trap "" TERM; echo $$ > "$HOOK_PROJECT_DIR/stubborn.pid"; sleep 30'`,
      "      timeout: 60s",
      "      on_failure: block",
    ];
    const p = sandbox({ config: CONFIG.replace("  user_prompt_submit:\n", `${stubborn.join("\n")}\n  user_prompt_submit:\n`) });
    const { target } = await startWarm(p, { HOOKS_TRUST: "1" });
    const payload = (command: string) => JSON.stringify({ sessionId: "s-cp", timestamp: 1, cwd: p.dir, toolName: "bash", toolArgs: { command, description: "x" } });
    const deny = await request(target, "POST", "/v1/hosts/copilot/preToolUse", payload("rm -rf /"), auth);
    expect(deny).toEqual(expect.objectContaining({ status: 200, json: { permissionDecision: "deny", permissionDecisionReason: "rm -rf is not allowed here" } }));
    expect((await request(target, "POST", "/v1/hosts/copilot/preToolUse?fail_closed=1&deadline=2", payload("ls"), auth)).json).toEqual({});
    // as Copilot does, the request gives up at its timeout (2 s): the answer must come before
    const late = await fetch(`http://127.0.0.1:${target.port}/v1/hosts/copilot/preToolUse?fail_closed=1&deadline=2`, {
      method: "POST",
      headers: auth,
      body: payload("slow"),
      signal: AbortSignal.timeout(2000),
    }).then(
      async (r) => ({ status: r.status, json: (await r.json()) as Record<string, string> }),
      (error: Error): { status: number; json: Record<string, string> } => ({ status: 0, json: { error: `the host gave up before the answer: ${error.message}` } }),
    );
    expect(late.status, JSON.stringify(late.json)).toBe(200);
    expect(late.json.permissionDecision).toBe("deny");
    expect(late.json.permissionDecisionReason).toMatch(/did not finish before Copilot CLI would kill hookrun \(2 s\)/);
    const pid = Number(readFileSync(p.path("stubborn.pid"), "utf8"));
    expect(await waitGone(pid), `the guard's sh ${pid} outlived the answer`).toBe(true);
    const bad = await request(target, "POST", "/v1/hosts/copilot/preToolUse?fail_closed=1&deadline=soon", payload("ls"), auth);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/deadline=soon: expected the seconds/);
  });

  it("Copilot CLI's call through Claude Code's warm entry (Copilot reads them too) is Copilot's: quiet where Copilot has hookrun entries of its own, else answered in Copilot's words", async () => {
    const p = sandbox({ config: CONFIG });
    const { target } = await startWarm(p, { HOOKS_TRUST: "1" });
    // Copilot's PascalCase payload: Claude's shape, an ISO timestamp, no permission_mode
    const pascal = JSON.stringify({ session_id: "s-cp", timestamp: "2026-11-29T13:00:00.000Z", cwd: p.dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" } });
    const alone = await request(target, "POST", "/v1/hosts/claude/PreToolUse", pascal, auth);
    expect(alone.json).toEqual({ permissionDecision: "deny", permissionDecisionReason: "rm -rf is not allowed here" });
    expect((await runCli(["install", "copilot"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const quiet = await request(target, "POST", "/v1/hosts/claude/PreToolUse", pascal, auth);
    expect(quiet).toEqual(expect.objectContaining({ status: 200, json: {} }));
    // Claude Code's own payload is still Claude's
    const claude = await request(target, "POST", "/v1/hosts/claude/PreToolUse", claudePayload(p.dir, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" }, tool_use_id: "t" }), auth);
    expect(claude.json.hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("refuses (409) an event from a session outside its project, so another project's guards never pass unrun; a subfolder or a symlink into the project is its own", async () => {
    const p = sandbox({ config: CONFIG });
    const { target } = await startWarm(p, { HOOKS_TRUST: "1" });
    const other = sandbox({ config: "hooks:\n  pre_tool_use:\n    - {name: deny-all, command: 'exit 2'}\n" });
    const call = (cwd: string) => claudePayload(cwd, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" });
    const elsewhere = await request(target, "POST", "/v1/hosts/claude/PreToolUse", call(other.dir), auth);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.json.error.message).toContain(`this hooks serve runs the hooks of ${realpathSync(p.dir)}, and the event comes from ${realpathSync(other.dir)}, outside it`);
    const copilot = await request(
      target,
      "POST",
      "/v1/hosts/copilot/preToolUse",
      JSON.stringify({ sessionId: "s", timestamp: 1, cwd: other.dir, toolName: "bash", toolArgs: { command: "ls" } }),
      auth,
    );
    expect(copilot.status).toBe(409);
    mkdirSync(p.path("sub"));
    symlinkSync(p.dir, path.join(other.root, "link"));
    for (const inside of [p.path("sub"), path.join(other.root, "link"), p.path("not-made-yet")])
      expect((await request(target, "POST", "/v1/hosts/claude/PreToolUse", call(inside), auth)).status, inside).toBe(200);
  });

  it("takes its bearer token from $HOOKS_SERVE_TOKEN (the variable the entries send), and refuses a short one", async () => {
    const p = sandbox({ config: CONFIG });
    const { target, proc } = await startWarm(p, { HOOKS_TRUST: "1" });
    expect(proc.stderr()).toMatch(/bearer token from \$HOOKS_SERVE_TOKEN/);
    expect(readFileSync(path.join(p.env.HOOKS_STATE_DIR, "serve.token"), "utf8").trim()).toBe(TOKEN);
    const none = await request(target, "POST", "/v1/hosts/claude/PreToolUse", claudePayload(p.dir, "PreToolUse", { tool_name: "Bash", tool_input: {} }));
    expect(none.status).toBe(401);
    const short = await runCli(["serve", "--port", "0"], { cwd: p.dir, env: { ...p.env, HOOKS_SERVE_TOKEN: "short" } });
    expect(short.code).toBe(64);
    expect(short.stderr).toMatch(/HOOKS_SERVE_TOKEN must be at least 16/);
  });

  it("an untrusted config: 200 with Claude's not-run answer (the user is told, never a silent pass)", async () => {
    const p = sandbox({ config: CONFIG });
    const { target } = await startWarm(p);
    const r = await request(target, "POST", "/v1/hosts/claude/PreToolUse", claudePayload(p.dir, "PreToolUse", { tool_name: "Bash", tool_input: { command: "rm -rf /" } }), auth);
    expect(r.status).toBe(200);
    expect(r.json.systemMessage).toMatch(/^hookrun: the project's hooks did not run: \S*hooks\.yaml is not trusted.*hooks -C .* trust/);
    const prompt = await request(target, "POST", "/v1/hosts/claude/UserPromptSubmit", claudePayload(p.dir, "UserPromptSubmit", { prompt: "hi" }), auth);
    expect(prompt.json.hookSpecificOutput.additionalContext).toMatch(/hooks are not running in this session/);
  });

  it("errors are statuses Claude Code counts as a failed hook: unknown host or event 404, bad body 400, wrong method 405", async () => {
    const p = sandbox({ config: CONFIG });
    const { target } = await startWarm(p, { HOOKS_TRUST: "1" });
    const host = await request(target, "POST", "/v1/hosts/nosuch/PreToolUse", "{}", auth);
    expect(host.status).toBe(404);
    expect(host.json.error.message).toMatch(/no host "nosuch"; hooks serve answers claude, codex/);
    expect((await request(target, "POST", "/v1/hosts/claude/NoSuchEvent", "{}", auth)).status).toBe(404);
    expect((await request(target, "POST", "/v1/hosts/claude/PreToolUse", "not json", auth)).status).toBe(400);
    expect((await request(target, "GET", "/v1/hosts/claude/PreToolUse", undefined, auth)).status).toBe(405);
  });
});
