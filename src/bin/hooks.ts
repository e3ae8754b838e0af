import { main } from "../cli/main.js";

// The entry module: the only place that touches process.argv and the exit code. No top-level
// await: the CLI is bundled as CommonJS (see scripts/build.mjs).
void main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // Lazy: most commands never read stdin, and creating the stream costs start-up time.
  get stdin() {
    return process.stdin;
  },
  stdinFd: 0,
  env: process.env,
  cwd: process.cwd(),
  // Detached async workers re-run this same CLI entry (`hooks __async-worker JOB`).
  entry: process.argv[1],
}).then(exitWhenFlushed);

/**
 * Exit as soon as what was printed has reached the kernel. main() resolves only when its work is
 * done (runner closed, hook groups reaped, servers stopped), so nothing is cut short; what is
 * skipped is Node's teardown of the heap at a natural exit (about 10 ms of munmap on a cold
 * `hooks run`, SPEC §15). Writes to a pipe or file are synchronous on Linux; elsewhere, or for a
 * socket, wait for 'drain' first.
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  const pending = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  let left = pending.length;
  if (left === 0) process.exit(code);
  for (const s of pending) s.once("drain", () => --left === 0 && process.exit(code));
}
