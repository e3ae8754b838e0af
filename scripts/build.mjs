// Build: tsc emits the typed library to dist/; esbuild bundles the CLI into dist/bin/ so that
// a cold `hooks` start parses one file instead of resolving hundreds of modules.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

// yaml reads process.env.LOG_TOKENS / LOG_STREAM (debug switches) once per token; process.env is a
// slow C++ lookup, and on a 1,000-hook config those reads were a third of the parse. The CLI bundle
// compiles them out; a yaml upgrade that moves them fails the build instead of going slow silently.
const yamlDebugSwitches = {
  name: "yaml-debug-switches",
  setup(build) {
    build.onLoad({ filter: /[\\/]yaml[\\/]dist[\\/](parse[\\/]parser|compose[\\/]composer)\.js$/ }, ({ path: file }) => {
      const text = readFileSync(file, "utf8");
      const patched = text.replace(/node_process\.env\.LOG_(TOKENS|STREAM)/g, "false");
      if (patched === text) throw new Error(`${file}: yaml's LOG_TOKENS/LOG_STREAM check moved; update scripts/build.mjs`);
      return { contents: patched, loader: "js" };
    });
  },
};
// esbuild turns `import path from "node:path"` into `__toESM(require("node:path"))` in every
// importing module, and each call copies every property of the module onto a new object (53
// imports, about 1.5 ms of a cold start). A built-in's default export is its module object, so
// `const path = require("node:path")` is the same value without the copy.
const builtinDefaultImports = (patch) => ({
  name: "builtin-default-imports",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, ({ path: file }) => {
      const text = patch(file, readFileSync(file, "utf8")).replace(/^import (\w+) from "(node:[\w/]+)";$/gm, 'const $1 = require("$2");');
      if (/^import (?!type )(\* as )?\w+\b[^;]* from "node:/m.test(text)) throw new Error(`${file}: import a node: built-in by name, or on its own line as \`import x from "node:x";\``);
      return { contents: text, loader: "ts" };
    });
  },
});
// commander requires node:child_process at load for executable subcommands, which hookrun does
// not use; loading it costs `hooks validate` and friends about 4 ms. Load it on first use instead.
const commanderLazyChildProcess = {
  name: "commander-lazy-child-process",
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, ({ path: file }) => {
      const text = readFileSync(file, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${file}: commander's child_process require moved; update scripts/build.mjs`);
      return { contents: text.replace(eager, "const childProcess = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });"), loader: "js" };
    });
  },
};
const bundleFile = "cli.cjs";
const runBundleFile = "run.cjs";

// One CommonJS bundle, not ESM chunks: a CommonJS entry skips Node's ESM loader (about 5 ms of
// every cold start) and can be run from V8 code cache by the loader (scripts/cliLoader.cjs), which
// Node 20 offers for scripts but not for ES modules. Lazy `import()`s of command actions stay lazy:
// esbuild wraps those modules so their top level runs only when imported.
/**
 * The CLI bundle and its loader in `binDir`. `patch(file, text)` (applied to each src/ file) and
 * `loaderSource` let bench/startup.mjs build variants, a start-up measure switched off, from the
 * same sources.
 */
export async function bundleCli({ binDir = path.join(root, "dist/bin"), patch = (_file, text) => text, loaderSource = readFileSync(path.join(root, "scripts/cliLoader.cjs"), "utf8") } = {}) {
  const esbuild = await import("esbuild");
  // The full CLI, and the fast `hooks run` (src/bin/hooksRun.ts: the run path without commander
  // or the other commands' code, which the loader tries first for `hooks run`).
  for (const [entry, file] of [
    ["src/bin/hooks.ts", bundleFile],
    ["src/bin/hooksRun.ts", runBundleFile],
  ]) {
    await esbuild.build({
      entryPoints: [path.join(root, entry)],
      outfile: path.join(binDir, file),
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      // Minified: half the bytes to read at every start. HOOKRUN_BUILD_READABLE=1 keeps names (profiling).
      ...(process.env.HOOKRUN_BUILD_READABLE === "1" ? { minifySyntax: true } : { minify: true }),
      // import.meta.url is computed on first use (node:crypto's lazy loader), not at every start.
      define: { "import.meta.url": "__hookrunImportMeta.url", "import.meta.dirname": "__dirname", "import.meta.filename": "__filename" },
      banner: { js: 'var __hookrunImportMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
      // jsonc-parser's `main` is a UMD build whose require("./impl/format") esbuild cannot follow; its ESM build bundles.
      alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
      plugins: [yamlDebugSwitches, builtinDefaultImports(patch), commanderLazyChildProcess],
      logLevel: "warning",
    });
  }
  const buildId = createHash("sha256");
  for (const file of [bundleFile, runBundleFile]) buildId.update(readFileSync(path.join(binDir, file)));
  const bundleId = buildId.digest("hex").slice(0, 16);
  const loader = loaderSource.replace("__BUNDLE_FILE__", bundleFile).replace("__RUN_BUNDLE_FILE__", runBundleFile).replace("__BUNDLE_ID__", bundleId);
  // dist/bin is CommonJS (the package is "type": "module"), so dist/bin/hooks.js is the loader as is.
  mkdirSync(binDir, { recursive: true });
  writeFileSync(path.join(binDir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
  writeFileSync(path.join(binDir, "hooks.js"), loader);
  chmodSync(path.join(binDir, "hooks.js"), 0o755);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  rmSync(path.join(root, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { stdio: "inherit", cwd: root });
  // tsc's ES module copies of the entries' helpers would sit unused in CommonJS dist/bin; the bundles hold them.
  for (const name of ["entry", "hooksRun"]) for (const ext of [".js", ".d.ts"]) rmSync(path.join(root, "dist/bin", name + ext), { force: true });
  await bundleCli();
}
