// Row 4: 100 hooks of `sleep 0.5` in one parallel group, `hooks run --max-parallel 100` from a
// cold start, against lefthook running the same 100 jobs in parallel (docs/performance.md), alternated.
// Both should take about one sleep. For context, the same 100 spawns started at once from a
// fresh Node process, and what starting them costs in CPU: a `sleep` starts only after its fork,
// exec and shell start-up have run on one of the cores, so the last one ends after about
// 0.5 s + (that CPU) / cores, whoever spawns them. Run in a fresh process (bench/lib/rowChild.mjs).
import os from "node:os";
import path from "node:path";
import { median, summarize, alternate } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { rawSpawn, timeCall } from "../lib/library.mjs";
import { cpuDuring } from "../lib/childCpu.mjs";
import { cliPath } from "../lib/cli.mjs";
import { lefthookArgs, lefthookBinary, lefthookRepo } from "../lib/lefthook.mjs";
import { timeOk } from "../lib/timeProcess.mjs";

export async function parallel({ root, quick }) {
  const fixture = project(hooksYaml({ event: "stop", count: 100, command: "sleep 0.5", parallel: true }));
  // Users do not have NODE_EXTRA_CA_CERTS (docs/performance.md); lefthook, a Go binary, ignores it.
  const env = { ...fixture.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const lh = lefthookRepo();
  const bin = lefthookBinary(root);
  const runs = quick ? 1 : 7;
  const lefthook = () => timeOk(bin, lefthookArgs("bench-parallel"), { cwd: lh.dir, env: lh.env });
  const hooks = () => timeOk(process.execPath, [cliPath(root), "--no-user-config", "--trust", "run", "stop", "--max-parallel", "100"], { cwd: fixture.dir, env });
  const [ref, sub] = await alternate(runs, lefthook, hooks, 1);
  const raw = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) raw.push(await timeCall(() => Promise.all(Array.from({ length: 100 }, () => rawSpawn("sleep 0.5")))));
  // What starting them costs: the same burst with `sleep 0` (fork, exec, shell, sleep, exit).
  const starts = () => Promise.all(Array.from({ length: 100 }, () => rawSpawn("sleep 0")));
  const cpu = [];
  for (let i = 0; i < (quick ? 1 : 5); i++) cpu.push(await cpuDuring(starts));
  const cores = os.cpus().length;
  const burstCpu = cpu[0].children === null ? null : median(cpu.map((c) => c.self + c.children));
  const floor = burstCpu === null ? null : 500 + burstCpu / cores;
  return {
    reference: median(ref),
    hookrun: median(sub),
    unit: "ms",
    ratio: median(sub) / median(ref),
    detail: {
      lefthook: summarize(ref),
      hookrun: summarize(sub),
      runs,
      raw_parallel_spawns: summarize(raw),
      raw_burst_cpu_ms: burstCpu,
      cores,
      cpu_floor_ms: floor,
      entry: path.basename(cliPath(root)),
    },
    note:
      `100 raw parallel spawns of sleep 0.5 from a warm Node process: ${median(raw).toFixed(0)} ms` +
      (floor === null
        ? ""
        : `; starting 100 \`sh -c 'sleep 0'\` at once costs ${burstCpu.toFixed(0)} ms of CPU (spawner + children) on ${cores} cores, so the last sleep ends after about 500 + ${burstCpu.toFixed(0)}/${cores} = ${floor.toFixed(0)} ms (${(floor / 500).toFixed(2)}×) whoever spawns them`),
  };
}
