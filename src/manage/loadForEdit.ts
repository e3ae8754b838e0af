import { loadConfig } from "../config/loadConfig.js";
import type { ResolvedConfig } from "../config/types.js";
import { ConfigError, HookrunError } from "../errors.js";
import type { SetEnabledOptions } from "./setHooksEnabled.js";

/** loadConfig for enable/disable, with edited texts in place of files; any failure is a ConfigError. */
export async function loadForEdit(options: SetEnabledOptions, overrides?: Record<string, string>): Promise<ResolvedConfig> {
  try {
    return await loadConfig({ cwd: options.cwd, configPath: options.configPath, userConfig: options.userConfig, env: options.env, overrides });
  } catch (error) {
    if (error instanceof HookrunError) throw error;
    throw new ConfigError(`cannot load the config: ${(error as Error).message}`, [], { cause: error });
  }
}
