/**
 * pnpm's node_modules/.bin entries are shell scripts written by @zkochan/cmd-shim, not links:
 * `exec node "$basedir/../hookrun/dist/bin/hooks.js" "$@"` after setting NODE_PATH. The doctor
 * may fire such a script only when it does nothing else: every line is one cmd-shim writes (as
 * pnpm 8, 9 and 10 write them; test/fixtures/pnpm-shims), so the only program it can start is
 * `node` (or `$basedir/node`, which the caller checks) on the target, whose real path the
 * caller then checks as it checks a link's.
 */

// A double-quoted value with nothing the shell would expand or end early.
const PLAIN = String.raw`[^"$\x60\\\n]*`;

/** The lines of a cmd-shim that do not start a program, trimmed. */
const FIXED_LINES = new Set([
  "#!/bin/sh",
  String.raw`basedir=$(dirname "$(echo "$0" | sed -e 's,\\,/,g')")`,
  "case `uname` in",
  '*CYGWIN*) basedir=`cygpath -w "$basedir"`;;',
  "*CYGWIN*|*MINGW*|*MSYS*)",
  "if command -v cygpath > /dev/null 2>&1; then",
  'basedir=`cygpath -w "$basedir"`',
  ";;",
  "esac",
  'if [ -z "$NODE_PATH" ]; then',
  "else",
  "fi",
  'if [ -x "$basedir/node" ]; then',
  "",
]);
const NODE_PATH_LINE = new RegExp(`^export NODE_PATH="${PLAIN}(:\\$NODE_PATH)?"$`);
const EXEC_LINE = new RegExp(`^exec (?:"\\$basedir/node"|node) +"\\$basedir/(${PLAIN.replace("*", "+")})" "\\$@"$`);

/**
 * The target of a cmd-shim script, relative to the script's folder (`../hookrun/dist/bin/hooks.js`),
 * or null when `text` is anything else: a line cmd-shim does not write, or exec lines naming
 * different targets.
 */
export function cmdShimTarget(text: string): string | null {
  if (!text.startsWith("#!/bin/sh\n") || text.length > 16 * 1024) return null;
  const targets = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (FIXED_LINES.has(line) || NODE_PATH_LINE.test(line)) continue;
    const exec = EXEC_LINE.exec(line);
    if (!exec) return null;
    targets.add(exec[1]);
  }
  return targets.size === 1 ? [...targets][0] : null;
}
