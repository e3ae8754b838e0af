// Rows "agent event … inside the real agent CLI": what an agent waits for per event through
// hookrun, measured inside Claude Code, Codex, Gemini CLI, Qwen Code and Copilot CLI (the
// devDependencies, run offline against scripted model servers). test/helpers/hostCost.ts does the
// measuring (the e2e suite prints the same figures): the model asks for shell tool calls one after
// another, and the tool-call cycle (its answer carrying call i written → the request carrying the
// result received) holds the PreToolUse hooks of call i. Sides, one agent run each per round,
// alternated: no hook, one `true`-like hook configured directly in the agent (the reference), that
// hook behind one `node -e 0` (what any dispatcher written in Node pays per event), the same hook in hooks.yaml through `hooks install HOST` (the project's node_modules/.bin/hooks links
// this build) and, for Claude Code, through warm mode. hookrun's figure is the median cycle through
// hookrun; the row's "+ms" is that minus the direct median. The agents run without
// NODE_EXTRA_CA_CERTS (as users do).
//
// The helpers are TypeScript and drive the agents through the e2e helpers, so one child process
// per host runs test/helpers/hostCostCli.ts under tsx (a devDependency, like the agents).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { isolatedEnv } from "../lib/fixtures.mjs";
import { summarize } from "../lib/stats.mjs";

const measured = new Map();

/** Full: 3 runs per side of 8 kept tool calls (plus 2 warm-up calls), the no-hook and `node -e 0` sides too. Quick: 1 run of 4, neither. */
const plan = (quick) => (quick ? { rounds: 1, calls: 4, warmup: 2, extra: false } : { rounds: 3, calls: 8, warmup: 2, extra: true });

function hasTsx(root) {
  try {
    createRequire(path.join(root, "package.json")).resolve("tsx");
    return true;
  } catch {
    return false;
  }
}

/** Every mode of one host, measured once in a child process (the host's rows share it). */
function measure(root, quick, host) {
  if (!measured.has(host)) {
    const p = plan(quick);
    const args = ["--import", "tsx", path.join(root, "test/helpers/hostCostCli.ts"), "--json", "--hosts", host, "--rounds", String(p.rounds), "--calls", String(p.calls), "--warmup", String(p.warmup)];
    if (p.extra) args.push("--baseline", "--node-floor", "--http-floor");
    measured.set(
      host,
      new Promise((resolve, reject) => {
        const env = isolatedEnv();
        delete env.NODE_EXTRA_CA_CERTS;
        const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
        child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
        const timer = setTimeout(() => child.kill("SIGTERM"), 20 * 60_000);
        child.on("error", reject);
        child.on("close", (code, signal) => {
          clearTimeout(timer);
          if (code !== 0) reject(new Error(`test/helpers/hostCostCli.ts --hosts ${host} exited ${code ?? signal}: ${err.trim().slice(-1500)}`));
          else resolve({ ...JSON.parse(out), log: err });
        });
      }),
    );
  }
  return measured.get(host);
}

const cyclesOf = (side) => side.runs.flatMap((r) => r.cycles);
const ms = (x) => `${x.toFixed(1)} ms`;
const signed = (x) => `${x < 0 ? "−" : "+"}${ms(Math.abs(x))}`;

/** The row of `host` in `mode` (a mode id of hostCost.ts: "command", "warm-http"). */
export function agentEvent(host, mode) {
  return async ({ root, quick }) => {
    if (!hasTsx(root)) return { unavailable: "tsx (a devDependency) is not installed: run npm ci" };
    const out = await measure(root, quick, host);
    if (out.skipped[host]) return { unavailable: out.skipped[host] };
    const r = out.results.find((x) => x.host === host);
    const m = r?.modes.find((x) => x.mode === mode);
    if (!m) throw new Error(`${host}: mode ${mode} was not measured`);
    const baseline = r.baseline ? `no hook ${ms(r.baseline.median)}, ` : "";
    const floor = r.nodeFloor ? `, direct hook behind one \`node -e 0\` ${signed(r.nodeFloor.median - r.direct.median)}` : "";
    // the agent's own price for an http hook: the floor of its warm mode
    const http = r.httpFloor && mode !== "command" ? `, an http hook configured directly, answered by a bare server, ${signed(r.httpFloor.median - r.direct.median)}` : "";
    return {
      reference: r.direct.median,
      hookrun: m.side.median,
      unit: "ms",
      ratio: m.side.median / r.direct.median,
      detail: {
        agent: `${r.agent} ${r.version}`,
        mode,
        rounds: r.rounds,
        calls_per_run: r.calls,
        warmup_calls_left_out: r.warmup,
        no_hook_cycle: r.baseline ? summarize(cyclesOf(r.baseline)) : null,
        node_floor_cycle: r.nodeFloor ? summarize(cyclesOf(r.nodeFloor)) : null,
        http_floor_cycle: r.httpFloor ? summarize(cyclesOf(r.httpFloor)) : null,
        direct_cycle: summarize(cyclesOf(r.direct)),
        hookrun_cycle: summarize(cyclesOf(m.side)),
        runs: { no_hook: r.baseline?.runs ?? null, direct: r.direct.runs, node_floor: r.nodeFloor?.runs ?? null, http_floor: r.httpFloor?.runs ?? null, hookrun: m.side.runs },
      },
      note: `${r.agent} ${r.version}, ${m.label}: tool-call cycle medians over ${r.rounds} run(s) × ${r.calls} Bash calls per side, alternated: ${baseline}direct hook ${ms(r.direct.median)}, through hookrun ${ms(m.side.median)} (${signed(m.side.median - r.direct.median)} per event)${floor}${http}`,
    };
  };
}
