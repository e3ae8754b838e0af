import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { type CliProcess, runMain, spawnCli } from "./helpers/cli.js";
import { sandbox, type Sandbox } from "./helpers/sandbox.js";
import { request, untilListening } from "./helpers/server.js";
import { asyncRunLogRecord } from "../src/async/backend.js";
import { appendRunLog } from "../src/runner/runLog.js";

/**
 * The run log as a record a user can follow and replay (docs/cli.md#hooks-log): ids, host, decision and
 * reason on every record; contexts kept only when recording is on (project config, environment,
 * `hooks run --record`), bounded; `hooks log ID` shows a run in full and `hooks log --fixture ID`
 * turns it into a `hooks test` fixture that replays to the same decision and hooks.
 */

const GUARD = [
  "hooks:",
  "  pre_tool_use:",
  "    - name: guard",
  "      matcher: Bash",
  `      command: 'if grep -q "rm -rf"; then echo "rm -rf is not allowed here" >&2; exit 2; fi'`,
  "    - name: audit",
  "      command: 'true'",
  "  stop:",
  "    - name: flaky",
  "      command: 'exit 3'",
  "    - name: slow",
  "      timeout: 200ms",
  "      command: 'sleep 5'",
  "",
].join("\n");

const claudePayload = (command: string, extra: Record<string, unknown> = {}) => ({
  session_id: "s-claude",
  transcript_path: "",
  cwd: "/tmp",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "toolu_1",
  ...extra,
});

function setup(config = GUARD): Sandbox {
  const sb = sandbox({ config });
  return sb;
}

const hooks = (sb: Sandbox, args: string[], input = "", env: Record<string, string> = {}) => runMain(["--trust", ...args], { cwd: sb.dir, env: { ...sb.env, ...env }, input });
const logFile = (sb: Sandbox) => path.join(sb.env.HOOKS_STATE_DIR, "runs.jsonl");
const records = (sb: Sandbox) =>
  readFileSync(logFile(sb), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const last = (sb: Sandbox) => records(sb).at(-1);

describe("run log records (docs/cli.md#hooks-log)", () => {
  it("an agent's event that matched no hook is logged too (the CLI's runs), so --follow shows it reached hookrun; the library's is not", async () => {
    const sb = setup();
    const r = await hooks(sb, ["run", "PreToolUse", "--host", "claude"], JSON.stringify({ ...claudePayload("ls"), tool_name: "Read", tool_input: { file_path: "a" } }));
    expect(r.code).toBe(0);
    const rec = last(sb);
    expect(rec).toMatchObject({ event: "pre_tool_use", host: "claude", hooks: [{ name: "audit" }], decision: "none" });
    const none = await hooks(sb, ["run", "session_start", "--host", "claude"], JSON.stringify({ ...claudePayload("ls"), hook_event_name: "SessionStart", source: "startup" }));
    expect(none.code).toBe(0);
    expect(last(sb)).toMatchObject({ event: "session_start", host: "claude", hooks: [], decision: "none" });
    const before = records(sb).length;
    const { createRunner } = await import("../src/runner/createRunner.js");
    const runner = createRunner(await sb.load(), { env: sb.processEnv, cwd: sb.dir, trust: "all" });
    await runner.trigger("session_start", { session_id: "lib" });
    await runner.close();
    expect(records(sb).length).toBe(before);
  });

  it("every record has a unique, sortable, printable id, and the run's host, decision and reason", async () => {
    const sb = setup();
    for (let i = 0; i < 6; i++) await hooks(sb, ["run", "pre_tool_use", "--set", "tool_name=Read"]);
    const blocked = await hooks(sb, ["run", "PreToolUse", "--host", "claude"], JSON.stringify(claudePayload("rm -rf /")));
    expect(JSON.parse(blocked.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const all = records(sb);
    const ids = all.map((r) => r.id);
    expect(ids.every((id) => /^[0-9a-z]{12}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(all[0]).toMatchObject({ decision: "none", reason: null });
    expect(all[0].host).toBeUndefined();
    expect(all.at(-1)).toMatchObject({ host: "claude", decision: "block", reason: "rm -rf is not allowed here", blocked: true });
  });

  it("a claude-dialect hook's ask or allow is the run's decision, with its reason", async () => {
    const sb = setup(
      [
        "hooks:",
        "  pre_tool_use:",
        "    - name: asker",
        "      dialect: claude",
        `      command: 'echo "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"ask\\",\\"permissionDecisionReason\\":\\"check the diff\\"}}"'`,
        "",
      ].join("\n"),
    );
    await hooks(sb, ["run", "PreToolUse", "--host", "claude"], JSON.stringify(claudePayload("ls")));
    expect(last(sb)).toMatchObject({ decision: "ask", reason: "check the diff", host: "claude" });
  });

  it("records of an older hookrun (no id, host or decision) still load", async () => {
    const sb = setup();
    mkdirSync(sb.env.HOOKS_STATE_DIR, { recursive: true, mode: 0o700 });
    const old = {
      time: "2026-01-01T00:00:00.000Z",
      project_dir: sb.dir,
      event: "stop",
      session_id: "old",
      duration_ms: 5,
      blocked: true,
      hooks: [{ name: "a", status: "blocked", exit_code: 2, duration_ms: 4 }],
    };
    writeFileSync(logFile(sb), `${JSON.stringify(old)}\n`, { mode: 0o600 });
    const text = await hooks(sb, ["log"]);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toBe(`-  2026-01-01T00:00:00.000Z  stop  -  session old  BLOCKED  5ms  a blocked(2)\n`);
    expect(JSON.parse((await hooks(sb, ["log", "--json"])).stdout)).toEqual([old]);
  });
});

describe("recording contexts (opt-in: contexts hold private data)", () => {
  const SECRET = "sk-secret-0123456789";

  it("is off by default: the context is not in the file", async () => {
    const sb = setup();
    await hooks(sb, ["run", "pre_tool_use", "--set", `tool_input.command=echo ${SECRET}`, "--set", "tool_name=Bash"]);
    await hooks(sb, ["run", "PreToolUse", "--host", "claude"], JSON.stringify(claudePayload(`echo ${SECRET}`)));
    const text = readFileSync(logFile(sb), "utf8");
    expect(text.trim().split("\n")).toHaveLength(2);
    expect(text).not.toContain(SECRET);
    expect(records(sb).every((r) => r.context === undefined && r.context_omitted === undefined)).toBe(true);
    const fixture = await hooks(sb, ["log", "--fixture", last(sb).id]);
    expect(fixture.code).toBe(1);
    expect(fixture.stdout).toBe("");
    expect(fixture.stderr).toMatch(/cannot become a fixture: its context was not recorded.*log: \{context: true\}.*HOOKS_LOG_CONTEXT=1.*hooks run --record/);
  });

  it("per run: hooks run --record keeps the context (with a host: the payload as sent)", async () => {
    const sb = setup();
    await hooks(sb, ["run", "pre_tool_use", "--record", "--set", "tool_name=Bash", "--set", "tool_input.command=ls", "--session-id", "s9"]);
    expect(last(sb).context).toEqual({ tool_name: "Bash", tool_input: { command: "ls" }, session_id: "s9" });
    const payload = claudePayload("ls -la");
    await hooks(sb, ["run", "PreToolUse", "--host", "claude", "--record"], JSON.stringify(payload));
    expect(last(sb)).toMatchObject({ host: "claude", context: payload });
  });

  it("per project: log.context in hooks.yaml, turned off again in hooks.local.yaml; HOOKS_LOG_CONTEXT wins over both", async () => {
    const sb = setup(`log:\n  context: true\n${GUARD}`);
    await hooks(sb, ["run", "stop", "--session-id", "p1"]);
    expect(last(sb).context).toEqual({ session_id: "p1" });
    await hooks(sb, ["run", "stop", "--session-id", "p2"], "", { HOOKS_LOG_CONTEXT: "0" });
    expect(last(sb).context).toBeUndefined();
    sb.write("hooks.local.yaml", "log: {context: false}\n");
    await hooks(sb, ["run", "stop", "--session-id", "p3"]);
    expect(last(sb).context).toBeUndefined();
    await hooks(sb, ["run", "stop", "--session-id", "p4"], "", { HOOKS_LOG_CONTEXT: "1" });
    expect(last(sb).context).toEqual({ session_id: "p4" });
  });

  it("log: is checked against the schema", async () => {
    const sb = setup(`log:\n  contxt: true\n${GUARD}`);
    const r = await hooks(sb, ["validate"]);
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/^hooks.yaml:2:3: error: unknown key `contxt` in `log` \(did you mean `context`\?\)$/m);
  });

  it("a context over 64 KiB is not kept: context_omitted says why", async () => {
    const sb = setup();
    await hooks(sb, ["run", "stop", "--record"], JSON.stringify({ big: "x".repeat(70 * 1024) }));
    const r = last(sb);
    expect(r.context).toBeUndefined();
    expect(r.context_omitted).toMatch(/^too large: \d+ bytes of JSON, over the 65536-byte limit$/);
    expect(readFileSync(logFile(sb), "utf8").length).toBeLessThan(4096);
    const fixture = await hooks(sb, ["log", "--fixture", r.id]);
    expect(fixture.code).toBe(1);
    expect(fixture.stderr).toMatch(/its context was not recorded \(too large/);
    expect((await hooks(sb, ["log", r.id])).stdout).toMatch(/^context: not kept \(too large/m);
  });

  it("hooks serve records the host route's payload and the trigger route's context, as the CLI does", async () => {
    const sb = setup(`log:\n  context: true\n${GUARD}`);
    const proc = spawnCli(["serve", "--socket", path.join(sb.root, "s.sock")], { cwd: sb.dir, env: { ...sb.env, HOOKS_TRUST: "1" } });
    servers.push(proc);
    await untilListening(proc);
    const target = { socketPath: path.join(sb.root, "s.sock") };
    // a session of the server's own project (it refuses another's)
    const payload = claudePayload("rm -rf /", { cwd: sb.dir });
    const json = { "content-type": "application/json" };
    expect((await request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "srv" }), json)).status).toBe(200);
    // The warm route is for 127.0.0.1 with a token; on the socket it is the same handler.
    const warm = await request(target, "POST", "/v1/hosts/claude/PreToolUse", JSON.stringify(payload), json);
    expect(warm.json.hookSpecificOutput.permissionDecision).toBe("deny");
    expect((await request(target, "POST", "/v1/trigger/stop?record=0", JSON.stringify({ session_id: "srv2" }), json)).status).toBe(200);
    const [stop, host, unrecorded] = records(sb);
    expect(stop).toMatchObject({ event: "stop", context: { session_id: "srv" }, decision: "none" });
    expect(stop.host).toBeUndefined();
    expect(host).toMatchObject({ event: "pre_tool_use", host: "claude", context: payload, decision: "block", reason: "rm -rf is not allowed here" });
    expect(unrecorded.session_id).toBe("srv2");
    expect(unrecorded.context).toBeUndefined();
  });
});

const servers: CliProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGTERM");
    await s.exited;
  }
});

describe("hooks log ID: one run in full", () => {
  it("shows every field, each hook's status, exit code and duration, the decision, the reason and the context; --json the record", async () => {
    const sb = setup();
    await hooks(sb, ["run", "PreToolUse", "--host", "claude", "--record"], JSON.stringify(claudePayload("rm -rf /")));
    const rec = last(sb);
    const shown = await hooks(sb, ["log", rec.id.slice(0, 10)]);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split("\n");
    expect(lines.slice(0, 9)).toEqual([
      `run       ${rec.id}`,
      `time      ${rec.time}`,
      `project   ${sb.dir}`,
      "event     pre_tool_use",
      "host      claude",
      "session   s-claude",
      expect.stringMatching(/^duration {2}\d+ms$/),
      "decision  block",
      "reason    rm -rf is not allowed here",
    ]);
    expect(lines[9]).toBe("hooks (in run order):");
    expect(lines[10]).toMatch(/^ {2}guard {2}blocked {2}exit 2 {2}\d+ms$/);
    expect(lines[11]).toMatch(/^ {2}audit {2}skipped {2}no exit code {2}0ms$/);
    expect(lines[12]).toBe("context (the payload claude sent):");
    expect(JSON.parse(lines.slice(13).join("\n"))).toEqual(claudePayload("rm -rf /"));
    expect(JSON.parse((await hooks(sb, ["log", rec.id, "--json"])).stdout)).toEqual(rec);
  });

  it("an unknown id and an ambiguous prefix are clear errors (exit 1)", async () => {
    const sb = setup();
    await hooks(sb, ["run", "stop"]);
    await hooks(sb, ["run", "stop"]);
    const unknown = await hooks(sb, ["log", "zzzz"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toMatch(/^hooks: no run zzzz in .*runs\.jsonl .*`hooks log` lists runs with their ids/);
    const ambiguous = await hooks(sb, ["log", ""]);
    expect(ambiguous.code).toBe(1);
    const [a] = records(sb);
    const both = await hooks(sb, ["log", a.id.slice(0, 1)]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/2 runs have ids starting with .*give more of the id/);
    const json = await hooks(sb, ["log", "zzzz", "--json"]);
    expect(JSON.parse(json.stdout).error.message).toMatch(/no run zzzz/);
  });
});

describe("hooks log --fixture ID: a recorded run replays to the same decision and hooks", () => {
  /** Replay a fixture through `hooks run` (with its host) and read what that run decided from the log. */
  async function replay(sb: Sandbox, fixture: { event: string; host?: string; context: unknown }) {
    const args = ["run", fixture.event, ...(fixture.host ? ["--host", fixture.host] : ["--json"])];
    const out = await hooks(sb, args, JSON.stringify(fixture.context));
    const rec = last(sb);
    const ran = rec.hooks.filter((h: { status: string }) => h.status !== "skipped" && h.status !== "cancelled").map((h: { name: string }) => h.name);
    return { out, decision: rec.decision, reason: rec.reason ?? undefined, hooks_ran: ran };
  }

  it("a Claude payload through --host claude: the fixture has event, host, payload and the expectations", async () => {
    const sb = setup();
    const payload = claudePayload("rm -rf /");
    const original = await hooks(sb, ["run", "PreToolUse", "--host", "claude", "--record"], JSON.stringify(payload));
    const rec = last(sb);
    const out = await hooks(sb, ["log", "--fixture", rec.id]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(out.stdout.startsWith(`# recorded run ${rec.id} of ${sb.dir}`)).toBe(true);
    const fixture = parseYaml(out.stdout);
    expect(fixture).toEqual({
      name: `pre_tool_use from claude at ${rec.time}`,
      event: "pre_tool_use",
      host: "claude",
      context: payload,
      expect: { decision: "block", reason: "rm -rf is not allowed here", hooks_ran: ["guard"] },
    });
    expect(out.stdout).toContain("hooks_ran: [ guard ]");
    const again = await replay(sb, fixture);
    expect({ decision: again.decision, reason: again.reason, hooks_ran: again.hooks_ran }).toEqual(fixture.expect);
    // The host's answer is the same too.
    expect(again.out.stdout).toBe(original.stdout);
  });

  it("an agent-code pre_tool_use (the tool only in AGENT_CODE_HOOK_TOOL): the fixture keeps the variables its adapter read as env, and hooks test replays the block", async () => {
    const sb = setup();
    const payload = { command: "rm -rf /" };
    const agentEnv = { AGENT_CODE_HOOK_TOOL: "Bash", AGENT_CODE_HOOK_EVENT: "pre_tool_use", AGENT_CODE_HOOK_CONTEXT: "not read by the adapter", UNRELATED_SECRET: "sk-123" };
    // Recording off: neither the payload nor the variables are kept.
    await hooks(sb, ["run", "pre_tool_use", "--host", "agent-code"], JSON.stringify(payload), agentEnv);
    expect(last(sb).context).toBeUndefined();
    expect(last(sb).env).toBeUndefined();
    const original = await hooks(sb, ["run", "pre_tool_use", "--host", "agent-code", "--record"], JSON.stringify(payload), agentEnv);
    expect(original).toMatchObject({ code: 2, stderr: "rm -rf is not allowed here\n" });
    const rec = last(sb);
    // Only the variables the adapter reads (HostAdapter.readEnv), only those set.
    expect(rec).toMatchObject({ host: "agent-code", decision: "block", context: payload, env: { AGENT_CODE_HOOK_TOOL: "Bash", AGENT_CODE_HOOK_EVENT: "pre_tool_use" } });
    expect(Object.keys(rec.env).sort()).toEqual(["AGENT_CODE_HOOK_EVENT", "AGENT_CODE_HOOK_TOOL"]);
    expect((await hooks(sb, ["log", rec.id])).stdout).toContain("env (read by agent-code's adapter):\n  AGENT_CODE_HOOK_TOOL=Bash\n  AGENT_CODE_HOOK_EVENT=pre_tool_use\n");
    const out = await hooks(sb, ["log", "--fixture", rec.id]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    const fixture = parseYaml(out.stdout);
    expect(fixture).toEqual({
      name: `pre_tool_use from agent-code at ${rec.time}`,
      event: "pre_tool_use",
      host: "agent-code",
      env: { AGENT_CODE_HOOK_TOOL: "Bash", AGENT_CODE_HOOK_EVENT: "pre_tool_use" },
      context: payload,
      expect: { decision: "block", reason: "rm -rf is not allowed here", hooks_ran: ["guard"] },
    });
    // hooks test, in an environment without the agent's variables: the fixture's env gives them.
    writeFileSync(sb.path("rec.hooktest.yaml"), out.stdout);
    const test = await hooks(sb, ["test", "rec.hooktest.yaml", "--json"]);
    expect(test.code).toBe(0);
    expect(JSON.parse(test.stdout)).toMatchObject({ passed: 1, failed: 0, errors: 0 });
  });

  it("a run without a host: the fixture has the context; replayed, the same hooks run", async () => {
    const sb = setup();
    await hooks(sb, ["run", "stop", "--record", "--session-id", "nohost"]);
    const rec = last(sb);
    const fixture = parseYaml((await hooks(sb, ["log", "--fixture", rec.id])).stdout);
    expect(fixture).toEqual({ name: `stop at ${rec.time}`, event: "stop", context: { session_id: "nohost" }, expect: { decision: "none", hooks_ran: ["flaky", "slow"] } });
    const again = await replay(sb, fixture);
    expect({ decision: again.decision, hooks_ran: again.hooks_ran }).toEqual(fixture.expect);
    expect(JSON.parse(again.out.stdout).hooks.map((h: { status: string }) => h.status)).toEqual(["failed", "timed_out"]);
  });

  it("an allow from a non-host run (a Bash call that passes): decision none, both hooks ran", async () => {
    const sb = setup();
    await hooks(sb, ["run", "pre_tool_use", "--record", "--set", "tool_name=Bash", "--set", "tool_input.command=ls"]);
    const fixture = parseYaml((await hooks(sb, ["log", "--fixture", last(sb).id])).stdout);
    expect(fixture.expect).toEqual({ decision: "none", hooks_ran: ["guard", "audit"] });
    const again = await replay(sb, fixture);
    expect({ decision: again.decision, hooks_ran: again.hooks_ran }).toEqual(fixture.expect);
  });
});

describe("hooks log: filters (the same for the list and --follow)", () => {
  it("--event in any spelling, --host, --session, --hook, --status; this project only unless --all-projects", async () => {
    const sb = setup();
    await hooks(sb, ["run", "PreToolUse", "--host", "claude"], JSON.stringify(claudePayload("rm -rf /")));
    await hooks(sb, ["run", "pre_tool_use", "--session-id", "plain", "--set", "tool_name=Read"]);
    await hooks(sb, ["run", "stop", "--session-id", "stopper"]);
    const other = path.join(sb.root, "other");
    mkdirSync(other);
    writeFileSync(path.join(other, "hooks.yaml"), "hooks:\n  stop:\n    - {name: elsewhere, command: 'true'}\n");
    await runMain(["--trust", "run", "stop", "--session-id", "other"], { cwd: other, env: sb.env });
    const sessions = async (...args: string[]) => JSON.parse((await hooks(sb, ["log", "--json", ...args])).stdout).map((r: { session_id: string }) => r.session_id);
    expect(await sessions()).toEqual(["s-claude", "plain", "stopper"]);
    expect(await sessions("--all-projects")).toEqual(["s-claude", "plain", "stopper", "other"]);
    expect(await sessions("--event", "PreToolUse")).toEqual(["s-claude", "plain"]);
    expect(await sessions("--event", "tool.execute.pre")).toEqual(["s-claude", "plain"]);
    expect(await sessions("--host", "claude")).toEqual(["s-claude"]);
    expect(await sessions("--session", "plain")).toEqual(["plain"]);
    expect(await sessions("--hook", "flaky")).toEqual(["stopper"]);
    expect(await sessions("--hook", "elsewhere", "--all-projects")).toEqual(["other"]);
    expect(await sessions("--status", "blocked")).toEqual(["s-claude"]);
    expect(await sessions("--status", "ok")).toEqual(["plain"]);
    expect(await sessions("--status", "failed")).toEqual(["stopper"]);
    expect(await sessions("--status", "timeout")).toEqual(["stopper"]);
    expect(await sessions("--status", "blocked,ok")).toEqual(["s-claude", "plain"]);
    expect(await sessions("--status", "ok", "--all-projects")).toEqual(["plain", "other"]);
    const bad = await hooks(sb, ["log", "--status", "broken"]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/--status broken: use ok, blocked, failed, timeout/);
    const text = await hooks(sb, ["log", "--host", "claude"]);
    expect(text.stdout).toMatch(/^[0-9a-z]{12} {2}\S+Z {2}pre_tool_use {2}claude {2}session s-claude {2}BLOCKED {2}\d+ms {2}guard blocked\(2\), audit skipped\n$/);
  });

  it("--status expired is every async run that expired undelivered, whatever status its result had; those lines match no other status", async () => {
    const sb = setup();
    await hooks(sb, ["run", "pre_tool_use", "--session-id", "plain", "--set", "tool_name=Read"]);
    // The lines as asyncRunLogRecord writes them: the library's and hooks serve's in-memory backend
    // keeps the result's own status on an expired line; the CLI's sweep has no result, so "expired".
    const run = { event: "stop", started_at: "2026-01-01T00:00:00.000Z", duration_ms: 7, exit_code: 0, finished_at: "2026-01-01T00:00:01.000Z" };
    const lines = [
      asyncRunLogRecord({ ...run, name: "notify", session_id: "finished-ok", status: "ok" }, sb.dir, "finished"),
      asyncRunLogRecord({ ...run, name: "notify", session_id: "finished-failed", status: "failed", exit_code: 1 }, sb.dir, "finished"),
      asyncRunLogRecord({ ...run, name: "notify", session_id: "memory-ok", status: "ok" }, sb.dir, "expired"),
      asyncRunLogRecord({ ...run, name: "notify", session_id: "memory-failed", status: "failed", exit_code: 1 }, sb.dir, "expired"),
      asyncRunLogRecord({ name: "notify", event: "stop", session_id: "swept", started_at: run.started_at }, sb.dir, "expired"),
    ];
    for (const line of lines) appendRunLog(sb.env.HOOKS_STATE_DIR, line);
    const sessions = async (...args: string[]) => {
      const r = await hooks(sb, ["log", "--json", ...args]);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      return JSON.parse(r.stdout).map((x: { session_id: string }) => x.session_id);
    };
    expect(await sessions("--status", "expired")).toEqual(["memory-ok", "memory-failed", "swept"]);
    expect(await sessions("--status", "ok")).toEqual(["plain", "finished-ok"]);
    expect(await sessions("--status", "failed")).toEqual(["finished-failed"]);
    expect(await sessions("--status", "failed,expired")).toEqual(["finished-failed", "memory-ok", "memory-failed", "swept"]);
    expect((await hooks(sb, ["log", "--status", "expired"])).stdout.split("\n").filter(Boolean)).toHaveLength(3);
  });
});

describe("hostile records in the state dir", () => {
  it("wrong types, forged fields and huge lines are skipped; control characters are shown escaped", async () => {
    const sb = setup();
    await hooks(sb, ["run", "stop", "--record", "--session-id", "real"]);
    const good = last(sb);
    const base = { time: "2026-01-01T00:00:00.000Z", project_dir: sb.dir, event: "stop", session_id: "x", duration_ms: 1, blocked: false, hooks: [] };
    const lines = [
      { ...base, id: 42 },
      { ...base, id: "ABC\u001b[2J" },
      { ...base, host: "claude\u001b[31m" },
      { ...base, decision: "maybe" },
      { ...base, reason: 7 },
      { ...base, reason: "r".repeat(5000) },
      { ...base, context: ["not", "an", "object"] },
      { ...base, context_omitted: 1 },
      { ...base, context: {}, env: { "BAD NAME\u001b": "x" } },
      { ...base, context: {}, env: { AGENT_CODE_HOOK_TOOL: 1 } },
      { ...base, hooks: [{ name: "a", status: "ok", exit_code: "0", duration_ms: 1 }] },
    ].map((r) => JSON.stringify(r));
    const escaped = { ...base, id: "zzzzzzzzzzzz", session_id: "s\u001b[2J", reason: "bad\u0007", decision: "block", blocked: true, context: { prompt: "\u001b]0;owned\u0007" } };
    const text = `${readFileSync(logFile(sb), "utf8")}${lines.join("\n")}\n{"cut": \n${"y".repeat(2 * 1024 * 1024)}\n${JSON.stringify(escaped)}\n`;
    writeFileSync(logFile(sb), text);
    const list = await hooks(sb, ["log"]);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(`hooks: skipped 13 malformed lines in ${logFile(sb)}\n`);
    expect(list.stdout.split("\n").filter(Boolean)).toHaveLength(2);
    expect(list.stdout).toContain("session s⟨ESC⟩[2J");
    expect(list.stdout).not.toContain("\u001b");
    const shown = await hooks(sb, ["log", "zzzz"]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(shown.stdout).toContain("reason    bad⟨BEL⟩");
    expect((await hooks(sb, ["log", good.id])).code).toBe(0);
  });

  it("a fixture of a run with control characters stays valid YAML and carries them escaped", async () => {
    const sb = setup();
    await hooks(sb, ["run", "stop", "--record", "--set", "prompt=\u001b[2Jhi"]);
    const out = await hooks(sb, ["log", "--fixture", last(sb).id]);
    expect(out.stdout).not.toContain("\u001b");
    expect(parseYaml(out.stdout).context.prompt).toBe("\u001b[2Jhi");
  });

  it("a recorded key `<<` is written quoted: the fixture reads back the context as recorded, never merged (nor refused)", async () => {
    const sb = setup();
    const context = {
      session_id: "merge",
      tool_name: "Bash",
      tool_input: { "<<": { command: "rm -rf /" }, other: 1 },
      note: { "<<": "text" },
      list: [{ "<<": [{ a: 1 }] }],
    };
    await hooks(sb, ["run", "pre_tool_use", "--record"], JSON.stringify(context));
    const rec = last(sb);
    expect(rec.context).toEqual(context);
    const out = await hooks(sb, ["log", "--fixture", rec.id]);
    expect(out.stdout).toContain('"<<":');
    writeFileSync(sb.path("merge.hooktest.yaml"), out.stdout);
    // hooks test reads the file as it reads every fixture; its run records the context it read.
    const test = await hooks(sb, ["test", "merge.hooktest.yaml", "--json"], "", { HOOKS_LOG_CONTEXT: "1" });
    expect(test).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(test.stdout)).toMatchObject({ passed: 1, failed: 0, errors: 0 });
    expect(last(sb).context).toEqual(context);
  });

  it("a runs.jsonl that is not a file is not a log", async () => {
    const sb = setup();
    mkdirSync(logFile(sb), { recursive: true });
    const r = await hooks(sb, ["log"]);
    expect(r.code).toBe(0);
    expect(existsSync(logFile(sb))).toBe(true);
  });
});
