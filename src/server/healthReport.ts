import type { ResolvedConfig } from "../config/types.js";
import type { ConfigError } from "../errors.js";

export interface HealthReport {
  status: "ok" | "degraded";
  hooks: number;
  files: string[];
  last_reload_error: null | { message: string; diagnostics: ConfigError["diagnostics"] };
  pid: number;
}

/** GET /v1/health: "degraded" while the files on disk fail to load and the last good config runs. */
export function healthReport(config: ResolvedConfig, error: ConfigError | null): HealthReport {
  return {
    status: error ? "degraded" : "ok",
    hooks: config.hooks.length,
    files: config.files.map((f) => f.path),
    last_reload_error: error ? { message: error.message, diagnostics: error.diagnostics } : null,
    pid: process.pid,
  };
}
