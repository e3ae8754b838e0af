/** Undelivered async results (and leftovers of crashed claimers) are dropped after 24 hours. */
export const ASYNC_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** A worker that has not finished this long after its hook's timeout is presumed dead. */
export const ASYNC_ORPHAN_GRACE_MS = 60 * 1000;

/** How long `runner.close()` lets running async hooks finish before killing them (as `hooks serve`). */
export const DEFAULT_ASYNC_CLOSE_GRACE_MS = 5000;
