import { readFileSync } from "node:fs";

/** The fields of /proc/PID/stat that hookrun uses to know a process (Linux only). */
export interface ProcStat {
  /** Field 3: R, S, D, Z (zombie), X (dead), … */
  state: string;
  ppid: number;
  pgrp: number;
  /** Field 22: start time in clock ticks since boot; with the boot id, a pid's identity for ever. */
  start: string;
}

/**
 * /proc/PID/stat, parsed, or null (no such process, or no /proc: macOS). The command name
 * (field 2) is parenthesised and may hold spaces or ")": fields are counted from the last ")".
 * One reader for the lock's holder check, the async reaper's identity check and group liveness.
 */
export function readProcStat(pid: number | string): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const start = rest[19];
  if (!start || !/^\d+$/.test(start)) return null;
  return { state: rest[0], ppid: Number(rest[1]), pgrp: Number(rest[2]), start };
}

let bootIdCache: string | null | undefined;
/** This boot's id (a pid and start time name one process only within one boot); null without /proc. */
export function bootId(): string | null {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync("/proc/sys/kernel/random/boot_id", "latin1").trim() || null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache;
}
