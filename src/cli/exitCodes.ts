import { constants } from "node:os";
import { formatDiagnostic } from "../errors.js";
import { ConfigError, ContextError, HookrunError, InterruptedError, TrustError, UnknownHookError, UsageError, WriteError } from "../errors.js";
import { configSummary } from "../report/json.js";
import { terminalSafe } from "../text.js";

/** The exit codes of every command (docs/cli.md#exit-codes). */
export const EXIT = {
  ok: 0,
  failed: 1,
  blocked: 2,
  usage: 64,
  badContext: 65,
  untrusted: 77,
  config: 78,
  sigint: 130,
  sigterm: 143,
} as const;

/** What each exit code means, for `hooks --help` and the docs (docs/cli.md#exit-codes). */
export const EXIT_CODES: readonly { code: number; meaning: string }[] = [
  { code: EXIT.ok, meaning: "success (also when a hook asks to stop: continue is false)" },
  { code: EXIT.failed, meaning: "not done: a hook failed, an unknown hook name, a file init would overwrite" },
  { code: EXIT.blocked, meaning: "a hook blocked the action" },
  { code: EXIT.usage, meaning: "usage error: unknown command or option, bad flag value, unknown event" },
  { code: EXIT.badContext, meaning: "bad context input: not JSON, or not a JSON object" },
  { code: EXIT.untrusted, meaning: "config not trusted: review it with `hooks trust`; or a command that changes which hooks run was called by an agent (a person must run it)" },
  { code: EXIT.config, meaning: "config invalid or missing" },
  { code: EXIT.sigint, meaning: "interrupted (128 + the signal's number: 129 SIGHUP, 143 SIGTERM)" },
];

/**
 * Exit code of a command ended by `signal`, the shell's way: 128 + its number (SIGHUP 129,
 * SIGINT 130, SIGQUIT 131, SIGTERM 143).
 */
export function signalExitCode(signal: NodeJS.Signals): number {
  const n = constants.signals[signal];
  return n === undefined ? EXIT.sigint : 128 + n;
}

/** The one place errors become exit codes. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ConfigError) return EXIT.config;
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof ContextError) return EXIT.badContext;
  if (error instanceof TrustError || (error instanceof HookrunError && error.code === "agent")) return EXIT.untrusted;
  if (error instanceof UnknownHookError || error instanceof WriteError) return EXIT.failed;
  if (error instanceof InterruptedError) return error.signal ? signalExitCode(error.signal) : EXIT.sigint;
  if (error instanceof HookrunError) return EXIT.failed;
  return EXIT.failed;
}

/**
 * An error as text for stderr: one clear sentence starting `hooks: `, a config error's
 * diagnostics one per line before it, a stack only with --verbose.
 */
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
