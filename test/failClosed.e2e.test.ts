import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READ_LIMITS } from "../src/fs/readBounded.js";
import { killClaudeRuns, modelView as claudeView, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, cliEnv, runCli } from "./helpers/cli.js";
import { killCodexRuns, modelView as codexView, requireCodex, runCodex } from "./helpers/codexCli.js";
import { chatView, killCopilotRuns, requireCopilot, runCopilot, warmCopilotCache } from "./helpers/copilotCli.js";
import { killGeminiRuns, requireGemini, runGemini } from "./helpers/geminiCli.js";
import { conversation } from "./helpers/geminiModel.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { makeQwenHome, requireQwen, runQwen } from "./helpers/qwenCli.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Failing closed (docs/fail-closed.md) and the kept trusted version (docs/trust.md), in the REAL
 * agent CLIs: Claude Code, Codex, Gemini CLI, Qwen Code and Copilot CLI, each headless and offline
 * against its scripted model server, with hooks.yaml handed to hookrun by the entries of
 * `hooks install HOST` (which run the project's node_modules/.bin/hooks, a symlink to this
 * checkout's dist/bin/hooks.js, as `npm i -D hookrun` leaves it).
 *
 * Each case is judged by what the agent's MODEL received (the server's request log: the result of
 * its shell call) and by what happened on disk (ran.txt, which the shell call creates when it
 * really runs), never by hookrun's word.
 *
 * 1. A pre_tool_use guard that ALLOWS (`exit 0`), so only hookrun's failure can block, under each
 *    failure: the config no longer parses (never trusted), the config was never trusted,
 *    node_modules/.bin/hooks is missing (removed after `hooks install`), the state dir has mode
 *    0777 (hookrun refuses it), and the agent's payload is over the 10 MiB context limit. With
 *    `on_failure: block` the call is refused and the cause reaches the model; without it the call
 *    runs.
 * 2. A trusted guard that blocks `touch ran.txt`: the agent's own shell calls `hooks disable guard`
 *    and `hooks trust --yes` (after rewriting hooks.yaml) are refused, and the last trusted
 *    version keeps blocking; once a person trusts the change in a terminal, the call runs.
 *
 * HOOKRUN_E2E_DUMP=FILE writes every run (what the model received, the agent's output).
 */

const RAN = "ran.txt";
const TOUCH = `touch ${RAN} && echo ran`;
const ran = (project: string) => existsSync(path.join(project, RAN));

/** A guard that allows every call: only a failure of hookrun itself can block. */
const guardYaml = (block: boolean) => ["version: 1", "hooks:", "  pre_tool_use:", "    - name: guard", "      command: 'exit 0'", ...(block ? ["      on_failure: block"] : []), ""].join("\n");

type HostName = "claude" | "codex" | "gemini" | "qwen" | "copilot";

/** One shell call of the model: the command, and optionally a large text that travels with it (in the call's description). */
interface Call {
  command: string;
  pad?: string;
}

interface Run {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** The results of the model's shell calls, as the model received them, in order. */
  toolResults: string[];
  /** The whole conversation the model received last, one line per message or block (for failure messages). */
  view: string[];
}

interface RunOptions {
  project: string;
  calls: Call[];
  /** Runs as the agent's user (its temp HOME, state dir) before the agent starts. */
  setup(env: NodeJS.ProcessEnv): Promise<void> | void;
  /** A state dir that outlives the run (the trust store kept between two runs). */
  stateDir?: string;
}

interface Agent {
  host: HostName;
  title: string;
  /** The agent's version, or null when it is not installed (the reason in `missing`). */
  version: string | null;
  missing: string | null;
  /** The project dirs its config lives in (made before `hooks install`). */
  dirs: string[];
  run(o: RunOptions): Promise<Run>;
  kill(): void;
}

const PROMPT = "Run the command.";
const dump: Record<string, unknown> = {};
const tmp: string[] = [];
const qwenHomes: { cleanup(): void }[] = [];

/** At most this many agent runs at once across agents (2 cores: more only makes each slower). */
const MAX_RUNS = Math.max(3, Math.min(6, os.availableParallelism() + 1));
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(f: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await f();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const claude = requireClaude();
const codex = requireCodex();
const gemini = requireGemini();
const qwen = requireQwen();
const copilot = requireCopilot();

const lines = (xs: string[], prefix: string) => xs.filter((l) => l.startsWith(prefix));

/** HOOKRUN_E2E_AGENTS=claude,codex: run only those agents (the others' tests are skipped). */
const ONLY = process.env.HOOKRUN_E2E_AGENTS?.split(",").map((s) => s.trim());

const ALL_AGENTS: Agent[] = [
  {
    host: "claude",
    title: "Claude Code",
    version: claude.version,
    missing: claude.reason,
    dirs: [".claude"],
    async run(o) {
      const r = await runClaude({
        project: o.project,
        prompt: PROMPT,
        script: o.calls.map((c) => ({ tool: "Bash", input: { command: c.command, description: c.pad ?? "run it" } })),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
        // stream-json: what Claude shows its user (hook notices) is in the output, one event a line
        args: ["--verbose", "--output-format", "stream-json"],
      });
      const view = claudeView(r.requests, { paths: { "<project>": o.project } }).map(short);
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: lines(view, "[user] tool_result"), view };
    },
    kill: killClaudeRuns,
  },
  {
    host: "codex",
    title: "Codex",
    version: codex.version,
    missing: codex.reason,
    dirs: [".codex"],
    async run(o) {
      const r = await runCodex({
        project: o.project,
        prompt: PROMPT,
        // exec_command has no free-text argument that reaches the hook, and a 10 MiB command line is
        // refused by the OS (E2BIG: one argument is at most 128 KiB) whatever the hook says: the large
        // call is an apply_patch that adds ran.txt, which Codex applies itself (its patch text is the
        // hook's tool_input.command)
        script: o.calls.map((c) =>
          c.pad ? { tool: "apply_patch", custom: `*** Begin Patch\n*** Add File: ${RAN}\n+${c.pad}\n*** End Patch\n` } : { tool: "exec_command", arguments: { cmd: c.command } },
        ),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
      });
      const view = codexView(r.requests, { "<project>": o.project }).map(short);
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: lines(view, "output: "), view };
    },
    kill: killCodexRuns,
  },
  {
    host: "gemini",
    title: "Gemini CLI",
    version: gemini.version,
    missing: gemini.reason,
    dirs: [".gemini"],
    async run(o) {
      const r = await runGemini({
        project: o.project,
        prompt: PROMPT,
        script: o.calls.map((c) => ({ tool: "run_shell_command", args: { command: c.command, description: c.pad ?? "run it" } })),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
      });
      const last = r.mainRequests.at(-1);
      const view = (last ? conversation(last.body) : []).map((l) => short(l.split(o.project).join("<project>")));
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: lines(view, "[user] functionResponse"), view };
    },
    kill: killGeminiRuns,
  },
  {
    host: "qwen",
    title: "Qwen Code",
    version: qwen.version,
    missing: qwen.reason,
    dirs: [".qwen"],
    async run(o) {
      const home = makeQwenHome();
      qwenHomes.push(home);
      // runQwen takes no setup: the same user's environment, set up here first
      const env: NodeJS.ProcessEnv = { ...home.env, HOOKS_STATE_DIR: o.stateDir ?? path.join(home.env.XDG_STATE_HOME, "hookrun") };
      try {
        await o.setup(env);
        const r = await runQwen({
          project: o.project,
          prompt: PROMPT,
          script: o.calls.map((c) => ({ tool: "run_shell_command", input: { command: c.command, ...(c.pad ? { description: c.pad } : {}) } })),
          home,
          env: { HOOKS_STATE_DIR: env.HOOKS_STATE_DIR },
          timeoutMs: 120_000,
        });
        const messages: any[] = r.mainRequests.at(-1)?.body?.messages ?? [];
        const text = (c: unknown) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p: any) => p?.text ?? "").join("") : "");
        const view = messages.map((m) => short(`[${m.role}] ${text(m.content)}${(m.tool_calls ?? []).map((t: any) => ` call ${t.function?.name} ${t.function?.arguments}`).join("")}`.split(o.project).join("<project>")));
        return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: lines(view, "[tool] "), view };
      } finally {
        home.cleanup();
      }
    },
    kill: () => {},
  },
  {
    host: "copilot",
    title: "Copilot CLI",
    version: copilot.version,
    missing: copilot.reason,
    dirs: [".github/hooks"],
    async run(o) {
      const r = await runCopilot({
        project: o.project,
        prompt: PROMPT,
        script: o.calls.map((c) => ({ tool: "bash", input: { command: c.command, description: c.pad ?? "run it" } })),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
      });
      const view = chatView(r.requests).map((l) => short(l.split(o.project).join("<project>")));
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: lines(view, "[tool] "), view };
    },
    kill: killCopilotRuns,
  },
];

const AGENTS = ALL_AGENTS.map((a) => (ONLY && !ONLY.includes(a.host) ? { ...a, version: null, missing: "not in HOOKRUN_E2E_AGENTS" } : a));

/** A line of a view with the 10 MiB pad cut out (failure messages and dumps stay readable). */
function short(line: string): string {
  const run = "x".repeat(200);
  let out = "";
  let from = 0;
  for (let i = line.indexOf(run); i >= 0; i = line.indexOf(run, from)) {
    let end = i + run.length;
    while (line.charCodeAt(end) === 120) end++;
    out += `${line.slice(from, i)}<${end - i} x>`;
    from = end;
  }
  return out + line.slice(from);
}

/** The environment of a `hooks` command run as the user the agent runs as. */
const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

async function hooks(project: string, env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const r = await runCli(["-C", project, ...args], { cwd: project, env: userEnv(env) });
  if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
}

function newProject(agent: Agent, name: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-failclosed-${agent.host}-${name}-`)));
  tmp.push(dir);
  for (const d of agent.dirs) mkdirSync(path.join(dir, d), { recursive: true });
  return dir;
}

const stateDirOf = (env: NodeJS.ProcessEnv) => env.HOOKS_STATE_DIR ?? path.join(env.XDG_STATE_HOME!, "hookrun");

// ---------------------------------------------------------------------------------------------
// 1. What keeps hookrun from running the guard

interface Failure {
  name: string;
  title: string;
  /** Words of the cause that must reach the model when the guard asks to fail closed. */
  cause: RegExp;
  /** After hooks.yaml is written, node_modules/.bin/hooks linked and `hooks install HOST` run. */
  arrange(project: string, env: NodeJS.ProcessEnv): Promise<void>;
  /** The model's call (default: `touch ran.txt`). */
  call?: Call;
}

const FAILURES: Failure[] = [
  {
    name: "invalid",
    title: "the config no longer parses, and no trusted version is kept",
    cause: /hooks config does not load \(.*hooks\.yaml:\d+:\d+: /,
    async arrange(project) {
      writeFileSync(path.join(project, "hooks.yaml"), `${readFileSync(path.join(project, "hooks.yaml"), "utf8")}x: [\n`);
    },
  },
  {
    name: "untrusted",
    title: "the config was never trusted",
    cause: /is not trusted.*hooks -C .* trust/,
    async arrange() {},
  },
  {
    name: "missing",
    title: "hookrun cannot start: node_modules/.bin/hooks is missing",
    cause: /hookrun could not start: its binary is missing or node is not on PATH/,
    async arrange(project, env) {
      await hooks(project, env, ["trust", "--yes"]);
      rmSync(path.join(project, "node_modules", ".bin", "hooks"));
    },
  },
  {
    name: "statedir",
    title: "hookrun fails: its state dir has mode 0777, which it refuses",
    cause: /hookrun failed: state dir .* is writable by group or others \(mode 777\)/,
    async arrange(project, env) {
      await hooks(project, env, ["trust", "--yes"]);
      chmodSync(stateDirOf(env), 0o777);
    },
  },
  {
    name: "oversize",
    title: "the agent's payload is over the 10 MiB context limit",
    cause: /the context in stdin is over the 10485760-byte limit/,
    async arrange(project, env) {
      await hooks(project, env, ["trust", "--yes"]);
    },
    call: { command: TOUCH, pad: "x".repeat(READ_LIMITS.context + 1) },
  },
];

interface Side {
  project: string;
  run: Run;
}

async function runFailure(agent: Agent, failure: Failure, block: boolean): Promise<Side> {
  const project = newProject(agent, `${failure.name}-${block ? "block" : "open"}`);
  writeFileSync(path.join(project, "hooks.yaml"), guardYaml(block));
  linkHookrun(project);
  const run = await limited(() =>
    agent.run({
      project,
      calls: [failure.call ?? { command: TOUCH }],
      async setup(env) {
        await hooks(project, env, ["install", agent.host]);
        await failure.arrange(project, env);
      },
    }),
  );
  if (process.env.HOOKRUN_E2E_DUMP) dump[`${agent.host}/${failure.name}/${block ? "block" : "open"}`] = { ...run, stdout: short(run.stdout), stderr: short(run.stderr), ran: ran(project) };
  return { project, run };
}

function describeRun(s: Side): string {
  const r = s.run;
  return `exit ${r.exitCode}${r.timedOut ? " (timed out)" : ""}; ran.txt ${ran(s.project) ? "exists" : "absent"}\nthe model received:\n${r.view.join("\n")}\nstdout: ${short(r.stdout).slice(-1500)}\nstderr: ${short(r.stderr).slice(-2500)}`;
}

const started = new Map<string, Promise<Side>>();
function side(agent: Agent, failure: Failure, block: boolean): Promise<Side> {
  const key = `${agent.host}/${failure.name}/${block}`;
  let p = started.get(key);
  if (!p) {
    p = runFailure(agent, failure, block);
    p.catch(() => {});
    started.set(key, p);
  }
  return p;
}

beforeAll(() => {
  if (AGENTS.find((a) => a.host === "copilot")?.version) warmCopilotCache();
}, 180_000);

afterAll(async () => {
  for (const a of AGENTS) a.kill();
  await Promise.allSettled([...started.values()]);
  if (process.env.HOOKRUN_E2E_DUMP) writeFileSync(process.env.HOOKRUN_E2E_DUMP, `${JSON.stringify(dump, null, 1)}\n`);
  for (const d of tmp) removeTree(d);
  for (const h of qwenHomes) h.cleanup();
}, 60_000);

for (const agent of AGENTS) {
  describe.skipIf(!agent.version)(`${agent.title} ${agent.version ?? `(skipped: ${agent.missing})`}: a pre_tool_use guard that hookrun cannot run`, () => {
    // every run of this agent starts now; each test awaits its own
    if (agent.version) for (const f of FAILURES) for (const block of [true, false]) side(agent, f, block);

    for (const failure of FAILURES) {
      describe(failure.title, () => {
        it("with on_failure: block, the call is refused and the model is told the cause", { timeout: 300_000 }, async () => {
          const s = await side(agent, failure, true);
          expect(s.run.timedOut, describeRun(s)).toBe(false);
          expect(ran(s.project), describeRun(s)).toBe(false);
          expect(s.run.toolResults.join("\n"), describeRun(s)).toMatch(failure.cause);
        });
        it("without it, the call runs", { timeout: 300_000 }, async () => {
          const s = await side(agent, failure, false);
          expect(s.run.timedOut, describeRun(s)).toBe(false);
          expect(ran(s.project), describeRun(s)).toBe(true);
        });
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// 2. The last trusted version keeps guarding, and the agent cannot switch its guard off

/** Blocks the call that touches ran.txt, lets every other call through (the agent's `hooks …` calls reach its shell). */
const BLOCKING = ["version: 1", "hooks:", "  pre_tool_use:", "    - name: guard", `      command: 'if grep -q "touch ${RAN}"; then echo "no shell" >&2; exit 2; fi'`, ""].join("\n");
/** What the agent writes over it: a guard that allows everything. */
const ALLOWING = ["version: 1", "hooks:", "  pre_tool_use:", "    - name: guard", "      command: 'exit 0'", ""].join("\n");
const printfArg = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll("'", "'\\''")}'`;

/** `hooks trust` in a terminal of the person's own (python's pty), answering y at the prompt. */
async function trustInTerminal(project: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn("python3", ["-c", "import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)", process.execPath, CLI, "-C", project, "trust"], { cwd: project, env: cliEnv(env) });
  let out = "";
  let answered = false;
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
    if (!answered && /\[y\/N\]/.test(out)) {
      answered = true;
      child.stdin.write("y\n");
    }
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  return { code, out };
}

interface Keeper {
  project: string;
  /** The agent's run: `hooks disable guard`, then hooks.yaml rewritten and `hooks trust --yes`, then `touch ran.txt`. */
  agentRun: Run;
  yamlAfterDisable: string | null;
  ranAfterAgent: boolean;
  /** The person's `hooks trust` in a terminal. */
  person: { code: number | null; out: string };
  /** A second run of the agent: `touch ran.txt`. */
  after: Run;
  ranAfterPerson: boolean;
}

async function runKeeper(agent: Agent): Promise<Keeper> {
  const project = newProject(agent, "keeper");
  const stateRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-failclosed-state-`)));
  tmp.push(stateRoot);
  const stateDir = path.join(stateRoot, "hookrun");
  writeFileSync(path.join(project, "hooks.yaml"), BLOCKING);
  linkHookrun(project);
  let personEnv: Record<string, string> = {};
  // The model's turn 1 runs `hooks disable guard`; the file as it stood before turn 2 rewrites it is read by a sentinel call
  const agentRun = await limited(() =>
    agent.run({
      project,
      stateDir,
      calls: [
        { command: "node_modules/.bin/hooks disable guard" },
        { command: "cp hooks.yaml after-disable.yaml" },
        { command: `printf ${printfArg(ALLOWING)} > hooks.yaml && node_modules/.bin/hooks trust --yes` },
        { command: TOUCH },
      ],
      async setup(env) {
        await hooks(project, env, ["install", agent.host]);
        await hooks(project, env, ["trust", "--yes"]);
        personEnv = { HOME: stateRoot, XDG_CONFIG_HOME: path.join(stateRoot, "config"), XDG_STATE_HOME: stateRoot, XDG_CACHE_HOME: path.join(stateRoot, "cache"), HOOKS_STATE_DIR: stateDir };
      },
    }),
  );
  const copy = path.join(project, "after-disable.yaml");
  const yamlAfterDisable = existsSync(copy) ? readFileSync(copy, "utf8") : null;
  const ranAfterAgent = ran(project);
  const person = await trustInTerminal(project, personEnv);
  const after = await limited(() => agent.run({ project, stateDir, calls: [{ command: TOUCH }], setup() {} }));
  const k = { project, agentRun, yamlAfterDisable, ranAfterAgent, person, after, ranAfterPerson: ran(project) };
  if (process.env.HOOKRUN_E2E_DUMP) dump[`${agent.host}/keeper`] = k;
  return k;
}

const KEEPER_AGENTS: HostName[] = ["claude", "codex"];
const keepers = new Map<HostName, Promise<Keeper>>();
const keeperOf = (agent: Agent) => {
  let p = keepers.get(agent.host);
  if (!p) {
    p = runKeeper(agent);
    p.catch(() => {});
    keepers.set(agent.host, p);
  }
  return p;
};

const describeKeeper = (k: Keeper, r: Run) =>
  `${describeRun({ project: k.project, run: r })}\nhooks.yaml after turn 1: ${k.yamlAfterDisable}\nthe person's trust: exit ${k.person.code}\n${k.person.out.slice(-1500)}`;

for (const agent of AGENTS.filter((a) => KEEPER_AGENTS.includes(a.host))) {
  describe.skipIf(!agent.version)(`${agent.title} ${agent.version ?? `(skipped: ${agent.missing})`}: the last trusted guard keeps guarding, and the agent cannot switch it off`, () => {
    if (agent.version) keeperOf(agent);

    it("turn 1: the agent's `hooks disable guard` is refused (exit 77), and hooks.yaml is unchanged", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      const r = k.agentRun;
      expect(r.toolResults[0], describeKeeper(k, r)).toMatch(/an agent cannot switch off its own guards/);
      expect(r.toolResults[0], describeKeeper(k, r)).toMatch(/\b77\b/);
      expect(k.yamlAfterDisable, describeKeeper(k, r)).toBe(BLOCKING);
    });

    it("turn 2: hooks.yaml rewritten to allow everything, the agent's `hooks trust --yes` is refused", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      const r = k.agentRun;
      expect(r.toolResults[2], describeKeeper(k, r)).toMatch(/`hooks trust` changes which hooks run, .* an agent cannot switch off its own guards/);
    });

    it("turn 3: `touch ran.txt` is still blocked by the last trusted guard, whose reason reaches the model", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      const r = k.agentRun;
      expect(k.ranAfterAgent, describeKeeper(k, r)).toBe(false);
      expect(r.toolResults[3], describeKeeper(k, r)).toMatch(/no shell/);
    });

    it("once a person trusts the change in a terminal of their own, the agent's `touch ran.txt` runs", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      expect(k.person.code, describeKeeper(k, k.after)).toBe(0);
      expect(k.ranAfterPerson, describeKeeper(k, k.after)).toBe(true);
      expect(k.after.toolResults.join("\n"), describeKeeper(k, k.after)).not.toMatch(/no shell/);
    });
  });
}
