// `npm run demo`: validate and list hooks.example.yaml with the built CLI (building first if
// needed), isolated from the user's own config layer.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, "dist/bin/hooks.js");
if (!existsSync(cli)) execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit", cwd: root });

function hooks(...args) {
  console.log(`\n$ hooks ${args.join(" ")}`);
  const r = spawnSync(process.execPath, [cli, "--no-user-config", "--config", "hooks.example.yaml", ...args], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

hooks("validate");
hooks("list");
