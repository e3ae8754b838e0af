import { existsSync } from "node:fs";
import path from "node:path";

/**
 * What the user, and the model, are told when the project's hooks did not run (the config is
 * untrusted or does not load), and the command that reviews it: every host's not-run answer
 * (HostAdapter.notRun) carries these words.
 */

const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/**
 * The command that reviews and trusts the config of `projectDir`, spelled with the binary that is
 * running when it is a project's installed one (`node_modules/.bin/hooks`), else `hooks`.
 * `entry`: the running CLI's script; `configPath`: its `-c`.
 */
export function trustCommand(run: { entry?: string; configPath?: string }, projectDir: string): string {
  const m = run.entry ? /^(.*[\\/]node_modules)[\\/](?:\.bin[\\/]hook(?:s|run)|hookrun[\\/]dist[\\/]bin[\\/]hooks\.js)$/.exec(run.entry) : null;
  const local = m ? path.join(m[1], ".bin", "hooks") : null;
  const bin = local && existsSync(local) ? shellWord(local) : "hooks";
  return `${bin} -C ${shellWord(projectDir)}${run.configPath ? ` -c ${shellWord(run.configPath)}` : ""} trust`;
}

/** What the user, and the model, are told when the project's hooks did not run: untrusted config (exit 77). */
export function notTrustedWords(files: readonly string[], trustCommand: string): [forUser: string, forModel: string] {
  const what = files.length === 1 ? `${files[0]} is` : `${files.join(", ")} are`;
  const why = `${what} not trusted (new or changed since it was last reviewed)`;
  return [
    `${why}. None of its hooks (guards included) run until you review and trust it: run \`${trustCommand}\` in a terminal.`,
    `${why}, so none of its hooks, guards included, will run. Tell the user; they must review and trust it themselves by running \`${trustCommand}\` in a terminal. Do not run \`hooks trust\` yourself: the review is theirs.`,
  ];
}

/** The same when hookrun itself could not run them (a context over a limit, a state dir it refuses): `problem` says what. */
export function couldNotRunWords(problem: string): [forUser: string, forModel: string] {
  return [
    `hookrun could not run them: ${problem}. This call went on unguarded (a guard with \`on_failure: block\` would have blocked it).`,
    `hookrun could not run them (${problem}), so no guard checked this call. Tell the user.`,
  ];
}

/** The same for a config that does not load (exit 78): `problem` is its first error, FILE:LINE:COL. */
export function invalidConfigWords(problem: string): [forUser: string, forModel: string] {
  return [
    `the config is invalid (${problem}). None of its hooks (guards included) run until it is fixed: run \`hooks validate\` to see every problem.`,
    `its config is invalid (${problem}), so none of its hooks, guards included, will run. Tell the user; \`hooks validate\` lists every problem.`,
  ];
}
