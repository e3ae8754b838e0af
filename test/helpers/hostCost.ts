import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { findClaude, runClaude } from "./claudeCode.js";
import { CLI, runCli, spawnCli } from "./cli.js";
import { findCodex, runCodex } from "./codexCli.js";
import { findCopilot, runCopilot, warmCopilotCache } from "./copilotCli.js";
import { findGemini, runGemini } from "./geminiCli.js";
import { findQwen, makeQwenHome, runQwen } from "./qwenCli.js";
import { removeTree } from "./removeTree.js";
import { freePort, untilListening } from "./server.js";

/**
 * What an agent waits for per event, measured in the real agent CLIs (offline, scripted models):
 * the model asks for `calls` shell tool calls one after another, and each tool-call cycle (the
 * model's answer carrying call i written → the request carrying its result received, both taken
 * from the model server's log) holds the PreToolUse hooks of that call. One run per side, sides
 * alternated round after round:
 *
 *   baseline  no hook at all (what the agent's cycle costs by itself; optional)
 *   direct    one PreToolUse hook on the shell tool, configured in the agent's own config
 *   node      the direct hook with one Node start before it (`node -e 0 && …`): what any
 *             dispatcher written in Node pays per event before it does anything (optional)
 *   <mode>    the same hook in hooks.yaml, handed to hookrun by `hooks install HOST` (command
 *             mode: the entry runs the project's node_modules/.bin/hooks, a link to this
 *             build, as `npm i -D hookrun` leaves it), or by a warm mode (MODES)
 *
 * cost per event = median cycle (mode) − median cycle (direct). The hook appends a line to a file,
 * so each run proves the hook fired once per call. The agents run in the helpers' clean
 * environments (agentProcess.ts KEEP: no NODE_EXTRA_CA_CERTS, which users do not have and which
 * costs every Node start a CA-bundle parse; the agents talk to 127.0.0.1 only). The first
 * `warmup` cycles of every run (the agent's own first tool call, hookrun's V8 code cache written
 * and settled) are left out on every side: users run with a settled cache.
 *
 * Used by test/hostCost.e2e.test.ts (figures printed in every suite run) and, through
 * hostCostCli.ts, by the bench's agent-event rows.
 */

export const HOST_IDS = ["claude", "codex", "gemini", "qwen", "copilot"] as const;
export type HostId = (typeof HOST_IDS)[number];

/** One agent run as a side sees it: the project, and the environment the agent runs with (temp HOME, XDG dirs). */
export interface AgentSession {
  host: HostId;
  project: string;
  env: NodeJS.ProcessEnv;
}

/** What a side adds to the agent's run. */
export interface SidePlan {
  /** Merged over the agent's environment. */
  env?: Record<string, string>;
  /** Extra CLI arguments (where the host's helper takes them: claude, codex, copilot). */
  args?: string[];
  /** Runs before the agent starts, as the agent's user; returns what to undo after the run. */
  setup?(session: AgentSession): Promise<(() => Promise<void>) | undefined>;
}

/** A way of handing the hook to hookrun: one more row per host it applies to. */
export interface Mode {
  id: string;
  /** As printed in the tables: "command", "warm (http)", … */
  label: string;
  hosts: readonly HostId[];
  /** The budget per event over the direct hook, ms. */
  targetMs: number;
  /** Prepare a project whose hooks.yaml holds the hook (node_modules/.bin/hooks already links this build). */
  plan(host: HostId, project: string): Promise<SidePlan> | SidePlan;
}

/** The environment of a `hooks` command run as the user the agent runs as. */
export const userEnvOf = (env: NodeJS.ProcessEnv): Record<string, string | undefined> =>
  Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

async function hooks(args: string[], session: AgentSession): Promise<void> {
  const r = await runCli(args, { cwd: session.project, env: userEnvOf(session.env) });
  if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
}

const SERVE_TOKEN = "host-cost-token-0123456789abcdef0123";

/** Command mode: `hooks install HOST` and `hooks trust`, as a user sets hookrun up. */
export const COMMAND_MODE: Mode = {
  id: "command",
  label: "command",
  hosts: HOST_IDS,
  targetMs: 25,
  plan: (host) => ({
    setup: async (session) => {
      await hooks(["install", host], session);
      await hooks(["-C", session.project, "trust", "--yes"], session);
      return undefined;
    },
  }),
};

/**
 * The warm mode over http: `hooks install HOST --serve PORT` (http entries; Copilot's only on
 * preToolUse, beside its command entry, which steps aside under COPILOT_HOOK_ALLOW_LOCALHOST=1)
 * answered by `hooks serve --port PORT`.
 */
export const WARM_HTTP_MODE: Mode = {
  id: "warm-http",
  label: "warm (http)",
  hosts: ["claude", "copilot"],
  targetMs: 5,
  plan: async (host) => {
    const port = await freePort();
    return {
      env: { HOOKS_SERVE_TOKEN: SERVE_TOKEN, ...(host === "copilot" && { COPILOT_HOOK_ALLOW_LOCALHOST: "1" }) },
      setup: async (session) => {
        await hooks(["install", host, "--serve", String(port)], session);
        await hooks(["-C", session.project, "trust", "--yes"], session);
        const server = spawnCli(["serve", "--port", String(port)], { cwd: session.project, env: { ...userEnvOf(session.env), HOOKS_SERVE_TOKEN: SERVE_TOKEN, NODE_EXTRA_CA_CERTS: undefined } });
        try {
          await untilListening(server);
        } catch (error) {
          server.child.kill("SIGKILL");
          throw error;
        }
        return async () => {
          if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
          await server.exited;
        };
      },
    };
  },
};

/**
 * Claude Code's warm mode over MCP: `hooks install claude --warm` (mcp_tool entries, the server
 * registered in .mcp.json), answered by the `hooks mcp` that Claude Code itself starts for the session.
 */
export const WARM_MCP_MODE: Mode = {
  id: "warm-mcp",
  label: "warm (MCP)",
  hosts: ["claude"],
  targetMs: 5,
  plan: () => ({
    setup: async (session) => {
      await hooks(["install", "claude", "--warm"], session);
      await hooks(["-C", session.project, "trust", "--yes"], session);
      return undefined;
    },
  }),
};

/** Every mode measured; a new warm mode is one more entry. */
export const MODES: Mode[] = [COMMAND_MODE, WARM_HTTP_MODE, WARM_MCP_MODE];

/** A model request as the cycles are read from it. */
interface Timed {
  seq: number;
  main: boolean;
  turn: number;
  at: number;
  answeredAt: number;
}

interface AgentRun {
  exitCode: number | null;
  timedOut: boolean;
  stderr: string;
  durationMs: number;
  requests: Timed[];
}

interface RunOptions {
  project: string;
  calls: number;
  env?: Record<string, string>;
  args?: string[];
  setup?: (env: NodeJS.ProcessEnv) => Promise<void>;
  afterRun?: () => Promise<void>;
  signal?: AbortSignal;
  timeoutMs: number;
}

interface Driver {
  name: string;
  find(): { version: string | null; reason: string | null; found: boolean };
  /** Write the agent's own config: one PreToolUse hook on its shell tool running `command`. */
  writeDirect(project: string, command: string): void;
  /** For an agent with http hooks: one PreToolUse http hook on its shell tool POSTing to `url`, and the environment the agent needs to send it. */
  directHttp?: { write(project: string, url: string): void; env?: Record<string, string> };
  run(o: RunOptions): Promise<AgentRun>;
}

const PROMPT = "Run the commands.";
const json = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};
const calls = <T>(n: number, turn: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => turn(i));
const agentBinary = (b: { path: string | null; version: string | null; reason: string | null }) => ({ version: b.version, reason: b.reason, found: b.path !== null });

/** What every runner that takes them gets from a measured run's options. */
const passed = (o: RunOptions) => ({
  project: o.project,
  prompt: PROMPT,
  env: o.env,
  args: o.args,
  setup: o.setup,
  afterRun: o.afterRun,
  signal: o.signal,
  timeoutMs: o.timeoutMs,
});
/** A runner's result as the cycles are read from it. */
const outcome = (r: AgentRun): AgentRun => ({ exitCode: r.exitCode, timedOut: r.timedOut, stderr: r.stderr, durationMs: r.durationMs, requests: r.requests });

let copilotWarmed = false;

const DRIVERS: Record<HostId, Driver> = {
  claude: {
    name: "Claude Code",
    find: () => agentBinary(findClaude()),
    writeDirect: (project, command) => json(path.join(project, ".claude", "settings.json"), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } }),
    directHttp: { write: (project, url) => json(path.join(project, ".claude", "settings.json"), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url, timeout: 30 }] }] } }) },
    run: async (o) => {
      const r = await runClaude({
        ...passed(o),
        script: calls(o.calls, (i) => ({ tool: "Bash", input: { command: `echo ${i}`, description: "run it" } })),
      });
      return outcome(r);
    },
  },
  codex: {
    name: "Codex CLI",
    find: () => agentBinary(findCodex()),
    writeDirect: (project, command) => json(path.join(project, ".codex", "hooks.json"), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } }),
    run: async (o) => {
      const r = await runCodex({
        ...passed(o),
        script: calls(o.calls, (i) => ({ tool: "exec_command", arguments: { cmd: `echo ${i}` } })),
      });
      return outcome({ ...r, requests: r.requests.map((q) => ({ ...q, main: true })) });
    },
  },
  gemini: {
    name: "Gemini CLI",
    find: () => agentBinary(findGemini()),
    writeDirect: (project, command) => json(path.join(project, ".gemini", "settings.json"), { hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command }] }] } }),
    run: async (o) => {
      const r = await runGemini({
        project: o.project,
        prompt: PROMPT,
        script: calls(o.calls, (i) => ({ tool: "run_shell_command", args: { command: `echo ${i}`, description: "run it" } })),
        env: o.env,
        setup: o.setup,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
      });
      await o.afterRun?.();
      return outcome(r);
    },
  },
  qwen: {
    name: "Qwen Code",
    find: () => agentBinary(findQwen()),
    writeDirect: (project, command) => json(path.join(project, ".qwen", "settings.json"), { hooks: { PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", command }] }] } }),
    run: async (o) => {
      const home = makeQwenHome();
      try {
        await o.setup?.({ ...home.env });
        const r = await runQwen({
          project: o.project,
          prompt: PROMPT,
          script: calls(o.calls, (i) => ({ tool: "run_shell_command", input: { command: `echo ${i}` } })),
          home,
          env: o.env,
          timeoutMs: o.timeoutMs,
        });
        await o.afterRun?.();
        return outcome({ ...r, durationMs: r.ms });
      } finally {
        home.cleanup();
      }
    },
  },
  copilot: {
    name: "Copilot CLI",
    find: () => {
      const b = findCopilot();
      return { version: b.version, reason: b.reason, found: b.argv !== null };
    },
    writeDirect: (project, command) => json(path.join(project, ".github", "hooks", "direct.json"), { version: 1, hooks: { preToolUse: [{ type: "command", bash: command, matcher: "bash" }] } }),
    // Copilot sends http hooks to a local server only with this variable (docs/hosts/copilot.md#warm-mode)
    directHttp: {
      write: (project, url) => json(path.join(project, ".github", "hooks", "direct.json"), { version: 1, hooks: { preToolUse: [{ type: "http", url, timeoutSec: 30, matcher: "bash" }] } }),
      env: { COPILOT_HOOK_ALLOW_LOCALHOST: "1" },
    },
    run: async (o) => {
      // the first start unpacks the binary's runtime: not in a measured run
      if (!copilotWarmed) warmCopilotCache();
      copilotWarmed = true;
      const r = await runCopilot({
        ...passed(o),
        script: calls(o.calls, (i) => ({ tool: "bash", input: { command: `echo ${i}`, description: "run it" } })),
      });
      return outcome(r);
    },
  },
};

/** Whether the agent has http hooks the http floor can measure (`httpFloor`). */
export const agentHasHttpHooks = (host: HostId): boolean => DRIVERS[host].directHttp !== undefined;

/** The agent's CLI as installed: its name, version, and whether it can run (else why not). */
export function agentOf(host: HostId): { name: string; version: string | null; found: boolean; reason: string | null } {
  const d = DRIVERS[host];
  return { name: d.name, ...d.find() };
}

/**
 * The tool-call cycles of a run: for each script turn i < calls, from the answer carrying call i
 * written to the next main request (the one carrying its result) received, ms. Throws when a turn
 * or its follow-up is missing.
 */
export function cyclesOf(requests: Timed[], callCount: number): number[] {
  const main = requests.filter((r) => r.main).sort((a, b) => a.seq - b.seq);
  const out: number[] = [];
  for (let i = 0; i < callCount; i++) {
    const k = main.findIndex((r) => r.turn === i);
    if (k < 0 || k + 1 >= main.length)
      throw new Error(`tool call ${i}: ${k < 0 ? "never asked for" : "no request carried its result"} (${main.length} main requests, turns ${main.map((r) => r.turn).join(",")})`);
    out.push(main[k + 1].at - main[k].answeredAt);
  }
  return out;
}

/**
 * For each hook start (ms since the epoch, in firing order, one per call), the time since the
 * answer carrying its call was written, ms.
 */
export function hookStartsOf(requests: Timed[], starts: number[]): number[] {
  return starts.map((at, i) => {
    const answer = requests.find((r) => r.main && r.turn === i);
    if (!answer || !Number.isFinite(at)) throw new Error(`hook start ${i}: ${answer ? `not a time: ${at}` : "no answer carried call"}`);
    return at - answer.answeredAt;
  });
}

export interface SideRun {
  /** The kept cycles (the warm-up ones left out), ms. */
  cycles: number[];
  /** The warm-up cycles, ms. */
  warmupCycles: number[];
  /** How many times the hook fired (lines in its log). */
  fired: number;
  /** With `stamps`: for each kept call, from the answer carrying it written to the hook's start, ms. */
  hookStarts?: number[];
  durationMs: number;
}

export interface SideResult {
  id: string;
  label: string;
  runs: SideRun[];
  /** Median of every kept cycle of every run, ms. */
  median: number;
  /** With `stamps`: the median of every hookStarts, ms. */
  hookStartMedian?: number;
}

export interface ModeResult {
  mode: Mode;
  side: SideResult;
  /** median cycle (mode) − median cycle (direct), ms. */
  addedMs: number;
}

export interface HostCost {
  host: HostId;
  agent: string;
  version: string | null;
  calls: number;
  warmup: number;
  rounds: number;
  baseline: SideResult | null;
  direct: SideResult;
  /** With `nodeFloor`: the direct hook behind one `node -e 0`. */
  nodeFloor: SideResult | null;
  /** With `httpFloor`, for an agent with http hooks: a direct http hook answered by a bare server. */
  httpFloor: SideResult | null;
  modes: ModeResult[];
}

export interface MeasureOptions {
  /** Rounds: each side runs once per round, order reversed every other round (default 1). */
  rounds?: number;
  /** Kept tool calls per run (default 6). */
  calls?: number;
  /** Leading tool calls per run left out (default 2). */
  warmup?: number;
  /** Also run the agent with no hook at all (default false). */
  baseline?: boolean;
  /** Also run the direct hook behind one `node -e 0` (this Node), the floor of any Node dispatcher (default false). */
  nodeFloor?: boolean;
  /**
   * For an agent with http hooks, also run one http hook configured directly, answered by a bare
   * server in this process that only appends the line and answers `{}`: the floor of any warm
   * mode over http in that agent (default false).
   */
  httpFloor?: boolean;
  /**
   * The hook runs `date +%s%3N` (a process) instead of a shell builtin, and each run also gives
   * when the hook started after its tool call: the cost split into before the hook (hookrun's
   * start-up) and after it. Default false.
   */
  stamps?: boolean;
  /** The modes to measure (default: every mode of MODES for this host). */
  modes?: Mode[];
  signal?: AbortSignal;
  /** Progress lines (one per agent run). */
  log?: (line: string) => void;
  /** Kill an agent run after this long (default 120 s). */
  timeoutMs?: number;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const hookYaml = (command: string) => `version: 1\nhooks:\n  pre_tool_use:\n    - name: mark\n      matcher: Bash\n      command: ${JSON.stringify(command)}\n`;

/**
 * Measure one host: `rounds` rounds of one run per side (baseline, direct, each mode), alternated.
 * Throws when a run fails, a cycle cannot be read, or the hook did not fire once per call.
 */
export async function measureHost(host: HostId, options: MeasureOptions = {}): Promise<HostCost> {
  const driver = DRIVERS[host];
  const agent = driver.find();
  if (!agent.found) throw new Error(`${driver.name} is not installed: ${agent.reason}`);
  const rounds = options.rounds ?? 1;
  const callCount = options.calls ?? 6;
  const warmup = options.warmup ?? 2;
  const total = callCount + warmup;
  const modes = (options.modes ?? MODES).filter((m) => m.hosts.includes(host));
  type Side = { id: string; label: string; mode?: Mode; runs: SideRun[] };
  const sides: Side[] = [
    ...(options.baseline ? [{ id: "baseline", label: "no hook", runs: [] }] : []),
    { id: "direct", label: "direct", runs: [] },
    ...(options.nodeFloor ? [{ id: "node", label: "direct + node -e 0", runs: [] }] : []),
    ...(options.httpFloor && driver.directHttp ? [{ id: "http", label: "direct http hook (bare server)", runs: [] }] : []),
    ...modes.map((mode) => ({ id: mode.id, label: mode.label, mode, runs: [] })),
  ];
  // The http floor's server: the path of each POST is the file its line goes to.
  const bare = sides.some((s) => s.id === "http") ? await bareHookServer(options.stamps === true) : null;

  const runSide = async (side: Side): Promise<SideRun> => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-cost-${host}-${side.id}-`)));
    try {
      const project = path.join(root, "project");
      mkdirSync(project);
      const fired = path.join(root, "fired.log");
      const command = options.stamps ? `date +%s%3N >> ${fired}` : `echo fired >> ${fired}`;
      let plan: SidePlan = {};
      if (side.id === "direct") driver.writeDirect(project, command);
      else if (side.id === "node") driver.writeDirect(project, `${JSON.stringify(process.execPath)} -e 0 && ${command}`);
      else if (side.id === "http" && bare && driver.directHttp) {
        driver.directHttp.write(project, `${bare.url}/${encodeURIComponent(fired)}`);
        plan = { env: driver.directHttp.env };
      } else if (side.mode) {
        writeFileSync(path.join(project, "hooks.yaml"), hookYaml(command));
        mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
        symlinkSync(CLI, path.join(project, "node_modules", ".bin", "hooks"));
        plan = await side.mode.plan(host, project);
      }
      let undo: (() => Promise<void>) | undefined;
      const run = await driver
        .run({
          project,
          calls: total,
          env: plan.env,
          args: plan.args,
          setup: plan.setup ? async (env) => void (undo = await plan.setup!({ host, project, env })) : undefined,
          afterRun: async () => {
            await undo?.();
            undo = undefined;
          },
          signal: options.signal,
          timeoutMs: options.timeoutMs ?? 120_000,
        })
        .finally(async () => {
          await undo?.();
        });
      const what = `${driver.name} ${side.label}: exit ${run.exitCode}${run.timedOut ? " (timed out)" : ""}, ${run.durationMs} ms`;
      if (run.exitCode !== 0) throw new Error(`${what}; stderr: ${run.stderr.slice(-1500)}`);
      let all: number[];
      try {
        all = cyclesOf(run.requests, total);
      } catch (error) {
        throw new Error(`${what}: ${(error as Error).message}; stderr: ${run.stderr.slice(-1500)}`);
      }
      const lines = existsSync(fired) ? readFileSync(fired, "utf8").split("\n").filter(Boolean) : [];
      const count = lines.length;
      const expected = side.id === "baseline" ? 0 : total;
      if (count !== expected) throw new Error(`${what}: the hook fired ${count} times, not ${expected}; stderr: ${run.stderr.slice(-1500)}`);
      const result: SideRun = { cycles: all.slice(warmup), warmupCycles: all.slice(0, warmup), fired: count, durationMs: run.durationMs };
      if (options.stamps && side.id !== "baseline") result.hookStarts = hookStartsOf(run.requests, lines.map(Number)).slice(warmup);
      options.log?.(
        `${driver.name} ${side.label}: cycles ${result.cycles.join(" ")} ms (warm-up ${result.warmupCycles.join(" ")})${result.hookStarts ? `, hook started ${result.hookStarts.join(" ")} ms after its call` : ""}, hook fired ${count}×, run ${run.durationMs} ms`,
      );
      return result;
    } finally {
      removeTree(root);
    }
  };

  try {
    for (let r = 0; r < rounds; r++) for (const side of r % 2 === 0 ? sides : [...sides].reverse()) side.runs.push(await runSide(side));
  } finally {
    await bare?.close();
  }

  const result = (side: Side): SideResult => ({
    id: side.id,
    label: side.label,
    runs: side.runs,
    median: median(side.runs.flatMap((x) => x.cycles)),
    ...(options.stamps && side.id !== "baseline" ? { hookStartMedian: median(side.runs.flatMap((x) => x.hookStarts ?? [])) } : {}),
  });
  const direct = result(sides.find((s) => s.id === "direct")!);
  const baseline = sides.find((s) => s.id === "baseline");
  const nodeFloor = sides.find((s) => s.id === "node");
  const httpFloor = sides.find((s) => s.id === "http");
  return {
    host,
    agent: driver.name,
    version: agent.version,
    calls: callCount,
    warmup,
    rounds,
    baseline: baseline ? result(baseline) : null,
    direct,
    nodeFloor: nodeFloor ? result(nodeFloor) : null,
    httpFloor: httpFloor ? result(httpFloor) : null,
    modes: sides
      .filter((s) => s.mode)
      .map((s) => {
        const side = result(s);
        return { mode: s.mode!, side, addedMs: side.median - direct.median };
      }),
  };
}

/** A server on 127.0.0.1 that answers each POST with `{}` after appending a line (`fired`, or the time in ms) to the file its path names. */
async function bareHookServer(stamps: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      appendFileSync(decodeURIComponent((req.url ?? "/").slice(1)), `${stamps ? Date.now() : "fired"}\n`);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const ms = (x: number) => (Number.isNaN(x) ? "–" : `${Math.round(x * 10) / 10} ms`);
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(x * 10) / 10)} ms`;

/**
 * The figures as a Markdown table: host | no hook | direct cycle | + one node start | + an http
 * hook (a bare server; on warm rows) | hookrun cycle | +ms per event | target | mode.
 */
export function costTable(results: HostCost[]): string {
  const header = ["host", "no hook cycle", "direct cycle", "+ `node -e 0`", "+ http hook", "hookrun cycle", "+ms per event", "target", "mode"];
  const rows = results.flatMap((r) =>
    r.modes.map((m) => [
      `${r.agent} ${r.version ?? ""}`.trim(),
      r.baseline ? ms(r.baseline.median) : "–",
      ms(r.direct.median),
      r.nodeFloor ? signed(r.nodeFloor.median - r.direct.median) : "–",
      r.httpFloor && m.mode.id !== "command" ? signed(r.httpFloor.median - r.direct.median) : "–",
      ms(m.side.median),
      signed(m.addedMs),
      `≤ +${m.mode.targetMs} ms`,
      m.mode.label,
    ]),
  );
  return [header, header.map(() => "---"), ...rows].map((cols) => `| ${cols.join(" | ")} |`).join("\n");
}
