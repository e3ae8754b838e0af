import { main } from "../cli/main.js";
import { stdioWriter } from "../cli/stdioWriter.js";

// The entry module: the only place that touches process.argv and the exit code. No top-level
// await: the CLI is bundled as CommonJS (see scripts/build.mjs).
const stdout = stdioWriter(1, () => process.stdout);
const stderr = stdioWriter(2, () => process.stderr);
void main(process.argv.slice(2), {
  stdout,
  stderr,
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
 * `hooks run`, SPEC §15). stdioWriter's writes are synchronous; Node's own streams (a terminal)
 * are waited for until drained.
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  const pending = [stdout, stderr].filter((s): s is NodeJS.WriteStream => "writableLength" in s && (s as NodeJS.WriteStream).writableLength > 0);
  let left = pending.length;
  if (left === 0) process.exit(code);
  for (const s of pending) s.once("drain", () => --left === 0 && process.exit(code));
}
