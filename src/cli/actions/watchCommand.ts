import { displayFile, formatDiagnostic, type ConfigError } from "../../errors.js";
import type { ResolvedConfig } from "../../config/types.js";
import { watchConfig } from "../../watch/watchConfig.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { untilSignal } from "./untilSignal.js";
import { terminalSafe } from "../../text.js";

/** `hooks watch`: validate now and after every change of any layer, until a terminating signal (exit 0). */
export async function watchCommand(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  const report = (config: ResolvedConfig | null, error: ConfigError | null): void => {
    const diagnostics = error ? error.diagnostics : (config?.warnings ?? []);
    if (opts.json) {
      const files = (config?.files ?? []).map((f) => f.path);
      ctx.stdout.write(JSON.stringify({ valid: !error, hooks: error ? null : config?.hooks.length ?? 0, files: error ? null : files, error: error?.message ?? null, diagnostics }) + "\n");
      return;
    }
    const lines = diagnostics.map((d) => formatDiagnostic(d, ctx.cwd));
    if (error) lines.push(terminalSafe(`invalid: ${error.message}`));
    else if (config && config.files.length === 0) lines.push("valid: no config file found yet (waiting for one)");
    else if (config) lines.push(terminalSafe(`valid: ${config.hooks.length} hook${config.hooks.length === 1 ? "" : "s"} in ${config.files.map((f) => displayFile(f.path, ctx.cwd)).join(", ")}`));
    ctx.stdout.write(lines.join("\n") + "\n");
  };
  const { signal, dispose } = untilSignal();
  const watcher = watchConfig({
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    env: ctx.env,
    onReload: (config) => report(config, null),
    onError: (error) => report(null, error),
  });
  try {
    await watcher.ready;
    if (watcher.current && !watcher.error) report(watcher.current, null);
    if (!opts.json) ctx.stderr.write("hooks watch: watching for changes; Ctrl-C to stop\n");
    await signal;
    return EXIT.ok;
  } finally {
    dispose();
    await watcher.close();
  }
}
