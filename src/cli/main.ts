import { Command, CommanderError, Option } from "commander";
import { HookrunError } from "../errors.js";
import { ENV_VARS } from "../env.js";
import { terminalSafe } from "../text.js";
import { VERSION } from "../version.js";
import { commandsFor, COMMANDS, type CommandSpec } from "./commands.js";
import { makeCliContext, type CliContext, type GlobalOptions } from "./context.js";
import { EXIT, EXIT_CODES } from "./exitCodes.js";
import { collect, GLOBAL_OPTIONS, type OptionSpec, repeat } from "./options.js";
import { closedAnswer, reportError, wantsJson } from "./reportError.js";

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

/** One option row (src/cli/options.ts) as a commander Option. */
function commanderOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.many) option.argParser(spec.many === "list" ? collect : repeat);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.choices) option.choices(spec.choices);
  return option;
}

/** What `hooks --help` adds after the commands: exit codes, environment variables, one example per command. */
function programHelpFooter(): string {
  const pad = (rows: [string, string][]): string[] => {
    const width = Math.max(...rows.map(([a]) => a.length));
    return rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`);
  };
  const examples = (specs: readonly CommandSpec[]): string[] => specs.filter((c) => !c.hidden).map((c) => `  ${c.example}`);
  return [
    "",
    "Exit codes:",
    ...pad(EXIT_CODES.map((e) => [String(e.code), e.meaning])),
    "",
    "Environment variables:",
    ...pad(ENV_VARS.map((v) => [v.name, v.description])),
    "",
    "Examples:",
    ...examples(COMMANDS),
    "",
    "Colour: --color wins, then NO_COLOR, then FORCE_COLOR, then whether stdout is a terminal.",
  ].join("\n");
}

/**
 * Build the commander program from the command table; each action sets the exit code it returns.
 * Only the command that argv names is registered (building all of them is a measurable share of
 * a cold `hooks run`, docs/performance.md); with no known command word (help, a typo) all are, for help and
 * suggestions.
 */
function buildProgram(argv: string[], io: MainIO, onContext: (ctx: CliContext) => void, setCode: (code: number) => void, read?: (reading: CommandReading) => void): Command {
  const program = new Command("hooks");
  program
    .description("Run shell-command hooks for AI coding agents and CI, from hooks.yaml")
    .version(VERSION, "--version", "print the version")
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's own errors are printed by main() in hookrun's form (text or JSON).
      outputError: () => {},
    })
    .addHelpText("after", programHelpFooter)
    .exitOverride();
  for (const o of GLOBAL_OPTIONS) program.addOption(commanderOption(o));
  const context = (cmd: Command): CliContext => {
    const ctx = makeCliContext(cmd.optsWithGlobals() as GlobalOptions, io);
    onContext(ctx);
    return ctx;
  };
  const register = (parent: Command, spec: CommandSpec): void => {
    const cmd = parent.command(spec.name, { hidden: spec.hidden }).description(spec.description);
    if (spec.aliases) cmd.aliases(spec.aliases);
    for (const a of spec.args ?? []) cmd.argument(a.syntax, a.description);
    for (const o of spec.options ?? []) cmd.addOption(commanderOption(o));
    cmd.addHelpText("after", `\nExample:\n  ${spec.example}\n\nExit codes and environment variables: hooks --help`);
    const action = spec.action;
    if (!action) return;
    cmd.action(async (...params: unknown[]) => {
      // commander passes the positional arguments, then the options, then the command.
      const self = params[params.length - 1] as Command;
      if (read) return read({ command: spec.name, globals: program.opts(), args: params.slice(0, -2) as string[], opts: self.opts() });
      const ctx = context(self);
      const opts = params[params.length - 2] as { person?: boolean };
      const changes = typeof spec.changesWhatRuns === "function" ? spec.changesWhatRuns(opts) : spec.changesWhatRuns === true;
      // Loaded only for the commands that change what runs: a cold `hooks run` never pays for it.
      if (changes) (await import("./agentCaller.js")).refuseAgentCall(spec.name, { env: ctx.env, person: opts.person });
      setCode(await action(ctx, params.slice(0, -2), opts));
    });
  };
  for (const spec of commandsFor(argv)) register(program, spec);
  return program;
}

/**
 * A commander error as hookrun's one sentence: `error: unknown command 'x'\n(Did you mean y?)`
 * becomes `unknown command 'x'; did you mean y?`.
 */
function commanderSentence(error: CommanderError): string {
  return error.message
    .replace(/^error: /, "")
    .replace(/\s*\n\(Did you mean (.*)\?\)\s*$/, "; did you mean $1?")
    .trim();
}

/** How commander reads a command line: the command, the global options, its arguments and its own options. */
export interface CommandReading {
  command: string;
  globals: Record<string, unknown>;
  args: string[];
  opts: Record<string, unknown>;
}

/**
 * What commander reads from argv, running nothing; null when commander refuses it. The fast
 * `hooks run` parser (src/cli/parseRunArgv.ts) must read every command line it takes the same way,
 * which test/cli.parseRunArgv.test.ts checks against this.
 */
export async function commanderReading(argv: string[]): Promise<CommandReading | null> {
  const quiet = { isTTY: false, write: () => true };
  let reading: CommandReading | null = null;
  // No action runs, so nothing reads stdin.
  const io: MainIO = { stdout: quiet, stderr: quiet, stdin: {} as MainIO["stdin"], env: {}, cwd: process.cwd() };
  const program = buildProgram(
    argv,
    io,
    () => {},
    () => {},
    (r) => (reading = r),
  );
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch {
    return null;
  }
  return reading;
}

/** Run the CLI with argv (without node and script); resolves to the exit code. */
export async function main(argv: string[], io: MainIO): Promise<number> {
  let code: number = EXIT.ok;
  let cwd = io.cwd;
  const program = buildProgram(
    argv,
    io,
    (ctx) => (cwd = ctx.cwd),
    (c) => (code = c),
  );
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError && (error.code === "commander.helpDisplayed" || error.code === "commander.version")) return EXIT.ok;
    const closed = await closedAnswer(argv, error, io);
    if (closed !== undefined) return closed;
    if (error instanceof CommanderError) {
      // `hooks help` exits 0; a command group named without its subcommand (`hooks import`)
      // prints its help to stderr with exit code 1: a usage error.
      if (error.code === "commander.help") return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      const sentence = commanderSentence(error);
      if (wantsJson(argv)) io.stdout.write(`${JSON.stringify({ error: { code: "usage", message: sentence } }, null, 2)}\n`);
      else io.stderr.write(`${terminalSafe(`hooks: ${sentence}`)}\n`);
      return EXIT.usage;
    }
    return reportError(argv, error, io, cwd);
  }
}

export { HookrunError };
