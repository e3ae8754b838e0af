import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { CLI, cliEnv } from "./cli.js";

/**
 * The project's installed hookrun, as `npm i -D hookrun` leaves it: node_modules/.bin/hooks, a
 * symlink to this checkout's built CLI (dist/bin/hooks.js, built by test/globalSetup.ts).
 */
export function linkHookrun(projectDir: string): void {
  mkdirSync(path.join(projectDir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(projectDir, "node_modules", ".bin", "hooks"));
}

/**
 * Run a dispatch entry's command the way a host runs a command hook: `sh -c COMMAND` in `cwd`,
 * the host's payload on stdin, the host's environment variables over a clean one.
 */
export function runEntry(command: string, payload: unknown, options: { cwd: string; env: Record<string, string | undefined> }): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync("/bin/sh", ["-c", command], { cwd: options.cwd, env: cliEnv(options.env), input: JSON.stringify(payload), encoding: "utf8", timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
