import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A temporary directory (optionally a copy of a fixture) with isolated XDG dirs; `cleanup()` removes it. */
export function tempDir(fixture?: string): { dir: string; env: Record<string, string>; cleanup: () => void } {
  const root = mkdtempSync(path.join(os.tmpdir(), "hookrun-interop-"));
  const dir = path.join(root, "project");
  if (fixture) cpSync(fixture, dir, { recursive: true });
  else mkdirSync(dir);
  const env = {
    HOME: path.join(root, "home"),
    XDG_CONFIG_HOME: path.join(root, "config"),
    XDG_STATE_HOME: path.join(root, "state"),
    HOOKS_STATE_DIR: path.join(root, "state", "hookrun"),
  };
  return { dir, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
