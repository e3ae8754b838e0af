#!/usr/bin/env node
// Cold `hooks run` of two builds side by side, against `node -e 0`, alternated in one run:
//   node bench/compareCold.mjs OTHER_CHECKOUT [RUNS]
// OTHER_CHECKOUT is another checkout of hookrun with dist/ built (an earlier commit, say). Each
// row fires one event through a project with one `true` hook: plain `hooks run stop`, and the same
// hook reached from a Gemini CLI payload (`--host gemini`). Judged without NODE_EXTRA_CA_CERTS,
// as users run. Prints medians and each build's ratio to `node -e 0`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hooksYaml, project } from "./lib/fixtures.mjs";
import { median } from "./lib/stats.mjs";
import { spawn } from "node:child_process";

/** Wall time of one process from spawn to close, `input` on its stdin; it must exit 0. */
function timed(command, args, { env, cwd, input = "" }) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { env, cwd, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(-300)}`))));
    child.stdin.end(input);
  });
}

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const other = process.argv[2];
const runs = Number(process.argv[3] ?? 31);
if (!other) {
  console.error("usage: node bench/compareCold.mjs OTHER_CHECKOUT [RUNS]");
  process.exit(64);
}
const builds = { other: path.join(path.resolve(other), "dist/bin/hooks.js"), this: path.join(here, "dist/bin/hooks.js") };
const geminiPayload = JSON.stringify({
  session_id: "s1",
  transcript_path: "",
  cwd: "/tmp",
  hook_event_name: "BeforeTool",
  timestamp: "2026-01-01T00:00:00Z",
  tool_name: "run_shell_command",
  tool_input: { command: "ls" },
});
const rows = [
  { name: "hooks run stop", event: "stop", args: ["run", "stop"], input: "" },
  { name: "hooks run pre_tool_use --host gemini", event: "pre_tool_use", args: ["run", "pre_tool_use", "--host", "gemini"], input: geminiPayload },
];
for (const row of rows) {
  const fixture = project(hooksYaml({ event: row.event, count: 1 }));
  const env = { ...fixture.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const sides = {
    "node -e 0": () => timed(process.execPath, ["-e", "0"], { env, cwd: fixture.dir }),
    other: () => timed(process.execPath, [builds.other, "--no-user-config", "--trust", ...row.args], { env, cwd: fixture.dir, input: row.input }),
    this: () => timed(process.execPath, [builds.this, "--no-user-config", "--trust", ...row.args], { env, cwd: fixture.dir, input: row.input }),
  };
  const samples = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const order = Object.keys(sides);
  for (const k of order) await sides[k]();
  for (let i = 0; i < runs; i++) for (const k of i % 2 ? [...order].reverse() : order) samples[k].push(await sides[k]());
  const floor = median(samples["node -e 0"]);
  const cells = order.map((k) => `${k} ${median(samples[k]).toFixed(1)} ms${k === "node -e 0" ? "" : ` (${(median(samples[k]) / floor).toFixed(2)}×)`}`);
  console.log(`${row.name}: ${cells.join(", ")}; this/other ${(median(samples.this) / median(samples.other)).toFixed(3)} (${runs} runs each)`);
}
