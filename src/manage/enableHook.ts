import { setHooksEnabled, type SetEnabledChange, type SetEnabledOptions } from "./setHooksEnabled.js";

/** Set `enabled: true` on the named hooks in the files that decide them (or hooks.local.yaml with `local`). */
export function enableHook(names: string | string[], options: SetEnabledOptions = {}): Promise<SetEnabledChange[]> {
  return setHooksEnabled(Array.isArray(names) ? names : [names], true, options);
}
