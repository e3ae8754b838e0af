#!/usr/bin/env node
"use strict";
// The `hooks` command. Node 20 has no compile cache, and parsing + compiling the CLI bundle is a
// large share of a cold `hooks run` (SPEC §15 budgets it at 1.3× `node -e 0`). So this loader runs
// the bundle (cli.cjs) through node:vm with V8 code cache: the first run of each command writes
// the compiled code, later runs skip parsing and compiling. A stale or foreign cache is rejected
// by V8 and rewritten; any cache problem falls back to plain compilation. HOOKS_CODE_CACHE=0
// turns it off. The bundle id and file names are filled in by scripts/build.mjs.
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire } = require("node:module");

const BUNDLE = path.join(__dirname, "__BUNDLE_FILE__");
const BUNDLE_ID = "__BUNDLE_ID__";

// The command word decides which code paths get compiled, so each command keeps its own cache.
// Same rule as src/cli/commandWord.ts (this loader cannot import the bundle it loads).
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-c" || a === "--config" || a === "-C" || a === "--cwd") i++;
    else if (!a.startsWith("-")) return /^[a-z_-]{1,40}$/.test(a) ? a : "other";
  }
  return "none";
}

// Next to the bundle, else (a read-only install) in the user's cache; the second is computed only
// when needed (node:os is not loaded otherwise).
function* cacheDirs() {
  yield path.join(__dirname, ".v8-cache");
  yield path.join(process.env.XDG_CACHE_HOME || path.join(require("node:os").homedir(), ".cache"), "hookrun", "v8-cache");
}

function readCache(name) {
  for (const dir of cacheDirs()) {
    try {
      return fs.readFileSync(path.join(dir, name));
    } catch {
      // absent here: try the next place
    }
  }
  return undefined;
}

// Atomic (temp file + rename), so concurrent first runs never leave a torn cache behind; caches
// of other builds are removed so upgrades do not pile them up.
function writeCache(name, data) {
  for (const dir of cacheDirs()) {
    const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(tmp, data);
      fs.renameSync(tmp, path.join(dir, name));
      for (const old of fs.readdirSync(dir)) if (old.endsWith(".bin") && !old.includes(`-${BUNDLE_ID}-`)) fs.rmSync(path.join(dir, old), { force: true });
      return;
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // nothing to clean
      }
    }
  }
}

const command = commandOf(process.argv.slice(2));
// `validate` and `list` read and check the whole config once, then exit. V8's optimizing compiler
// (TurboFan) only costs them: it compiles the parser's hot loops while the interpreter and
// Maglev finish the job anyway (validate of 1,000 hooks: 124.8 -> 95.4 ms median, CPU 160 -> 103
// ms, 25 alternated runs). Other commands keep it: they load Node built-ins afterwards, whose
// embedded code cache V8 rejects once a flag has changed, and serve/watch run for long.
if (command === "validate" || command === "list") require("node:v8").setFlagsFromString("--no-opt");
const source = fs.readFileSync(BUNDLE, "utf8");
const useCache = process.env.HOOKS_CODE_CACHE !== "0";
const cacheName = `${command}-${BUNDLE_ID}-${process.version}-${process.arch}.bin`;
const cachedData = useCache ? readCache(cacheName) : undefined;
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: BUNDLE,
  cachedData,
  importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (useCache && (cachedData === undefined || script.cachedDataRejected)) {
  // After the command ran, so the cache holds every function it compiled.
  // Not after a usage error (exit 64): a mistyped command word must not leave a cache file.
  process.once("exit", (code) => {
    if (code !== 64) writeCache(cacheName, script.createCachedData());
  });
}
const bundleModule = { exports: {} };
// __filename is this loader, so the bundle re-spawns itself (async workers) through the cache too.
script.runInThisContext()(bundleModule.exports, createRequire(BUNDLE), bundleModule, __filename, __dirname);
