import path from "node:path";
import { createInterface } from "node:readline";
import { loadConfig } from "../../config/loadConfig.js";
import { terminalSafe } from "../../text.js";
import { recordTrust } from "../../trust/store.js";
import { describeForReview } from "../../trust/reviewText.js";
import type { CliContext } from "../context.js";

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
  const { files, text } = await describeForReview(config);
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
