import { ConfigError } from "../errors.js";
import type { ResolvedConfig } from "./types.js";

/** For commands that need config (validate, list, enable, disable): none found is a config error. */
export function assertConfigFound(config: ResolvedConfig, cwd: string): void {
  if (config.files.length > 0) return;
  throw new ConfigError(`no config found: no hooks.yaml, hooks.yml or hooks.json in ${cwd} or its parents; run \`hooks init\` to create one, or name one with --config`);
}
