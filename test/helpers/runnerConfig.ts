import type { ResolvedConfig, ResolvedEventSettings, ResolvedHook } from "../../src/config/types.js";

/** A resolved hook with the loader's defaults, for tests that build configs in code. */
export function hook(name: string, event: string, fields: Partial<ResolvedHook> = {}): ResolvedHook {
  const loc = { file: "/test/hooks.yaml", line: 1, col: 1, layer: "project" as const };
  return {
    name,
    event,
    priority: 0,
    async: false,
    timeoutMs: 10_000,
    enabled: true,
    env: {},
    dir: null,
    shell: "sh",
    onFailure: "continue",
    dialect: "native",
    maxOutput: 1024 * 1024,
    order: 0,
    source: loc,
    enabledSource: loc,
    sources: [loc],
    ...fields,
  };
}

/** A config holding `hooks` (declaration order = array order unless `order` is given). */
export function config(projectDir: string, hooks: ResolvedHook[], events: Record<string, Partial<ResolvedEventSettings>> = {}): ResolvedConfig {
  return {
    projectDir,
    files: [],
    hooks: hooks.map((h, i) => ({ ...h, order: h.order || i, dir: h.dir ?? projectDir })),
    events: Object.fromEntries(Object.entries(events).map(([k, v]) => [k, { parallel: false, custom: false, ...v }])),
    warnings: [],
  };
}
