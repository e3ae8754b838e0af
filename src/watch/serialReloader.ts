/**
 * Runs `task` one at a time: a request while it runs schedules exactly one more run, so a
 * burst of changes during a slow reload costs one extra reload, not one per change.
 */
export interface SerialReloader {
  /** Ask for a run; resolves when a run that started after this call has finished. */
  request(): Promise<void>;
  /** Resolves when nothing runs or is queued. */
  idle(): Promise<void>;
}

export function serialReloader(task: () => Promise<void>): SerialReloader {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const start = (): Promise<void> => {
    running = (async () => {
      try {
        await task();
      } finally {
        running = null;
      }
    })();
    return running;
  };

  return {
    request() {
      if (!running) return start();
      // Coalesce: every request during this run waits for the same single follow-up run.
      queued ??= running.then(() => {
        queued = null;
        return start();
      });
      return queued;
    },
    async idle() {
      while (running || queued) await (queued ?? running);
    },
  };
}
