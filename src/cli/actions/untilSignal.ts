/**
 * Resolve with the first SIGINT or SIGTERM; `onRepeat` gets any later one. Returns the promise
 * and a function that removes the handlers.
 */
export function untilSignal(onRepeat: (signal: NodeJS.Signals) => void = () => {}): { signal: Promise<NodeJS.Signals>; dispose: () => void } {
  let first: NodeJS.Signals | null = null;
  let resolve!: (s: NodeJS.Signals) => void;
  const signal = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const handler = (s: NodeJS.Signals): void => {
    if (first) return onRepeat(s);
    first = s;
    resolve(s);
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
