import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig, readConfigFile } from "../../config/loadConfig.js";
import { ConfigError, HookrunError } from "../../errors.js";
import { findClaudeSettings, importClaudeSettings, claudeImportToSpec, renderClaudeImport } from "../../interop/claudeImport.js";
import { existingHooks, mergeClaudeImport, type ConfigFormat } from "../../interop/mergeClaudeImport.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../../fs/readBounded.js";
import { writeFileAtomic } from "../../fs/writeFileAtomic.js";
import type { CliContext } from "../context.js";
import { claudeDispatchSettings } from "../../hosts/claude.js";

export interface ImportClaudeOptions {
  write?: boolean;
  json?: boolean;
  dispatch?: boolean;
}

/** `hooks import claude [FILE] [--write]`: Claude Code settings → hooks.yaml (printed, or merged into the project config). */
export async function importClaude(ctx: CliContext, file: string | undefined, opts: ImportClaudeOptions): Promise<number> {
  // --dispatch alone: the entries for the project config as it is; with --write, after the import.
  if (opts.dispatch && !opts.write) return printDispatch(ctx);
  const code = await importSettings(ctx, file, opts);
  return opts.dispatch && code === 0 ? printDispatch(ctx) : code;
}

/**
 * `--dispatch`: the `hooks` object for .claude/settings.json that hands each Claude Code event of
 * the project config to hookrun, each entry's timeout covering the event's hooks (what replaces
 * the imported hooks there).
 */
async function printDispatch(ctx: CliContext): Promise<number> {
  const config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  ctx.stdout.write(`${JSON.stringify({ hooks: claudeDispatchSettings(config) }, null, 2)}\n`);
  return 0;
}

async function importSettings(ctx: CliContext, file: string | undefined, opts: ImportClaudeOptions): Promise<number> {
  const source = resolveSource(ctx, file);
  const settings = readSettings(source);
  const label = path.relative(ctx.cwd, source) || source;
  const note = (n: string) => ctx.stderr.write(`hooks import: ${label}: ${n}\n`);
  if (!opts.write) {
    const imp = convert(settings, source);
    imp.notes.forEach(note);
    ctx.stdout.write(opts.json ? `${JSON.stringify(claudeImportToSpec(imp), null, 2)}\n` : renderClaudeImport(imp, label));
    return 0;
  }
  const target = await projectConfigFile(ctx);
  const format: ConfigFormat = target.endsWith(".json") ? "json" : "yaml";
  const exists = existsSync(target);
  const text = exists ? readConfigFile(target) : "";
  const imp = convert(settings, source, existingHooks(text, format));
  imp.notes.forEach(note);
  const where = path.relative(ctx.cwd, target) || target;
  const report = opts.dispatch ? ctx.stderr : ctx.stdout;
  if (imp.hooks.length === 0) {
    report.write(`nothing to add to ${where}\n`);
    return 0;
  }
  // The result must load (SPEC §2.3) before it replaces the file: an import never breaks a config.
  const merged = exists ? mergeClaudeImport(text, format, imp) : renderClaudeImport(imp, label);
  try {
    await loadConfig({ cwd: ctx.cwd, configPath: target, userConfig: false, env: ctx.env, overrides: { [target]: merged } });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`the imported hooks would make ${where} invalid; nothing was written`, error.diagnostics, { cause: error });
  }
  writeFileAtomic(target, merged);
  const names = imp.hooks.map((h) => `${h.event}/${h.hook.name}`).join(", ");
  report.write(`added ${imp.hooks.length} hook${imp.hooks.length === 1 ? "" : "s"} to ${where}: ${names}\nreview them, then run \`hooks validate\` and \`hooks trust\`\n`);
  return 0;
}

function resolveSource(ctx: CliContext, file: string | undefined): string {
  if (file) {
    const expanded = file === "~" || file.startsWith("~/") ? path.join(ctx.env.HOME || os.homedir(), file.slice(1)) : file;
    const abs = path.resolve(ctx.cwd, expanded);
    if (!existsSync(abs)) throw new HookrunError(`no such file: ${abs}; pass the path of a Claude Code settings file`, { code: "import" });
    return abs;
  }
  const found = findClaudeSettings(ctx.cwd);
  if (found.file) return found.file;
  throw new HookrunError(
    `no Claude Code settings found: looked for .claude/settings.json in ${ctx.cwd} and every parent; name a file to import another one (.claude/settings.local.json, ~/.claude/settings.json)`,
    { code: "import" },
  );
}

function readSettings(file: string): unknown {
  // Bounded and non-blocking: a settings file that is a FIFO or a link to /dev/zero is refused.
  let text: string;
  try {
    text = readBoundedText(file, READ_LIMITS.config, { what: "Claude Code settings file" });
  } catch (error) {
    if (error instanceof FileReadError) throw new HookrunError(error.message, { code: "import", cause: error });
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HookrunError(`cannot read ${file}: ${(error as Error).message}; it must be Claude Code's settings JSON`, { code: "import", cause: error });
  }
}

function convert(settings: unknown, source: string, existing: Parameters<typeof importClaudeSettings>[1] = []) {
  try {
    return importClaudeSettings(settings, existing);
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
