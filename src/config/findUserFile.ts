import os from "node:os";
import path from "node:path";
import { configCandidate, PROJECT_FILE_NAMES } from "./configCandidates.js";

/** The user layer: $XDG_CONFIG_HOME/hookrun/hooks.{yaml,yml,json} (default ~/.config), or null. */
export function findUserFile(env: NodeJS.ProcessEnv = process.env, extra?: ReadonlySet<string>): string | null {
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(os.homedir(), ".config");
  return configCandidate(path.join(base, "hookrun"), PROJECT_FILE_NAMES, extra);
}
