import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { READ_LIMITS } from "../src/fs/readBounded.js";
import { processesWithArg } from "./helpers/agentProcess.js";
import { killClaudeRuns, modelView as claudeView, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, cliEnv, ROOT, runCli } from "./helpers/cli.js";
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
 * against its scripted model server (the helpers of the other *.e2e.test.ts files), with hooks.yaml
 * handed to hookrun by the entries of `hooks install HOST`, which run the project's
 * node_modules/.bin/hooks (a symlink to this checkout's dist/bin/hooks.js, as `npm i -D hookrun`
 * leaves it).
 *
 * Each case is judged by what the agent's MODEL received (the scripted server's request log: the
 * result of its call) and by what happened on disk (ran.txt, which the call creates when it really
 * runs), never by hookrun's word.
 *
 * 1. A pre_tool_use guard that ALLOWS (`exit 0`), so that only hookrun's own failure can block,
 *    under each failure: the config no longer parses (never trusted), the config was never trusted,
 *    node_modules/.bin/hooks is missing (removed after `hooks install`), the state dir has mode 0777
 *    (hookrun refuses it), the agent's payload is over the 10 MiB context limit, the agent would
 *    kill hookrun at its timeout (a stale entry's, shorter than the guard). With `on_failure: block`
 *    the call is refused and the cause reaches the model; without it the call runs, and the user is
 *    told where the agent, headless, shows its user anything of a hook.
 * 2. A trusted guard that blocks `touch ran.txt`: the agent's own shell calls `hooks disable guard`
 *    and, after rewriting hooks.yaml, `hooks trust --yes` are refused (exit 77), and the last trusted
 *    version keeps blocking; once a person trusts the change in a terminal of their own, the call runs.
 *
 * Every agent run starts when the file is collected (at most MAX_RUNS at once); each test awaits its
 * own. HOOKRUN_E2E_AGENTS=claude,codex runs only those agents; HOOKRUN_E2E_DUMP=FILE writes every run.
 */

const RAN = "ran.txt";
const TOUCH = `touch ${RAN} && echo ran`;
const ran = (project: string) => existsSync(path.join(project, RAN));

/** The killed guard's timeout, and the agent's kill (its entry's timeout, rewritten): the guard outlives the kill. */
const GUARD_TIMEOUT = "30s";
const KILL_SECONDS = 5;
/** `sleep`'s argument in the killed guard: 20 s and a bit, unique to the project (to find its sleep in /proc). */
const sleepArg = (project: string) => `20.${String(createHash("sha256").update(project).digest().readUInt32BE(0)).padStart(10, "0")}`;

/** A guard that allows every call (by default `exit 0` at once): only a failure of hookrun itself can block. */
interface Guard {
  command: string;
  timeout?: string;
}
const guardYaml = (block: boolean, guard: Guard = { command: "exit 0" }) =>
  [
    "version: 1",
    "hooks:",
    "  pre_tool_use:",
    "    - name: guard",
    `      command: '${guard.command}'`,
    ...(guard.timeout ? [`      timeout: ${guard.timeout}`] : []),
    ...(block ? ["      on_failure: block"] : []),
    "",
  ].join("\n");

type HostName = "claude" | "codex" | "gemini" | "qwen" | "copilot";
type FailureName = "invalid" | "untrusted" | "missing" | "statedir" | "oversize" | "killed";

/** One call of the model: a shell command, and optionally a large text that travels with it. */
interface Call {
  command: string;
  pad?: string;
}

interface Run {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** The results of the model's calls, as the model received them, in order. */
  toolResults: string[];
  /** The conversation as the model received it last, one line per message or block (for failure messages). */
  view: string[];
  /** What the agent showed its user (its output, headless). */
  userSaw: string;
}

interface RunOptions {
  project: string;
  calls: Call[];
  /** Runs as the agent's user (its temp HOME, its state dir) before the agent starts. */
  setup(env: NodeJS.ProcessEnv): Promise<void> | void;
  /** A state dir that outlives the run (the trust store kept between two runs). */
  stateDir?: string;
}

interface Agent {
  host: HostName;
  title: string;
  /** The agent's version, or null when it does not run here (the reason in `missing`). */
  version: string | null;
  missing: string | null;
  /** The project dirs its config lives in (made before `hooks install`). */
  dirs: string[];
  /** The file `hooks install HOST` writes its entries to, and the unit of their timeout, in ms (its own, see docs/hosts/…). */
  entry: { file: string; unitMs: number };
  run(o: RunOptions): Promise<Run>;
  kill(): void;
  /**
   * Without `on_failure: block`: what the agent shows its user, headless, per failure (hookrun's
   * words where hookrun can speak; the agent's own where hookrun cannot start). A failure not listed
   * is one where the agent, headless, shows its user nothing of a hook (`toldNever` says so).
   */
  told: Partial<Record<FailureName, RegExp>>;
  toldNever?: string;
  /**
   * Without `on_failure: block`, when the agent kills hookrun at its timeout: why the guard's
   * process is left running (the agent's own way of killing); absent, nothing of it is left.
   */
  leavesKilledGuard?: string;
}

const PROMPT = "Run the command.";
const dump: Record<string, unknown> = {};
const tmp: string[] = [];

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

/** A line with the 10 MiB pad cut out (failure messages and dumps stay readable). */
function short(line: string): string {
  const xs = "x".repeat(200);
  let out = "";
  let from = 0;
  for (let i = line.indexOf(xs); i >= 0; i = line.indexOf(xs, from)) {
    let end = i + xs.length;
    while (line.charCodeAt(end) === 120) end++;
    out += `${line.slice(from, i)}<${end - i} x>`;
    from = end;
  }
  return out + line.slice(from);
}

const startingWith = (xs: string[], prefix: string) => xs.filter((l) => l.startsWith(prefix));
const inProject = (line: string, project: string) => short(line.split(project).join("<project>"));

/** What Claude Code showed its user: the notices of its stream-json output (`system` events but its init). */
function claudeNotices(stdout: string): string {
  const out: string[] = [];
  for (const line of stdout.split("\n")) {
    try {
      const e = JSON.parse(line);
      if (e?.type === "system" && e.subtype !== "init") out.push(`[${e.subtype}/${e.level ?? ""}] ${e.content ?? JSON.stringify(e)}`);
    } catch {
      // not an event
    }
  }
  return out.join("\n");
}

const claude = requireClaude();
const codex = requireCodex();
const gemini = requireGemini();
const qwen = requireQwen();
const copilot = requireCopilot();

const ALL_AGENTS: Agent[] = [
  {
    host: "claude",
    title: "Claude Code",
    version: claude.version,
    missing: claude.reason,
    dirs: [".claude"],
    entry: { file: ".claude/settings.json", unitMs: 1000 },
    async run(o) {
      const r = await runClaude({
        project: o.project,
        prompt: PROMPT,
        script: o.calls.map((c) => ({ tool: "Bash", input: { command: c.command, description: c.pad ?? "run it" } })),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
        // stream-json: what Claude shows its user (a hook's systemMessage, its own warnings) is in the output
        args: ["--verbose", "--output-format", "stream-json"],
      });
      const view = claudeView(r.requests, { paths: { "<project>": o.project } }).map(short);
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: startingWith(view, "[user] tool_result"), view, userSaw: claudeNotices(r.stdout) };
    },
    kill: killClaudeRuns,
    told: {
      invalid: /hookrun: the project's hooks did not run: the config is invalid \(.*hooks\.yaml:\d+:\d+: /,
      untrusted: /hookrun: the project's hooks did not run: .*hooks\.yaml is not trusted/,
      // hookrun is not there to speak: Claude's own warning for a hook that gave no answer (exit 127)
      missing: /A hook gave no usable answer, so it didn't check this action/,
      // hookrun could not run the hooks: its not-run answer (exit 0, a systemMessage) says why.
      statedir: /hookrun could not run them: state dir .* is writable by group or others \(mode 777\)/,
      oversize: /hookrun could not run them: the context in stdin is over the 10485760-byte limit/,
      // Claude killed hookrun at the entry's timeout: its own warning
      killed: /A hook didn't answer in time, so it didn't check this action/,
    },
  },
  {
    host: "codex",
    title: "Codex",
    version: codex.version,
    missing: codex.reason,
    dirs: [".codex"],
    entry: { file: ".codex/hooks.json", unitMs: 1000 },
    async run(o) {
      const r = await runCodex({
        project: o.project,
        prompt: PROMPT,
        // exec_command has no free-text argument that reaches the hook, and a 10 MiB command line is
        // refused by the OS (E2BIG: one argument is at most 128 KiB) whatever the hook says; so the
        // large call is an apply_patch that adds ran.txt, which Codex applies itself (in the hook's
        // payload, the patch text is tool_input.command)
        script: o.calls.map((c) =>
          c.pad ? { tool: "apply_patch", custom: `*** Begin Patch\n*** Add File: ${RAN}\n+${c.pad}\n*** End Patch\n` } : { tool: "exec_command", arguments: { cmd: c.command } },
        ),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
      });
      const view = codexView(r.requests, { "<project>": o.project }).map(short);
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: startingWith(view, "output: "), view, userSaw: r.hookLines.join("\n") };
    },
    kill: killCodexRuns,
    leavesKilledGuard: "Codex kills hookrun at its timeout at once, without a SIGTERM first, so hookrun cannot end its hooks' process groups (docs/hosts/codex.md)",
    // `codex exec` shows no hook's words (no systemMessage, in its text output or with --json), only
    // each hook's status line: `hook: PreToolUse Failed` when the entry exits non-zero.
    told: { missing: /^hook: PreToolUse Failed$/m, killed: /^hook: PreToolUse Failed$/m },
    toldNever: "`codex exec` shows its user no hook's message (its text output and --json alike), only `hook: PreToolUse Completed`",
  },
  {
    host: "gemini",
    title: "Gemini CLI",
    version: gemini.version,
    missing: gemini.reason,
    dirs: [".gemini"],
    // Gemini's timeouts are milliseconds (docs/hosts/gemini.md)
    entry: { file: ".gemini/settings.json", unitMs: 1 },
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
      const view = (last ? conversation(last.body) : []).filter((l) => !l.startsWith("[user] text: <session_context>")).map((l) => inProject(l, o.project));
      // `gemini -p` prints a hook's systemMessage (and a failed hook's stderr) on stderr: "Hook system message: …"
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: startingWith(view, "[user] functionResponse"), view, userSaw: short(r.stderr) };
    },
    kill: killGeminiRuns,
    // Gemini blocks on any exit code but 0 and 1 (docs/hosts/gemini.md): a plain entry that ran a
    // missing hookrun would exit 127 and block; it answers Gemini's not-run JSON itself instead.
    told: {
      invalid: /Hook system message: hookrun: the project's hooks did not run: the config is invalid \(.*hooks\.yaml:\d+:\d+: /,
      untrusted: /Hook system message: hookrun: the project's hooks did not run: .*hooks\.yaml is not trusted/,
      missing: /Hook system message: hookrun: the project's hooks did not run: hookrun could not run them: it could not start \(its binary is missing or node is not on PATH; run `npm install`/,
      statedir: /Hook system message: hookrun: the project's hooks did not run: hookrun could not run them: state dir .* is writable by group or others \(mode 777\)/,
      oversize: /Hook system message: hookrun: the project's hooks did not run: hookrun could not run them: the context in stdin is over the 10485760-byte limit/,
      // Gemini killed hookrun at the entry's timeout: its own words
      killed: new RegExp(`Hook execution error: Hook timed out after ${KILL_SECONDS * 1000}ms`),
    },
  },
  {
    host: "qwen",
    title: "Qwen Code",
    version: qwen.version,
    missing: qwen.reason,
    dirs: [".qwen"],
    // seconds: Qwen reads a command hook's timeout as milliseconds only from 1000 on (docs/hosts/qwen.md)
    entry: { file: ".qwen/settings.json", unitMs: 1000 },
    async run(o) {
      const home = makeQwenHome();
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
        const view = messages
          .filter((m) => m.role !== "system")
          .map((m) => inProject(`[${m.role}] ${text(m.content)}${(m.tool_calls ?? []).map((t: any) => `call ${t.function?.name} ${t.function?.arguments}`).join(" ")}`, o.project));
        return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: startingWith(view, "[tool] "), view, userSaw: short(r.stdout + r.stderr) };
      } finally {
        home.cleanup();
      }
    },
    // runQwen's processes are killed at their timeout
    kill: () => {},
    told: {},
    toldNever: "`qwen -p` prints nothing of a hook (no systemMessage, no failure) on stdout or stderr",
  },
  {
    host: "copilot",
    title: "Copilot CLI",
    version: copilot.argv ? copilot.version : null,
    missing: copilot.reason,
    dirs: [".github/hooks"],
    entry: { file: ".github/hooks/hookrun.json", unitMs: 1000 },
    async run(o) {
      const r = await runCopilot({
        project: o.project,
        prompt: PROMPT,
        script: o.calls.map((c) => ({ tool: "bash", input: { command: c.command, description: c.pad ?? "run it" } })),
        timeoutMs: 120_000,
        env: o.stateDir ? { HOOKS_STATE_DIR: o.stateDir } : undefined,
        setup: o.setup,
        // node_modules/.bin/hooks is a symlink into this checkout, outside the project: without the
        // checkout among its allowed dirs, Copilot's path check denies a shell call that runs it
        // ("Permission denied because no interactive user response was available")
        args: ["--add-dir", ROOT],
      });
      const view = chatView(r.requests).map((l) => inProject(l, o.project));
      return { exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, toolResults: startingWith(view, "[tool] "), view, userSaw: short(r.stdout + r.stderr) };
    },
    kill: killCopilotRuns,
    told: {},
    toldNever: "`copilot -p` shows its user a hook's stderr nowhere, and reads no systemMessage",
    // Copilot's preToolUse denies on any non-zero exit or crash ("Denied by preToolUse hook … (hook
    // errored)"), `on_failure` or not (docs/hosts/copilot.md): a plain entry that ran a missing
    // hookrun would exit 127 and deny; it answers Copilot's not-run JSON itself instead.
  },
];

/** HOOKRUN_E2E_AGENTS=claude,codex: only those agents run (the others' tests are skipped). */
const ONLY = process.env.HOOKRUN_E2E_AGENTS?.split(",").map((s) => s.trim());
const AGENTS = ALL_AGENTS.map((a) => (ONLY && !ONLY.includes(a.host) ? { ...a, version: null, missing: "not in HOOKRUN_E2E_AGENTS" } : a));
const byHost = (host: HostName) => AGENTS.find((a) => a.host === host)!;

// Copilot's native binary unpacks its runtime on its first start: once, before any run can race to.
if (byHost("copilot").version) warmCopilotCache();

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

function describeRun(project: string, r: Run): string {
  return [
    `exit ${r.exitCode}${r.timedOut ? " (timed out)" : ""}; ${RAN} ${ran(project) ? "exists" : "absent"}`,
    `the model received:\n${r.view.join("\n")}`,
    `the user saw:\n${r.userSaw.slice(-2000)}`,
    `stderr: ${short(r.stderr).slice(-2000)}`,
  ].join("\n");
}

afterAll(async () => {
  for (const a of AGENTS) a.kill();
  await Promise.allSettled([...started.values(), ...keepers.values()]);
  if (process.env.HOOKRUN_E2E_DUMP) writeFileSync(process.env.HOOKRUN_E2E_DUMP, `${JSON.stringify(dump, null, 1)}\n`);
  for (const d of tmp) removeTree(d);
}, 120_000);

// ---------------------------------------------------------------------------------------------
// 1. What keeps hookrun from running the guard

interface Failure {
  name: FailureName;
  title: string;
  /** Words of the cause that must reach the model when the guard asks to fail closed. */
  cause: RegExp;
  /** After hooks.yaml is written, node_modules/.bin/hooks linked and `hooks install HOST` run (as the agent's user). */
  arrange(project: string, env: NodeJS.ProcessEnv, agent: Agent): Promise<void>;
  /** The model's call (default: `touch ran.txt`). */
  call?: Call;
  /** The guard (default: `exit 0`). */
  guard?(project: string): Guard;
  /** The guard's processes still running once the agent has exited (`pid: cmdline`), when the guard starts any. */
  left?(project: string): string[];
}

/**
 * Rewrites the pre_tool_use entry `hooks install` wrote into a stale but consistent one: its
 * timeout KILL_SECONDS (in the agent's unit) and, in the fail-closed entry, `--deadline KILL_SECONDS`
 * (as `hooks install` would write it for hooks that take at most that long).
 */
function shortenEntry(project: string, agent: Agent): void {
  const file = path.join(project, agent.entry.file);
  const settings = JSON.parse(readFileSync(file, "utf8"));
  let entries = 0;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    if (!v || typeof v !== "object") return;
    const o = v as Record<string, unknown>;
    // the hook object: its command (Copilot: `bash`) runs `hooks … run pre_tool_use`, next to its timeout (Copilot: `timeoutSec`)
    const command = ["command", "bash"].find((k) => typeof o[k] === "string" && (o[k] as string).includes(" run pre_tool_use "));
    const timeout = ["timeout", "timeoutSec"].find((k) => typeof o[k] === "number");
    if (!command || !timeout) {
      for (const x of Object.values(o)) visit(x);
      return;
    }
    const text = o[command] as string;
    if (text.includes("--fail-closed") !== /--deadline \d+/.test(text)) throw new Error(`${agent.entry.file}: --fail-closed without --deadline, or the other way round: ${text}`);
    o[timeout] = (KILL_SECONDS * 1000) / agent.entry.unitMs;
    o[command] = text.replace(/--deadline \d+/, `--deadline ${KILL_SECONDS}`);
    entries++;
  };
  visit(settings);
  // Claude Code also hands a skill's embedded shell commands to pre_tool_use (its PreSkillShellCommand entry): a second, same entry.
  const expected = agent.entry.file === ".claude/settings.json" ? 2 : 1;
  if (entries !== expected) throw new Error(`${agent.entry.file}: ${entries} pre_tool_use entries, not ${expected}:\n${JSON.stringify(settings, null, 2)}`);
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

const FAILURES: Failure[] = [
  {
    name: "invalid",
    title: "the config no longer parses, and no trusted version is kept",
    cause: /hookrun blocked this because a hook asks to fail closed \(on_failure: block\) and it could not run: the hooks config does not load \(.*hooks\.yaml:\d+:\d+: /,
    async arrange(project) {
      writeFileSync(path.join(project, "hooks.yaml"), `${readFileSync(path.join(project, "hooks.yaml"), "utf8")}x: [\n`);
    },
  },
  {
    name: "untrusted",
    title: "the config was never trusted",
    cause: /hookrun blocked this because a hook asks to fail closed \(on_failure: block\) and it could not run: .*hooks\.yaml is not trusted .*hooks -C .* trust/,
    async arrange() {},
  },
  {
    name: "missing",
    title: "hookrun cannot start: node_modules/.bin/hooks is missing",
    cause: /hookrun blocked this because a hook asks to fail closed \(on_failure: block\) and hookrun could not start: its binary is missing or node is not on PATH/,
    async arrange(project, env) {
      await hooks(project, env, ["trust", "--yes"]);
      rmSync(path.join(project, "node_modules", ".bin", "hooks"));
    },
  },
  {
    name: "statedir",
    title: "hookrun fails: its state dir has mode 0777, which it refuses",
    cause: /hookrun blocked this because a hook asks to fail closed \(on_failure: block\) and it could not run: hookrun failed: state dir .* is writable by group or others \(mode 777\)/,
    async arrange(project, env) {
      await hooks(project, env, ["trust", "--yes"]);
      chmodSync(stateDirOf(env), 0o777);
    },
  },
  {
    name: "oversize",
    title: "the agent's payload is over the 10 MiB context limit (a call carrying 10 MiB + 1 byte)",
    cause: /hookrun blocked this because a hook asks to fail closed \(on_failure: block\) and it could not run: the context in stdin is over the 10485760-byte limit/,
    async arrange(project, env) {
      await hooks(project, env, ["trust", "--yes"]);
    },
    // Claude, Gemini, Qwen, Copilot: in the shell call's `description`, so the command stays
    // `touch ran.txt` and runs when nothing refuses it; Codex: see its run()
    call: { command: TOUCH, pad: "x".repeat(READ_LIMITS.context + 1) },
  },
  {
    name: "killed",
    title: `the agent would kill hookrun at its timeout: a stale entry of ${KILL_SECONDS} s, a guard that sleeps 20 s (its own timeout ${GUARD_TIMEOUT})`,
    // hookrun stops the guard a margin before the deadline (docs/fail-closed.md) and answers
    // before the kill: after a kill, Codex, Gemini, Qwen and Copilot would run the call, and Claude
    // (onFailure: "block") would block in words of its own. Claude's model view writes durations as
    // <duration>.
    cause: new RegExp(
      `hookrun blocked this because a hook asks to fail closed \\(on_failure: block\\) and it could not run: its hooks did not finish before [A-Z][\\w ]+ would kill hookrun \\((${KILL_SECONDS} s|<duration>)\\)`,
    ),
    async arrange(project, env, agent) {
      await hooks(project, env, ["trust", "--yes"]);
      shortenEntry(project, agent);
    },
    guard: (project) => ({ command: `sleep ${sleepArg(project)}; exit 0`, timeout: GUARD_TIMEOUT }),
    left: (project) => processesWithArg(sleepArg(project)),
  },
];

interface Side {
  project: string;
  run: Run;
  /** The guard's processes left running once the agent had exited (failure.left), null when it starts none. */
  left: string[] | null;
}

async function runFailure(agent: Agent, failure: Failure, block: boolean): Promise<Side> {
  const project = newProject(agent, `${failure.name}-${block ? "block" : "open"}`);
  writeFileSync(path.join(project, "hooks.yaml"), guardYaml(block, failure.guard?.(project)));
  linkHookrun(project);
  const run = await limited(() =>
    agent.run({
      project,
      calls: [failure.call ?? { command: TOUCH }],
      async setup(env) {
        await hooks(project, env, ["install", agent.host]);
        await failure.arrange(project, env, agent);
      },
    }),
  );
  const left = failure.left?.(project) ?? null;
  // what is left is this run's: ended here, by pid, once counted
  for (const p of left ?? []) {
    try {
      process.kill(Number(p.split(":")[0]), "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  if (process.env.HOOKRUN_E2E_DUMP) dump[`${agent.host}/${failure.name}/${block ? "block" : "open"}`] = { ...run, stdout: short(run.stdout), stderr: short(run.stderr), ran: ran(project), left };
  return { project, run, left };
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

for (const agent of AGENTS) {
  describe.skipIf(!agent.version)(`${agent.title} ${agent.version ?? `(skipped: ${agent.missing})`}: a pre_tool_use guard that hookrun cannot run`, () => {
    // every run of this agent starts now; each test awaits its own
    if (agent.version) for (const f of FAILURES) for (const block of [true, false]) side(agent, f, block);

    for (const failure of FAILURES) {
      describe(failure.title, () => {
        it("with on_failure: block, the call is refused and the model is told the cause", { timeout: 300_000 }, async () => {
          const s = await side(agent, failure, true);
          expect(s.run.timedOut, describeRun(s.project, s.run)).toBe(false);
          expect(ran(s.project), describeRun(s.project, s.run)).toBe(false);
          expect(s.run.toolResults.join("\n"), describeRun(s.project, s.run)).toMatch(failure.cause);
        });

        if (failure.left)
          it("with on_failure: block, nothing of the guard is left running", { timeout: 300_000 }, async () => {
            const s = await side(agent, failure, true);
            expect(s.left, describeRun(s.project, s.run)).toEqual([]);
          });

        it("without it, the call runs", { timeout: 300_000 }, async () => {
          const s = await side(agent, failure, false);
          expect(s.run.timedOut, describeRun(s.project, s.run)).toBe(false);
          expect(ran(s.project), describeRun(s.project, s.run)).toBe(true);
          // nothing was blocked: the call's result is its own, not a refusal
          expect(s.run.toolResults.join("\n"), describeRun(s.project, s.run)).not.toMatch(/blocked|denied/i);
        });

        const leaves = agent.leavesKilledGuard;
        if (failure.left)
          it(`without it, ${leaves ? `the guard is left running: ${leaves}` : "nothing of the guard is left running"}`, { timeout: 300_000 }, async () => {
            const s = await side(agent, failure, false);
            if (leaves) expect(s.left, describeRun(s.project, s.run)).toHaveLength(1);
            else expect(s.left, describeRun(s.project, s.run)).toEqual([]);
          });

        const told = agent.told[failure.name];
        if (told)
          it("without it, the user is told, in what the agent shows them", { timeout: 300_000 }, async () => {
            const s = await side(agent, failure, false);
            expect(s.run.userSaw, describeRun(s.project, s.run)).toMatch(told);
          });
        // else: agent.toldNever (the agent, headless, shows its user nothing of a hook)
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// 2. The last trusted version keeps guarding, and the agent cannot switch its guard off

/** Blocks the call that touches ran.txt and lets every other call through (so the agent's `hooks …` calls reach its shell). */
const BLOCKING = ["version: 1", "hooks:", "  pre_tool_use:", "    - name: guard", `      command: 'if grep -q "touch ${RAN}"; then echo "no shell" >&2; exit 2; fi'`, ""].join("\n");
/** What the agent writes over it: a guard that allows everything. */
const ALLOWING = ["version: 1", "hooks:", "  pre_tool_use:", "    - name: guard", "      command: 'exit 0'", ""].join("\n");
/** `text` as one single-quoted printf format (no `$(…)`: Gemini's shell tool refuses it). */
const printfArg = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("%", "%%").replaceAll("\n", "\\n").replaceAll("'", "'\\''")}'`;
/** hookrun's refusal of `hooks COMMAND` run by `agent`'s shell tool, naming that agent (told by its variables or its process). */
const REFUSED = (command: string, agent: string) =>
  new RegExp(
    `\`hooks ${command}\` changes which hooks run, and this looks like ${agent}'s tool call \\(${agent}'s environment or process\\), so nothing was changed: an agent cannot switch off its own guards`,
  );

/** `hooks trust` in a terminal of the person's own (python's pty, no agent among its ancestors), answering y at the prompt. */
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
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  return { code, out };
}

interface Keeper {
  project: string;
  /**
   * The agent's run, one call a turn: `hooks disable guard`; a copy of hooks.yaml as it then stood;
   * hooks.yaml rewritten to allow everything and `hooks trust --yes`; `touch ran.txt`.
   */
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
  // the trust store outlives the agent's runs (each has its own temp HOME): the person's trust is between them
  const stateRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-failclosed-state-")));
  tmp.push(stateRoot);
  const stateDir = path.join(stateRoot, "hookrun");
  writeFileSync(path.join(project, "hooks.yaml"), BLOCKING);
  linkHookrun(project);
  const copy = path.join(project, "after-disable.yaml");
  const agentRun = await limited(() =>
    agent.run({
      project,
      stateDir,
      calls: [
        { command: "node_modules/.bin/hooks disable guard" },
        { command: `cp hooks.yaml ${path.basename(copy)}` },
        { command: `printf ${printfArg(ALLOWING)} > hooks.yaml && node_modules/.bin/hooks trust --yes` },
        { command: TOUCH },
      ],
      async setup(env) {
        await hooks(project, env, ["install", agent.host]);
        await hooks(project, env, ["trust", "--yes"]);
      },
    }),
  );
  const yamlAfterDisable = existsSync(copy) ? readFileSync(copy, "utf8") : null;
  const ranAfterAgent = ran(project);
  const personEnv = { HOME: stateRoot, XDG_CONFIG_HOME: path.join(stateRoot, "config"), XDG_STATE_HOME: stateRoot, XDG_CACHE_HOME: path.join(stateRoot, "cache"), HOOKS_STATE_DIR: stateDir };
  const person = await trustInTerminal(project, personEnv);
  const after = await limited(() => agent.run({ project, stateDir, calls: [{ command: TOUCH }], setup() {} }));
  const k = { project, agentRun, yamlAfterDisable, ranAfterAgent, person, after, ranAfterPerson: ran(project) };
  if (process.env.HOOKRUN_E2E_DUMP) dump[`${agent.host}/keeper`] = k;
  return k;
}

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
  `${describeRun(k.project, r)}\nhooks.yaml after turn 1:\n${k.yamlAfterDisable}\nthe person's \`hooks trust\`: exit ${k.person.code}\n${k.person.out.slice(-1500)}`;

/** The agents that show their user a hook's notice headless (see each agent's `told`). */
const SHOWS_NOTICES = new Set<HostName>(["claude", "gemini"]);

for (const agent of AGENTS) {
  describe.skipIf(!agent.version)(`${agent.title} ${agent.version ?? `(skipped: ${agent.missing})`}: the last trusted guard keeps guarding, and the agent cannot switch it off`, () => {
    if (agent.version) keeperOf(agent);

    it("the agent's `hooks disable guard` is refused (exit 77, said to the model), and hooks.yaml is unchanged", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      const r = k.agentRun;
      expect(r.toolResults[0], describeKeeper(k, r)).toMatch(REFUSED("disable", agent.title));
      expect(r.toolResults[0], describeKeeper(k, r)).toMatch(/\b77\b/);
      expect(k.yamlAfterDisable, describeKeeper(k, r)).toBe(BLOCKING);
    });

    it("hooks.yaml rewritten by the agent to allow everything: its `hooks trust --yes` is refused", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      const r = k.agentRun;
      expect(readFileSync(path.join(k.project, "hooks.yaml"), "utf8")).toBe(ALLOWING);
      expect(r.toolResults[2], describeKeeper(k, r)).toMatch(REFUSED("trust", agent.title));
    });

    it("the agent's `touch ran.txt` is still blocked by the last trusted guard, whose reason reaches the model", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      const r = k.agentRun;
      expect(k.ranAfterAgent, describeKeeper(k, r)).toBe(false);
      expect(r.toolResults[3], describeKeeper(k, r)).toMatch(/no shell/);
      if (SHOWS_NOTICES.has(agent.host)) expect(r.userSaw, describeKeeper(k, r)).toMatch(/hooks\.yaml changed since it was trusted: its last trusted version is running instead, guards included/);
    });

    it("once a person trusts the change in a terminal of their own, the agent's `touch ran.txt` runs", { timeout: 300_000 }, async () => {
      const k = await keeperOf(agent);
      expect(k.person.code, describeKeeper(k, k.after)).toBe(0);
      expect(k.person.out, describeKeeper(k, k.after)).toMatch(/trusted hooks\.yaml/);
      expect(k.ranAfterPerson, describeKeeper(k, k.after)).toBe(true);
      expect(k.after.toolResults.join("\n"), describeKeeper(k, k.after)).not.toMatch(/no shell/);
    });
  });
}
