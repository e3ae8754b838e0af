import { collect, GLOBAL_OPTIONS, type OptionSpec, repeat, RUN_OPTIONS } from "./options.js";

// A `hooks run` command line read without commander, for the fast `hooks run` bundle
// (docs/performance.md#what-each-start-up-measure-buys): building commander's program is a
// measurable share of every agent event. It reads the same option rows as commander
// (src/cli/options.ts) and accepts only the plain forms; anything else (help, an unknown or
// misspelt option, a missing value, a value that starts with "-", combined short flags, `--`, a
// second positional) returns null and the full CLI parses it with commander, errors and all.
// test/cli.parseRunArgv.test.ts checks that both read every accepted command line alike.

export interface ParsedRun {
  /** The global options as commander's program.opts() gives them. */
  globals: Record<string, unknown>;
  event: string;
  /** `run`'s own options as commander's command.opts() gives them. */
  opts: Record<string, unknown>;
}

interface Flag {
  /** Commander's attribute name: the long flag in camelCase, without `no-`. */
  key: string;
  /** The value a boolean flag sets (true, or false for `--no-x`); undefined for a value option. */
  sets?: boolean;
  spec: OptionSpec;
}

interface Table {
  flags: Map<string, Flag>;
  defaults: Record<string, unknown>;
}

const FLAGS = /^(?:(-[A-Za-z]), )?--([a-z][a-z-]*)(?: <[a-z=-]+>)?$/;

function table(specs: readonly OptionSpec[]): Table {
  const flags = new Map<string, Flag>();
  const defaults: Record<string, unknown> = {};
  const longs = new Set(specs.map((s) => FLAGS.exec(s.flags)?.[2]));
  for (const spec of specs) {
    const m = FLAGS.exec(spec.flags);
    // A row in another form (an optional value, …) is left to commander: this table lacks it.
    if (!m) continue;
    const [, short, long] = m;
    const negated = long.startsWith("no-");
    const key = (negated ? long.slice(3) : long).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const flag: Flag = { key, sets: spec.flags.includes("<") ? undefined : !negated, spec };
    flags.set(`--${long}`, flag);
    if (short) flags.set(short, flag);
    if (spec.default !== undefined) defaults[key] = spec.default;
    // commander: a lone `--no-x` defaults x to true; with `--x` also declared, x has no default.
    else if (negated && !longs.has(long.slice(3))) defaults[key] = true;
  }
  return { flags, defaults };
}

let tables: { globals: Table; run: Table } | undefined;

/** The parsed `hooks run` command line, or null when commander must read it. */
export function parseRunArgv(argv: readonly string[]): ParsedRun | null {
  tables ??= { globals: table(GLOBAL_OPTIONS), run: table(RUN_OPTIONS) };
  const globals: Record<string, unknown> = { ...tables.globals.defaults };
  const opts: Record<string, unknown> = { ...tables.run.defaults };
  let sawRun = false;
  let event: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("-")) {
      if (!sawRun) {
        if (arg !== "run") return null;
        sawRun = true;
      } else if (event === undefined) event = arg;
      else return null;
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const global = tables.globals.flags.get(name);
    const flag = global ?? (sawRun ? tables.run.flags.get(name) : undefined);
    if (!flag) return null;
    const into = global ? globals : opts;
    let value: unknown;
    if (flag.sets !== undefined) {
      if (eq > 0) return null;
      value = flag.sets;
    } else {
      const text = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (text === undefined || (eq < 0 && text.startsWith("-"))) return null;
      if (flag.spec.choices && !flag.spec.choices.includes(text)) return null;
      value = flag.spec.many ? (flag.spec.many === "list" ? collect : repeat)(text, into[flag.key] as string[] | undefined) : text;
    }
    into[flag.key] = value;
  }
  if (!sawRun || event === undefined) return null;
  return { globals, event, opts };
}
