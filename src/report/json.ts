import { displayFile } from "../errors.js";
import type { ConfigFileInfo, ResolvedConfig, ResolvedHook, SourceLocation } from "../config/types.js";
import { ConfigError, HookrunError, TrustError, UnknownHookError, UsageError, WriteError, type Diagnostic } from "../errors.js";
import type { EventInfo } from "../events/catalog.js";
import { hooksDisabledByEnv, namesDisabledByEnv } from "../runner/select.js";

// One JSON serializer per concept, shared by the CLI's --json and the server, so a hook, a
// diagnostic, a file or an error has one shape whichever door printed it. Keys are snake_case.
// Paths are shown as in the text output: relative to the working directory (`base`, after -C;
// the server's own) when inside it, else absolute. The result of a trigger (docs/running-hooks.md#the-result) is
// already JSON-shaped and printed as is.

/** Where something is declared: `{file, line, col, layer}`. */
export function sourceJson(s: SourceLocation, base: string) {
  return { file: displayFile(s.file, base), line: s.line, col: s.col, layer: s.layer };
}

/** One config problem: `{file, line, col, severity, message}` (and `path`, a JSON pointer, when known). */
export function diagnosticJson(d: Diagnostic, base: string) {
  return { file: displayFile(d.file, base), line: d.line, col: d.col, severity: d.severity, message: d.message, ...(d.path !== undefined ? { path: d.path } : {}) };
}

/** A config file that was read: `{path, layer}`. */
export function fileJson(f: ConfigFileInfo, base: string) {
  return { path: displayFile(f.path, base), layer: f.layer };
}

/**
 * The environment variable that turns an enabled hook off for one invocation (docs/running-hooks.md#which-hooks-run-and-in-what-order), or
 * null: what a `hooks run` with this environment would see.
 */
export function disabledByEnv(h: ResolvedHook, env: NodeJS.ProcessEnv): string | null {
  if (!h.enabled) return null;
  if (hooksDisabledByEnv(env)) return `HOOKS=${env.HOOKS?.trim()}`;
  return namesDisabledByEnv(env)?.has(h.name) ? "HOOKS_DISABLED" : null;
}

/** A hook after merging (`hooks list --json`, `hooks run --dry-run --json`, GET /v1/hooks). */
export function hookJson(h: ResolvedHook, base: string, env: NodeJS.ProcessEnv) {
  const offBy = disabledByEnv(h, env);
  return {
    event: h.event,
    name: h.name,
    description: h.description ?? null,
    command: h.command ?? null,
    args: h.args ?? null,
    priority: h.priority,
    async: h.async,
    timeout_ms: h.timeoutMs,
    enabled: h.enabled && offBy === null,
    disabled_by_env: offBy,
    matcher: h.matcher ?? null,
    if: h.if ?? null,
    paths: h.paths ?? null,
    on_failure: h.onFailure,
    dialect: h.dialect,
    source: sourceJson(h.source, base),
    enabled_source: sourceJson(h.enabledSource, base),
    overridden_by: h.sources.slice(1).map((s) => sourceJson(s, base)),
  };
}

/** An event of the catalog (`hooks events --json`, GET /v1/events); `custom` for a config's own. */
export function eventJson(e: Pick<EventInfo, "name" | "aliases" | "fires" | "gate" | "matchField" | "fields">, custom = false) {
  return { name: e.name, aliases: e.aliases, fires: e.fires, gate: e.gate, match_field: e.matchField, fields: e.fields, custom };
}

/**
 * The outcome of validating the config (`hooks validate --json`, each check of `hooks watch
 * --json`): one shape whether valid or not. `message` is the sentence the text output prints.
 */
export function validationJson(config: ResolvedConfig | null, error: ConfigError | null, base: string) {
  const diagnostics = error ? error.diagnostics : (config?.warnings ?? []);
  const n = config?.hooks.length ?? 0;
  const files = config?.files ?? [];
  const message = error
    ? configSummary(error, base)
    : files.length === 0
      ? "no config file found"
      : `valid: ${n} hook${n === 1 ? "" : "s"} in ${files.map((f) => displayFile(f.path, base)).join(", ")}`;
  return {
    valid: error === null,
    message,
    hooks: error ? 0 : n,
    files: error ? [] : files.map((f) => fileJson(f, base)),
    errors: diagnostics.filter((d) => d.severity === "error").map((d) => diagnosticJson(d, base)),
    warnings: diagnostics.filter((d) => d.severity === "warning").map((d) => diagnosticJson(d, base)),
  };
}

/**
 * Any error as `{"error": {code, message, …details}}`: what --json prints on stdout and the
 * server answers with. `code` is the error's kind (config, usage, context, trust, unknown-hook,
 * write, internal, …); the details are those of its class (diagnostics, suggestions, files…).
 */
export function errorJson(error: unknown, base: string): { error: { code: string; message: string } & Record<string, unknown> } {
  if (!(error instanceof HookrunError)) {
    return { error: { code: "internal", message: `internal error: ${error instanceof Error ? error.message : String(error)}` } };
  }
  const details: Record<string, unknown> = {};
  let message = error.message;
  if (error instanceof ConfigError) {
    message = configSummary(error, base);
    details.diagnostics = error.diagnostics.map((d) => diagnosticJson(d, base));
  } else if (error instanceof UsageError) details.suggestions = error.suggestions;
  else if (error instanceof TrustError) details.files = error.files.map((f) => displayFile(f, base));
  else if (error instanceof UnknownHookError) details.names = error.names;
  else if (error instanceof WriteError) details.file = displayFile(error.file, base);
  return { error: { code: error.code, message, ...details } };
}

/** A ConfigError's sentence, naming its files as the user would click them (text and JSON). */
export function configSummary(error: ConfigError, base?: string): string {
  const errors = error.diagnostics.filter((d) => d.severity === "error");
  if (errors.length === 0 || !error.message.startsWith("config is invalid:")) return error.message;
  const files = [...new Set(errors.map((d) => displayFile(d.file, base)))].join(", ");
  const n = errors.length;
  return `config is invalid: ${n} error${n === 1 ? "" : "s"} in ${files}; fix ${n === 1 ? "it" : "them"} and run \`hooks validate\` again`;
}

/** GET /v1/health: "degraded" while the files on disk fail to load and the last good config runs. */
export function healthJson(config: ResolvedConfig, error: ConfigError | null, base: string) {
  return {
    status: error ? ("degraded" as const) : ("ok" as const),
    hooks: config.hooks.length,
    files: config.files.map((f) => fileJson(f, base)),
    last_reload_error: error ? errorJson(error, base).error : null,
    pid: process.pid,
  };
}
