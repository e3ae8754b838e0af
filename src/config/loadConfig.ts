// Minimal loader (discovery + parse + merge, no schema validation yet): the interface the
// runner, trust and server build on. The full version with diagnostics replaces the body.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { ConfigError } from "../errors.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";
import type { ConfigFileInfo, ConfigFileSpec, Layer, ResolvedConfig, ResolvedHook } from "./types.js";
import { DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT_MS, parseDuration, parseSize } from "./units.js";

export interface LoadConfigOptions {
  /** Where discovery starts (default process.cwd()). */
  cwd?: string;
  /** The project config file, named directly (no walk up). */
  configPath?: string;
  /** Read the user layer (default true). */
  userConfig?: boolean;
  /** Environment for HOOKS_CONFIG / XDG_CONFIG_HOME (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Text to use instead of a file's content (absolute path → text), to validate an edit in context. */
  overrides?: Record<string, string>;
}

const NAMES = ["hooks.yaml", "hooks.yml", "hooks.json"];
const LOCAL_NAMES = ["hooks.local.yaml", "hooks.local.yml", "hooks.local.json"];

function userConfigFile(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(os.homedir(), ".config");
  return NAMES.map((n) => path.join(base, "hookrun", n)).find((f) => existsSync(f)) ?? null;
}

function findProjectFile(cwd: string): string | null {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const found = NAMES.map((n) => path.join(dir, n)).find((f) => existsSync(f));
    if (found) return found;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Load, merge and resolve every config layer. Throws ConfigError when a file is unreadable. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const explicit = options.configPath ?? env.HOOKS_CONFIG;
  const project = explicit ? path.resolve(cwd, explicit) : findProjectFile(cwd);
  const layers: { file: string; layer: Layer }[] = [];
  const user = options.userConfig === false ? null : userConfigFile(env);
  if (user) layers.push({ file: user, layer: "user" });
  if (project) {
    layers.push({ file: project, layer: "project" });
    const local = LOCAL_NAMES.map((n) => path.join(path.dirname(project), n)).find((f) => existsSync(f) || options.overrides?.[f] !== undefined);
    if (local) layers.push({ file: local, layer: "local" });
  }
  const config: ResolvedConfig = { projectDir: project ? path.dirname(project) : cwd, files: [], hooks: [], events: {}, warnings: [] };
  const byName = new Map<string, ResolvedHook>();
  let order = 0;
  for (const { file, layer } of layers) {
    let bytes: Buffer;
    try {
      const override = options.overrides?.[file];
      bytes = override !== undefined ? Buffer.from(override, "utf8") : readFileSync(file);
    } catch (error) {
      throw new ConfigError(`cannot read ${file}`, [{ file, line: 1, col: 1, severity: "error", message: String(error) }], { cause: error });
    }
    const info: ConfigFileInfo = { path: file, layer, sha256: createHash("sha256").update(bytes).digest("hex") };
    config.files.push(info);
    const spec = (parse(bytes.toString("utf8")) ?? {}) as ConfigFileSpec;
    for (const [key, settings] of Object.entries(spec.events ?? {})) {
      const name = tryParseHookEvent(key) ?? key;
      const prev = config.events[name];
      config.events[name] = { ...prev, ...settings, parallel: settings.parallel ?? prev?.parallel ?? false, custom: settings.custom ?? prev?.custom ?? false };
    }
    const d = spec.defaults ?? {};
    for (const [key, hooks] of Object.entries(spec.hooks ?? {})) {
      const event = tryParseHookEvent(key, Object.keys(config.events)) ?? key;
      for (const h of hooks ?? []) {
        const loc = { file, line: 1, col: 1, layer };
        const prev = byName.get(h.name);
        const base: ResolvedHook = prev ?? {
          name: h.name, event, priority: 0, async: false, timeoutMs: parseDuration(d.timeout) ?? DEFAULT_TIMEOUT_MS, enabled: true,
          env: { ...(d.env ?? {}) }, dir: layer === "user" ? null : path.dirname(file), shell: d.shell ?? "sh", onFailure: "continue",
          maxOutput: parseSize(d.max_output) ?? DEFAULT_MAX_OUTPUT, order: order++, source: loc, enabledSource: loc, sources: [],
        };
        if (h.command !== undefined) { base.command = h.command; delete base.args; }
        if (h.args !== undefined) { base.args = h.args; delete base.command; }
        if (h.description !== undefined) base.description = h.description;
        if (h.priority !== undefined) base.priority = h.priority;
        if (h.async !== undefined) base.async = h.async;
        if (h.timeout !== undefined) base.timeoutMs = parseDuration(h.timeout) ?? base.timeoutMs;
        if (h.enabled !== undefined) { base.enabled = h.enabled; base.enabledSource = loc; }
        if (h.matcher !== undefined) base.matcher = h.matcher;
        if (h.paths !== undefined) base.paths = h.paths;
        if (h.env !== undefined) base.env = { ...base.env, ...h.env };
        if (h.cwd !== undefined) base.cwd = h.cwd;
        if (h.shell !== undefined) base.shell = h.shell;
        if (h.on_failure !== undefined) base.onFailure = h.on_failure;
        if (h.max_output !== undefined) base.maxOutput = parseSize(h.max_output) ?? base.maxOutput;
        base.sources.push(loc);
        if (!prev) { byName.set(h.name, base); config.hooks.push(base); }
      }
    }
  }
  return config;
}
