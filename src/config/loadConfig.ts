import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { ConfigError, type Diagnostic } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedFile } from "../fs/readBounded.js";
import { checkConfigFile } from "./checkConfigFile.js";
import { customEvents, mergeDefaults, mergeEventSettings, mergeHooks, type LayerFile } from "./layers.js";
import { findLocalFile, findProjectFile, findUserFile } from "./discover.js";
import { parseConfigText } from "./parseConfigText.js";
import { schemaDiagnostics } from "./schemaDiagnostics.js";
import { sha256 } from "../fs/crypto.js";
import type { ConfigFileInfo, Layer, ResolvedConfig } from "./types.js";

export interface LoadConfigOptions {
  /** Where discovery starts (default process.cwd()). */
  cwd?: string;
  /** The project config file, named directly (no walk up). */
  configPath?: string;
  /** Read the user layer (default true). */
  userConfig?: boolean;
  /** Environment for HOOKS_CONFIG / XDG_CONFIG_HOME (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * Absolute file path → text to use instead of the file on disk (the file need not exist):
   * lets an edit be validated in the context of every layer before it is written.
   */
  overrides?: Record<string, string>;
}

/**
 * Find, parse, validate and merge every config layer (docs/configuration.md). Throws ConfigError carrying
 * every diagnostic (errors and warnings) when any error is found; warnings of a valid config
 * are in `warnings`. No config anywhere gives an empty config (files: []).
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const overrides = new Map(Object.entries(options.overrides ?? {}).map(([f, t]) => [path.resolve(f), t]));
  const extra = new Set(overrides.keys());

  const found: { file: string; layer: Layer }[] = [];
  const user = options.userConfig === false ? null : findUserFile(env, extra);
  if (user) found.push({ file: user, layer: "user" });
  const project = findProjectFile({ cwd, configPath: options.configPath, env, extra });
  if (project) {
    found.push({ file: project, layer: "project" });
    const local = findLocalFile(project, extra);
    if (local) found.push({ file: local, layer: "local" });
  }

  const diagnostics: Diagnostic[] = [];
  const files: ConfigFileInfo[] = [];
  const layers: LayerFile[] = [];
  for (const { file, layer } of found) {
    let text = overrides.get(file);
    if (text === undefined) {
      text = readConfigFile(file);
    }
    files.push(configFileInfo(file, layer, text));
    const parsed = await parseConfigText(file, text);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.value !== undefined) diagnostics.push(...schemaDiagnostics(parsed));
    layers.push({ parsed, layer, dir: layer === "user" ? null : path.dirname(file) });
  }

  const values = layers.map((l) => l.parsed.value);
  const customNames = [...new Set(values.flatMap(customEvents))];
  const events = mergeEventSettings(values, customNames);
  const custom = new Map(
    Object.entries(events)
      .filter(([, s]) => s.custom)
      .map(([n, s]) => [n, s.gate === true]),
  );
  for (const l of layers) diagnostics.push(...checkConfigFile({ parsed: l.parsed, dir: l.dir, cwd, custom }));
  const merged = mergeHooks(layers, mergeDefaults(values), customNames);
  diagnostics.push(...merged.diagnostics);

  const rank = new Map(files.map((f, i) => [f.path, i]));
  diagnostics.sort((a, b) => (rank.get(a.file) ?? 0) - (rank.get(b.file) ?? 0) || a.line - b.line || a.col - b.col);
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length) {
    const where = [...new Set(errors.map((d) => d.file))].join(", ");
    throw new ConfigError(
      `config is invalid: ${errors.length} error${errors.length === 1 ? "" : "s"} in ${where}; fix ${errors.length === 1 ? "it" : "them"} and run \`hooks validate\` again`,
      diagnostics,
    );
  }
  return {
    projectDir: project ? path.dirname(project) : cwd,
    files,
    hooks: merged.hooks,
    events,
    log: mergeLog(values),
    warnings: diagnostics,
  };
}

/** `log:` of every layer, key by key (a later layer wins: hooks.local.yaml can turn recording off). */
function mergeLog(values: unknown[]): { context: boolean } {
  const merged = { context: false };
  for (const value of values) {
    const log = (value as { log?: unknown } | undefined)?.log as Record<string, unknown> | null | undefined;
    if (log && typeof log === "object" && typeof log.context === "boolean") merged.context = log.context;
  }
  return merged;
}

/**
 * A config file's text, read once, bounded and without blocking: a hooks.yaml committed as a
 * symlink to /dev/zero or a FIFO must not hang or fill memory before trust is even checked.
 */
export function readConfigFile(file: string): string {
  try {
    // A BOM is kept here (the trust hash is of the file as it is) and skipped by parseConfigText.
    return readBoundedFile(file, READ_LIMITS.config, { what: "config file" }).toString("utf8");
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    const reason = error.reason === "EACCES" ? "permission denied" : error.reason === "not-regular" || error.reason === "too-large" ? null : error.reason;
    // A symlink is what a reviewer sees in the repository: name its target too.
    const shown = reason ? file : `${file}${linkTarget(file)}`;
    const message = reason ? `cannot read config file ${file}: ${reason}` : error.message.replace(file, shown);
    throw new ConfigError(message, [{ file, line: 1, col: 1, severity: "error", message: message.replace(`config file ${shown}`, `this file${shown.slice(file.length)}`) }], { cause: error });
  }
}

/** " (a symlink to TARGET)" when `file` is a symlink, else "". */
function linkTarget(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? ` (a symlink to ${readlinkSync(file)})` : "";
  } catch {
    return "";
  }
}

// sha256 is computed when first read (by trust): hashing loads node:crypto, which a validate or
// an already-trusted run (CI, --trust) never needs (the start-up budget of docs/performance.md).
function configFileInfo(file: string, layer: ConfigFileInfo["layer"], text: string): ConfigFileInfo {
  let hash: string | undefined;
  return {
    path: file,
    layer,
    get sha256(): string {
      hash ??= sha256(text);
      return hash;
    },
  };
}
