import { type RunFlags, runHooks } from "./actions/run.js";
import { makeCliContext, type GlobalOptions } from "./context.js";
import type { MainIO } from "./main.js";
import type { ParsedRun } from "./parseRunArgv.js";
import { closedAnswer, reportError } from "./reportError.js";

/**
 * A `hooks run` that parseRunArgv read: what main() does for it, without commander
 * (docs/performance.md#what-each-start-up-measure-buys). The run itself is the same action
 * (src/cli/actions/run.ts), and errors end the same way (src/cli/reportError.ts).
 */
export async function fastRun(parsed: ParsedRun, argv: readonly string[], io: MainIO): Promise<number> {
  let cwd = io.cwd;
  try {
    const ctx = makeCliContext(parsed.globals as GlobalOptions, io);
    cwd = ctx.cwd;
    return await runHooks(ctx, parsed.event, parsed.opts as RunFlags);
  } catch (error) {
    return (await closedAnswer(argv, error, io)) ?? reportError(argv, error, io, cwd);
  }
}
