import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor as pollUntil } from "./waitFor.js";

/** A temp project with a hooks.yaml, and isolated config and state dirs. */
export interface TempProject {
  dir: string;
  state: string;
  env: NodeJS.ProcessEnv;
  file(name: string): string;
  cleanup(): void;
}

export function tempProject(yaml: string): TempProject {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hookrun-async-"));
  const dir = path.join(root, "project");
  const state = path.join(root, "state");
  fs.mkdirSync(dir);
  fs.mkdirSync(path.join(root, "config"));
  fs.writeFileSync(path.join(dir, "hooks.yaml"), yaml);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: path.join(root, "config"), HOOKS_STATE_DIR: state };
  for (const k of Object.keys(env)) if (k === "CI" || k === "GITHUB_ACTIONS" || (k.startsWith("HOOKS") && k !== "HOOKS_STATE_DIR")) delete env[k];
  return {
    dir,
    state,
    env,
    file: (name) => path.join(dir, name),
    // retries: a detached worker may still be writing its result while the tree is removed
    cleanup: () => fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}

/** Wait until a condition holds (generous bound: loaded CI machines are slow). */
export async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  await pollUntil(check, { timeoutMs, intervalMs: 25 });
}

export function readPid(file: string): number {
  return Number(fs.readFileSync(file, "utf8").trim());
}
