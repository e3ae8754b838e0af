import type { RegisterCommand } from "./index.js";

export const registerInit: RegisterCommand = (program, context, setCode) => {
  program
    .command("init")
    .description("write a commented starter hooks.yaml and git-ignore hooks.local.yaml")
    .option("--force", "overwrite an existing hooks.yaml")
    .action(async (opts: { force?: boolean }, cmd) => {
      const { initConfig } = await import("../actions/initConfig.js");
      setCode(await initConfig(context(cmd), opts));
    });
};
