import { existsSync, writeFileSync } from "node:fs";
import { assertInside } from "../../fs/insideDir.js";
import path from "node:path";
import { createInterface } from "node:readline";
import { configCandidate, PROJECT_FILE_NAMES } from "../../config/discover.js";
import { displayFile } from "../../errors.js";
import { loadConfig } from "../../config/loadConfig.js";
import { STARTER_CONFIG } from "../../config/starterConfig.js";
import { WriteError } from "../../errors.js";
import { FileReadError, READ_LIMITS, readBoundedText } from "../../fs/readBounded.js";
import { setHooksEnabled } from "../../edit/setHooksEnabled.js";
import { terminalSafe } from "../../text.js";
import { recordTrust, revokeTrust } from "../../trust/store.js";
import { describeForReview } from "../../trust/reviewText.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";

// The commands that change the config or its trust: enable, disable, trust, untrust, init.

/** `hooks enable|disable NAME… [--local]`: one line per hook saying what changed where. */
export async function setEnabled(ctx: CliContext, names: string[], enabled: boolean, opts: { local?: boolean }): Promise<number> {
  const changes = await setHooksEnabled(names, enabled, {
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    env: ctx.env,
    local: opts.local === true,
  });
  const verb = enabled ? "enabled" : "disabled";
  for (const c of changes) {
    const where = path.relative(ctx.cwd, c.file) || c.file;
    ctx.stdout.write(c.changed ? `${verb} ${c.name} (${where})\n` : `${c.name} is already ${verb} (${where})\n`);
  }
  return 0;
}

function ask(ctx: CliContext, question: string): Promise<string> {
  return new Promise((resolve) => {
    // Asked only on a terminal, where stderr is Node's own stream (see stdioWriter); readline
    // uses nothing but write() of an output that is not a terminal anyway.
    const rl = createInterface({ input: ctx.stdin, output: ctx.stderr as NodeJS.WritableStream });
    rl.question(question, (answer) => {
      resolve(answer); // before close(): its "close" event fires synchronously
      rl.close();
    });
    rl.on("close", () => resolve(""));
  });
}

/** `hooks trust [--yes]`: show, confirm on a TTY, record the files' hashes. */
export async function trustConfig(ctx: CliContext, opts: { yes?: boolean }): Promise<number> {
  const config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  const { files, text } = await describeForReview(config, ctx.env);
  if (files.length === 0) {
    ctx.stderr.write(`hooks: no project config found from ${ctx.cwd}; nothing to trust (the user config is always trusted)\n`);
    return 1;
  }
  ctx.stdout.write(text);
  if (!opts.yes) {
    if (!ctx.stdin.isTTY) {
      ctx.stderr.write("hooks: nothing was trusted: stdin is not a terminal, so no one could confirm; review the commands above and run `hooks trust --yes`\n");
      return 1;
    }
    const raw = await ask(ctx, `Trust ${files.length === 1 ? "this file" : "these files"} and run these commands? [y/N] `);
    const answer = raw.trim().toLowerCase();
    if (answer !== "y" && answer !== "yes") {
      ctx.stderr.write("hooks: nothing was trusted\n");
      return 1;
    }
  }
  await recordTrust(files, ctx.env); // the bytes shown, not a later edit
  for (const f of files) ctx.stderr.write(`trusted ${terminalSafe(path.relative(ctx.cwd, f.path) || f.path)}\n`);
  return 0;
}

/** `hooks untrust`: forget the project and local files; they must be reviewed again to run. */
export async function untrustConfig(ctx: CliContext): Promise<number> {
  const config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  const files = config.files.filter((f) => f.layer !== "user").map((f) => f.path);
  if (files.length === 0) {
    ctx.stderr.write(`hooks: no project config found from ${ctx.cwd}; nothing to untrust\n`);
    return 1;
  }
  await revokeTrust(files, ctx.env);
  for (const f of files) ctx.stderr.write(`untrusted ${path.relative(ctx.cwd, f) || f}\n`);
  return 0;
}

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
    throw new WriteError(
      `${displayFile(existing, ctx.cwd)} already exists and \`hooks init\` writes ${path.basename(file)}: delete it first, two config files in one directory are an error`,
      existing,
    );
  }
  // `--force` over a symlinked hooks.yaml writes its target: only inside the project (docs/limits.md#writes-stay-in-the-project).
  assertInside(dir, file, "replace the symlink with a file of its own");
  try {
    writeFileSync(file, STARTER_CONFIG);
  } catch (error) {
    throw new WriteError(`cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; check the directory's permissions`, file, { cause: error });
  }
  // `hooks init` wrote this file itself, so it starts trusted (docs/trust.md#review-and-record).
  await recordTrust([file], ctx.env);
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
  try {
    assertInside(path.dirname(gitignore), gitignore, "");
  } catch {
    return ` (.gitignore is a symlink out of the project, left alone: add hooks.local.yaml to it yourself)`;
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
