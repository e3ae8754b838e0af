import { readFileSync } from "node:fs";

/**
 * Whether a process with this pid still runs (EPERM: it exists but belongs to someone else). A
 * zombie counts as dead: a killed detached worker may never be reaped when PID 1 does not reap
 * (containers), so on Linux a positive kill(pid, 0) is confirmed from /proc.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
