import { ConfigError, HookrunError } from "../errors.js";
import { formatDiagnostic } from "../config/formatDiagnostic.js";

/** One clear sentence per error; diagnostics one per line; a stack only with --verbose. */
export function formatError(error: unknown, verbose: boolean, cwd?: string): string {
  const lines: string[] = [];
  if (error instanceof ConfigError) {
    for (const d of error.diagnostics) lines.push(formatDiagnostic(d, cwd));
    lines.push(`hooks: ${error.message}`);
  } else if (error instanceof HookrunError) {
    lines.push(`hooks: ${error.message}`);
  } else if (error instanceof Error) {
    lines.push(`hooks: internal error: ${error.message}${verbose ? "" : " (run with --verbose for details)"}`);
  } else {
    lines.push(`hooks: ${String(error)}`);
  }
  if (verbose && error instanceof Error && error.stack) lines.push(error.stack);
  return lines.join("\n");
}
