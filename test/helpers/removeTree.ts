import { rmSync } from "node:fs";

/**
 * Remove a temporary tree (a sandbox, an agent's HOME, a project). Node's rmSync lists a
 * directory's children once and then only retries the rmdir: a file created meanwhile fails it
 * with ENOTEMPTY. hookrun processes write their code cache under $XDG_CACHE_HOME as they exit: a
 * detached async worker after publishing its result, a dispatch that outlived the agent that ran
 * it (Claude Code does not wait for a hook whose background job holds its stdout). So the
 * whole walk is retried, for up to about 4.5 s.
 */
export function removeTree(root: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 2, retryDelay: 50 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" || attempt >= 10) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100 * attempt);
    }
  }
}
