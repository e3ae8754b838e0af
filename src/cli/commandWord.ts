// Global options that take a value: the word after them is that value, not the command.
const VALUE_OPTIONS = new Set(["-c", "--config", "-C", "--cwd"]);

/**
 * The command word of an argv (`run` in `hooks -C dir --trust run stop`), or undefined when
 * there is none. scripts/cliLoader.cjs has the same rule (it cannot import the bundle it loads).
 */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return undefined;
}
