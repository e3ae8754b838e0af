// Rows 2 and 3, and the per-hook overhead figures: N `true` hooks run by the library against N raw
// spawns awaited one after another — the physical floor of running N processes in sequence.
import { median, summarize, alternate } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { rawSpawn, runnerFor, timeCall, triggerOk } from "../lib/library.mjs";

/** Alternate `runs` library triggers of `count` hooks with `runs` loops of `count` raw spawns. */
export async function sequential({ lib }, count, runs) {
  const fixture = project(hooksYaml({ event: "stop", count }));
  const runner = await runnerFor(lib, fixture);
  try {
    const raw = async () => {
      for (let i = 0; i < count; i++) await rawSpawn();
    };
    const [ref, sub] = await alternate(
      runs,
      () => timeCall(raw),
      () => timeCall(() => triggerOk(runner, "stop", count)),
      Math.max(1, Math.ceil(20 / count)),
    );
    const refMs = median(ref);
    const subMs = median(sub);
    return {
      count,
      reference: refMs,
      hookrun: subMs,
      unit: "ms",
      ratio: subMs / refMs,
      overhead_us_per_hook: ((subMs - refMs) * 1000) / count,
      detail: { reference: summarize(ref), hookrun: summarize(sub), runs },
    };
  } finally {
    await runner.close();
  }
}
