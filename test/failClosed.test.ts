import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { READ_LIMITS } from "../src/fs/readBounded.js";
import { isDispatchCommand } from "../src/hosts/dispatch.js";
import { ownsEntry } from "../src/hosts/install.js";
import { dispatchTarget, installable, wantedFor } from "../src/hosts/installTargets.js";
import { hostEventName } from "../src/hosts/payload.js";
import { HOSTS } from "../src/hosts/adapters.js";
import type { HostAdapter, HostEntry, Payload } from "../src/hosts/types.js";
import { CLI, runCli } from "./helpers/cli.js";
import { linkHookrun, runEntry } from "./helpers/hostDispatch.js";
import { type Sandbox, sandbox, waitGone } from "./helpers/sandbox.js";

/**
 * Fail closed by choice (docs/fail-closed.md): with a pre_tool_use guard of `on_failure: block`,
 * whatever keeps hookrun from running it blocks the call in each host's own contract, and without
 * one the call goes on and the user is told. Each host's answer is judged by that host's rules
 * as its documentation states them (below), not by hookrun's adapter.
 */

type Answer = { code: number | null; stdout: string; stderr: string };

const json = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text.trim().split("\n").pop() ?? "");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
};
const specific = (o: Record<string, unknown>) => (o.hookSpecificOutput ?? {}) as Record<string, unknown>;

/** Whether each host, by its own contract (docs/hosts/<host>.md), refuses the tool call on this answer. */
const BLOCKS: Record<string, (a: Answer) => boolean> = {
  claude: (a) => a.code === 2 || specific(json(a.stdout)).permissionDecision === "deny" || json(a.stdout).decision === "block",
  droid: (a) => a.code === 2 || specific(json(a.stdout)).permissionDecision === "deny" || json(a.stdout).decision === "block",
  codex: (a) => a.code === 2 || specific(json(a.stdout)).permissionDecision === "deny" || json(a.stdout).decision === "block",
  qwen: (a) => a.code === 2 || specific(json(a.stdout)).permissionDecision === "deny" || json(a.stdout).decision === "block",
  // Any exit ≥ 2 with plain text blocks; JSON is honoured whatever the code.
  gemini: (a) => (a.code ?? 0) >= 2 || ["deny", "block"].includes(String(json(a.stdout).decision)),
  // preToolUse fails closed on a non-zero exit; JSON permissionDecision deny.
  copilot: (a) => a.code !== 0 || json(a.stdout).permissionDecision === "deny",
  cursor: (a) => a.code === 2 || json(a.stdout).permission === "deny",
  windsurf: (a) => a.code === 2,
  // A non-zero exit, invalid JSON or cancel: true blocks.
  cline: (a) => a.code !== 0 || json(a.stdout).cancel === true,
  "agent-code": (a) => a.code !== 0,
  qoder: (a) => a.code === 2 || specific(json(a.stdout)).permissionDecision === "deny" || json(a.stdout).decision === "block",
  // Exit 2 blocks, 49 halts the turn; on exit 0 its envelope's or Claude's deny.
  crush: (a) => a.code === 2 || a.code === 49 || (a.code === 0 && (json(a.stdout).decision === "deny" || specific(json(a.stdout)).permissionDecision === "deny")),
  // Only exit 2 blocks (stdout is read only for a rewrite).
  letta: (a) => a.code === 2,
  // Exit 2, or `decision: block` whatever the exit code.
  goose: (a) => a.code === 2 || json(a.stdout).decision === "block",
  // Exit 2, or `decision: deny` whatever the exit code.
  grok: (a) => a.code === 2 || json(a.stdout).decision === "deny",
  // Exit 2 (stderr the reason), or `permissionDecision: deny` on exit 0.
  kimi: (a) => a.code === 2 || (a.code === 0 && specific(json(a.stdout)).permissionDecision === "deny"),
  // The in-process bridge throws on a `block` (src/hosts/opencodeBridge.ts).
  opencode: (a) => typeof json(a.stdout).block === "string",
};

const GUARDED = ["hooks:", "  pre_tool_use:", "    - name: guard", "      command: 'exit 0'", "      on_failure: block", ""].join("\n");
const UNGUARDED = GUARDED.replace("      on_failure: block\n", "");

/** The hosts with a pre_tool_use event and a probe payload for it, with that payload. */
function guardedCalls(projectDir: string): { host: HostAdapter; event: string; payload: Payload }[] {
  const out: { host: HostAdapter; event: string; payload: Payload }[] = [];
  for (const host of HOSTS) {
    const event = hostEventName(host, "pre_tool_use");
    if (event && host.probe) out.push({ host, event, payload: host.probe.payload(event, projectDir) });
  }
  return out;
}

const run = (p: Sandbox, host: string, event: string, input: string, extra: string[] = []) => runCli(["run", event, "--host", host, ...extra], { cwd: p.dir, env: p.env, input });

// Each test's sandbox is removed when the test finishes (test/helpers/sandbox.ts).
let p: Sandbox;

describe("fail closed, under every host", () => {
  it("hookrun crashing (its working directory deleted under it) or failing on its own command line: with --fail-closed the host's block naming the error; without, the error and its exit code as before", async () => {
    p = sandbox({ config: GUARDED });
    const dir = p.path("gone");
    // a real crash: node's process.cwd() throws before hookrun's code reads anything
    const crash = (host: string, event: string, payload: unknown, extra: string) => {
      mkdirSync(dir);
      return runEntry(`cd gone && rmdir ../gone && exec '${process.execPath}' '${CLI}' run ${event} --host ${host}${extra}`, payload, { cwd: p.dir, env: p.env });
    };
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const closed = crash(host.name, event, payload, " --fail-closed");
      expect(BLOCKS[host.name](closed), `${host.name}: ${JSON.stringify(closed)}`).toBe(true);
      expect(closed.stdout + closed.stderr, host.name).toMatch(/fail closed \(on_failure: block\) and it could not run: hookrun failed: ENOENT: no such file or directory, uv_cwd/);
      const open = crash(host.name, event, payload, "");
      expect(open.code, host.name).toBe(1);
      expect(open.stderr, host.name).toMatch(/uv_cwd/);
      // an error of the entry's own command line
      const usage = await run(p, host.name, event, JSON.stringify(payload), ["--fail-closed", "--only", "nosuch"]);
      expect(BLOCKS[host.name](usage), `${host.name}: ${JSON.stringify(usage)}`).toBe(true);
      expect(usage.stderr, host.name).toMatch(/hooks: .*nosuch/);
    }
    // not a gate event: the error's own course, even with --fail-closed
    const notify = (extra: string[]) => runCli(["run", "notification", "--host", "claude", "--only", "nosuch", ...extra], { cwd: p.dir, env: p.env, input: "{}" });
    const [plain, flagged] = await Promise.all([notify([]), notify(["--fail-closed"])]);
    expect(flagged).toEqual(plain);
    expect(plain.stderr).toMatch(/--only: no hook named nosuch/);
  });

  it("covers every host with a pre_tool_use event", () => {
    p = sandbox({ config: GUARDED });
    expect(
      guardedCalls(p.dir)
        .map((c) => c.host.name)
        .sort(),
    ).toEqual(Object.keys(BLOCKS).sort());
  });

  it("a context over the limit: blocked with the cause where the guard asks, else the host's not-run answer telling the user", async () => {
    p = sandbox({ config: GUARDED });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const big = JSON.stringify({ ...payload, padding: "x".repeat(READ_LIMITS.context + 1) });
      const a = await run(p, host.name, event, big);
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(true);
      expect(a.stdout + a.stderr, host.name).toMatch(/over the \d+-byte limit/);
    }
    writeFileSync(p.path("hooks.yaml"), UNGUARDED);
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const a = await run(p, host.name, event, JSON.stringify({ ...payload, padding: "x".repeat(READ_LIMITS.context + 1) }));
      // The host's not-run answer: "go on" in its contract (never an exit code it reads as a block: Gemini blocks on 65), the user told.
      // agent-code's not-run answer refuses a tool call whatever the hooks asked (src/hosts/agentCode.ts).
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(host.name === "agent-code");
      expect(a.stdout + a.stderr, host.name).toMatch(/hookrun could not run them:? \(?the context in stdin is over the \d+-byte limit/);
    }
    // Without a host, as ever: exit 65.
    expect((await runCli(["run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: "x".repeat(READ_LIMITS.context + 1) })).code).toBe(65);
  });

  it("a config that no longer parses: blocked when its text or the entry asks to fail closed, else the not-run answer", async () => {
    p = sandbox({ config: `${GUARDED}x: [\n` });
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const a = await run(p, host.name, event, JSON.stringify(payload));
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(true);
      expect(a.stdout + a.stderr, host.name).toMatch(/does not load \(.*hooks\.yaml:\d+:\d+: /);
    }
    writeFileSync(p.path("hooks.yaml"), `${UNGUARDED}x: [\n`);
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const open = await run(p, host.name, event, JSON.stringify(payload));
      // agent-code's not-run answer refuses a tool call whatever the hooks asked: it has no other way to tell anyone (src/hosts/agentCode.ts).
      expect(BLOCKS[host.name](open), `${host.name}: ${JSON.stringify(open).slice(0, 400)}`).toBe(host.name === "agent-code");
      expect(open.stdout + open.stderr, host.name).toMatch(/hooks did not run|not running/);
      // The entry `hooks install` wrote while the guard asked it keeps asking (--fail-closed).
      const closed = await run(p, host.name, event, JSON.stringify(payload), ["--fail-closed"]);
      expect(BLOCKS[host.name](closed), `${host.name}: ${JSON.stringify(closed).slice(0, 400)}`).toBe(true);
    }
  });

  it("an untrusted config, or a state dir hookrun refuses (an internal failure): blocked where the guard asks", async () => {
    p = sandbox({ config: GUARDED });
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const a = await run(p, host.name, event, JSON.stringify(payload));
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(true);
      expect(a.stdout + a.stderr, host.name).toMatch(/is not trusted.*hooks trust/s);
    }
    const state = p.env.HOOKS_STATE_DIR as string;
    mkdirSync(state, { recursive: true });
    chmodSync(state, 0o777);
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const a = await run(p, host.name, event, JSON.stringify(payload));
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(true);
      expect(a.stdout + a.stderr, host.name).toMatch(/hookrun failed: .*state/);
    }
    // Without on_failure: block: the call goes on (agent-code's not-run answer excepted), the user told why.
    writeFileSync(p.path("hooks.yaml"), UNGUARDED);
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const a = await run(p, host.name, event, JSON.stringify(payload));
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(host.name === "agent-code");
      expect(a.stdout + a.stderr, host.name).toMatch(/hookrun could not run them:? \(?state dir/);
    }
  });
});

describe("killed at the agent's timeout", () => {
  it("with --deadline, hookrun stops a guard that would outlast the agent's kill and blocks first, under every host; no hook process is left", async () => {
    const slow = ["hooks:", "  pre_tool_use:", "    - name: slow", `      command: 'echo $$ > "${"$"}HOOK_PROJECT_DIR/slow.pid"; sleep 30'`, "      timeout: 60s", "      on_failure: block", ""].join(
      "\n",
    );
    p = sandbox({ config: slow });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    for (const { host, event, payload } of guardedCalls(p.dir)) {
      const a = await run(p, host.name, event, JSON.stringify(payload), ["--fail-closed", "--deadline", "2"]);
      expect(BLOCKS[host.name](a), `${host.name}: ${JSON.stringify(a).slice(0, 400)}`).toBe(true);
      expect(a.stdout + a.stderr, host.name).toMatch(/did not finish before .* would kill hookrun \(2 s\)/);
      const pid = Number(readFileSync(p.path("slow.pid"), "utf8"));
      expect(await waitGone(pid), `${host.name}: the guard's sh ${pid} outlived hookrun`).toBe(true);
    }
    // a broken entry blocks too: it fails closed
    const bad = await run(p, "claude", "PreToolUse", "{}", ["--fail-closed", "--deadline", "soon"]);
    expect(BLOCKS.claude(bad), JSON.stringify(bad)).toBe(true);
    expect(bad.stderr).toMatch(/--deadline soon: expected the seconds/);
    expect((await run(p, "claude", "PreToolUse", "{}", ["--deadline", "soon"])).code).toBe(64);
  }, 90_000); // two seconds per host, one host after another

  /** A pre_tool_use guard that ignores SIGTERM, writes its pid to `pidFile` (shell text, under the project) and sleeps. */
  const sigtermProof = (timeout: string, pidFile: string) =>
    [
      "hooks:",
      "  pre_tool_use:",
      "    - name: stubborn",
      `      command: 'trap "" TERM; echo $$ > "${"$"}HOOK_PROJECT_DIR/${pidFile}"; sleep 30'`,
      `      timeout: ${timeout}`,
      "      on_failure: block",
      "",
    ].join("\n");

  // The agent's clock starts when it starts hookrun; here the agent is runCli, which SIGKILLs at
  // the deadline. Each case would be killed before answering if the margin were counted from the
  // hooks' start (a slow start) or if a SIGTERM-proof hook got a timeout's 2 s before SIGKILL.
  it("the deadline counts from hookrun's start, and a hook that ignores SIGTERM is SIGKILLed in time: the block is written before the kill", async () => {
    p = sandbox({ config: sigtermProof("60s", "$HOOK_RUN_CASE.pid") });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    // a start 2 s slow: Node busy before hookrun's code runs, as on a loaded machine
    writeFileSync(p.path("slow.cjs"), "const end = Date.now() + 2000; while (Date.now() < end);\n");
    const cases = [
      { name: "slow", env: { NODE_OPTIONS: `--require ${p.path("slow.cjs")}` } },
      { name: "plain", env: {} },
    ];
    const hosts = guardedCalls(p.dir).filter(({ host }) => host.name === "claude" || host.name === "codex");
    expect(hosts).toHaveLength(2);
    const runs = cases.flatMap((c) =>
      hosts.map(async ({ host, event, payload }) => {
        const a = await runCli(["run", event, "--host", host.name, "--fail-closed", "--deadline", "4"], {
          cwd: p.dir,
          env: { ...p.env, ...c.env, HOOK_RUN_CASE: `${c.name}-${host.name}` },
          input: JSON.stringify(payload),
          timeoutMs: 4000,
        });
        return { what: `${c.name} start, ${host.name}`, a, host, pidFile: p.path(`${c.name}-${host.name}.pid`) };
      }),
    );
    for (const { what, a, host, pidFile } of await Promise.all(runs)) {
      expect(a.signal, `${what}: killed before answering: ${JSON.stringify(a).slice(0, 400)}`).toBeNull();
      expect(BLOCKS[host.name](a), `${what}: ${JSON.stringify(a).slice(0, 400)}`).toBe(true);
      expect(a.stdout + a.stderr, what).toMatch(/did not finish before .* would kill hookrun \(4 s\)/);
      const pid = Number(readFileSync(pidFile, "utf8"));
      expect(await waitGone(pid), `${what}: the guard's sh ${pid} outlived hookrun`).toBe(true);
    }
  }, 30_000);

  it("a guard already being killed at its own timeout when the deadline comes, ignoring SIGTERM, gets SIGKILL in time too: the block is written before the kill", async () => {
    p = sandbox({ config: sigtermProof("2500ms", "late.pid") });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const { host, event, payload } = guardedCalls(p.dir).find((c) => c.host.name === "codex")!;
    // its timeout's SIGTERM at about 2.6 s, SIGKILL 2 s later; the deadline's abort at 3 s asks for SIGKILL by 3.5 s
    const a = await runCli(["run", event, "--host", host.name, "--fail-closed", "--deadline", "4"], { cwd: p.dir, env: p.env, input: JSON.stringify(payload), timeoutMs: 4000 });
    expect(a.signal, `killed before answering: ${JSON.stringify(a).slice(0, 400)}`).toBeNull();
    expect(BLOCKS.codex(a), JSON.stringify(a).slice(0, 400)).toBe(true);
    const pid = Number(readFileSync(p.path("late.pid"), "utf8"));
    expect(await waitGone(pid), `the guard's sh ${pid} outlived hookrun`).toBe(true);
  }, 30_000);
});

describe("no bound opens a guard", () => {
  // The hook's answer comes after more output than max_output lets through: the deny is cut off.
  const noisy = (onFailure: string) =>
    [
      "hooks:",
      "  pre_tool_use:",
      "    - name: noisy",
      "      max_output: 1KiB",
      `      command: 'head -c 5000 /dev/zero | tr "\\0" x; echo; echo "{\\"decision\\": \\"block\\", \\"reason\\": \\"no\\"}"'`,
      onFailure,
      "",
    ].join("\n");

  it("output cut at max_output on a gate event: the hook failed; on_failure: block blocks, else the call goes on and the user sees the failure", async () => {
    p = sandbox({ config: noisy("      on_failure: block") });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const call = JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    const closed = await run(p, "claude", "PreToolUse", call);
    expect(BLOCKS.claude(closed), closed.stdout).toBe(true);
    expect(closed.stdout).toMatch(/passed max_output \(1024 bytes\) on a gate event/);
    writeFileSync(p.path("hooks.yaml"), noisy(""));
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const open = await run(p, "claude", "PreToolUse", call);
    expect(BLOCKS.claude(open), open.stdout).toBe(false);
    expect(JSON.parse(open.stdout).systemMessage).toMatch(/hook noisy invalid output: its output passed max_output/);
    // Without a host: the failure in the result, exit 1.
    const plain = await runCli(["run", "pre_tool_use", "--json"], { cwd: p.dir, env: p.env, input: call });
    expect(JSON.parse(plain.stdout).hooks[0]).toMatchObject({ status: "invalid_output", truncated: true });
  });
});

describe("the entries hooks install writes fail closed when hookrun cannot start", () => {
  /** Each installable host's pre_tool_use entry command (a project install), and its host event. */
  async function entryCommands(p: Sandbox): Promise<{ host: HostAdapter; event: string; command: string }[]> {
    const config = await p.load();
    const out: { host: HostAdapter; event: string; command: string }[] = [];
    for (const host of installable()) {
      const event = hostEventName(host, "pre_tool_use");
      // A host that loads hookrun in process (pi, opencode) runs no entry: its own fail-closed
      // rule is in docs/hosts/pi.md and docs/hosts/opencode.md.
      if (!event || host.setup.inProcess) continue;
      const wanted = wantedFor(host, config, dispatchTarget(host, false, undefined));
      const text = JSON.stringify(wanted[event] ?? wanted);
      const command = JSON.parse(text.match(/"(?:command|bash)":("(?:[^"\\]|\\.)*")/)?.[1] ?? '""') as string;
      out.push({ host, event, command: host.name === "cline" ? (wanted[event] as string).split("\n").slice(2).join("\n").trim() : command });
    }
    return out;
  }

  it("missing binary or no node on PATH: the host's block; hookrun there: hookrun runs, with --fail-closed", async () => {
    p = sandbox({ config: GUARDED });
    const entries = await entryCommands(p);
    expect(entries.length).toBeGreaterThanOrEqual(10);
    for (const { host, event, command } of entries) {
      expect(command, host.name).toContain("--fail-closed");
      expect(isDispatchCommand(command), `${host.name}: ${command}`).toBe(true);
      const env = { ...(host.probe?.env(p.dir, event) ?? {}), PATH: process.env.PATH };
      const payload = host.probe?.payload(event, p.dir) ?? {};
      const missing = runEntry(command, payload, { cwd: p.dir, env });
      expect(BLOCKS[host.name](missing), `${host.name}: ${JSON.stringify(missing)}`).toBe(true);
      expect(missing.stdout + missing.stderr, host.name).toMatch(/could not start: its binary is missing or node is not on PATH/);
    }
    linkHookrun(p.dir);
    // Goose runs an entry from its plugin's folder (PLUGIN_ROOT), which install creates.
    mkdirSync(p.path(".agents/plugins/hookrun"), { recursive: true });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    for (const { host, event, command } of entries) {
      const payload = host.probe?.payload(event, p.dir) ?? {};
      const env = { ...p.env, ...(host.probe?.env(p.dir, event) ?? {}) };
      // A PATH without node: the shebang cannot start hookrun.
      const noNode = runEntry(command, payload, { cwd: p.dir, env: { ...env, PATH: "/nonexistent" } });
      expect(BLOCKS[host.name](noNode), `${host.name}: ${JSON.stringify(noNode)}`).toBe(true);
      // hookrun there: the guard (exit 0) runs and the call goes on.
      const ran = runEntry(command, payload, { cwd: p.dir, env });
      expect(BLOCKS[host.name](ran), `${host.name}: ${JSON.stringify(ran)}`).toBe(false);
      expect(ran.stderr, host.name).not.toMatch(/could not start/);
    }
  });

  it("without on_failure: block, hookrun that cannot start lets the call through under every host, with the host's not-run answer where its own reading of the failed command would block", async () => {
    p = sandbox({ config: UNGUARDED });
    const entries = await entryCommands(p);
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const answering = new Set<string>();
    for (const { host, event, command } of entries) {
      expect(command, host.name).not.toContain("--fail-closed");
      expect(isDispatchCommand(command), `${host.name}: ${command}`).toBe(true);
      const env = { ...(host.probe?.env(p.dir, event) ?? {}), PATH: process.env.PATH };
      const missing = runEntry(command, host.probe?.payload(event, p.dir) ?? {}, { cwd: p.dir, env });
      // agent-code's own choice: hooks that do not run veto a pre_tool_use call (docs/hosts/agent-code.md)
      expect(BLOCKS[host.name](missing), `${host.name}: ${JSON.stringify(missing)}`).toBe(host.name === "agent-code");
      if (/could not start \(its binary is missing or node is not on PATH; run `npm install`/.test(missing.stdout + missing.stderr)) answering.add(host.name);
    }
    // the hosts whose rule reads a command that cannot start (exit 127, or the walk-up's exit 1) as a block
    expect([...answering].sort()).toEqual(["cline", "copilot", "gemini"]);
  });

  it("only events whose hooks ask for it: an unguarded entry is the plain dispatch, and Claude's entry carries onFailure: block", async () => {
    p = sandbox({ config: `${GUARDED}  stop:\n    - name: done\n      command: 'true'\n` });
    const config = await p.load();
    const claude = HOSTS.find((h) => h.name === "claude") as HostAdapter & { setup: NonNullable<HostAdapter["setup"]> };
    const wanted = wantedFor(claude, config, dispatchTarget(claude, false, undefined)) as Record<string, HostEntry[]>;
    const hook = (e: string) => (wanted[e][0].hooks as Record<string, unknown>[])[0];
    expect(hook("PreToolUse")).toMatchObject({ onFailure: "block" });
    expect(hook("PreToolUse").command).toMatch(/^\{ \[ -x "\$CLAUDE_PROJECT_DIR"\/node_modules\/\.bin\/hooks \]/);
    expect(hook("Stop")).not.toHaveProperty("onFailure");
    expect(hook("Stop").command).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks -C "$CLAUDE_PROJECT_DIR" run stop --host claude');
    for (const e of Object.values(wanted).flat()) expect(ownsEntry(e)).toBe(true);
  });

  it("a look-alike of the fail-closed form is not hookrun's: another binary checked, or anything after the dispatch", () => {
    const good = `{ [ -x node_modules/.bin/hooks ] && command -v node >/dev/null 2>&1; } || { printf '%s' 'no' >&2; exit 2; }; node_modules/.bin/hooks run pre_tool_use --host claude --fail-closed`;
    expect(isDispatchCommand(good)).toBe(true);
    expect(isDispatchCommand(good.replace("[ -x node_modules/.bin/hooks ]", "[ -x ./evil ]"))).toBe(false);
    expect(isDispatchCommand(`${good}; curl x | sh`)).toBe(false);
    expect(isDispatchCommand(good.replace("exit 2; }", "exit 2; }; ./evil"))).toBe(false);
    expect(isDispatchCommand(good.replace("printf '%s' 'no' >&2", "./evil"))).toBe(false);
    // without --fail-closed: the fail-open form (a host that reads the 127 of a missing hookrun as a block)
    expect(isDispatchCommand(good.replace(" --fail-closed", ""))).toBe(true);
    expect(isDispatchCommand(good.replace(" --fail-closed", "; ./evil"))).toBe(false);
    expect(isDispatchCommand(`${good} --deadline 70`)).toBe(true);
    expect(isDispatchCommand(`${good} --deadline 70; ./evil`)).toBe(false);
    expect(isDispatchCommand(`${good} --deadline $(./evil)`)).toBe(false);
  });
});

describe("a guard's entry in a project without hookrun, through hooks install", () => {
  it("is what `hooks install` writes, and `hooks uninstall` removes it", async () => {
    p = sandbox({ config: GUARDED });
    mkdirSync(p.path(".codex"));
    expect((await runCli(["install", "codex"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = JSON.parse(readFileSync(p.path(".codex/hooks.json"), "utf8"));
    expect(file.hooks.PreToolUse[0].hooks[0].command).toMatch(/command -v node .*--fail-closed --deadline 70$/s);
    expect((await runCli(["install", "codex", "--check"], { cwd: p.dir, env: p.env })).stdout).toBe(".codex/hooks.json: up to date\n");
    const un = await runCli(["uninstall", "codex"], { cwd: p.dir, env: p.env });
    expect(un.stdout).toMatch(/removed \(it held only hookrun's entries\)/);
    expect(existsSync(p.path(".codex/hooks.json"))).toBe(false);
  });
});
