import type { RegisterCommand } from "./index.js";

export const registerImport: RegisterCommand = (program, context, setCode) => {
  const cmd = program.command("import").description("import hooks from another tool's settings");
  cmd
    .command("claude [file]")
    .description("convert Claude Code settings (default .claude/settings.json) to hooks.yaml")
    .option("--write", "merge into the project config instead of printing")
    .option("--json", "print the config as JSON (hooks.json) instead of YAML")
    .action(async (file: string | undefined, opts: { write?: boolean; json?: boolean }, sub) => {
      const { importClaude } = await import("../actions/importClaude.js");
      setCode(await importClaude(context(sub), file, opts));
    });
};
