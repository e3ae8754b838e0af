import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A temp project dir plus isolated XDG config/state dirs; `cleanup` removes them all. */
export function tempEnv(prefix = "hookrun-manage-"): { root: string; dir: string; env: Record<string, string>; cleanup: () => void } {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(root, "project");
  const env = {
    XDG_CONFIG_HOME: path.join(root, "config"),
    XDG_STATE_HOME: path.join(root, "state"),
    HOOKS_STATE_DIR: path.join(root, "state", "hookrun"),
  };
  mkdirSync(dir, { recursive: true });
  mkdirSync(env.XDG_CONFIG_HOME, { recursive: true });
  return { root, dir, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
