import { existsSync, writeFileSync } from "node:fs";
import { FileReadError, READ_LIMITS, readBoundedText } from "../../fs/readBounded.js";
import path from "node:path";
import { configCandidate, PROJECT_FILE_NAMES } from "../../config/discover.js";
import { displayFile, WriteError } from "../../errors.js";
import { STARTER_CONFIG } from "../../config/starterConfig.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { trustInitializedConfig } from "./trustInitializedConfig.js";

const IGNORED = ["hooks.local.yaml", "hooks.local.yml", "hooks.local.json"];

/** `hooks init`: write the starter hooks.yaml (kept unless --force) and git-ignore the local layer. */
export async function initConfig(ctx: CliContext, opts: { force?: boolean }): Promise<number> {
  const file = ctx.configPath ?? path.join(ctx.cwd, "hooks.yaml");
  const dir = path.dirname(file);
  const existing = ctx.configPath ? (existsSync(file) ? file : null) : configCandidate(dir, PROJECT_FILE_NAMES);
  if (existing && !opts.force) {
    throw new WriteError(`${displayFile(existing, ctx.cwd)} already exists: keep it, or run \`hooks init --force\` to overwrite it`, existing);
  }
  if (existing && existing !== file) {
    throw new WriteError(`${displayFile(existing, ctx.cwd)} already exists and \`hooks init\` writes ${path.basename(file)}: delete it first, two config files in one directory are an error`, existing);
  }
  try {
    writeFileSync(file, STARTER_CONFIG);
  } catch (error) {
    throw new WriteError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; check the directory's permissions`, file, { cause: error });
  }
  await trustInitializedConfig(ctx, file);
  const ignoreNote = addToGitignore(path.join(dir, ".gitignore"));
  ctx.stdout.write(`wrote ${displayFile(file, ctx.cwd)}${ignoreNote}; next: \`hooks validate\` and \`hooks list\`\n`);
  return EXIT.ok;
}

// Returns a note for the summary line; an unwritable .gitignore is not worth failing init over.
function addToGitignore(gitignore: string): string {
  let text = "";
  try {
    text = readBoundedText(gitignore, READ_LIMITS.config, { what: ".gitignore" });
  } catch (error) {
    // Absent: created below. A FIFO, device or huge file is left alone (writing could block too).
    if (!(error instanceof FileReadError && error.reason === "ENOENT")) return ` (could not read .gitignore: add hooks.local.yaml to it yourself)`;
  }
  const lines = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = IGNORED.filter((n) => !lines.has(n) && !lines.has(`/${n}`));
  if (missing.length === 0) return "";
  const block = `${text && !text.endsWith("\n") ? "\n" : ""}# hookrun: personal overrides\n${missing.join("\n")}\n`;
  try {
    writeFileSync(gitignore, text + block);
    return `, added hooks.local.yaml to .gitignore`;
  } catch {
    return ` (could not update .gitignore: add hooks.local.yaml to it yourself)`;
  }
}
