import { Command, CommanderError } from "commander";
import { HookrunError } from "../errors.js";
import { makeCliContext, type CliContext, type GlobalOptions } from "./context.js";
import { EXIT, exitCodeFor } from "./exitCodes.js";
import { formatError } from "./formatError.js";
import { COMMANDS } from "./commands/index.js";
import { commandWord } from "./commandWord.js";
import { VERSION } from "../version.js";

export interface MainIO {
  stdout: CliContext["stdout"];
  stderr: CliContext["stderr"];
  stdin: CliContext["stdin"];
  stdinFd?: number;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Path of the CLI's entry script, so detached async workers can start the same CLI. */
  entry?: string;
}

/**
 * Build the commander program; each command's action sets the exit code it returns. Only the
 * command that argv names is registered (building all of them is a measurable share of a cold
 * `hooks run`, SPEC §15); with no known command word (help, a typo) all are, for help and
 * suggestions.
 */
function buildProgram(argv: string[], io: MainIO, setCode: (code: number) => void): Command {
  const program = new Command("hooks");
  program
    .description("Run shell-command hooks for AI coding agents and CI, from hooks.yaml")
    .version(VERSION, "--version", "print the version")
    .option("-c, --config <path>", "use this project config file (no walk up; also HOOKS_CONFIG)")
    .option("-C, --cwd <dir>", "run as if started in DIR")
    .option("--no-user-config", "skip the user layer (~/.config/hookrun)")
    .option("--trust", "trust the project and local config for this invocation")
    .option("--no-color", "no colours (also NO_COLOR)")
    .option("-v, --verbose", "more detail, and stack traces on errors")
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s),
    })
    .exitOverride();
  const context = (cmd: Command): CliContext => makeCliContext(cmd.optsWithGlobals() as GlobalOptions, io);
  const word = commandWord(argv);
  const named = COMMANDS.filter((c) => word !== undefined && c.names.includes(word));
  for (const { register } of named.length > 0 ? named : COMMANDS) register(program, context, setCode);
  return program;
}

/** Run the CLI with argv (without node and script); resolves to the exit code. */
export async function main(argv: string[], io: MainIO): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(argv, io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return EXIT.ok;
      // `hooks help` exits 0; a command group named without its subcommand (`hooks import`)
      // prints its help to stderr with exit code 1: a usage error.
      if (error.code === "commander.help") return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return EXIT.usage;
    }
    const verbose = argv.includes("-v") || argv.includes("--verbose");
    io.stderr.write(formatError(error, verbose, io.cwd) + "\n");
    return exitCodeFor(error);
  }
}

export { HookrunError };
