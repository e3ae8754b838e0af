import { ConfigError, HookrunError, displayFile, formatDiagnostic } from "../errors.js";
import { terminalSafe } from "../text.js";

/** One clear sentence per error; diagnostics one per line; a stack only with --verbose. */
export function formatError(error: unknown, verbose: boolean, cwd?: string): string {
  // Errors quote paths, names and values that may come from a hostile config or context:
  // every line is terminal-safe (formatDiagnostic escapes its own).
  const lines: string[] = [];
  if (error instanceof ConfigError) {
    for (const d of error.diagnostics) lines.push(formatDiagnostic(d, cwd));
    lines.push(terminalSafe(`hooks: ${configSummary(error, cwd)}`));
  } else if (error instanceof HookrunError) {
    lines.push(terminalSafe(`hooks: ${error.message}`));
  } else if (error instanceof Error) {
    lines.push(terminalSafe(`hooks: internal error: ${error.message}${verbose ? "" : " (run with --verbose for details)"}`));
  } else {
    lines.push(terminalSafe(`hooks: ${String(error)}`));
  }
  if (verbose && error instanceof Error && error.stack) lines.push(terminalSafe(error.stack, { keepNewlines: true, keepTabs: true }));
  return lines.join("\n");
}

/** The error's sentence, with the files it names shown as the user would click them. */
export function configSummary(error: ConfigError, cwd?: string): string {
  const errors = error.diagnostics.filter((d) => d.severity === "error");
  if (errors.length === 0 || !error.message.startsWith("config is invalid:")) return error.message;
  const files = [...new Set(errors.map((d) => displayFile(d.file, cwd)))].join(", ");
  const n = errors.length;
  return `config is invalid: ${n} error${n === 1 ? "" : "s"} in ${files}; fix ${n === 1 ? "it" : "them"} and run \`hooks validate\` again`;
}
