/**
 * pnpm's node_modules/.bin entries are shell scripts written by @zkochan/cmd-shim, not links:
 * `exec node "$basedir/../hookrun/dist/bin/hooks.js" "$@"` after setting NODE_PATH. The doctor
 * may fire such a script only when it is one of those scripts, byte for byte but for its two
 * values (the NODE_PATH list and the target): the templates below are what pnpm 8 and 9 (one)
 * and pnpm 10 (the other) write (test/fixtures/pnpm-shims). So the only program it can start is
 * `node` (or `$basedir/node`, which the caller refuses when present) on the target, whose real
 * path the caller then checks as it checks a link's.
 */

const HEAD = `#!/bin/sh
basedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")

case \`uname\` in
`;
const CASE_PNPM9 = `    *CYGWIN*) basedir=\`cygpath -w "$basedir"\`;;
`;
const CASE_PNPM10 = `    *CYGWIN*|*MINGW*|*MSYS*)
        if command -v cygpath > /dev/null 2>&1; then
            basedir=\`cygpath -w "$basedir"\`
        fi
    ;;
`;
const TAIL = `esac

if [ -z "$NODE_PATH" ]; then
  export NODE_PATH="@NODE_PATH@"
else
  export NODE_PATH="@NODE_PATH@:$NODE_PATH"
fi
if [ -x "$basedir/node" ]; then
  exec "$basedir/node"  "$basedir/@TARGET@" "$@"
else
  exec node  "$basedir/@TARGET@" "$@"
fi
`;

// The value slots: printable text the shell takes as it is inside double quotes (no `"`, `$`,
// backquote, backslash, control character). The target is relative to $basedir: no leading `/`.
const VALUE = String.raw`[^"$\x60\\\x00-\x1f\x7f]*`;
const TARGET = String.raw`[^/"$\x60\\\x00-\x1f\x7f][^"$\x60\\\x00-\x1f\x7f]*`;

const TEMPLATES = [CASE_PNPM9, CASE_PNPM10].map((cases) => {
  const escaped = (HEAD + cases + TAIL).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = escaped.replace("@NODE_PATH@", `(${VALUE})`).replace("@NODE_PATH@", "\\1").replace("@TARGET@", `(${TARGET})`).replace("@TARGET@", "\\2");
  return new RegExp(`^${pattern}$`);
});

/**
 * The target of a pnpm cmd-shim script, relative to the script's folder
 * (`../hookrun/dist/bin/hooks.js`), or null when `text` is anything else.
 */
export function cmdShimTarget(text: string): string | null {
  if (text.length > 16 * 1024) return null;
  for (const template of TEMPLATES) {
    const m = template.exec(text);
    if (m) return m[2];
  }
  return null;
}
