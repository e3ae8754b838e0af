import path from "node:path";
import { loadConfig } from "../../config/loadConfig.js";
import { revokeTrust } from "../../trust/store.js";
import type { CliContext } from "../context.js";

/** `hooks untrust`: forget the project and local files; they must be reviewed again to run. */
export async function untrustConfig(ctx: CliContext): Promise<number> {
  const config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  const files = config.files.filter((f) => f.layer !== "user").map((f) => f.path);
  if (files.length === 0) {
    ctx.stderr.write(`hooks: no project config found from ${ctx.cwd}; nothing to untrust\n`);
    return 1;
  }
  await revokeTrust(files, ctx.env);
  for (const f of files) ctx.stderr.write(`untrusted ${path.relative(ctx.cwd, f) || f}\n`);
  return 0;
}
