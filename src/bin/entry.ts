import { closeSync, fstatSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import type { MainIO } from "../cli/main.js";
import { stdioWriter } from "../cli/stdioWriter.js";

// What both CLI entries (src/bin/hooks.ts, and src/bin/hooksRun.ts for the fast `hooks run`) do
// with the process: the only place that touches process.argv's streams and the exit code. No
// top-level await: the CLI is bundled as CommonJS (see scripts/build.mjs).

/** Run `command` on this process's argv and stdio, then exit with its code once output is flushed. */
export function startCli(command: (argv: string[], io: MainIO) => Promise<number>): void {
  const argv = process.argv.slice(2);
  // A fail-closed dispatch that crashes (a deleted working directory, a bug) blocks in its host's
  // contract instead of exiting 1, which most agents read as "go on" (docs/fail-closed.md).
  if (argv.includes("--fail-closed")) process.on("uncaughtException", (error) => crashedClosed(argv, error));
  const stdout = stdioWriter(1, () => process.stdout);
  const stderr = stdioWriter(2, () => process.stderr);
  void command(argv, {
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
  }).then((code) => exitWhenFlushed(code, [stdout, stderr]));
}

/** An uncaught exception of a fail-closed dispatch: the host's block when crashAnswer gives one, else Node's own report and exit 1. */
function crashedClosed(argv: string[], error: unknown): void {
  void import("../hosts/crashAnswer.js")
    .then(({ crashAnswer }) => crashAnswer(argv, error))
    .catch(() => null)
    .then((answer) => {
      if (!answer) {
        writeSync(2, `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        return process.exit(1);
      }
      writeSync(1, answer.stdout);
      writeSync(2, answer.stderr);
      process.exit(answer.exitCode);
    });
}

/**
 * Exit as soon as what was printed has reached the kernel. main() resolves only when its work is
 * done (runner closed, hook groups reaped, servers stopped), so nothing is cut short; what is
 * skipped is Node's teardown of the heap at a natural exit (about 10 ms of munmap on a cold
 * `hooks run`, docs/performance.md). stdioWriter's writes are synchronous; Node's own streams (a terminal)
 * are waited for until drained.
 */
function exitWhenFlushed(code: number, streams: MainIO["stdout"][]): void {
  process.exitCode = code;
  const exit = (): never => {
    releaseHungUpTerminals();
    return process.exit(code);
  };
  const pending = streams.filter((s): s is NodeJS.WriteStream => "writableLength" in s && (s as NodeJS.WriteStream).writableLength > 0);
  let left = pending.length;
  if (left === 0) exit();
  // A terminal that went away (SIGHUP of a closed window) never drains: an error or close counts
  // as done, and a bound keeps a wedged descriptor from holding the exit (and its code) forever.
  for (const s of pending) {
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      if (--left === 0) exit();
    };
    s.once("drain", done);
    s.once("error", done);
    s.once("close", done);
  }
  setTimeout(exit, 2000);
}

/**
 * At exit Node restores the terminal modes of stdio descriptors that were terminals at start, and
 * aborts (SIGABRT, no exit code) when that fails, which it does on a terminal that hung up (a
 * closed window: SIGHUP, then EIO). Node skips a descriptor that was closed, so close those: a
 * character device that no longer answers as a terminal. /dev/null closes harmlessly.
 */
function releaseHungUpTerminals(): void {
  for (const fd of [0, 1, 2]) {
    try {
      // node:tty is loaded only for a character device: pipes and files (agents, CI) skip it.
      if (fstatSync(fd).isCharacterDevice() && !(createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(fd)) closeSync(fd);
    } catch {
      // already closed
    }
  }
}
