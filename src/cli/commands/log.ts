import type { RegisterCommand } from "./index.js";

export const registerLog: RegisterCommand = (program, context, setCode) => {
  program
    .command("log")
    .description("show recent runs from the run log ($HOOKS_STATE_DIR/runs.jsonl)")
    .option("-n <count>", "how many runs (default 20)")
    .option("--session <id>", "only runs of this session")
    .option("--json", "print a JSON array of the log records")
    .action(async (opts: { n?: string; session?: string; json?: boolean }, cmd) => {
      const { printLog } = await import("../actions/printLog.js");
      setCode(await printLog(context(cmd), opts));
    });
};
