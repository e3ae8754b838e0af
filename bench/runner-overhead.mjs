// Quick check of the runner's per-spawn overhead (SPEC §15), interleaving samples so machine
// load hits every side alike: `npm run build && node bench/runner-overhead.mjs [samples]`.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { createRunner } = await import(path.join(root, "dist/index.js"));
const state = mkdtempSync(path.join(os.tmpdir(), "hookrun-bench-"));
const hook = (name, i = 0) => ({
  name, event: "stop", command: "true", priority: 0, async: false, timeoutMs: 60_000, enabled: true, env: {}, dir: os.tmpdir(),
  shell: "sh", onFailure: "continue", maxOutput: 1 << 20, order: i, source: {}, enabledSource: {}, sources: [],
});
const config = (hooks) => ({ projectDir: os.tmpdir(), files: [], hooks, events: {}, warnings: [] });
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const raw = () => new Promise((resolve) => spawn("sh", ["-c", "true"]).on("close", resolve));
const one = createRunner(config([hook("t")]), { stateDir: state });
const hundred = createRunner(config(Array.from({ length: 100 }, (_, i) => hook(`h${i}`, i))), { stateDir: state });
const sides = {
  raw,
  "one true hook": () => one.trigger("stop", {}),
  "100 raw spawns": async () => { for (let i = 0; i < 100; i++) await raw(); },
  "100 sequential hooks": () => hundred.trigger("stop", {}),
};
const samples = Number(process.argv[2] ?? 200);
const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
for (let i = 0; i < samples; i++) {
  for (const [k, f] of Object.entries(sides)) {
    if (k.startsWith("100") && i % 20 !== 0) continue;
    const t = process.hrtime.bigint();
    await f();
    times[k].push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
console.log(`one true hook: ${m["one true hook"].toFixed(3)} ms vs raw spawn ${m.raw.toFixed(3)} ms (x${(m["one true hook"] / m.raw).toFixed(2)})`);
console.log(`100 sequential hooks: ${m["100 sequential hooks"].toFixed(1)} ms vs 100 raw spawns ${m["100 raw spawns"].toFixed(1)} ms (x${(m["100 sequential hooks"] / m["100 raw spawns"]).toFixed(2)})`);
const noMatch = [];
for (let k = 0; k < 20; k++) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < 5000; i++) await one.trigger("pre_tool_use", { session_id: "s" });
  noMatch.push(Number(process.hrtime.bigint() - t) / 5000 / 1000);
}
console.log(`no-match trigger: ${median(noMatch).toFixed(2)} µs median`);
rmSync(state, { recursive: true, force: true });
