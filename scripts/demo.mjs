// `npm run demo`: fire `stop` at hooks.example.yaml with a sample context and show the Messages.
// State goes to a temp dir that is removed afterwards, so the demo leaves nothing behind.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, "dist/bin/hooks.js");
if (!existsSync(cli)) spawnSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit", cwd: root });

const state = mkdtempSync(path.join(os.tmpdir(), "hookrun-demo-"));
const context = {
  session_id: "demo-session",
  turn_count: 3,
  last_assistant_message: "Refactored the parser.\nTODO: add tests for empty input\nTODO: update the changelog",
};
const args = ["--no-user-config", "--trust", "-c", path.join(root, "hooks.example.yaml"), "run", "stop"];
console.log(`$ echo '${JSON.stringify(context)}' | hooks ${args.join(" ")}\n`);
try {
  const run = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    input: JSON.stringify(context),
    stdio: ["pipe", "inherit", "inherit"],
    env: { ...process.env, HOOKS_STATE_DIR: state, XDG_STATE_HOME: state },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(state, { recursive: true, force: true });
}
