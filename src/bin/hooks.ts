import { main } from "../cli/main.js";

// The entry module: the only place that touches process.argv and the exit code.
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  // Detached async workers re-run this same CLI entry (`hooks __async-worker JOB`).
  entry: process.argv[1],
});
process.exitCode = code;
