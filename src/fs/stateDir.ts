import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HookrunError } from "../errors.js";

/** $HOOKS_STATE_DIR, else $XDG_STATE_HOME/hookrun, else ~/.local/state/hookrun (docs/trust.md#the-state-dir-is-private). */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOOKS_STATE_DIR) return path.resolve(env.HOOKS_STATE_DIR);
  const base = env.XDG_STATE_HOME ? path.resolve(env.XDG_STATE_HOME) : path.join(env.HOME || os.homedir(), ".local", "state");
  return path.join(base, "hookrun");
}

/** The state dir (or a file in it) is not private to this user, so hookrun will not use it. */
export class StateDirError extends HookrunError {
  readonly dir: string;
  constructor(message: string, dir: string) {
    super(message, { code: "state-dir" });
    this.dir = dir;
  }
}

// Async job files in the state dir are run as commands, trust.json says which configs run, and
// results become messages to the agent: whoever can write there runs code as this user.
const WHY = "async jobs stored there are run as commands";

// Each directory is checked once per process (one syscall or two; `hooks serve` checks at start).
const verified = new Set<string>();

/**
 * Make sure the state dir is private before using it: created 0700 when missing (`create`), an
 * existing one of ours that others can only read (0755, as older hookrun created it) is
 * tightened to 0700, and one owned by another user or writable by group or others is refused
 * with a StateDirError saying what to do. A dir that cannot be created or is not a directory
 * passes: the caller's own read or write then reports that, as for any unusable path.
 */
export function ensureStateDir(dir: string, { create = true }: { create?: boolean } = {}): void {
  if (verified.has(dir)) return;
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
  }
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch {
    return;
  }
  if (!st.isDirectory()) return;
  const problem = ownershipProblem(st, `state dir ${dir}`, `chmod 700 ${dir}`);
  if (problem) throw new StateDirError(problem, dir);
  if (st.mode & 0o077) {
    try {
      fs.chmodSync(dir, 0o700);
    } catch (error) {
      throw new StateDirError(`state dir ${dir} is readable by others and cannot be made private (${(error as NodeJS.ErrnoException).code}); run \`chmod 700 ${dir}\``, dir);
    }
  }
  verified.add(dir);
}

/**
 * Refuse a state file (an async job, before it is run) unless it and every directory from it up
 * to the state dir (the file's fourth ancestor: <state>/async/<project>/<session>/<file>) are
 * owned by this user and writable by nobody else.
 */
export function assertPrivateStatePath(file: string): void {
  const full = path.resolve(file);
  let p = full;
  for (let level = 0; level <= 4; level++, p = path.dirname(p)) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return; // missing: the caller's read reports it
    }
    const what = level === 0 ? `async job file ${p}` : level === 4 ? `state dir ${p}` : `directory ${p} in the state dir`;
    if (level > 0 && st.isSymbolicLink()) throw new StateDirError(`${what} is a symbolic link; hookrun does not follow links inside the state dir (${WHY})`, p);
    const problem = ownershipProblem(st, what, level === 0 ? `chmod 600 ${p}` : `chmod 700 ${p}`);
    if (problem) throw new StateDirError(problem, p);
  }
}

function ownershipProblem(st: fs.Stats, what: string, fix: string): string | null {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    return `${what} belongs to uid ${st.uid}, not to you (uid ${uid}); ${WHY}, so hookrun will not use it: set HOOKS_STATE_DIR to a directory of your own`;
  }
  if (st.mode & 0o022) {
    const mode = (st.mode & 0o777).toString(8).padStart(3, "0");
    return `${what} is writable by group or others (mode ${mode}); ${WHY}, so hookrun will not use it: run \`${fix}\``;
  }
  return null;
}
