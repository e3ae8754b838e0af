import { findHookNode } from "../edit/findHookNode.js";
import { parseDocumentForEdit } from "../edit/parseDocumentForEdit.js";
import { ConfigError, WriteError } from "../errors.js";
import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { loadForEdit } from "./loadForEdit.js";
import type { SetEnabledOptions } from "./setHooksEnabled.js";

function enabledInText(text: string, file: string, name: string): unknown {
  const doc = parseDocumentForEdit(text.replace(/^\uFEFF/, ""), file);
  const value = findHookNode(doc, name, file)?.enabledPair?.value;
  return value ? (value.toJSON() as unknown) : undefined;
}

/**
 * Refuse an edit unless the edited texts, loaded with every other layer, make a valid config in
 * which each hook has the asked state. Throws WriteError (nothing is written) otherwise.
 */
export async function validateEdit(
  options: SetEnabledOptions,
  overrides: Record<string, string>,
  hooks: { name: string; file: string }[],
  enabled: boolean,
  before?: ResolvedConfig,
): Promise<void> {
  const refuse = (file: string, detail: string, cause?: unknown): never => {
    throw new WriteError(`refusing to edit ${file}: the result would not be a valid config (${detail}); nothing was written, edit it by hand`, file, { cause });
  };
  for (const { name, file } of hooks) {
    const text = overrides[file];
    if (text === undefined) continue;
    let value: unknown;
    try {
      value = enabledInText(text, file, name);
    } catch (error) {
      refuse(file, error instanceof ConfigError && error.diagnostics[0] ? error.diagnostics[0].message : (error as Error).message, error);
    }
    if (value !== enabled) refuse(file, `\`enabled\` of "${name}" would be ${JSON.stringify(value)}, not ${enabled}`);
  }
  let after;
  try {
    after = await loadForEdit(options, overrides);
  } catch (error) {
    const file = Object.keys(overrides)[0];
    const detail = error instanceof ConfigError && error.diagnostics[0] ? `${error.diagnostics[0].message} at line ${error.diagnostics[0].line}` : (error as Error).message;
    return refuse(error instanceof ConfigError && error.diagnostics[0] ? error.diagnostics[0].file : file, detail, error);
  }
  if (before) assertOnlyNamedChanged(before, after, new Set(hooks.map((h) => h.name)), Object.keys(overrides)[0]);
  for (const { name, file } of hooks) {
    const now = after.hooks.find((h) => h.name === name);
    if (now?.enabled !== enabled) {
      throw new WriteError(`refusing to edit ${file}: "${name}" would still be ${enabled ? "disabled" : "enabled"} (decided by ${now?.enabledSource.file ?? "another file"}); nothing was written`, file);
    }
  }
}

/** What a hook does, without where it was written (an inserted line shifts positions). */
function behaviour(hook: ResolvedHook): string {
  const { source: _s, enabledSource: _e, sources: _all, ...rest } = hook;
  return JSON.stringify(rest);
}

/**
 * Refuse when the edit changed any hook other than the named ones (say, an `enabled: &on true`
 * whose anchor other hooks use): only the asked `enabled` values may change.
 */
export function assertOnlyNamedChanged(before: ResolvedConfig, after: ResolvedConfig, names: Set<string>, file: string): void {
  const now = new Map(after.hooks.map((h) => [h.name, h]));
  for (const hook of before.hooks) {
    if (names.has(hook.name)) continue;
    const other = now.get(hook.name);
    if (!other || behaviour(other) !== behaviour(hook)) {
      throw new WriteError(`refusing to edit ${file}: the change would also change hook "${hook.name}" (through a shared YAML anchor); nothing was written, edit it by hand or use --local`, file);
    }
  }
}
