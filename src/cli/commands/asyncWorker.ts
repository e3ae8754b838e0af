import type { RegisterCommand } from "./index.js";

/** Hidden: the detached process `hooks run` starts for each async hook (SPEC §5.3, §7). */
export const registerAsyncWorker: RegisterCommand = (program, context, setCode) => {
  program
    .command("__async-worker", { hidden: true })
    .argument("<job>", "the async run's started record")
    .action(async (job: string, _opts: unknown, cmd) => {
      const { asyncWorker } = await import("../actions/asyncWorker.js");
      setCode(await asyncWorker(context(cmd), job));
    });
};
