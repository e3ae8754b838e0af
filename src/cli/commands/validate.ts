import type { RegisterCommand } from "./index.js";

export const registerValidate: RegisterCommand = (program, context, setCode) => {
  program
    .command("validate")
    .description("check every config layer and print all problems as FILE:LINE:COL (exit 78 when invalid or missing)")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }, cmd) => {
      const { validateConfig } = await import("../actions/validateConfig.js");
      setCode(await validateConfig(context(cmd), opts));
    });
};
