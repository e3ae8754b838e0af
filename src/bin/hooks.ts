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
}).then((code) => {
  process.exitCode = code;
});
