import { existsSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, readConfigFile } from "../../config/loadConfig.js";
import { nestingTooDeepAt, TOO_DEEP } from "../../config/limits.js";
import { ConfigError, HookrunError } from "../../errors.js";
import { type Node, parseTree, type ParseError, printParseErrorCode } from "jsonc-parser";
import { findClaudeSettings } from "../../interop/importClaudeSettings.js";
import { type ExistingHook, type HookImport, importToSpec, renderImport } from "../../interop/importHooks.js";
import { existingHooks, mergeImport, type ConfigFormat } from "../../interop/mergeImport.js";
import { dispatchTarget, wantedFor } from "../../hosts/installTargets.js";
import { parseTomlFile } from "../../hosts/tomlFile.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../../fs/readBounded.js";
import { assertInside, realDestination } from "../../fs/insideDir.js";
import { writeFileAtomic } from "../../fs/writeFileAtomic.js";
import type { CliContext } from "../context.js";
import { HOSTS, hostByName } from "../../hosts/adapters.js";
import type { HostAdapter } from "../../hosts/types.js";
import { UsageError } from "../../errors.js";
import { lineOf, terminalSafe } from "../../text.js";

export interface ImportClaudeOptions {
  write?: boolean;
  json?: boolean;
  dispatch?: boolean;
}

/** `hooks import HOST [FILE] [--write]`: a host's hooks → hooks.yaml (printed, or merged into the project config). */
export async function importHost(ctx: CliContext, hostName: string, file: string | undefined, opts: ImportClaudeOptions): Promise<number> {
  const host = hostByName(hostName);
  if (!host?.import)
    throw new UsageError(
      `${hostName}: hookrun cannot import hooks from it; use one of ${HOSTS.filter((h) => h.import)
        .map((h) => h.name)
        .join(", ")}`,
    );
  // --dispatch alone: the entries for the project config as it is; with --write, after the import.
  if (opts.dispatch && !opts.write) return printDispatch(ctx, host);
  const code = await importSettings(ctx, host, file, opts);
  return opts.dispatch && code === 0 ? printDispatch(ctx, host) : code;
}

/**
 * `--dispatch`: the hooks map `hooks install HOST` would write for the project config (what
 * replaces the imported hooks in the host's file), each entry's timeout covering the event's hooks.
 */
async function printDispatch(ctx: CliContext, host: HostAdapter): Promise<number> {
  if (!host.setup) throw new UsageError(`${host.name}: hookrun writes no entries for it`);
  const config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  const installing = { ...host, setup: host.setup };
  ctx.stdout.write(`${JSON.stringify({ hooks: wantedFor(installing, config, dispatchTarget(installing, false, undefined)) }, null, 2)}\n`);
  return 0;
}

async function importSettings(ctx: CliContext, host: HostAdapter, file: string | undefined, opts: ImportClaudeOptions): Promise<number> {
  const source = resolveSource(ctx, host, file);
  const settings = readSettings(source, host, ctx.cwd);
  const label = path.relative(ctx.cwd, source) || source;
  // A note quotes the file's own text (commands, event names): escaped, never the terminal's to interpret.
  const note = (n: string) => ctx.stderr.write(`${terminalSafe(`hooks import: ${label}: ${n}`)}\n`);
  if (!opts.write) {
    const imp = convert(host, settings, source);
    // Checked as a hooks.yaml of its own here (never written): what `--write` would refuse is refused alike.
    const virtual = path.join(ctx.cwd, `.hooks-import-${process.pid}.yaml`);
    await keepLoadable(imp, (part) => loadsWith(ctx, virtual, renderImport(part, label, host.name)));
    imp.notes.forEach(note);
    ctx.stdout.write(opts.json ? `${JSON.stringify(importToSpec(imp), null, 2)}\n` : renderImport(imp, label, host.name));
    return 0;
  }
  const target = await projectConfigFile(ctx);
  const format: ConfigFormat = target.endsWith(".json") ? "json" : "yaml";
  const exists = existsSync(target);
  const text = exists ? readConfigFile(target) : "";
  const imp = convert(host, settings, source, existingHooks(text, format));
  const where = path.relative(ctx.cwd, target) || target;
  const mergedText = (part: HookImport) => (exists ? mergeImport(text, format, part) : renderImport(part, label, host.name));
  // The result must load (docs/configuration.md#diagnostics) before it replaces the file: an import never breaks a config.
  const failure = await keepLoadable(imp, (part) => loadsWith(ctx, target, mergedText(part)));
  imp.notes.forEach(note);
  if (failure) throw new ConfigError(`the imported hooks would make ${where} invalid; nothing was written`, failure.diagnostics, { cause: failure });
  const report = opts.dispatch ? ctx.stderr : ctx.stdout;
  if (imp.hooks.length === 0) {
    report.write(`nothing to add to ${where}\n`);
    return 0;
  }
  const merged = mergedText(imp);
  // A symlinked hooks.yaml stays a symlink: its target is written, and only inside the project (docs/limits.md#writes-stay-in-the-project).
  assertInside(path.dirname(target), target, "replace the symlink with a file of its own");
  writeFileAtomic(realDestination(target), merged);
  const names = imp.hooks.map((h) => `${h.event}/${h.hook.name}`).join(", ");
  report.write(`added ${imp.hooks.length} hook${imp.hooks.length === 1 ? "" : "s"} to ${where}: ${names}\nreview them, then run \`hooks validate\` and \`hooks trust\`\n`);
  return 0;
}

/** The ConfigError the config with `text` as `file` fails with, or null when it loads. */
async function loadsWith(ctx: CliContext, file: string, text: string): Promise<ConfigError | null> {
  try {
    await loadConfig({ cwd: ctx.cwd, configPath: file, userConfig: false, env: ctx.env, overrides: { [file]: text } });
    return null;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

/**
 * Never refuse a whole file over one hook: when the import as a whole would not load, each hook is
 * tried alone (with its custom event), and each one hookrun's config refuses is dropped from `imp`
 * with a one-line note giving the refusal; the rest is kept. Returns the error left when even the
 * survivors (or the target without any import) do not load, else null.
 */
async function keepLoadable(imp: HookImport, check: (part: HookImport) => Promise<ConfigError | null>): Promise<ConfigError | null> {
  const whole = await check(imp);
  if (whole === null || imp.hooks.length === 0) return whole;
  // The target already fails without the import: no hook is to blame.
  if ((await check({ hooks: [], customEvents: {}, notes: [] })) !== null) return whole;
  const kept: HookImport["hooks"] = [];
  for (const h of imp.hooks) {
    const alone = await check({ hooks: [h], customEvents: imp.customEvents, notes: [] });
    const why = alone?.diagnostics.find((d) => d.severity === "error")?.message ?? alone?.message;
    if (why === undefined) kept.push(h);
    else imp.notes.push(`${h.at} (\`${h.hook.command ?? (h.hook.args ?? []).join(" ")}\`): not imported: hookrun's config refuses it: ${why}`);
  }
  imp.hooks = kept;
  return kept.length === 0 ? null : check(imp);
}

function resolveSource(ctx: CliContext, host: HostAdapter, file: string | undefined): string {
  if (file) {
    const expanded = file === "~" || file.startsWith("~/") ? path.join(ctx.env.HOME || os.homedir(), file.slice(1)) : file;
    const abs = path.resolve(ctx.cwd, expanded);
    if (!existsSync(abs)) throw new HookrunError(`no such file: ${abs}; pass the path of a ${host.title} config file`, { code: "import" });
    return abs;
  }
  if (host.name === "claude") {
    const found = findClaudeSettings(ctx.cwd);
    if (found.file) return found.file;
  } else if (host.setup) {
    // The host's project file, here or in a parent directory.
    for (let dir = ctx.cwd; ; dir = path.dirname(dir)) {
      const candidate = host.setup.place(dir, false);
      if (existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  const where = host.setup ? `${path.relative(ctx.cwd, host.setup.place(ctx.cwd, false))} in ${ctx.cwd} and every parent` : "a default file";
  throw new HookrunError(`no ${host.title} config found: looked for ${where}; name the file to import (the user's is ${host.setup ? host.setup.place("~", true) : "…"})`, { code: "import" });
}

/**
 * A folder of hook scripts (Cline's `.clinerules/hooks/`: one executable per hook type) as its
 * host's import reads it: the folder as given (relative to the working directory when inside it)
 * and each regular file's name, whether it is executable, and its text.
 */
function readHookFolder(dir: string, cwd: string): { folder: string; files: { name: string; executable: boolean; text: string }[] } {
  const rel = path.relative(cwd, dir);
  const folder = rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? `./${rel.split(path.sep).join("/")}` : dir;
  const files: { name: string; executable: boolean; text: string }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(file);
    } catch {
      continue; // a dangling link: nothing a host could run
    }
    if (!st.isFile()) continue;
    let text = "";
    try {
      text = readBoundedText(file, READ_LIMITS.config, { what: "hook script" });
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
    }
    files.push({ name, executable: (st.mode & 0o111) !== 0, text });
  }
  return { folder, files };
}

function readSettings(file: string, host: HostAdapter, cwd: string): unknown {
  if (statSync(file).isDirectory()) return readHookFolder(file, cwd);
  // Bounded and non-blocking: a settings file that is a FIFO or a link to /dev/zero is refused.
  let text: string;
  try {
    text = readBoundedText(file, READ_LIMITS.config, { what: `${host.title} config file` });
  } catch (error) {
    if (error instanceof FileReadError) throw new HookrunError(error.message, { code: "import", cause: error });
    throw error;
  }
  // A TOML settings file (agent-code's) by its name, as its host reads it by its name.
  if (file.endsWith(".toml")) {
    try {
      return parseTomlFile(text, file, `run \`hooks import ${host.name}\` again`);
    } catch (error) {
      throw new HookrunError(`cannot read ${(error as Error).message}`, { code: "import", cause: error });
    }
  }
  // Comments and trailing commas are read as the hosts that allow them (Gemini CLI) read them.
  const deep = nestingTooDeepAt(text, "json");
  if (deep !== null) throw new HookrunError(`cannot read ${file}:${lineOf(text, deep)}: ${TOO_DEEP}`, { code: "import" });
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const line = lineOf(text, errors[0].offset);
    throw new HookrunError(`cannot read ${file}:${line}: ${printParseErrorCode(errors[0].error)}; it must be ${host.title}'s JSON config`, { code: "import" });
  }
  return jsonValue(tree);
}

/** A parsed JSON node as a value whose keys are all data: an event named `__proto__` is a key like any other, named in a note, never the object's prototype. */
function jsonValue(node: Node | undefined): unknown {
  if (!node) return undefined;
  if (node.type === "object") return Object.fromEntries((node.children ?? []).map((p) => [p.children![0].value as string, jsonValue(p.children![1])]));
  if (node.type === "array") return (node.children ?? []).map((n) => jsonValue(n));
  return node.value;
}

function convert(host: HostAdapter, settings: unknown, source: string, existing: ExistingHook[] = []) {
  try {
    return host.import!(settings, existing);
  } catch (error) {
    throw new HookrunError(`${source}: ${(error as Error).message}`, { code: "import", cause: error });
  }
}

/** The project config `--write` edits: the one discovery finds, else a new hooks.yaml here. */
async function projectConfigFile(ctx: CliContext): Promise<string> {
  if (ctx.configPath) return ctx.configPath;
  const config = await loadConfig({ cwd: ctx.cwd, userConfig: false, env: ctx.env });
  return config.files.find((f) => f.layer === "project")?.path ?? path.join(ctx.cwd, "hooks.yaml");
}
