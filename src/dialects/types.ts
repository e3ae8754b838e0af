import type { ResolvedHook } from "../config/types.js";
import type { GateKind } from "../events/catalog.js";
import type { HookResult } from "../runner/types.js";

/** The two directions of a dialect's host contract. */
export interface DialectCode {
  /**
   * The hook's stdin: hookrun's context `base` of canonical `event` shaped as the dialect's host
   * sends it (event and field names, their casing, tool names and tool-input fields), whichever
   * host fired the event; values hookrun cannot know get the defaults docs/dialects.md names.
   */
  stdin(base: Record<string, unknown>, event: string): Record<string, unknown>;
  /**
   * Read a hook that exited with `code` by the host's rules onto its result `r` (status, decision,
   * reason, messages with their kind, updated_input, continue). Not called for a timeout, a signal,
   * a spawn error, a shell's 126/127 (unless the row's `readsShellCodes`) or, unless the row's
   * `readsEveryExit`, a code other than 0 and 2. `base` is the context `stdin` was made from.
   */
  readExit(r: HookResult, hook: ResolvedHook, code: number, gate: GateKind, base?: Record<string, unknown>): HookResult;
  /**
   * Variables the dialect's host sets for a hook besides hookrun's (FACTORY_PROJECT_DIR,
   * AGENT_CODE_HOOK_TOOL, …), from the stdin it built; a variable already in the environment is kept.
   */
  env?(input: Record<string, unknown>, event: string, projectDir: string, base?: Record<string, unknown>): Record<string, string>;
}
