import { FAIL_CLOSED_FLAG } from "../hosts/failClosed.js";
import { errorJson } from "../report/json.js";
import type { CliOutput } from "./stdioWriter.js";
import { exitCodeFor, formatError } from "./exitCodes.js";

// How a command that failed ends: shared by main() (src/cli/main.ts) and the fast `hooks run`
// (src/cli/fastRun.ts), so an error reads the same whichever parsed the command line.

interface ErrorIO {
  stdout: CliOutput;
  stderr: CliOutput;
}

/** `--json` or `--output json` anywhere in argv: errors are printed as JSON on stdout too. */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === "--json" || a === "--output=json" || (a === "--output" && argv[i + 1] === "json"));
}

/**
 * A fail-closed dispatch that failed blocks in its host's contract (docs/fail-closed.md): the
 * exit code once that answer is printed, or undefined when there is no such answer to give.
 */
export async function closedAnswer(argv: readonly string[], error: unknown, io: ErrorIO): Promise<number | undefined> {
  if (!argv.includes(FAIL_CLOSED_FLAG)) return undefined;
  const closed = (await import("../hosts/crashAnswer.js")).crashAnswer(argv, error);
  if (!closed) return undefined;
  io.stdout.write(closed.stdout);
  io.stderr.write(closed.stderr);
  return closed.exitCode;
}

/** Print a command's error (JSON on stdout with --json, else one sentence on stderr); returns its exit code. */
export function reportError(argv: readonly string[], error: unknown, io: ErrorIO, cwd: string): number {
  if (wantsJson(argv)) io.stdout.write(`${JSON.stringify(errorJson(error, cwd), null, 2)}\n`);
  else io.stderr.write(`${formatError(error, argv.includes("-v") || argv.includes("--verbose"), cwd)}\n`);
  return exitCodeFor(error);
}
