#!/usr/bin/env node
"use strict";
// The `hooks` command. Parsing and compiling the CLI bundle (cli.cjs) is a large share of a cold
// `hooks run`, so its compiled code is cached in the user's cache dir, never in the installed
// package: $XDG_CACHE_HOME/hookrun/ (default ~/.cache/hookrun/). Decision record:
// docs/decisions/0003-code-cache-loader.md.
// node:vm with V8 code cache, on every Node version (Node's own module.enableCompileCache() caches
// only the bundle's top level, and measured slower on Node 22: see the decision record): one cache
// per command word, written after the command ran (so it holds every function the command
// compiled), and written once more by the second run (a first run that found no config must not
// freeze a small cache).
// A stale or foreign cache is rejected by V8 and rewritten; any cache problem falls back to plain
// compilation. HOOKS_CODE_CACHE=0 turns it off.
// `hooks run` first tries the fast run bundle (run.cjs: the run path without commander or the other
// commands, docs/performance.md#what-each-start-up-measure-buys); a command line it does not take
// goes to the full CLI (cli.cjs). The file names and the build id (of both bundles) are filled in
// by scripts/build.mjs.
const fs = require("node:fs");
const path = require("node:path");

const BUNDLE = path.join(__dirname, "__BUNDLE_FILE__");
const RUN_BUNDLE = path.join(__dirname, "__RUN_BUNDLE_FILE__");
const BUNDLE_ID = "__BUNDLE_ID__";

// The command word decides which code paths get compiled, so each command keeps its own cache.
// Same rule as commandWord in src/cli/commands.ts (this loader cannot import the bundle it loads).
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-c" || a === "--config" || a === "-C" || a === "--cwd" || a === "--color") i++;
    else if (!a.startsWith("-")) return /^[a-z_-]{1,40}$/.test(a) ? a : "other";
  }
  return "none";
}

// Same rule as src/fs/stateDir.ts applies to XDG_STATE_HOME; node:os is loaded only without HOME.
function cacheRoot() {
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg ? path.join(path.resolve(xdg), "hookrun") : path.join(process.env.HOME || require("node:os").homedir(), ".cache", "hookrun");
}

// Whether `dir` (made 0700 when missing, its parent too) is a cache only this user controls: a real
// directory, not a symlink, owned by this user, writable by no one else, and so is the hookrun
// folder it is in. A shared or planted cache dir (another user's, on a machine whose
// XDG_CACHE_HOME or HOME points somewhere shared) is never read or written: hookrun then runs
// without the cache (docs/decisions/0003-code-cache-loader.md).
function privateDir(dir) {
  if (typeof process.getuid !== "function") return true;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [path.dirname(dir), dir]) {
      const st = fs.lstatSync(d);
      if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o022) !== 0) return false;
    }
    return true;
  } catch {
    return false;
  }
}

// Atomic (temp file + rename), so concurrent runs never leave a torn cache behind; caches of
// other builds are removed so upgrades do not pile them up. A cache that cannot be written (a
// read-only home) is simply not written.
function writeCache(dir, name, data) {
  const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, path.join(dir, name));
    for (const old of fs.readdirSync(dir)) if (old.endsWith(".bin") && !old.includes(`-${BUNDLE_ID}-`)) fs.rmSync(path.join(dir, old), { force: true });
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing to clean
    }
  }
}

// Compile `bundle` (from its code cache `tag`-COMMAND when there is one) and run its top level;
// returns its exports and a function that schedules the cache's write at exit (called only when
// this bundle ran the command, so a bundle that handed over never freezes a small cache).
function loadBundle(bundle, tag, command, useCache) {
  const vm = require("node:vm");
  const { createRequire } = require("node:module");
  const dir = path.join(cacheRoot(), "v8-cache");
  if (useCache && !privateDir(dir)) useCache = false;
  const base = `${tag}${command}-${BUNDLE_ID}-${process.version}-${process.arch}`;
  // A first run writes a provisional cache; the first run that uses it writes the settled one,
  // which later runs only read. So a first run that compiled little (no config found) does not
  // freeze a small cache, and no later run pays for createCachedData() (about 6 ms) again.
  const settled = `${base}.bin`;
  const provisional = `${base}.first.bin`;
  let cachedData;
  let from;
  if (useCache) {
    for (const name of [settled, provisional]) {
      try {
        cachedData = fs.readFileSync(path.join(dir, name));
        from = name;
        break;
      } catch {
        // not written yet
      }
    }
  }
  const source = fs.readFileSync(bundle, "utf8");
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // Nothing cached: write provisional. Provisional used: settle it. Rejected (corrupt, or V8
  // flags differ): replace the file that was read. Settled and accepted: nothing to do.
  const target = !useCache ? undefined : cachedData === undefined ? provisional : script.cachedDataRejected ? from : from === provisional ? settled : undefined;
  const bundleModule = { exports: {} };
  // __filename is this loader, so the bundle re-spawns itself (async workers) through the cache too.
  script.runInThisContext()(bundleModule.exports, createRequire(bundle), bundleModule, __filename, __dirname);
  const keepCache = () => {
    if (!target) return;
    // After the command ran, so the cache holds every function it compiled. Not after a usage
    // error (exit 64): a mistyped command word must not leave a cache file.
    process.once("exit", (code) => {
      if (code === 64) return;
      writeCache(dir, target, script.createCachedData());
      if (target === settled) fs.rmSync(path.join(dir, provisional), { force: true });
    });
  };
  return { exports: bundleModule.exports, keepCache };
}

function runFromVmCache(useCache) {
  const command = commandOf(process.argv.slice(2));
  if (command === "run") {
    const fast = loadBundle(RUN_BUNDLE, "fast-", command, useCache);
    if (fast.exports.startRun()) return fast.keepCache();
  }
  loadBundle(BUNDLE, "", command, useCache).keepCache();
}

runFromVmCache(process.env.HOOKS_CODE_CACHE !== "0");
