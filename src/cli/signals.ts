import { constants } from "node:os";

/**
 * Grace between SIGTERM and SIGKILL for hooks when the CLI itself is killed by a signal
 * (docs/running-hooks.md#signals), instead of the 2 s of a hook's timeout. A host that kills its
 * hook escalates to SIGKILL itself (Claude Code: 1.5 s after SIGTERM); hookrun's hooks lead their
 * own groups, which a host signalling only a group or a pid does not reach: they must be
 * SIGKILLed before the host's SIGKILL ends the CLI.
 * 500 ms leaves a hook time to clean up on SIGTERM and 1 s of margin for a loaded machine's
 * event loop. A second signal kills at once.
 */
export const SIGNAL_KILL_GRACE_MS = 500;

/**
 * The signals that end the CLI: by hand (SIGINT, SIGQUIT), a host or a service manager
 * (SIGTERM), a closed terminal (SIGHUP), and SIGUSR2, whose default action also kills. Each is
 * caught so that hooks' process groups are ended first: otherwise they would outlive the CLI,
 * reparented to PID 1. Not SIGPIPE: Node ignores it and a closed pipe surfaces as EPIPE on the
 * write (stdioWriter drops the rest of the output); a handler would turn every broken pipe into
 * a termination. Not SIGUSR1: Node reserves it to start its inspector.
 */
export const TERMINATING_SIGNALS = (["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2"] as const).filter((s) => s in constants.signals);

/** Call `handler` on every terminating signal until the returned function removes it. */
export function onTerminatingSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const s of TERMINATING_SIGNALS) process.on(s, handler);
  return () => {
    for (const s of TERMINATING_SIGNALS) process.off(s, handler);
  };
}

/**
 * Resolve with the first terminating signal; `onRepeat` gets any later one. Returns the promise
 * and a function that removes the handlers.
 */
export function untilSignal(onRepeat: (signal: NodeJS.Signals) => void = () => {}): { signal: Promise<NodeJS.Signals>; dispose: () => void } {
  let first: NodeJS.Signals | null = null;
  let resolve!: (s: NodeJS.Signals) => void;
  const signal = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const dispose = onTerminatingSignal((s) => {
    if (first) return onRepeat(s);
    first = s;
    resolve(s);
  });
  return { signal, dispose };
}
