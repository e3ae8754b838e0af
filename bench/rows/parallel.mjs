// Row 4: 100 hooks of `sleep 0.5` in one parallel group with maxParallel 100 should take about
// one sleep. Raw: the same 100 spawns started at once, for context, and what starting them costs
// in CPU: a `sleep` starts only after its fork, exec and shell start-up have run on one of the
// cores, so the last one ends after about 0.5 s + (that CPU) / cores, whatever spawns them.
import os from "node:os";
import { median, summarize, alternate } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { rawSpawn, runnerFor, timeCall, triggerOk } from "../lib/library.mjs";
import { cpuDuring } from "../lib/childCpu.mjs";

export async function parallel({ lib, quick }) {
  const fixture = project(hooksYaml({ event: "stop", count: 100, command: "sleep 0.5", parallel: true }));
  const runner = await runnerFor(lib, fixture, { maxParallel: 100 });
  try {
    const runs = quick ? 1 : 5;
    const raw = () => Promise.all(Array.from({ length: 100 }, () => rawSpawn("sleep 0.5")));
    const [ref, sub] = await alternate(runs, () => timeCall(raw), () => timeCall(() => triggerOk(runner, "stop", 100)), quick ? 0 : 1);
    // What starting them costs: the same burst with `sleep 0` (fork, exec, shell, sleep, exit).
    const starts = () => Promise.all(Array.from({ length: 100 }, () => rawSpawn("sleep 0")));
    const cpu = [];
    for (let i = 0; i < (quick ? 1 : 5); i++) cpu.push(await cpuDuring(starts));
    const cores = os.cpus().length;
    const burstCpu = cpu[0].children === null ? null : median(cpu.map((c) => c.self + c.children));
    const floor = burstCpu === null ? null : 500 + burstCpu / cores;
    const subMs = median(sub);
    return {
      reference: 500,
      hookrun: subMs,
      unit: "ms",
      ratio: subMs / 500,
      detail: { raw_parallel_spawns: summarize(ref), hookrun: summarize(sub), runs, raw_burst_cpu_ms: burstCpu, cores, cpu_floor_ms: floor },
      note:
        `100 raw parallel spawns of sleep 0.5: ${median(ref).toFixed(0)} ms` +
        (floor === null ? "" : `; starting 100 \`sh -c 'sleep 0'\` at once costs ${burstCpu.toFixed(0)} ms of CPU (spawner + children) on ${cores} cores, so the last sleep ends after about 500 + ${burstCpu.toFixed(0)}/${cores} = ${floor.toFixed(0)} ms (${(floor / 500).toFixed(2)}×) whoever spawns them`),
    };
  } finally {
    await runner.close();
  }
}
