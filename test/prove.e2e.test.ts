import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killClaudeRuns, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, runCli } from "./helpers/cli.js";
import { killGeminiRuns, requireGemini, runGemini } from "./helpers/geminiCli.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Proving hooks (docs/doctor.md, docs/testing-hooks.md) against real agents: in a project with `hooks install HOST`'s real entries, `hooks
 * doctor HOST` proves every entry reaches hookrun; the real agent (Claude Code, Gemini CLI;
 * headless, offline, scripted model) fires a guarded shell call through them with recording on;
 * `hooks log --follow` saw it live; `hooks log --fixture ID` turns that event into a fixture, and
 * `hooks test` passes on it, then fails once the guard is disabled: a real agent event became a
 * regression test. What the model received is read from the model server's requests.
 */

const claude = requireClaude();
const gemini = requireGemini();

const REASON = "forbidden.txt is reserved";
const HOOKS_YAML = `version: 1
log: {context: true}
hooks:
  pre_tool_use:
    - name: guard
      matcher: Bash
      command: 'if grep -q forbidden.txt; then echo "${REASON}" >&2; exit 2; fi'
    - name: writes
      matcher: Write|Edit
      command: 'true'
  stop:
    - name: done
      command: 'true'
`;

const dirs: string[] = [];
afterAll(() => {
  killClaudeRuns();
  killGeminiRuns();
  for (const d of dirs) removeTree(d);
});

function makeProject(host: "claude" | "gemini"): { project: string; state: string } {
  const agentDir = host === "claude" ? ".claude" : ".gemini";
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-prove-e2e-")));
  dirs.push(root);
  const project = path.join(root, "project");
  mkdirSync(path.join(project, agentDir), { recursive: true });
  mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(project, "node_modules", ".bin", "hooks"));
  writeFileSync(path.join(project, "hooks.yaml"), HOOKS_YAML);
  return { project, state: path.join(root, "state") };
}

/** `hooks …` as the user of the agent's machine (the agent's HOME and state dir). */
const hooksAs =
  (project: string, env: NodeJS.ProcessEnv) =>
  (...args: string[]) =>
    runCli(args, { cwd: project, env: { HOME: env.HOME, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, XDG_CACHE_HOME: env.XDG_CACHE_HOME, HOOKS_STATE_DIR: env.HOOKS_STATE_DIR } });

interface Proof {
  doctor: { code: number | null; report: { ok: boolean; events: { host: string; event: string; reaches: boolean; runs: string[] }[] } };
  followed: string;
  received: string;
  project: string;
  hooks: ReturnType<typeof hooksAs>;
}

/** The agent run by a test: the setup (install, trust, doctor…), then the scripted model's guarded shell call; returns what the model received. */
type AgentRun = (setup: (env: NodeJS.ProcessEnv) => Promise<void>, state: string, project: string) => Promise<string>;

const guardedCall: Record<"claude" | "gemini", AgentRun> = {
  claude: async (setup, state, project) => {
    const run = await runClaude({
      project,
      prompt: "Run the command.",
      script: [{ tool: "Bash", input: { command: "touch forbidden.txt", description: "touch it" } }, { text: "Done." }],
      env: { HOOKS_STATE_DIR: state },
      timeoutMs: 60_000,
      setup,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    return JSON.stringify(run.mainRequests.map((r) => r.body));
  },
  gemini: async (setup, state, project) => {
    const run = await runGemini({
      project,
      prompt: "Run the command.",
      script: [{ tool: "run_shell_command", args: { command: "touch forbidden.txt" } }, { text: "Done." }],
      env: { HOOKS_STATE_DIR: state },
      timeoutMs: 90_000,
      setup,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    return JSON.stringify(run.mainRequests.map((r) => r.body));
  },
};

/** Set up the project for `host`, prove it with the doctor, run the agent with `hooks log --follow` watching. */
async function prove(host: "claude" | "gemini"): Promise<Proof> {
  const { project, state } = makeProject(host);
  let hooks!: ReturnType<typeof hooksAs>;
  let doctor!: Proof["doctor"];
  let follower: ChildProcess | undefined;
  let followed = "";
  const received = await guardedCall[host](
    async (env) => {
      hooks = hooksAs(project, env);
      expect((await hooks("install", host)).code).toBe(0);
      expect((await hooks("trust", "--yes")).code).toBe(0);
      const d = await hooks("doctor", host, "--json");
      doctor = { code: d.code, report: JSON.parse(d.stdout) };
      follower = spawn(process.execPath, [CLI, "log", "--follow", "--json"], {
        cwd: project,
        env: { PATH: process.env.PATH, HOME: env.HOME, HOOKS_STATE_DIR: env.HOOKS_STATE_DIR },
        stdio: ["ignore", "pipe", "pipe"],
      });
      follower.stdout!.setEncoding("utf8").on("data", (c: string) => (followed += c));
      await new Promise<void>((resolve) => follower!.stderr!.once("data", () => resolve()));
    },
    state,
    project,
  );
  // Give the follower one poll to see the last lines, then end it.
  await new Promise((r) => setTimeout(r, 600));
  follower?.kill("SIGINT");
  await new Promise((r) => follower?.once("close", r));
  return { doctor, followed, received, project, hooks };
}

async function checkReplay(p: Proof, host: string, hostEvent: string) {
  // The doctor proved the path before the agent ran.
  expect(p.doctor.code, JSON.stringify(p.doctor.report, null, 2)).toBe(0);
  const pre = p.doctor.report.events.find((e) => e.host === host && e.event === hostEvent);
  expect(pre).toMatchObject({ reaches: true, runs: ["guard"] });
  // The model got the guard's reason, and the command never ran.
  expect(p.received).toContain(REASON);
  expect(existsSync(path.join(p.project, "forbidden.txt"))).toBe(false);
  // hooks log --follow saw the agent's blocked call live, with its host.
  const live = p.followed
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const blocked = live.find((r) => r.event === "pre_tool_use" && r.decision === "block");
  expect(blocked, p.followed).toMatchObject({ host, decision: "block", hooks: [{ name: "guard" }] });
  // The recorded event becomes a fixture, which passes through the real hooks …
  const fixture = await p.hooks("log", "--fixture", blocked.id);
  expect(fixture.code, fixture.stderr).toBe(0);
  expect(fixture.stdout).toContain(`host: ${host}`);
  writeFileSync(path.join(p.project, "recorded.hooktest.yaml"), fixture.stdout);
  const pass = await p.hooks("test", "--json");
  expect(pass.code, pass.stdout + pass.stderr).toBe(0);
  // … and fails once the guard is gone: the agent's event is now a regression test.
  expect((await p.hooks("disable", "guard")).code).toBe(0);
  expect((await p.hooks("trust", "--yes")).code).toBe(0);
  const fail = await p.hooks("test");
  expect(fail.code).toBe(1);
  expect(fail.stdout).toMatch(/decision: expected "block", got "none"/);
}

describe.skipIf(!claude.path)(`proving hooks under the real Claude Code CLI${claude.path ? "" : ` (skipped: ${claude.reason})`}`, () => {
  it("doctor → a real guarded call, seen live → its fixture passes, and fails without the guard", { timeout: 120_000 }, async () => {
    const p = await prove("claude");
    await checkReplay(p, "claude", "PreToolUse");
  });
});

describe.skipIf(!gemini.path)(`proving hooks under the real Gemini CLI${gemini.path ? "" : ` (skipped: ${gemini.reason})`}`, () => {
  it("doctor → a real guarded call, seen live → its fixture passes, and fails without the guard", { timeout: 120_000 }, async () => {
    const p = await prove("gemini");
    await checkReplay(p, "gemini", "BeforeTool");
  });
});

/**
 * The off switches `hooks doctor` reads in the files it does not install into: the real agent
 * with hookrun's entries installed and the switch set runs no hook (the guarded command runs,
 * the model never gets the guard's reason), and the doctor said so beforehand.
 */
async function switchedOff(host: "claude" | "gemini", turnOff: (project: string) => void) {
  const { project, state } = makeProject(host);
  let doctor!: { code: number | null; what: string[] };
  const received = await guardedCall[host](
    async (env) => {
      const hooks = hooksAs(project, env);
      expect((await hooks("install", host)).code).toBe(0);
      expect((await hooks("trust", "--yes")).code).toBe(0);
      turnOff(project);
      const d = await hooks("doctor", host, "--json");
      doctor = {
        code: d.code,
        what: JSON.parse(d.stdout)
          .findings.filter((f: { level: string }) => f.level === "error")
          .map((f: { where: string; what: string }) => `${f.where} ${f.what}`),
      };
    },
    state,
    project,
  );
  return { doctor, received, ran: existsSync(path.join(project, "forbidden.txt")) };
}

describe.skipIf(!claude.path)(`an off switch under the real Claude Code CLI${claude.path ? "" : ` (skipped: ${claude.reason})`}`, () => {
  it("disableAllHooks in .claude/settings.local.json: Claude Code runs none of hookrun's entries, and the doctor says so", { timeout: 120_000 }, async () => {
    const turnOff = (project: string) => writeFileSync(path.join(project, ".claude/settings.local.json"), '{\n  "disableAllHooks": true\n}\n');
    const r = await switchedOff("claude", turnOff);
    expect(r.doctor.code).toBe(1);
    expect(r.doctor.what).toEqual([expect.stringMatching(/^\.claude\/settings\.local\.json:2 `disableAllHooks: true`: Claude Code runs no hook at all/)]);
    // Ground truth: the guard never ran.
    expect(r.ran).toBe(true);
    expect(r.received).not.toContain(REASON);
  });

  it("the layer that wins decides: the project's disableAllHooks under a local false runs the hooks, and the doctor finds no switch", { timeout: 120_000 }, async () => {
    const turnOffThenOn = (project: string) => {
      const file = path.join(project, ".claude/settings.json");
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), disableAllHooks: true }, null, 2));
      writeFileSync(path.join(project, ".claude/settings.local.json"), '{"disableAllHooks": false}\n');
    };
    const r = await switchedOff("claude", turnOffThenOn);
    expect(r.doctor).toEqual({ code: 0, what: [] });
    expect(r.ran).toBe(false);
    expect(r.received).toContain(REASON);
  });
});

describe.skipIf(!gemini.path)(`an off switch under the real Gemini CLI${gemini.path ? "" : ` (skipped: ${gemini.reason})`}`, () => {
  it("hooksConfig.disabled naming hookrun's entries: Gemini CLI skips them, and the doctor says so", { timeout: 120_000 }, async () => {
    // What `/hooks disable hookrun` does: the entries' name in hooksConfig.disabled.
    const turnOff = (project: string) => {
      const file = path.join(project, ".gemini/settings.json");
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), hooksConfig: { disabled: ["hookrun"] } }, null, 2));
    };
    const r = await switchedOff("gemini", turnOff);
    expect(r.doctor.code).toBe(1);
    expect(r.doctor.what).toEqual([expect.stringMatching(/^\.gemini\/settings\.json:\d+ `hooksConfig\.disabled` lists `hookrun`/)]);
    expect(r.ran).toBe(true);
    expect(r.received).not.toContain(REASON);
  });
});
