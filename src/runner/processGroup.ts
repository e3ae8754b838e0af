import { readdirSync } from "node:fs";
import { readProcStat } from "../fs/procStat.js";

/**
 * Whether any live process is still in process group `pgid`. kill(-pgid, 0) alone also counts
 * zombies, which never go away under a PID 1 that does not reap (containers), so on Linux a
 * positive answer is confirmed by scanning /proc for a non-zombie member.
 */
export function groupAlive(pgid: number): boolean {
  if (!isGroupId(pgid)) return false;
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const stat = readProcStat(entry);
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

// kill(-0) is our own group and kill(-1) every process we may signal (as root: the machine):
// whatever the caller passes, only a real group id other than ours is ever signalled.
function isGroupId(pgid: number): boolean {
  return Number.isSafeInteger(pgid) && pgid > 1 && pgid !== process.pid;
}

/** Send `signal` to every process of the group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!isGroupId(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Grace between SIGTERM and SIGKILL (SPEC §5.6). */
export const KILL_GRACE_MS = 2000;

/**
 * SIGTERM the group, then SIGKILL it after the grace unless it empties first. Resolves when the
 * group is gone or SIGKILL was sent: after that nothing of it can outlive the caller.
 */
export function terminateGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = (): void => {
      if (!groupAlive(pgid)) return resolve();
      if (Date.now() - started >= graceMs) {
        signalGroup(pgid, "SIGKILL");
        return resolve();
      }
      setTimeout(poll, 25);
    };
    setTimeout(poll, 10);
  });
}
