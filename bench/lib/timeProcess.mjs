// Wall time of a child process as its parent sees it: from spawn() until it exited and its
// pipes closed — what a caller waits for before it can use the result.
import { spawn } from "node:child_process";

/** Spawn, wait for 'close', resolve { ms, code, stdout, stderr }; rejects on a spawn error. */
export function timeProcess(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    const out = [];
    const err = [];
    child.stdout?.on("data", (c) => out.push(c));
    child.stderr?.on("data", (c) => err.push(c));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const ms = performance.now() - start;
      resolve({ ms, code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });
}

/** Like timeProcess but fails loudly when the command does not exit 0 (a broken row must not pass). */
export async function timeOk(command, args, options = {}) {
  const r = await timeProcess(command, args, options);
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.code ?? r.signal}: ${r.stderr.trim().slice(-500)}`);
  return r.ms;
}
