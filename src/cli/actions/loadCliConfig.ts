import { loadConfig } from "../../config/loadConfig.js";
import type { ResolvedConfig } from "../../config/types.js";
import type { CliContext } from "../context.js";

/** loadConfig with the global flags of the CLI (-C, --config / HOOKS_CONFIG, --no-user-config). */
export function loadCliConfig(ctx: CliContext): Promise<ResolvedConfig> {
  return loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
}
