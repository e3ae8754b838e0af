import { readFileSync, readdirSync } from "node:fs";

/**
 * Who a recorded pid was when hookrun started it: the pid, its start time (field 22 of
 * /proc/PID/stat, clock ticks since boot) and the boot id. A pid alone names whatever process
 * holds that number now (pids are reused after a crash, OOM kill or reboot); pid + start time +
 * boot id names one process for ever. `start` and `boot_id` are null where /proc is missing
 * (macOS): such a record can never be proved, so hookrun never signals it.
 */
export interface ProcessIdentity {
  pid: number;
  start: string | null;
  boot_id: string | null;
}

/** Linux caps pid_max at 2^22 (PID_MAX_LIMIT): any larger number is not a pid. */
const PID_MAX_LIMIT = 4 * 1024 * 1024;

/** A number that could be a pid hookrun started: an integer > 1 (0 and 1 mean "my group" and "everyone" to kill(2)), not ours. */
export function isPlausiblePid(pid: unknown): pid is number {
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 1 || pid > PID_MAX_LIMIT) return false;
  if (pid === process.pid) return false;
  const self = readProcStat("self");
  return !self || pid !== self.pgrp;
}

/**
 * The identity of `pid`, read at once (call it right after spawning, before the child can be
 * reaped: an unreaped child keeps its pid, so what is read is that child). Start time and boot
 * id are null where /proc is missing.
 */
export function captureIdentity(pid: number): ProcessIdentity {
  const stat = process.platform === "linux" ? readProcStat(pid) : null;
  return { pid, start: stat?.start ?? null, boot_id: stat ? bootId() : null };
}

/** Shape check of an identity read back from disk (hostile input); null when it is not one. */
export function parseIdentity(value: unknown): ProcessIdentity | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.pid !== "number" || !Number.isSafeInteger(v.pid)) return null;
  if (v.start !== null && (typeof v.start !== "string" || !/^\d{1,20}$/.test(v.start))) return null;
  if (v.boot_id !== null && (typeof v.boot_id !== "string" || v.boot_id.length > 64)) return null;
  return { pid: v.pid, start: v.start as string | null, boot_id: v.boot_id as string | null };
}

/** Whether hookrun may signal a recorded process group, and if not, why. */
export type SignalDecision = { signal: true } | { signal: false; reason: string; gone?: true };

/**
 * May the group led by `identity.pid` be signalled? Only when it provably is the group hookrun
 * started: a plausible pid, a recorded start time and boot id, the same boot, a process with that
 * pid and that start time now, leading its own group (pgrp == pid). Everything else is refused,
 * including every record where /proc is missing (macOS): a wrong kill is worse than a leftover.
 * A pid could still be reused between this check and the kill; that window is microseconds,
 * against the minutes to days a record lives.
 */
export function groupSignalDecision(identity: unknown): SignalDecision {
  const id = parseIdentity(identity);
  if (!id) return { signal: false, reason: "the record holds no valid process identity" };
  if (!isPlausiblePid(id.pid)) return { signal: false, reason: `${id.pid} is not a pid hookrun could have started` };
  if (id.start === null || id.boot_id === null) return { signal: false, reason: `no start time was recorded for pid ${id.pid}, so its identity cannot be checked` };
  if (process.platform !== "linux") return { signal: false, reason: `process identities cannot be checked on ${process.platform}` };
  const boot = bootId();
  if (boot === null) return { signal: false, reason: "/proc/sys/kernel/random/boot_id is unreadable" };
  if (boot !== id.boot_id) return { signal: false, reason: `pid ${id.pid} was recorded before the last reboot` };
  const now = readProcStat(id.pid);
  if (!now) return { signal: false, reason: `pid ${id.pid} is gone`, gone: true };
  if (now.start !== id.start) return { signal: false, reason: `pid ${id.pid} is another process now (its start time differs)`, gone: true };
  if (now.pgrp !== id.pid) return { signal: false, reason: `pid ${id.pid} no longer leads its process group` };
  return { signal: true };
}

/** Signal the recorded group only when groupSignalDecision allows it; returns the decision. */
export function signalRecordedGroup(identity: unknown, signal: NodeJS.Signals): SignalDecision {
  const decision = groupSignalDecision(identity);
  if (decision.signal) signalGroup((identity as ProcessIdentity).pid, signal);
  return decision;
}

/**
 * Whether the recorded process still runs. With /proc: the same pid and start time, not a zombie
 * (a killed worker may never be reaped under a PID 1 that does not reap). Without a start time
 * (or /proc): signal 0 to a plausible pid, which a reused pid fools into "alive"; the caller's
 * overdue rule then decides.
 */
export function processAlive(identity: unknown): boolean {
  const id = parseIdentity(identity);
  if (!id || !isPlausiblePid(id.pid)) return false;
  if (process.platform === "linux" && id.start !== null) {
    if (id.boot_id !== null && bootId() !== null && id.boot_id !== bootId()) return false;
    const now = readProcStat(id.pid);
    return now !== null && now.start === id.start && now.state !== "Z" && now.state !== "X";
  }
  try {
    process.kill(id.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

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
  const members = liveMembers(pgid);
  if (members === null) return true;
  for (const _ of members) return true;
  return false;
}

/** The live (not zombie) members of group `pgid`, pid and stat, read from /proc; null without /proc. */
function liveMembers(pgid: number): Iterable<{ pid: number; stat: ProcStat }> | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  return (function* () {
    for (const entry of entries) {
      const c = entry.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      const stat = readProcStat(entry);
      if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") yield { pid: Number(entry), stat };
    }
  })();
}

/**
 * How often a background group left by a finished hook is checked (spawnHook, `hooks __watchdog`):
 * each check scans /proc (about 2.5 ms with 70 processes, more on a busy desktop), and a job may
 * run for the hook's whole timeout (600 s by default), so not every 100 ms.
 */
export const BACKGROUND_POLL_MS = 500;

/**
 * Whether process group `pgid` is still the one whose leader started at `start` (clock ticks since
 * boot, from /proc): `gone` when no live process is in it; `foreign` when the id now names another
 * group (a process with pid == pgid that started at another time, or a member that started before
 * the leader, which no descendant can); else `ours`. A watchdog handed a finished hook's group
 * checks this before every signal: a group id is free for reuse once its group is empty.
 */
export function groupOrigin(pgid: number, start: string): "ours" | "gone" | "foreign" {
  if (!isGroupId(pgid) || process.platform !== "linux") return "gone";
  const since = Number(start);
  let count = 0;
  for (const { pid, stat } of liveMembers(pgid) ?? []) {
    if (Number(stat.start) < since || (pid === pgid && stat.start !== start)) return "foreign";
    count++;
  }
  return count > 0 ? "ours" : "gone";
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

/** Grace between SIGTERM and SIGKILL (docs/running-hooks.md#timeouts-and-process-groups). */
export const KILL_GRACE_MS = 2000;

/**
 * An abort reason that gives the hooks it cancels a shorter grace between SIGTERM and SIGKILL:
 * a host's deadline (docs/fail-closed.md), which a hook ignoring SIGTERM must not outlast.
 */
export class ShortGrace {
  constructor(readonly graceMs: number) {}
}

/** The grace an aborted `signal` asks for (ShortGrace), else undefined: the default. */
export const graceOf = (signal: AbortSignal | undefined): number | undefined => (signal?.reason instanceof ShortGrace ? signal.reason.graceMs : undefined);

// Terminations in flight (their SIGKILL deadline), and the grace every later one gets once this
// process is going down (hastenTerminations); null while it is not.
const inFlight = new Set<{ pgid: number; deadline: number }>();
let hastenedGraceMs: number | null = null;

/**
 * This process is going down (a host killed it): every group being terminated now gets SIGKILL
 * at the latest `graceMs` from now, and every group terminated from now on gets at most
 * `graceMs` between SIGTERM and SIGKILL. A host that kills its hook escalates to SIGKILL itself
 * (Claude Code: 1.5 s later), and hookrun's hooks lead their own groups, out of reach of a host
 * that signals a group or a pid: they must be dead before that SIGKILL ends the process that can
 * still kill them.
 * One-way for the life of the process; a later call can only shorten the grace.
 */
export function hastenTerminations(graceMs: number): void {
  hastenedGraceMs = hastenedGraceMs === null ? graceMs : Math.min(hastenedGraceMs, graceMs);
  const deadline = Date.now() + graceMs;
  for (const t of inFlight) t.deadline = Math.min(t.deadline, deadline);
}

/** A termination of `pgid` already in flight gets SIGKILL at the latest `graceMs` from now (a deadline reached a hook already past its timeout). */
export function hastenGroup(pgid: number, graceMs: number): void {
  const deadline = Date.now() + graceMs;
  for (const t of inFlight) if (t.pgid === pgid) t.deadline = Math.min(t.deadline, deadline);
}

/**
 * SIGTERM the group, then SIGKILL it after the grace (shortened by hastenTerminations) unless it
 * empties first. Resolves when the group is gone or SIGKILL was sent: after that nothing of it
 * can outlive the caller.
 */
export function terminateGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return Promise.resolve();
  const t = { pgid, deadline: Date.now() + (hastenedGraceMs === null ? graceMs : Math.min(graceMs, hastenedGraceMs)) };
  inFlight.add(t);
  return new Promise((resolve) => {
    const poll = (): void => {
      if (!groupAlive(pgid)) {
        inFlight.delete(t);
        resolve();
        return;
      }
      if (Date.now() >= t.deadline) {
        signalGroup(pgid, "SIGKILL");
        inFlight.delete(t);
        resolve();
        return;
      }
      setTimeout(poll, 25);
    };
    setTimeout(poll, 10);
  });
}
