import { assertConfigFound } from "../../config/discover.js";
import { displayFile, formatDiagnostic, ConfigError, type Diagnostic } from "../../errors.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { configSummary } from "../formatError.js";
import { loadCliConfig } from "./loadCliConfig.js";
import { terminalSafe } from "../../text.js";

/** `hooks validate`: every diagnostic of every layer; exit 0 when valid (warnings allowed), else 78. */
export async function validateConfig(ctx: CliContext, opts: { json?: boolean }): Promise<number> {
  const here = ctx.cwd;
  try {
    const config = await loadCliConfig(ctx);
    assertConfigFound(config, ctx.cwd);
    const files = config.files.map((f) => displayFile(f.path, here));
    if (opts.json) {
      ctx.stdout.write(JSON.stringify({ valid: true, hooks: config.hooks.length, files: config.files.map((f) => ({ path: f.path, layer: f.layer })), errors: [], warnings: config.warnings }, null, 2) + "\n");
      return EXIT.ok;
    }
    for (const w of config.warnings) ctx.stderr.write(formatDiagnostic(w, here) + "\n");
    const n = config.hooks.length;
    const warned = config.warnings.length ? ` (${config.warnings.length} warning${config.warnings.length === 1 ? "" : "s"})` : "";
    ctx.stdout.write(terminalSafe(`valid: ${n} hook${n === 1 ? "" : "s"} in ${files.join(", ")}${warned}`) + "\n");
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    if (opts.json) {
      const split = (s: Diagnostic["severity"]) => error.diagnostics.filter((d) => d.severity === s);
      ctx.stdout.write(JSON.stringify({ valid: false, message: error.message, errors: split("error"), warnings: split("warning") }, null, 2) + "\n");
      return EXIT.config;
    }
    for (const d of error.diagnostics) ctx.stderr.write(formatDiagnostic(d, here) + "\n");
    ctx.stderr.write(terminalSafe(`hooks: ${configSummary(error, here)}`) + "\n");
    return EXIT.config;
  }
}
