// Row 1: a trigger that selects nothing must cost microseconds and touch no disk (docs/running-hooks.md#from-a-program-library, docs/performance.md).
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { median, summarize } from "../lib/stats.mjs";
import { project } from "../lib/fixtures.mjs";
import { CONTEXT, runnerFor } from "../lib/library.mjs";

const YAML = `version: 1
hooks:
  stop:
    - { name: on-stop, command: "true" }
  pre_tool_use:
    - { name: guard-bash, matcher: "Bash|shell", command: "true" }
    - { name: guard-write, matcher: "^Write$", command: "true" }
`;

async function perCallMicros(runner, event, context, iterations) {
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await runner.trigger(event, context);
    samples.push((performance.now() - start) * 1000);
  }
  return samples;
}

export async function noMatch({ lib, quick }) {
  const fixture = project(YAML);
  const runner = await runnerFor(lib, fixture);
  const iterations = quick ? 2_000 : 50_000;
  const runLog = path.join(fixture.state, "runs.jsonl");
  const logSize = () => (existsSync(runLog) ? statSync(runLog).size : -1);
  try {
    const before = logSize();
    // Warm-up so the JIT has compiled the path being measured, as in a long-running agent.
    await perCallMicros(runner, "session_start", CONTEXT, 2_000);
    const noHooks = await perCallMicros(runner, "session_start", CONTEXT, iterations);
    const missCtx = { ...CONTEXT, tool_name: "Edit", tool_input: { file_path: "a.ts" } };
    await perCallMicros(runner, "pre_tool_use", missCtx, 2_000);
    const matcherMiss = await perCallMicros(runner, "pre_tool_use", missCtx, iterations);
    const touchedDisk = logSize() !== before;
    // The row reports the worse of the two ways of matching nothing.
    const worst = Math.max(median(noHooks), median(matcherMiss));
    return {
      hookrun: worst,
      unit: "µs",
      detail: { event_without_hooks: summarize(noHooks), matcher_miss: summarize(matcherMiss), iterations, run_log_written: touchedDisk },
      pass: worst <= 5 && !touchedDisk,
      note: touchedDisk
        ? "the run log was written by no-match triggers"
        : `median of ${iterations} calls; worse of event-without-hooks ${median(noHooks).toFixed(2)} µs, matcher-miss ${median(matcherMiss).toFixed(2)} µs`,
    };
  } finally {
    await runner.close();
  }
}
