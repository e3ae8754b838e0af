import type { RegisterCommand } from "./index.js";

/** `hooks trust [--yes]` and `hooks untrust` (SPEC §11). */
export const registerTrust: RegisterCommand = (program, context, setCode) => {
  program
    .command("trust")
    .description("show every command of the project and local config, and trust those files as they are now")
    .option("-y, --yes", "trust without asking (needed when stdin is not a terminal)")
    .action(async (opts: { yes?: boolean }, cmd) => {
      const { trustConfig } = await import("../actions/trustConfig.js");
      setCode(await trustConfig(context(cmd), opts));
    });
  program
    .command("untrust")
    .description("forget the trust of the project and local config files")
    .action(async (_opts: unknown, cmd) => {
      const { untrustConfig } = await import("../actions/untrustConfig.js");
      setCode(await untrustConfig(context(cmd)));
    });
};
