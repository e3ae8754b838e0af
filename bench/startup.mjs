#!/usr/bin/env node
// Start-up measures, each on its own: every start-up measure states what it saves per `hooks run`
// on a realistic (10-hook) config (docs/performance.md#what-each-start-up-measure-buys). For each measure, the CLI as built and a variant
// with that one measure switched off (built from the same sources by scripts/build.mjs's
// bundleCli) run alternately (A B B A …), NODE_EXTRA_CA_CERTS unset, each side with its own warm
// cache dir; the table gives medians and what the measure saves (off − on).
//   node bench/startup.mjs [--runs 21] [--only code_cache,fast_yaml,…] [--node /path/to/node] [--callgrind]
// --callgrind counts instructions (valgrind, about 10 s a run, default 5 runs) instead of timing:
// steady to about ±5 M (2 %), whatever the load, for measures too small to see in wall time.
// --fair-sched=yes: without it V8's background compiles land in some runs and not in others, and
// one build's count jumps (375 against 500 M for `validate` of 1,000 hooks).
// raw spawn vs execa is measured by bench/execa.mjs (execa is not a dependency).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleCli } from "../scripts/build.mjs";
import { bigConfigYaml } from "./lib/bigConfig.mjs";
import { cleanupFixtures, isolatedEnv, project, tempDir } from "./lib/fixtures.mjs";
import { alternate, median } from "./lib/stats.mjs";
import { timeOk, timeProcess } from "./lib/timeProcess.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const callgrind = args.includes("--callgrind");
const runs = Number(opt("--runs", callgrind ? 5 : 21));
const only = opt("--only", null)?.split(",");
const node = opt("--node", process.execPath);

/** A realistic 10-hook config: every hook on `stop` (so `hooks run stop` runs all ten), with the fields real ones carry. */
function tenHooksYaml() {
  let text = "version: 1\ndefaults:\n  timeout: 60\n  env: { LOG_LEVEL: info }\nhooks:\n  stop:\n";
  for (let i = 0; i < 10; i++)
    text += `    - name: check-${i}\n      description: check number ${i}\n      command: "true"\n      timeout: ${["30s", 45][i % 2]}\n${i % 3 === 0 ? `      env: { HOOK_INDEX: "${i}" }\n` : ""}`;
  return text;
}

// Each variant: one start-up measure switched off. `patch` edits src/ files, `loader` the loader.
function replaceOnce(text, from, to, what) {
  if (!(typeof from === "string" ? text.includes(from) : from.test(text))) throw new Error(`startup bench: ${what} not found; update bench/startup.mjs`);
  return text.replace(from, to);
}
const loaderSource = readFileSync(path.join(root, "scripts/cliLoader.cjs"), "utf8");
const VARIANTS = {
  // The CLI as built, in its own dir: a rebuild of dist/ (the test suite's global set-up) cannot pull it away mid-run.
  asBuilt: {},
  noFastYaml: {
    patch: (_file, text) => (text.includes("export function parseYamlFast(") ? replaceOnce(text, /(export function parseYamlFast\([^\n]*\{)\n/, "$1\n  return null;\n", "parseYamlFast") : text),
    marker: "export function parseYamlFast(",
  },
  noWriteSync: {
    patch: (_file, text) =>
      text.includes("export function stdioWriter(")
        ? replaceOnce(text, /(export function stdioWriter\([^\n]*\{)\n/, '$1\n  { const s = stream(); (s as any).on?.("error", () => {}); return s; }\n', "stdioWriter")
        : text,
    marker: "export function stdioWriter(",
  },
  noOptForValidate: {
    loader: replaceOnce(
      loaderSource,
      'runFromVmCache(process.env.HOOKS_CODE_CACHE !== "0");',
      'if (["validate", "list"].includes(commandOf(process.argv.slice(2)))) require("node:v8").setFlagsFromString("--no-opt");\nrunFromVmCache(process.env.HOOKS_CODE_CACHE !== "0");',
      "runFromVmCache call",
    ),
  },
  // `hooks run` through the full CLI (commander and every command's code), as before the run bundle.
  noRunBundle: { loader: replaceOnce(loaderSource, 'if (command === "run") {', "if (false) {", "the run bundle's branch") },
  // node:crypto for every trust hash, as before sha256 in JavaScript.
  noJsSha256: {
    patch: (_file, text) =>
      text.includes("export const JS_SHA256_MAX_BYTES = ") ? replaceOnce(text, /export const JS_SHA256_MAX_BYTES = [^;]+;/, "export const JS_SHA256_MAX_BYTES = -1;", "JS_SHA256_MAX_BYTES") : text,
    marker: "export const JS_SHA256_MAX_BYTES = ",
  },
  // The earlier loader (docs/decisions/0003-code-cache-loader.md): a first run writes the cache every later run keeps.
  frozenCache: { loader: replaceOnce(loaderSource, "cachedData === undefined ? provisional :", "cachedData === undefined ? settled :", "provisional") },
  // Node's own compile cache (Node >= 22.1) instead of the vm loader: what the loader used on Node 22 until 2026-11.
  nodeCompileCache: {
    loader: replaceOnce(
      loaderSource,
      'runFromVmCache(process.env.HOOKS_CODE_CACHE !== "0");',
      'if (process.env.HOOKS_CODE_CACHE !== "0") {\n  const dir = path.join(cacheRoot(), "compile-cache");\n  if (privateDir(dir)) require("node:module").enableCompileCache(dir);\n}\nrequire(BUNDLE);',
      "runFromVmCache call",
    ),
  },
};

async function buildVariant(name) {
  const v = VARIANTS[name];
  const binDir = path.join(tempDir("hookrun-startup-"), "bin");
  mkdirSync(binDir, { recursive: true });
  let patched = false;
  const patch = v.patch
    ? (file, text) => {
        const out = v.patch(file, text);
        if (out !== text) patched = true;
        return out;
      }
    : undefined;
  await bundleCli({ binDir, ...(patch ? { patch } : {}), ...(v.loader ? { loaderSource: v.loader } : {}) });
  if (v.patch && !patched) throw new Error(`startup bench: ${name}: no source holds ${v.marker}`);
  return path.join(binDir, "hooks.js");
}

const baseEnv = isolatedEnv();
delete baseEnv.NODE_EXTRA_CA_CERTS;

/** One side of a comparison: a CLI entry, extra env, its own cache dir. */
function side(cli, extraEnv = {}) {
  return { cli, env: { ...baseEnv, XDG_CACHE_HOME: tempDir("hookrun-cache-"), ...extraEnv } };
}

const fixtures = {};
function fixture(kind) {
  if (fixtures[kind]) return fixtures[kind];
  return (fixtures[kind] = project(kind === "run10" ? tenHooksYaml() : bigConfigYaml(Number(kind.slice("validate".length)))));
}
const WORKLOADS = {
  run10: { fixture: "run10", args: ["--no-user-config", "--trust", "run", "stop"], label: "`hooks run stop`, 10 hooks" },
  run10trusted: { fixture: "run10", args: ["--no-user-config", "run", "stop"], label: "`hooks run stop`, 10 hooks, trusted by `hooks trust`" },
  validate1000: { fixture: "validate1000", args: ["--no-user-config", "validate"], label: "`hooks validate`, 1,000 hooks" },
  validate10000: { fixture: "validate10000", args: ["--no-user-config", "validate"], label: "`hooks validate`, 10,000 hooks" },
  list10000: { fixture: "validate10000", args: ["--no-user-config", "list"], label: "`hooks list`, 10,000 hooks" },
};

// CPU time (task-clock, all threads) besides wall time: on a shared, loaded machine wall time
// swings with the neighbours, CPU time much less. perf stat gives it per process; without perf,
// only wall time is reported.
const perf = (() => {
  try {
    execFileSync("perf", ["stat", "-x,", "-e", "task-clock", "--", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const cpuFile = path.join(os.tmpdir(), `hookrun-startup-cpu-${process.pid}.csv`);

function once(s, workload) {
  const w = WORKLOADS[workload];
  const f = fixture(w.fixture);
  const options = { cwd: f.dir, env: { ...f.env, ...s.env, NODE_EXTRA_CA_CERTS: undefined } };
  if (callgrind) {
    return async () => {
      const r = await timeProcess("valgrind", ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--smc-check=all-non-file", "--fair-sched=yes", node, s.cli, ...w.args], options);
      const ir = /Collected : (\d+)/.exec(r.stderr);
      if (r.code !== 0 || !ir) throw new Error(`valgrind ${w.args.join(" ")} exited ${r.code}: ${r.stderr.slice(-300)}`);
      return { wall: NaN, cpu: Number(ir[1]) / 1e6 };
    };
  }
  if (!perf) return async () => ({ wall: await timeOk(node, [s.cli, ...w.args], options), cpu: NaN });
  return async () => {
    const wall = await timeOk("perf", ["stat", "-x,", "-e", "task-clock", "-o", cpuFile, "--", node, s.cli, ...w.args], options);
    const line = readFileSync(cpuFile, "utf8")
      .split("\n")
      .find((l) => l.includes("task-clock"));
    return { wall, cpu: Number(line?.split(",")[0]) };
  };
}

/** Seed a side's cache with a first run that found no config (the case that froze the cache). */
async function seedWithoutConfig(s) {
  const empty = tempDir("hookrun-noconfig-");
  await timeOk(node, [s.cli, "--no-user-config", "run", "stop"], { cwd: empty, env: s.env });
}

/** Trust the 10-hook project as a person would (`hooks trust --yes`), so a run checks its hash. */
async function seedTrusted(s) {
  const f = fixture("run10");
  await timeOk(node, [s.cli, "--no-user-config", "trust", "--yes"], { cwd: f.dir, env: { ...f.env, ...s.env } });
}

async function together(n, a, b) {
  await Promise.all([a(), b()]);
  const out = [[], []];
  for (let i = 0; i < n; i++) {
    const [x, y] = await Promise.all([a(), b()]);
    out[0].push(x);
    out[1].push(y);
  }
  return out;
}

async function compare(id, label, workloads, makeOn, makeOff, { seed } = {}) {
  const rows = [];
  for (const workload of workloads) {
    const on = await makeOn();
    const off = await makeOff();
    if (seed) {
      await seed(on);
      await seed(off);
    }
    // Instruction counts do not depend on the load, so both sides may run at once.
    const [a, b] = callgrind ? await together(runs, once(on, workload), once(off, workload)) : await alternate(runs, once(on, workload), once(off, workload), 3);
    const m = (xs, k) => median(xs.map((x) => x[k]));
    rows.push({
      id,
      label,
      workload: WORKLOADS[workload].label,
      on_ms: m(a, "wall"),
      off_ms: m(b, "wall"),
      saved_ms: m(b, "wall") - m(a, "wall"),
      on_cpu: m(a, "cpu"),
      off_cpu: m(b, "cpu"),
      saved_cpu: m(b, "cpu") - m(a, "cpu"),
    });
  }
  return rows;
}

let dist;
const MEASURES = {
  code_cache: () =>
    compare(
      "code_cache",
      "code cache (HOOKS_CODE_CACHE=0 off)",
      ["run10", "validate1000"],
      () => side(dist),
      () => side(dist, { HOOKS_CODE_CACHE: "0" }),
    ),
  fast_yaml: async () => {
    const off = await buildVariant("noFastYaml");
    return compare(
      "fast_yaml",
      "fast YAML reader (yaml package only)",
      ["run10", "validate1000"],
      () => side(dist),
      () => side(off),
    );
  },
  write_sync: async () => {
    const off = await buildVariant("noWriteSync");
    return compare(
      "write_sync",
      "writeSync stdio (Node's streams)",
      ["run10", "validate1000"],
      () => side(dist),
      () => side(off),
    );
  },
  no_opt: async () => {
    // "on" is the variant here: saved_ms is what --no-opt would save (negative: it costs).
    const withNoOpt = await buildVariant("noOptForValidate");
    return compare(
      "no_opt",
      "--no-opt for validate/list",
      ["validate1000", "validate10000", "list10000"],
      () => side(withNoOpt),
      () => side(dist),
    );
  },
  run_bundle: async () => {
    const off = await buildVariant("noRunBundle");
    return compare(
      "run_bundle",
      "the run bundle (full CLI for `hooks run`)",
      ["run10"],
      () => side(dist),
      () => side(off),
    );
  },
  js_sha256: async () => {
    const off = await buildVariant("noJsSha256");
    return compare(
      "js_sha256",
      "sha256 in JavaScript (node:crypto)",
      ["run10trusted"],
      () => side(dist),
      () => side(off),
      { seed: seedTrusted },
    );
  },
  cache_refresh: async () => {
    // Both caches seeded by a run that found no config; the frozen loader keeps that cache.
    const frozen = await buildVariant("frozenCache");
    return compare(
      "cache_refresh",
      "cache settled by the second run (first run found no config)",
      ["run10"],
      () => side(dist),
      () => side(frozen),
      { seed: seedWithoutConfig },
    );
  },
  compile_cache: async () => {
    if (!hasCompileCache) return [];
    const nodeCache = await buildVariant("nodeCompileCache");
    return compare(
      "compile_cache",
      "the vm loader vs module.enableCompileCache",
      ["run10", "validate1000"],
      () => side(dist),
      () => side(nodeCache),
    );
  },
};

const hasCompileCache = execFileSync(node, ["-p", "typeof require('node:module').enableCompileCache"], { encoding: "utf8" }).trim() === "function";
dist = await buildVariant("asBuilt");
const load = os.loadavg()[0];
const results = [];
try {
  for (const [id, measure] of Object.entries(MEASURES)) {
    if (only && !only.includes(id)) continue;
    process.stderr.write(`startup: ${id} …\n`);
    results.push(...(await measure()));
  }
} finally {
  cleanupFixtures();
}
const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
const ms = (v) => (Number.isNaN(v) ? "–" : `${v < 0 ? "−" : ""}${Math.abs(v).toFixed(1)} ${callgrind ? "M instr." : "ms"}`);
const lines = ["| measure | workload | wall on | wall off | wall saved | CPU on | CPU off | CPU saved |", "|---|---|---|---|---|---|---|---|"];
if (callgrind) lines.splice(0, 2, "| measure | workload | on | off | saved |", "|---|---|---|---|---|");
for (const r of results)
  lines.push(
    callgrind
      ? `| ${r.label} | ${r.workload} | ${ms(r.on_cpu)} | ${ms(r.off_cpu)} | ${ms(r.saved_cpu)} (${((100 * r.saved_cpu) / r.on_cpu).toFixed(1)} %) |`
      : `| ${r.label} | ${r.workload} | ${ms(r.on_ms)} | ${ms(r.off_ms)} | ${ms(r.saved_ms)} | ${ms(r.on_cpu)} | ${ms(r.off_cpu)} | ${ms(r.saved_cpu)} |`,
  );
lines.push(
  `Node ${version}, ${runs} alternated runs per side, medians, NODE_EXTRA_CA_CERTS unset, ${callgrind ? "instructions counted by valgrind --tool=callgrind (this process only, not the hooks it spawns)" : "CPU = perf stat task-clock"}, load average ${load.toFixed(2)} → ${os.loadavg()[0].toFixed(2)}`,
);
process.stdout.write(`${lines.join("\n")}\n`);
