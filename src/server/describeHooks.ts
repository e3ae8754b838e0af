import type { ResolvedConfig } from "../config/types.js";

/** GET /v1/hooks: each resolved hook as snake_case JSON, with where it was declared. */
export function describeHooks(config: ResolvedConfig): Record<string, unknown>[] {
  return config.hooks.map((h) => ({
    name: h.name,
    event: h.event,
    description: h.description ?? null,
    command: h.command ?? null,
    args: h.args ?? null,
    priority: h.priority,
    async: h.async,
    timeout_ms: h.timeoutMs,
    enabled: h.enabled,
    matcher: h.matcher ?? null,
    paths: h.paths ?? null,
    on_failure: h.onFailure,
    layer: h.source.layer,
    source: `${h.source.file}:${h.source.line}:${h.source.col}`,
  }));
}
