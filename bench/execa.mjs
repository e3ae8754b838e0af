#!/usr/bin/env node
// Why hookrun spawns with raw node:child_process and not execa, in figures: execa's import cost
// on a cold start and its per-call overhead over a raw spawn. execa is not a dependency; install
// it somewhere else and pass that node_modules:
//   mkdir /tmp/execa && npm --prefix /tmp/execa install execa@9 && node bench/execa.mjs /tmp/execa/node_modules
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { alternate, median } from "./lib/stats.mjs";
import { timeOk } from "./lib/timeProcess.mjs";

const modules = process.argv[2];
if (!modules) {
  process.stderr.write("usage: node bench/execa.mjs <node_modules dir holding execa>\n");
  process.exit(64);
}
const execaUrl = pathToFileURL(path.join(path.resolve(modules), "execa/index.js")).href;
const { execa } = await import(execaUrl);

const dir = os.tmpdir();
const importExeca = path.join(dir, `hookrun-bench-import-execa-${process.pid}.mjs`);
const importCp = path.join(dir, `hookrun-bench-import-cp-${process.pid}.mjs`);
writeFileSync(importExeca, `import ${JSON.stringify(execaUrl)};\n`);
writeFileSync(importCp, `import "node:child_process";\n`);
const [cp, ex] = await alternate(
  21,
  () => timeOk(process.execPath, [importCp]),
  () => timeOk(process.execPath, [importExeca]),
  2,
).finally(() => {
  rmSync(importExeca, { force: true });
  rmSync(importCp, { force: true });
});

// Both sides pipe a context line to stdin and collect stdout/stderr, as a hook run does.
const raw = () =>
  new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", "true"]);
    child.stdin.on("error", () => {});
    child.stdin.end("{}\n");
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", resolve);
  });
const timed = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const [r, e] = await alternate(
  201,
  () => timed(raw),
  () => timed(() => execa("sh", ["-c", "true"], { input: "{}\n", reject: false })),
  20,
);
const version = JSON.parse(readFileSync(path.join(modules, "execa/package.json"), "utf8")).version;
console.log(
  `execa ${version}: cold import (node file.mjs importing it) ${median(ex).toFixed(1)} ms vs importing node:child_process ${median(cp).toFixed(1)} ms (+${(median(ex) - median(cp)).toFixed(1)} ms)`,
);
console.log(
  `per call, sh -c true with stdin: raw spawn ${median(r).toFixed(2)} ms, execa ${median(e).toFixed(2)} ms (${(median(e) / median(r)).toFixed(2)}x, +${((median(e) - median(r)) * 1000).toFixed(0)} us per call)`,
);
console.log(`load average ${os.loadavg()[0].toFixed(2)}`);
