// The library rows import the built package (dist/index.js) exactly as a Node agent would.
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The public API, or null when the runner has not landed in this build yet. */
export async function loadLibrary(root) {
  const lib = { ...(await import(pathToFileURL(path.join(root, "dist/index.js")).href)) };
  // Until the barrel exports loadConfig, take it from its module (same built code).
  lib.loadConfig ??= (await import(pathToFileURL(path.join(root, "dist/config/loadConfig.js")).href)).loadConfig;
  return typeof lib.createRunner === "function" && typeof lib.loadConfig === "function" ? lib : null;
}

/** Load the fixture's config and make a runner on it (trust: all, isolated state dir and env). */
export async function runnerFor(lib, fixture, options = {}) {
  const config = await lib.loadConfig({ cwd: fixture.dir, userConfig: false, env: fixture.env });
  return lib.createRunner(config, { trust: "all", env: fixture.env, cwd: fixture.dir, stateDir: fixture.state, ...options });
}

export const CONTEXT = { session_id: "bench", turn_count: 1, last_assistant_message: "Done." };

/** The physical floor: one `sh -c <command>` spawned with piped stdio, awaited until it exited and closed. */
export function rawSpawn(command = "true") {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command]);
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", resolve);
  });
}

/** Milliseconds for one awaited call of fn. */
export async function timeCall(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** A trigger whose every hook must have run and succeeded, else the row is measuring a failure. */
export async function triggerOk(runner, event, expectHooks) {
  const result = await runner.trigger(event, CONTEXT);
  if (result.hooks.length !== expectHooks || result.hooks.some((h) => h.status !== "ok")) {
    const bad = result.hooks.find((h) => h.status !== "ok");
    throw new Error(`trigger ${event}: expected ${expectHooks} ok hooks, got ${result.hooks.length}${bad ? ` (${bad.name}: ${bad.status} ${bad.error ?? ""})` : ""}`);
  }
  return result;
}
