import { Command, CommanderError, Option } from "commander";
import { HookrunError } from "../errors.js";
import { ENV_VARS } from "../env.js";
import { errorJson } from "../report/json.js";
import { terminalSafe } from "../text.js";
import { FAIL_CLOSED_FLAG } from "../hosts/failClosed.js";
import { VERSION } from "../version.js";
import { commandsFor, COMMANDS, type CommandSpec } from "./commands.js";
import { COLOR_WHEN, makeCliContext, type CliContext, type GlobalOptions } from "./context.js";
import { EXIT, EXIT_CODES, exitCodeFor, formatError } from "./exitCodes.js";

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

const collect = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean),
];
const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];

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
function buildProgram(argv: string[], io: MainIO, onContext: (ctx: CliContext) => void, setCode: (code: number) => void): Command {
  const program = new Command("hooks");
  program
    .description("Run shell-command hooks for AI coding agents and CI, from hooks.yaml")
    .version(VERSION, "--version", "print the version")
    .option("-c, --config <path>", "use this project config file (no walk up; also HOOKS_CONFIG)")
    .option("-C, --cwd <dir>", "run as if started in DIR")
    .option("--no-user-config", "skip the user layer (~/.config/hookrun)")
    .option("--trust", "trust the project and local config for this invocation")
    .addOption(new Option("--color <when>", "colours: auto (when stdout is a terminal), always or never").choices(COLOR_WHEN))
    .option("--no-color", "same as --color=never")
    .option("-v, --verbose", "more detail, and stack traces on errors")
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's own errors are printed by main() in hookrun's form (text or JSON).
      outputError: () => {},
    })
    .addHelpText("after", programHelpFooter)
    .exitOverride();
  const context = (cmd: Command): CliContext => {
    const ctx = makeCliContext(cmd.optsWithGlobals() as GlobalOptions, io);
    onContext(ctx);
    return ctx;
  };
  const register = (parent: Command, spec: CommandSpec): void => {
    const cmd = parent.command(spec.name, { hidden: spec.hidden }).description(spec.description);
    if (spec.aliases) cmd.aliases(spec.aliases);
    for (const a of spec.args ?? []) cmd.argument(a.syntax, a.description);
    for (const o of spec.options ?? []) {
      if (o.many) cmd.option(o.flags, o.description, o.many === "list" ? collect : repeat);
      else if (o.default !== undefined) cmd.option(o.flags, o.description, o.default);
      else cmd.option(o.flags, o.description);
    }
    cmd.addHelpText("after", `\nExample:\n  ${spec.example}\n\nExit codes and environment variables: hooks --help`);
    const action = spec.action;
    if (!action) return;
    cmd.action(async (...params: unknown[]) => {
      // commander passes the positional arguments, then the options, then the command.
      const self = params[params.length - 1] as Command;
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

/** `--json` or `--output json` anywhere in argv: errors are printed as JSON on stdout too. */
function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === "--json" || a === "--output=json" || (a === "--output" && argv[i + 1] === "json"));
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
  const json = wantsJson(argv);
  try {
    await program.parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError && (error.code === "commander.helpDisplayed" || error.code === "commander.version")) return EXIT.ok;
    // A fail-closed dispatch that fails blocks in its host's contract (docs/fail-closed.md).
    const closed = argv.includes(FAIL_CLOSED_FLAG) ? (await import("../hosts/crashAnswer.js")).crashAnswer(argv, error) : null;
    if (closed) {
      io.stdout.write(closed.stdout);
      io.stderr.write(closed.stderr);
      return closed.exitCode;
    }
    if (error instanceof CommanderError) {
      // `hooks help` exits 0; a command group named without its subcommand (`hooks import`)
      // prints its help to stderr with exit code 1: a usage error.
      if (error.code === "commander.help") return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      const sentence = commanderSentence(error);
      if (json) io.stdout.write(`${JSON.stringify({ error: { code: "usage", message: sentence } }, null, 2)}\n`);
      else io.stderr.write(`${terminalSafe(`hooks: ${sentence}`)}\n`);
      return EXIT.usage;
    }
    if (json) io.stdout.write(`${JSON.stringify(errorJson(error, cwd), null, 2)}\n`);
    else io.stderr.write(`${formatError(error, argv.includes("-v") || argv.includes("--verbose"), cwd)}\n`);
    return exitCodeFor(error);
  }
}

export { HookrunError };
