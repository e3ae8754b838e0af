import type { HookSpec } from "../config/types.js";
import type { ImportedHook } from "../interop/importHooks.js";

/**
 * Gemini CLI and Qwen Code (its fork) run an event's hooks at once, unless a group of the event
 * says `sequential: true`: then all of them, one after another. Their dialects run hooks of equal
 * priority at once, so `hooks import` gives a sequential event's hooks priorities that fall in
 * file order (n-1 down to 0), and says so in one note (null when there is nothing to order).
 */
export function runInOrder(mine: ImportedHook[], where: string, title: string): string | null {
  if (mine.length < 2) return null;
  mine.forEach((item, i) => {
    const { dialect, ...rest } = item.hook;
    item.hook = { ...rest, priority: mine.length - 1 - i, ...(dialect !== undefined && { dialect }) } as HookSpec;
  });
  return `${where}: \`sequential: true\`: its ${mine.length} hooks run one after another in ${title}'s order (priorities ${mine.length - 1} down to 0)`;
}
