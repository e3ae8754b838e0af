import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import type { ResolvedHook } from "../config/types.js";

// What `hooks doctor` can tell about a hook's command without running it: whether its first word
// is a program on PATH or a file of the project (and executable), and whether a host's own entry
// runs the same thing. Commands in shell syntax it cannot judge (variables, quotes, pipes first,
// assignments, subshells) are left alone and said so.

/** Shell builtins and keywords a command may start with: nothing to find on PATH. */
const BUILTINS = new Set("true false : . source echo printf test [ cd exit exec export set unset eval command type read return shift trap wait umask if for while case until { ! time".split(" "));
/** Interpreters whose next word is the script they run. */
const INTERPRETERS = new Set(["sh", "bash", "zsh", "dash", "node", "python", "python3", "ruby", "perl", "deno", "bun", "tsx", "php"]);
const PLAIN_WORD = /^[\w@%+:,./-]+$/;

export type CommandVerdict = { kind: "ok"; detail: string } | { kind: "unjudged"; detail: string } | { kind: "missing" | "not-executable" | "not-on-path"; file: string; detail: string };

/** The words of a command line when it starts with plain words (no quotes, variables or operators), else null. */
function plainWords(command: string): string[] | null {
  const words = command.trim().split(/\s+/);
  if (words.length === 0 || !PLAIN_WORD.test(words[0]) || words[0].includes("=")) return null;
  return words;
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      if (statSync(file).isFile()) {
        accessSync(file, constants.X_OK);
        return file;
      }
    } catch {
      // not here
    }
  }
  return null;
}

/** The directory a hook runs in (its `cwd`, else the declaring file's directory, else the project). */
export function hookDir(hook: ResolvedHook, projectDir: string): string {
  const dir = hook.dir ?? projectDir;
  return hook.cwd ? path.resolve(dir, hook.cwd) : dir;
}

function checkFile(file: string, mustExecute: boolean): CommandVerdict {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch {
    return { kind: "missing", file, detail: `${file} does not exist` };
  }
  if (!st.isFile()) return { kind: "missing", file, detail: `${file} is not a file` };
  if (mustExecute) {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      return { kind: "not-executable", file, detail: `${file} exists but is not executable` };
    }
  }
  return { kind: "ok", detail: file };
}

/** Whether the hook's command can start: its program on PATH, or its script present (and executable when run directly). */
export function judgeCommand(hook: ResolvedHook, projectDir: string, env: NodeJS.ProcessEnv): CommandVerdict {
  const words = hook.args ? [hook.command ?? "", ...hook.args] : plainWords(hook.command ?? "");
  if (!words?.[0]) return { kind: "unjudged", detail: "shell syntax the doctor does not judge" };
  const dir = hookDir(hook, projectDir);
  const [first, second] = words;
  if (first.includes("/")) return checkFile(path.resolve(dir, first), true);
  if (BUILTINS.has(first)) return { kind: "ok", detail: `${first} (shell builtin)` };
  const found = onPath(first, env);
  if (!found) return { kind: "not-on-path", file: first, detail: `\`${first}\` is not on PATH` };
  if (INTERPRETERS.has(first) && second !== undefined && !second.startsWith("-") && (second.includes("/") || /\.\w+$/.test(second))) return checkFile(path.resolve(dir, second), false);
  return { kind: "ok", detail: found };
}

/** Shell text hosts put for the project root (`"$CLAUDE_PROJECT_DIR"/`, `${FACTORY_PROJECT_DIR}/`, `./`) at a command's start. */
const ROOT_PREFIX = /^(?:"?\$\{?\w*PROJECT_DIR\}?"?\/|\.\/)/;

/** The script a command runs, absolute (its first word, or an interpreter's script), or null when there is none to tell. */
function scriptOf(command: string, dir: string): string | null {
  const words = command.trim().replace(ROOT_PREFIX, "./").split(/\s+/);
  const [first, second] = words;
  if (!first) return null;
  if (INTERPRETERS.has(first) && second && !second.startsWith("-")) return path.resolve(dir, second.replace(ROOT_PREFIX, "./"));
  return first.includes("/") ? path.resolve(dir, first) : null;
}

const normal = (command: string): string => command.trim().replace(ROOT_PREFIX, "").replace(/\s+/g, " ");

/** Whether a host's own entry command runs what `hook` runs: the same text (project root prefix aside) or the same script. */
export function sameCommand(native: string, hook: ResolvedHook, projectDir: string): boolean {
  const mine = hook.args ? [hook.command ?? "", ...hook.args].join(" ") : (hook.command ?? "");
  if (!mine.trim()) return false;
  if (normal(native) === normal(mine)) return true;
  const a = scriptOf(native, projectDir);
  const b = scriptOf(mine, hookDir(hook, projectDir));
  return a !== null && a === b;
}
