import { fastRun } from "../cli/fastRun.js";
import { parseRunArgv } from "../cli/parseRunArgv.js";
import { startCli } from "./entry.js";

// The fast `hooks run` bundle's entry (dist/bin/run.cjs; docs/performance.md#what-each-start-up-measure-buys):
// the run path without commander and without every other command's code. scripts/cliLoader.cjs
// loads this bundle for `hooks run` and calls startRun(); when it returns false (help, a typo, an
// option form it does not take) nothing has been done yet, and the loader runs the full CLI.

/** Start `hooks run` when this argv is one the fast parser takes; false leaves it to the full CLI. */
export function startRun(): boolean {
  const parsed = parseRunArgv(process.argv.slice(2));
  if (!parsed) return false;
  startCli((argv, io) => fastRun(parsed, argv, io));
  return true;
}
