// Row 4: 100 hooks of `sleep 0.5` in one parallel group with maxParallel 100 should take about
// one sleep. Raw: the same 100 spawns started at once, for context.
import { median, summarize, alternate } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { rawSpawn, runnerFor, timeCall, triggerOk } from "../lib/library.mjs";

export async function parallel({ lib, quick }) {
  const fixture = project(hooksYaml({ event: "stop", count: 100, command: "sleep 0.5", parallel: true }));
  const runner = await runnerFor(lib, fixture, { maxParallel: 100 });
  try {
    const runs = quick ? 1 : 5;
    const raw = () => Promise.all(Array.from({ length: 100 }, () => rawSpawn("sleep 0.5")));
    const [ref, sub] = await alternate(runs, () => timeCall(raw), () => timeCall(() => triggerOk(runner, "stop", 100)), quick ? 0 : 1);
    const subMs = median(sub);
    return {
      reference: 500,
      hookrun: subMs,
      unit: "ms",
      ratio: subMs / 500,
      detail: { raw_parallel_spawns: summarize(ref), hookrun: summarize(sub), runs },
      note: `100 raw parallel spawns of sleep 0.5: ${median(ref).toFixed(0)} ms`,
    };
  } finally {
    await runner.close();
  }
}
