import os from "node:os";
import path from "node:path";

/** $HOOKS_STATE_DIR, else $XDG_STATE_HOME/hookrun, else ~/.local/state/hookrun (SPEC §10). */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOOKS_STATE_DIR) return path.resolve(env.HOOKS_STATE_DIR);
  const base = env.XDG_STATE_HOME ? path.resolve(env.XDG_STATE_HOME) : path.join(os.homedir(), ".local", "state");
  return path.join(base, "hookrun");
}
