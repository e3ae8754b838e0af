// Build: tsc emits the typed library to dist/; esbuild bundles the CLI into dist/bin/ so that
// a cold `hooks` start parses one file instead of resolving hundreds of modules.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
rmSync(path.join(root, "dist"), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { stdio: "inherit", cwd: root });

const esbuild = await import("esbuild");
await esbuild.build({
  entryPoints: [path.join(root, "src/bin/hooks.ts")],
  outdir: path.join(root, "dist/bin"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minifySyntax: true,
  chunkNames: "chunks/[name]-[hash]",
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __hookrunCreateRequire } from 'node:module'; const require = __hookrunCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
