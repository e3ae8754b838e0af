// Build: tsc emits the typed library to dist/; esbuild bundles the CLI into dist/bin/ so that
// a cold `hooks` start parses one file instead of resolving hundreds of modules.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
rmSync(path.join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { stdio: "inherit", cwd: root });

const esbuild = await import("esbuild");
// One CommonJS bundle, not ESM chunks: a CommonJS entry skips Node's ESM loader (about 5 ms of
// every cold start) and can be run from V8 code cache by the loader (scripts/cliLoader.cjs), which
// Node 20 offers for scripts but not for ES modules. Lazy `import()`s of command actions stay lazy:
// esbuild wraps those modules so their top level runs only when imported.
const binDir = path.join(root, "dist/bin");
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
const bundleFile = "cli.cjs";
await esbuild.build({
  entryPoints: [path.join(root, "src/bin/hooks.ts")],
  outfile: path.join(binDir, bundleFile),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  minifySyntax: true,
  define: { "import.meta.url": "__hookrunImportMetaUrl", "import.meta.dirname": "__dirname", "import.meta.filename": "__filename" },
  banner: { js: 'var __hookrunImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [yamlDebugSwitches],
  logLevel: "warning",
});
const bundleId = createHash("sha256").update(readFileSync(path.join(binDir, bundleFile))).digest("hex").slice(0, 16);
const loader = readFileSync(path.join(root, "scripts/cliLoader.cjs"), "utf8").replace("__BUNDLE_FILE__", bundleFile).replace("__BUNDLE_ID__", bundleId);
// dist/bin is CommonJS (the package is "type": "module"), so dist/bin/hooks.js is the loader as is.
writeFileSync(path.join(binDir, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
writeFileSync(path.join(binDir, "hooks.js"), loader);
chmodSync(path.join(binDir, "hooks.js"), 0o755);
