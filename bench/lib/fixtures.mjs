// Every bench run works in throw-away directories and an isolated environment, so neither the
// user's config nor their run log is read or written.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const made = [];

/** A fresh temp dir, removed by cleanupFixtures(). */
export function tempDir(prefix = "hookrun-bench-") {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanupFixtures() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A project dir holding hooks.yaml with `text`, plus isolated state, config and cache dirs (the CLI's code cache starts empty and is warmed by each row's warm-up runs). */
export function project(text) {
  const root = tempDir();
  const dir = path.join(root, "project");
  const state = path.join(root, "state");
  const xdgConfig = path.join(root, "xdg-config");
  for (const d of [dir, state, xdgConfig]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(dir, "hooks.yaml"), text);
  return { root, dir, state, xdgConfig, env: isolatedEnv({ HOOKS_STATE_DIR: state, XDG_CONFIG_HOME: xdgConfig, XDG_STATE_HOME: state, XDG_CACHE_HOME: path.join(root, "cache") }) };
}

/** process.env without what changes hookrun's behaviour (CI implies --wait; HOOKS* select hooks). */
export function isolatedEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k === "CI" || k === "GITHUB_ACTIONS" || k.startsWith("HOOKS")) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** hooks.yaml text: `count` hooks under `event`, each running `command`. */
export function hooksYaml({ event = "stop", count = 1, command = "true", parallel = false, extraEvents = "" }) {
  const lines = ["version: 1"];
  if (parallel) lines.push("events:", `  ${event}: { parallel: true }`);
  lines.push("hooks:", `  ${event}:`);
  for (let i = 0; i < count; i++) lines.push(`    - name: h${String(i).padStart(4, "0")}`, `      command: ${JSON.stringify(command)}`);
  if (extraEvents) lines.push(extraEvents);
  return `${lines.join("\n")}\n`;
}
