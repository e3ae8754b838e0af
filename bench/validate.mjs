// `hooks validate` of a 1,000-hook config against `node -e 0` (SPEC §15: target ≤ 1.6×).
// Alternating runs, medians, ratio. `--compare-compile` also times a CLI built to compile the
// schema with ajv at start-up instead of using the committed standalone validator.
// Run: npm run build && node bench/validate.mjs [--runs N] [--compare-compile]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, "dist/bin/hooks.js");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 15;
const EVENTS = ["session_start", "pre_tool_use", "post_tool_use", "file_post_save", "stop", "notification", "user_prompt_submit", "pre_compact"];

/** A realistic 1,000-hook hooks.yaml: every hook with several fields. */
function bigConfig(n = 1000) {
  const lines = ["version: 1", "defaults:", "  timeout: 30s", "  env: { LOG_LEVEL: info }", "hooks:"];
  for (let e = 0; e < EVENTS.length; e++) {
    lines.push(`  ${EVENTS[e]}:`);
    for (let i = e; i < n; i += EVENTS.length) {
      lines.push(`    - name: hook-${i}`, `      description: hook number ${i}`, `      command: echo ${i} && true`, `      priority: ${i % 7}`, `      timeout: ${1 + (i % 50)}s`);
      if (EVENTS[e].includes("tool")) lines.push(`      matcher: "Bash|Edit|Write"`);
      if (EVENTS[e] === "file_post_save") lines.push(`      paths: ["src/**/*.ts"]`);
      if (i % 5 === 0) lines.push("      async: true");
    }
  }
  return lines.join("\n") + "\n";
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(argv, cwd, env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  return { ms, status: r.status, out: String(r.stdout) + String(r.stderr) };
}

async function compileAtStartupCli(dir) {
  // Same bundle, but ./generated/validateSchema.js resolves to a module that compiles the schema.
  const esbuild = await import("esbuild");
  const schemaPath = path.join(root, "schema/hooks.schema.json");
  const outdir = path.join(dir, "compile-cli");
  await esbuild.build({
    entryPoints: [path.join(root, "src/bin/hooks.ts")],
    outdir, bundle: true, splitting: true, format: "esm", platform: "node", target: "node20", minifySyntax: true,
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "error",
    plugins: [{
      name: "compile-at-startup",
      setup(build) {
        build.onResolve({ filter: /generated\/validateSchema\.js$/ }, () => ({ path: "compile-validator", namespace: "bench" }));
        build.onLoad({ filter: /.*/, namespace: "bench" }, () => ({
          resolveDir: root,
          contents: `import Ajv2020 from "ajv/dist/2020.js"; import { readFileSync } from "node:fs";
            const schema = JSON.parse(readFileSync(${JSON.stringify(schemaPath)}, "utf8"));
            const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
            export default ajv.compile(schema);`,
        }));
      },
    }],
  });
  return path.join(outdir, "hooks.js");
}

const dir = mkdtempSync(path.join(os.tmpdir(), "hookrun-bench-validate-"));
try {
  const project = path.join(dir, "project");
  mkdirSync(project);
  writeFileSync(path.join(project, "hooks.yaml"), bigConfig());
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(dir, "xdg"), NO_COLOR: "1" };
  delete env.HOOKS_CONFIG;
  const check = time([cli, "validate"], project, env);
  if (check.status !== 0) throw new Error(`validate failed (exit ${check.status}): ${check.out}`);
  const sides = { "node -e 0": ["-e", "0"], "hooks validate (standalone validator)": [cli, "validate"] };
  if (args.includes("--compare-compile")) sides["hooks validate (ajv compile at start-up)"] = [await compileAtStartupCli(dir), "validate"];
  const samples = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (const argv of Object.values(sides)) time(argv, project, env); // warm the file cache
  for (let i = 0; i < runs; i++) for (const [k, argv] of Object.entries(sides)) samples[k].push(time(argv, project, env).ms);
  const base = median(samples["node -e 0"]);
  console.log(`hooks validate of a 1,000-hook config (${check.out.trim()}), ${runs} alternating runs, medians:`);
  for (const [k, xs] of Object.entries(samples)) console.log(`  ${k.padEnd(42)} ${median(xs).toFixed(1).padStart(7)} ms  ${(median(xs) / base).toFixed(2)}×`);
  console.log(`target: standalone ≤ 1.60× node -e 0`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
