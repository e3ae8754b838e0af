import type { RegisterCommand } from "./index.js";

export const registerWatch: RegisterCommand = (program, context, setCode) => {
  program
    .command("watch")
    .description("re-validate the config on every change of any layer and print the diagnostics")
    .option("--json", "print one JSON object per check")
    .action(async (opts: { json?: boolean }, cmd) => {
      const { watchCommand } = await import("../actions/watchCommand.js");
      setCode(await watchCommand(context(cmd), opts));
    });
};
