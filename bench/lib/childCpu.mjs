// CPU time (user + system, ms) of this process and of its reaped children, from /proc/self/stat:
// what a burst of spawns costs the machine, whatever the scheduler did with it. Linux only;
// elsewhere null.
import { readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function cpuNow() {
  let children = null;
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    children = (Number(fields[13]) + Number(fields[14])) * TICK_MS; // cutime + cstime
  } catch {
    // not Linux
  }
  const self = process.cpuUsage();
  return { self: (self.user + self.system) / 1000, children };
}

/** CPU spent by this process and by children reaped while fn ran. */
export async function cpuDuring(fn) {
  const before = cpuNow();
  await fn();
  const after = cpuNow();
  return { self: after.self - before.self, children: before.children === null ? null : after.children - before.children };
}
