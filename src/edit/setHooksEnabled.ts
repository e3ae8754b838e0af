import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { READ_LIMITS, readBoundedFile } from "../fs/readBounded.js";
import { defaultLocalFile } from "../config/discover.js";
import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { addLocalOverride, setEnabledInText, findHookNode, parseDocumentForEdit } from "./textEdits.js";
import { ConfigError, UnknownHookError, WriteError, HookrunError } from "../errors.js";
import { lockPathFor, realPathOf, withFileLock } from "../fs/withFileLock.js";
import { writeFileAtomic } from "../fs/writeFileAtomic.js";
import { stateDir } from "../fs/stateDir.js";
import { closestMatches } from "../text.js";
import { sha256 } from "../fs/crypto.js";
import { readTrustStore, updateTrustStore } from "../trust/store.js";
import { loadConfig } from "../config/loadConfig.js";

export interface SetEnabledOptions {
  cwd?: string;
  configPath?: string;
  userConfig?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Write the override into hooks.local.yaml beside the project file instead. */
  local?: boolean;
}

export interface SetEnabledChange {
  name: string;
  enabled: boolean;
  /** The file that was (or would have been) edited. */
  file: string;
  /** false when the file already said so. */
  changed: boolean;
}

/** One file to edit and the hooks to set in it. */
interface FilePlan {
  file: string;
  local: boolean;
  hooks: ResolvedHook[];
}

function resolveNames(config: ResolvedConfig, names: string[]): ResolvedHook[] {
  const byName = new Map(config.hooks.map((h) => [h.name, h]));
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    const all = [...byName.keys()];
    const parts = unknown.map((n) => {
      const best = closestMatches(n, all, 1)[0];
      return `no hook named "${n}"${best ? `; did you mean "${best}"?` : ""}`;
    });
    throw new UnknownHookError(`${parts.join("; ")} (nothing was changed; \`hooks list\` shows every hook)`, unknown);
  }
  return [...new Set(names)].map((n) => byName.get(n)!);
}

function localFileFor(config: ResolvedConfig): string {
  const existing = config.files.find((f) => f.layer === "local");
  if (existing) return existing.path;
  const project = config.files.find((f) => f.layer === "project");
  if (!project) throw new WriteError("--local needs a project config (hooks.yaml) to sit beside; run `hooks init` first or drop --local", config.projectDir);
  return defaultLocalFile(project.path);
}

function plan(config: ResolvedConfig, hooks: ResolvedHook[], local: boolean): FilePlan[] {
  const plans = new Map<string, FilePlan>();
  for (const hook of hooks) {
    // Edit the file that decides the effective state, so the command always takes effect.
    const file = local ? localFileFor(config) : hook.enabledSource.file;
    const p = plans.get(file) ?? { file, local, hooks: [] };
    p.hooks.push(hook);
    plans.set(file, p);
  }
  return [...plans.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * Hold the lock of every file (keyed by real path: two symlinks to one file are one lock, taken
 * once), always in the same order so two edits of the same files cannot deadlock.
 */
async function withLocks<T>(files: string[], fn: () => Promise<T>): Promise<T> {
  const locks = [...new Map(files.map((f) => [lockPathFor(f), f])).entries()].sort(([a], [b]) => a.localeCompare(b));
  const hold = (i: number): Promise<T> => (i === locks.length ? fn() : withFileLock(locks[i][1], () => hold(i + 1)));
  return hold(0);
}

function assertWritable(file: string, local: boolean): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return; // a new local file: the directory check happens on write
  }
  if ((mode & 0o222) === 0) {
    throw new WriteError(`cannot edit ${file}: it is read-only; make it writable (chmod u+w ${file})${local ? "" : " or use --local"}`, file);
  }
}

/**
 * Set `enabled` on each named hook (all or none), editing each file's text surgically under
 * its lock, validating the edited config as a whole before anything is written, writing
 * atomically, and keeping trust for files that were trusted before the edit.
 */
export async function setHooksEnabled(names: string[], enabled: boolean, options: SetEnabledOptions = {}): Promise<SetEnabledChange[]> {
  const env = options.env ?? process.env;
  const config = await loadForEdit(options);
  if (config.files.length === 0) {
    throw new ConfigError(`no hooks config found from ${path.resolve(options.cwd ?? process.cwd())}; run \`hooks init\` to create hooks.yaml`);
  }
  const hooks = resolveNames(config, names);
  const plans = plan(config, hooks, options.local === true);
  const trustDir = stateDir(env);

  return withLocks(
    plans.map((p) => p.file),
    async () => {
      const store = readTrustStore(trustDir);
      const projectFile = config.files.find((f) => f.layer === "project")?.path;
      const overrides: Record<string, string> = {};
      // Trust entries to move to the edited text: every path (symlinks included) that trusted
      // exactly the text this edit starts from, read under the lock.
      const keepTrust: { entry: string; file: string }[] = [];
      const changes: SetEnabledChange[] = [];
      for (const p of plans) {
        const exists = existsSync(p.file);
        const before = exists ? readBoundedFile(p.file, READ_LIMITS.config, { what: "config file" }) : null;
        let text = before ? before.toString("utf8") : "";
        for (const hook of p.hooks) {
          text = p.local ? addLocalOverride(text, hook.name, hook.event, enabled, p.file) : setEnabledInText(text, hook.name, enabled, p.file);
        }
        const changed = before === null || text !== before.toString("utf8");
        for (const hook of p.hooks) changes.push({ name: hook.name, enabled, file: p.file, changed });
        if (!changed) continue;
        assertWritable(p.file, p.local);
        overrides[p.file] = text;
        if (before) {
          const hash = sha256(before.toString("utf8"));
          const real = realPathOf(p.file);
          for (const [entry, trusted] of Object.entries(store.files)) {
            if (trusted === hash && (entry === path.resolve(p.file) || realPathOf(entry) === real)) keepTrust.push({ entry, file: p.file });
          }
        } else if (projectFile !== undefined && store.files[path.resolve(projectFile)] === sha256(readBoundedFile(projectFile, READ_LIMITS.config, { what: "config file" }).toString("utf8"))) {
          keepTrust.push({ entry: path.resolve(p.file), file: p.file }); // a new local file inherits the project's trust
        }
      }
      if (Object.keys(overrides).length === 0) return changes;

      // Validate the edit in context before it replaces anything.
      const current = await loadForEdit(options); // under the locks: what the edit starts from
      await validateEdit(
        options,
        overrides,
        hooks.map((h) => ({ name: h.name, file: plans.find((p) => p.hooks.includes(h))!.file })),
        enabled,
        current,
      );
      for (const [file, text] of Object.entries(overrides)) {
        let target = file;
        try {
          target = realpathSync(file); // write through a symlink, not over it
        } catch {
          // a new file
        }
        writeFileAtomic(target, text);
      }
      if (keepTrust.length > 0) {
        await updateTrustStore(
          trustDir,
          (files) => {
            for (const { entry, file } of keepTrust) files[entry] = sha256(overrides[file]);
          },
          keepTrust.map(({ file }) => overrides[file]),
        );
      }
      return changes;
    },
  );
}

/** loadConfig for enable/disable, with edited texts in place of files; any failure is a ConfigError. */
export async function loadForEdit(options: SetEnabledOptions, overrides?: Record<string, string>): Promise<ResolvedConfig> {
  try {
    return await loadConfig({ cwd: options.cwd, configPath: options.configPath, userConfig: options.userConfig, env: options.env, overrides });
  } catch (error) {
    if (error instanceof HookrunError) throw error;
    throw new ConfigError(`cannot load the config: ${(error as Error).message}`, [], { cause: error });
  }
}

function enabledInText(text: string, file: string, name: string): unknown {
  const doc = parseDocumentForEdit(text.replace(/^\uFEFF/, ""), file);
  const value = findHookNode(doc, name, file)?.enabledPair?.value;
  return value ? (value.toJSON() as unknown) : undefined;
}

/**
 * Refuse an edit unless the edited texts, loaded with every other layer, make a valid config in
 * which each hook has the asked state. Throws WriteError (nothing is written) otherwise.
 */
export async function validateEdit(options: SetEnabledOptions, overrides: Record<string, string>, hooks: { name: string; file: string }[], enabled: boolean, before?: ResolvedConfig): Promise<void> {
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
  let after: Awaited<ReturnType<typeof loadForEdit>>;
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
      throw new WriteError(
        `refusing to edit ${file}: "${name}" would still be ${enabled ? "disabled" : "enabled"} (decided by ${now?.enabledSource.file ?? "another file"}); nothing was written`,
        file,
      );
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

/** Set `enabled: true` on the named hooks in the files that decide them (or hooks.local.yaml with `local`). */
export function enableHook(names: string | string[], options: SetEnabledOptions = {}): Promise<SetEnabledChange[]> {
  return setHooksEnabled(Array.isArray(names) ? names : [names], true, options);
}

/** Set `enabled: false` on the named hooks in the files that decide them (or hooks.local.yaml with `local`). */
export function disableHook(names: string | string[], options: SetEnabledOptions = {}): Promise<SetEnabledChange[]> {
  return setHooksEnabled(Array.isArray(names) ? names : [names], false, options);
}
