import path from "node:path";
import { setHooksEnabled } from "../../edit/setHooksEnabled.js";
import type { CliContext } from "../context.js";

/** `hooks enable|disable NAME… [--local]`: one line per hook saying what changed where. */
export async function setEnabled(ctx: CliContext, names: string[], enabled: boolean, opts: { local?: boolean }): Promise<number> {
  const changes = await setHooksEnabled(names, enabled, {
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    env: ctx.env,
    local: opts.local === true,
  });
  const verb = enabled ? "enabled" : "disabled";
  for (const c of changes) {
    const where = path.relative(ctx.cwd, c.file) || c.file;
    ctx.stdout.write(c.changed ? `${verb} ${c.name} (${where})\n` : `${c.name} is already ${verb} (${where})\n`);
  }
  return 0;
}
