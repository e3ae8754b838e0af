import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { orderHooks } from "./orderHooks.js";
import { selectHooks, type SelectOptions } from "./selectHooks.js";
import type { HookContext } from "./types.js";

/** The hooks a trigger of `event` (canonical) would run for `context`, in run order (for --dry-run). */
export function planHooks(config: ResolvedConfig, event: string, context: HookContext, options: SelectOptions): ResolvedHook[] {
  return orderHooks(selectHooks(config.hooks.filter((h) => h.event === event), event, context, config, options));
}
