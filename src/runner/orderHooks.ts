import type { ResolvedHook } from "../config/types.js";

/** Priority descending, then declaration order (user, project, local; file order). */
export function orderHooks(hooks: ResolvedHook[]): ResolvedHook[] {
  return [...hooks].sort((a, b) => b.priority - a.priority || a.order - b.order);
}
