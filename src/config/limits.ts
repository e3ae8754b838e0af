/** Limits on what one config file may hold; the README's "Limits" table names each. */
export const CONFIG_LIMITS = {
  /**
   * Collections nested in one another (the top-level map is level 1). Real configs use about 6;
   * the cap keeps every reader, and everything that walks the loaded value, far from the stack's end.
   */
  depth: 200,
  /**
   * Values that aliases (`*name`, `<<: *name`) add when expanded. Sharing a `defaults` map across
   * a thousand hooks adds a few thousand; an alias bomb ("billion laughs") adds billions.
   */
  aliasExpansion: 100_000,
} as const;

/** The one sentence a too-deep file gets, whichever reader finds it. */
export const TOO_DEEP = `nested more than ${CONFIG_LIMITS.depth} levels deep: a config never needs that many; flatten this value`;
