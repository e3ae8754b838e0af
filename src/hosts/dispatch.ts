/**
 * The command line that hands a host's event to hookrun: the one `hooks install` writes
 * (`dispatchCommand`, `walkUpDispatchCommand`), and how a command read from a host's file is
 * recognised as one (`isDispatchCommand`: an entry hookrun owns) or as calling hookrun at all
 * (`hookrunCallNote`: what import leaves out). Plain text functions, no imports: the importers
 * of every host use them too.
 */

/** Where a dispatch finds hookrun: the project's install (default) or an absolute path (`--user`). */
export interface DispatchTarget {
  /** Shell text for the project root in the host's command (`"$CLAUDE_PROJECT_DIR"`), or null: the hook runs in the project root. */
  root: string | null;
  /** Absolute path of the `hooks` binary; null: `<root>/node_modules/.bin/hooks`. */
  bin: string | null;
  /** Prefix `exec` so the process the host kills on its timeout is hookrun itself, no shell between. */
  exec?: boolean;
  /**
   * For a host that runs hooks in the session's cwd (a subdirectory, possibly) and names no project
   * directory (Codex, agent-code): a project install walks up from $PWD to the project's hookrun,
   * no higher than the project root: the first folder holding `.git` or this folder (`.codex`),
   * where the host's project file lives (walkUpDispatchCommand).
   */
  walkUp?: string;
  /**
   * The event fails closed (docs/fail-closed.md): the host's blocking answer, printed by the
   * command itself when hookrun cannot start (its binary missing, node not on PATH); hookrun then
   * runs with `--fail-closed`. Absent: hookrun not starting lets the call through, as before.
   */
  failClosed?: { stdout: string; stderr: string; exitCode: number };
  /**
   * Not failing closed, under a host that reads the exit of a command that cannot start (127) as
   * a block (HostSetup.blocksOnStartFailure): the host's not-run answer, printed by the command
   * itself when hookrun cannot start, so the call goes on with the user told.
   */
  failOpen?: { stdout: string; stderr: string; exitCode: number };
  /**
   * With `failClosed`: the seconds after which the host kills the entry (its timeout); hookrun
   * stops its hooks and blocks before then (`--deadline`), so being killed never lets the call through.
   */
  deadlineSeconds?: number;
}

/**
 * Shell text that prints a host's answer and exits with its code: the fallback of a dispatch
 * entry when hookrun cannot start. One line whatever the answer: each line of it is one argument
 * of `printf '%s\n'` (a newline inside quotes would split the command, and a hook script file is
 * hookrun's only as one line: src/hosts/hostScripts.ts).
 */
export function answerShell(answer: { stdout: string; stderr: string; exitCode: number }): string {
  const parts: string[] = [];
  if (answer.stdout) parts.push(printfText(answer.stdout));
  if (answer.stderr) parts.push(`${printfText(answer.stderr)} >&2`);
  parts.push(`exit ${answer.exitCode}`);
  return parts.join("; ");
}

/** `printf` of `text` on one line: its lines as the arguments of `'%s\n'`, a last line without its newline printed apart. */
function printfText(text: string): string {
  const lines = text.split("\n");
  const last = lines.pop() as string;
  const whole = lines.length ? `printf '%s\\n' ${lines.map(quoteAlways).join(" ")}` : "";
  if (last === "") return whole;
  return whole ? `${whole}; printf '%s' ${quoteAlways(last)}` : `printf '%s' ${quoteAlways(last)}`;
}

const quoteAlways = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

// Whether hookrun can start: its binary is there and executable, and node (its interpreter) is on PATH.
const canStart = (bin: string): string => `{ [ -x ${bin} ] && command -v node >/dev/null 2>&1; }`;

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/** The dispatch command line of one canonical event for a host. */
export function dispatchCommand(host: string, event: string, target: DispatchTarget): string {
  if (target.walkUp && !target.bin) return walkUpDispatchCommand(host, event, target, target.walkUp);
  const bin = target.bin ? shellQuote(target.bin) : target.root ? `${target.root}/node_modules/.bin/hooks` : "node_modules/.bin/hooks";
  const cd = target.root ? ` -C ${target.root}` : "";
  const run = `${target.exec ? "exec " : ""}${bin}${cd} run ${event} --host ${host}`;
  const answer = target.failClosed ?? target.failOpen;
  if (!answer) return run;
  return `${canStart(bin)} || { ${answerShell(answer)}; }; ${run}${target.failClosed ? ` ${closedFlags(target)}` : ""}`;
}

/**
 * The head of a command entry that steps aside for an http entry beside it when the host sends
 * http hooks to a local server, which Copilot CLI does only with COPILOT_HOOK_ALLOW_LOCALHOST=1 in
 * its environment (its warm mode, src/hosts/warm.ts): otherwise the command runs hookrun.
 */
export const LOCAL_HTTP_VAR = "COPILOT_HOOK_ALLOW_LOCALHOST";
export const LOCAL_HTTP_FALLBACK = `[ "\${${LOCAL_HTTP_VAR}:-}" = 1 ] && exit 0; `;

/** The flags of a fail-closed dispatch: `--fail-closed`, and the host's kill as `--deadline SECONDS`. */
const closedFlags = (target: DispatchTarget): string => `${FAIL_CLOSED}${target.deadlineSeconds ? ` --deadline ${target.deadlineSeconds}` : ""}`;

/** The flag of a fail-closed dispatch (src/hosts/failClosed.ts FAIL_CLOSED_FLAG; this module imports nothing). */
const FAIL_CLOSED = "--fail-closed";

/**
 * The dispatch command of a project install for a host that runs hooks in the session's cwd (a
 * subdirectory, possibly) and names no project directory (Codex, agent-code): walk up from $PWD
 * to the nearest directory with an executable node_modules/.bin/hooks (every teammate's
 * `npm install` leaves it there; never npx), stopping at the project root (the first folder with
 * `.git` or `marker`, the host's own folder), and `exec` it there, so the process the host kills
 * on its timeout is hookrun itself. It runs only a binary the user owns, in a node_modules/.bin
 * and node_modules the user owns (`[ -O ]`, a builtin): one planted by another user in a shared
 * parent folder is never run. Not found: exit 1 with the reason on stderr, or the answer of
 * `fallback` (failing closed: the host's block; failing open: its not-run answer).
 */
export function walkUpDispatchCommand(host: string, event: string, fallback: Pick<DispatchTarget, "failClosed" | "failOpen" | "deadlineSeconds"> = {}, marker = `.${host}`): string {
  const bin = '"$d/node_modules/.bin/hooks"';
  const answer = fallback.failClosed ?? fallback.failOpen;
  const own = `[ -x ${bin} ] && [ -O ${bin} ] && [ -O "$d/node_modules/.bin" ] && [ -O "$d/node_modules" ]`;
  return [
    'd="$PWD"',
    `while [ ! -x "$d/node_modules/.bin/hooks" ] && [ ! -e "$d/.git" ] && [ ! -d "$d/${marker}" ] && [ "$d" != / ]; do d="\${d%/*}"; d="\${d:-/}"; done`,
    answer
      ? `{ ${own} && command -v node >/dev/null 2>&1; } || { ${answerShell(answer)}; }`
      : `{ ${own}; } || { echo "hookrun: no node_modules/.bin/hooks of yours in $PWD or up to the project root (run npm install)" >&2; exit 1; }`,
    `exec ${bin} -C "$d" run ${event} --host ${host}${fallback.failClosed ? ` ${closedFlags({ root: null, bin: null, ...fallback })}` : ""}`,
  ].join("; ");
}

/** The walk-up form written before it stopped at the project root and checked ownership: still hookrun's, so install replaces it. */
function legacyWalkUp(host: string, event: string, answer?: DispatchTarget["failClosed"], deadlineSeconds?: number): string {
  const bin = '"$d/node_modules/.bin/hooks"';
  return [
    'd="$PWD"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not a template
    'while [ ! -x "$d/node_modules/.bin/hooks" ] && [ "$d" != / ]; do d="${d%/*}"; d="${d:-/}"; done',
    answer ? `${canStart(bin)} || { ${answerShell(answer)}; }` : `[ -x ${bin} ] || { echo "hookrun: no node_modules/.bin/hooks in $PWD or above (run npm install)" >&2; exit 1; }`,
    `exec ${bin} -C "$d" run ${event} --host ${host}${deadlineSeconds ? ` ${FAIL_CLOSED} --deadline ${deadlineSeconds}` : ""}`,
  ].join("; ");
}

// One shell word: quoted parts and plain characters, no operator, redirection or substitution.
// In double quotes a `$` only as `$NAME`, `${NAME}` or `${NAME:-$NAME}` (Cursor's root), and no backslash (it would escape the
// closing quote in the shell's reading); outside quotes `\'` (shellQuote's apostrophe) only.
// Blanks are space and tab: the shell splits on nothing else.
const SHELL_WORD = /(?:"[^"`$\\]*(?:\$(?:\w+|\{\w+(?::-\$?\w*)?\})[^"`$\\]*)*"|'[^']*'|\\'|[^ \t"'`;&|<>()\\]+)+/g;
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// The answer of an entry (answerShell): single-quoted words printed, then an exit.
const ANSWER = String.raw`(?:printf '%s(?:\\n)?'(?: (?:'[^'\n]*'|\\')+)+(?: >&2)?; )*exit \d{1,3}`;
const SAMPLE_ANSWER = { stdout: "OUT", stderr: "ERR", exitCode: 7 };
/** A template of a generated command as a pattern: any event and host, any fail-closed answer. */
const templatePattern = (command: string): RegExp =>
  new RegExp(
    `^${escapeRegex(command)
      .replace(escapeRegex(answerShell(SAMPLE_ANSWER)), ANSWER)
      .replace(/EVENT --host HOST/, "[\\w.:-]+ --host [\\w-]+")
      .replace("/\\.MARKER", "/\\.[\\w-]+")
      .replace(" --deadline 99999", "(?: --deadline \\d{1,6})?")}$`,
  );
// The walk-up form (walkUpDispatchCommand): plain, failing closed, failing open; and the form before it.
const WALK_UP = [
  templatePattern(walkUpDispatchCommand("HOST", "EVENT", {}, ".MARKER")),
  templatePattern(walkUpDispatchCommand("HOST", "EVENT", { failClosed: SAMPLE_ANSWER, deadlineSeconds: 99999 }, ".MARKER")),
  templatePattern(walkUpDispatchCommand("HOST", "EVENT", { failOpen: SAMPLE_ANSWER }, ".MARKER")),
  templatePattern(legacyWalkUp("HOST", "EVENT")),
  templatePattern(legacyWalkUp("HOST", "EVENT", SAMPLE_ANSWER, 99999)),
];
// The prefix of a simple dispatch that answers itself when hookrun cannot start (dispatchCommand:
// failing closed, or failing open under a host that would read the 127 as a block).
const CLOSED_PREFIX = new RegExp(String.raw`^\{ \[ -x ((?:"[^"]*"|'[^']*'|\\'|[^\s"'\\])+) \] && command -v node >/dev/null 2>&1; \} \|\| \{ ${ANSWER}; \}; (.*)$`, "s");

/**
 * The binaries an entry of hookrun's runs, exactly as `hooks install` writes them: the project's
 * `node_modules/.bin/hooks` (relative, or after a host's project-dir variable: `$GEMINI_PROJECT_DIR/`,
 * `"${CURSOR_PROJECT_DIR:-$PWD}"/`, or folders up from one: Goose's `"$PLUGIN_ROOT/../../.."/`), or (`--user`) an absolute path to an installed hookrun's
 * `dist/bin/hooks.js`, or to a `bin/hooks` or `.bin/hooks` (npm's links to it). A script of the
 * user's named `hooks` elsewhere (`./scripts/hooks run check`) is not hookrun's: install never
 * replaces its entry, uninstall never removes it.
 */
const HOOKRUN_BIN = /^(?:(?:\$\w+|\$\{\w+(?::-\$?\w*)?\})(?:\/\.\.)*\/)?node_modules\/\.bin\/hooks$|^\/(?:[^\0]*\/)?(?:dist\/bin\/hooks\.js|\.?bin\/hooks)$/;
// Any binary named as hookrun's: what `hooks import` leaves out, since importing it would run hookrun from its own hook.
const ANY_HOOKRUN_BIN = /(^|\/)(hooks|hookrun)(\.js)?$/;

/**
 * Whether a host entry's command dispatches to hookrun, and only that: `[exec|npx|node]
 * …/hooks [OPTIONS] run EVENT [ARGS]` as one simple command (what `hooks install` writes, an
 * absolute path to the bin, `hooks.js`), or the walk-up form Codex and agent-code get. Anything
 * with shell syntax around it (`touch x; hooks run stop`, `$(…)`, a pipe) is not hookrun's, so
 * install never replaces it and uninstall never removes it.
 */
export function isDispatchCommand(command: string): boolean {
  return dispatches(command, HOOKRUN_BIN);
}

/** Whether `command` is one simple command that runs `bins` with `run EVENT` (isDispatchCommand's reading, with the binaries it accepts). */
function dispatches(command: string, bins: RegExp): boolean {
  if (command.startsWith(LOCAL_HTTP_FALLBACK)) return dispatches(command.slice(LOCAL_HTTP_FALLBACK.length), bins);
  if (WALK_UP.some((p) => p.test(command))) return true;
  // Answering itself when hookrun cannot start: the rest is a plain dispatch of the very binary the prefix checks.
  const prefixed = CLOSED_PREFIX.exec(command);
  if (prefixed) {
    const rest = prefixed[2];
    const words = rest.match(SHELL_WORD) ?? [];
    return (words[0] === "exec" ? words[1] : words[0]) === prefixed[1] && dispatches(rest, bins);
  }
  // Printable text on one line (no control character, no blank but space and tab), every
  // character but the blanks between words belonging to a word, and each `$` a plain variable,
  // at most with a plain default (`${x:=…}`, `$(…)`, `${x@P}` run or change things): no shell syntax.
  if (/[\x00-\x08\x0a-\x1f\x7f\u0080-\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(command)) return false;
  if (command.replace(SHELL_WORD, "").replace(/[ \t]/g, "") !== "" || /\$(?!\w|\{\w+(?::-\$?\w*)?\})/.test(command)) return false;
  const words = command.match(SHELL_WORD) ?? [];
  let i = 0;
  if (words[i] === "exec") i++;
  // `npx hooks` (older hand-written entries) without flags: npx's own can load other code.
  const npx = words[i] === "npx";
  if (npx || words[i] === "node") i++;
  const bin = (words[i++] ?? "").replace(/\\'|["']/g, "");
  if (!(npx ? bin === "hooks" || bin === "hookrun" : bins.test(bin))) return false;
  // Options before the command (`-C DIR`, `--config FILE`), each with its value.
  while (words[i]?.startsWith("-") && words[i] !== "--") i += 2;
  return words[i] === "run" && words[i + 1] !== undefined && /^[\w.:-]+$/.test(words[i + 1]);
}

/**
 * A URL that dispatches to hookrun: a loopback `hooks serve`'s host route (warm mode,
 * src/hosts/warm.ts), failing closed before the host's timeout or not.
 */
export const DISPATCH_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/v1\/hosts\/[\w-]+\/[\w.-]+(\?fail_closed=1&deadline=\d{1,6})?$/;

// hookrun's bin followed by `run`, anywhere in a command: a command that calls hookrun.
const CALLS_HOOKRUN = /(^|[\s/"'])(hooks|hookrun)(\.js)?["']?\s+(-\S+\s+("[^"]*"|'[^']*'|\S+)\s+)*run\s/;

/**
 * Why `hooks import` leaves a host's command out because it runs hookrun (null: import it).
 * Imported into hooks.yaml, such a command would run hookrun from its own hook, without end.
 */
export function hookrunCallNote(command: string): string | null {
  if (dispatches(command, ANY_HOOKRUN_BIN)) return "already hands this event to hookrun; skipped (importing it would run hookrun from itself)";
  if (CALLS_HOOKRUN.test(command)) return "runs hookrun among other commands; skipped (importing it would run hookrun from itself): move the other commands into hooks.yaml by hand";
  return null;
}
