// The bench measures what users install (dist/), so a stale build would measure old code.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Run `npm run build` (scripts/build.mjs) when dist/ is missing or older than src/. */
export function ensureBuilt(root) {
  const outputs = ["dist/index.js", "dist/bin/hooks.js"].map((f) => path.join(root, f));
  const sourcesTime = Math.max(newestMtime(path.join(root, "src")), statSync(path.join(root, "scripts/build.mjs")).mtimeMs);
  const stale = outputs.some((f) => !existsSync(f) || statSync(f).mtimeMs < sourcesTime);
  if (!stale) return false;
  process.stderr.write("bench: dist/ is missing or older than src/, building first\n");
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  return true;
}
