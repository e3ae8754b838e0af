import { execFileSync } from "node:child_process";
import path from "node:path";

// The CLI tests spawn dist/bin/hooks.js; build once so they exercise what users install.
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, "..");
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" });
}
