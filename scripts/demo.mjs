// `npm run demo`: fire a few events at hooks.example.yaml, as an agent would during one turn, and
// show what the hooks said and decided; then `hooks explain` and the fixtures of
// hooks.example.hooktest.yaml (`hooks test`). State goes to a temp dir that is removed afterwards, so
// the demo leaves nothing behind; --wait reports the async hook in the same run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, "dist/bin/hooks.js");
if (!existsSync(cli)) spawnSync(process.execPath, [path.join(root, "scripts/build.mjs")], { stdio: "inherit", cwd: root });

const state = mkdtempSync(path.join(os.tmpdir(), "hookrun-demo-"));
const session = { session_id: "demo-session", turn_count: 3 };
const steps = [
  { event: "session_start", context: { ...session, source: "startup" } },
  { event: "pre_tool_use", context: { ...session, tool_name: "Bash", tool_input: { command: "ls src" } } },
  { event: "pre_tool_use", context: { ...session, tool_name: "Bash", tool_input: { command: "git push --force origin main" } } },
  { event: "stop", context: { ...session, last_assistant_message: "Refactored the parser; tests pass." }, flags: ["--wait"] },
];
const exitMeaning = { 0: "ok", 1: "a hook failed", 2: "blocked" };
let worst = 0;
try {
  for (const { event, context, flags = [] } of steps) {
    const args = ["--no-user-config", "--trust", "-c", "hooks.example.yaml", "run", event, ...flags];
    console.log(`\n$ echo '${JSON.stringify(context)}' | hooks ${args.join(" ")}`);
    const run = spawnSync(process.execPath, [cli, ...args], {
      cwd: root,
      input: JSON.stringify(context),
      stdio: ["pipe", "inherit", "inherit"],
      env: { ...process.env, HOOKS_STATE_DIR: state, XDG_STATE_HOME: state, NO_COLOR: process.env.NO_COLOR ?? "" },
    });
    const code = run.status ?? 1;
    console.log(`(exit ${code}: ${exitMeaning[code] ?? "error"})`);
    // A block is the demo working as intended; anything else non-zero is a real problem.
    if (code !== 0 && code !== 2) worst = code;
  }
  // Why a hook would or would not run, and the checked-in fixtures run through the real hooks.
  const more = [
    { args: ["explain", "pre_tool_use"], input: { tool_name: "Write", path: "README.md" } },
    { args: ["test"], input: null },
  ];
  for (const { args, input } of more) {
    const all = ["--no-user-config", "--trust", "-c", "hooks.example.yaml", ...args];
    console.log(`\n$ ${input ? `echo '${JSON.stringify(input)}' | ` : ""}hooks ${all.join(" ")}`);
    const run = spawnSync(process.execPath, [cli, ...all], {
      cwd: root,
      input: input ? JSON.stringify(input) : "",
      stdio: ["pipe", "inherit", "inherit"],
      env: { ...process.env, HOOKS_STATE_DIR: state, XDG_STATE_HOME: state, NO_COLOR: process.env.NO_COLOR ?? "" },
    });
    if (run.status !== 0) worst = run.status ?? 1;
  }
} finally {
  rmSync(state, { recursive: true, force: true });
}
process.exitCode = worst;
