import { constants } from "node:os";
import {
  ConfigError,
  ContextError,
  HookrunError,
  InterruptedError,
  TrustError,
  UnknownHookError,
  UsageError,
  WriteError,
} from "../errors.js";

/** SPEC §8 exit codes. */
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
  if (error instanceof TrustError) return EXIT.untrusted;
  if (error instanceof UnknownHookError || error instanceof WriteError) return EXIT.failed;
  if (error instanceof InterruptedError) return error.signal ? signalExitCode(error.signal) : EXIT.sigint;
  if (error instanceof HookrunError) return EXIT.failed;
  return EXIT.failed;
}
