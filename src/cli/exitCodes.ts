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

/** The one place errors become exit codes. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ConfigError) return EXIT.config;
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof ContextError) return EXIT.badContext;
  if (error instanceof TrustError) return EXIT.untrusted;
  if (error instanceof UnknownHookError || error instanceof WriteError) return EXIT.failed;
  if (error instanceof InterruptedError) return error.signal === "SIGTERM" ? EXIT.sigterm : EXIT.sigint;
  if (error instanceof HookrunError) return EXIT.failed;
  return EXIT.failed;
}
