import { appendFileSync, chmodSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import type { TriggerResult } from "./types.js";
import { isoTime } from "../text.js";
import { ensureStateDir } from "../fs/stateDir.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";

/** Rotate runs.jsonl at this size, keeping one old file (docs/cli.md#hooks-log). */
export const RUN_LOG_MAX_BYTES = 10 * 1024 * 1024;

/** A recorded context (or host payload) larger than this, as JSON, is left out (`context_omitted`). */
export const RUN_LOG_CONTEXT_MAX_BYTES = 64 * 1024;

/** A longer reason is cut to this many characters and ends with "…". */
export const RUN_LOG_REASON_MAX = 2000;

/** What a run decided: a block, the strongest permission decision of its hooks, or nothing. */
export type RunDecision = "block" | "allow" | "ask" | "none";

/** One line of the run log: what ran, not what it printed (its context only when recording is on). */
export interface RunLogRecord {
  /** Unique, sortable by time, printable (`hooks log ID`); absent on records of an older hookrun. */
  id?: string;
  time: string;
  project_dir: string;
  event: string;
  session_id: string;
  duration_ms: number;
  blocked: boolean;
  hooks: { name: string; status: string; exit_code: number | null; duration_ms: number }[];
  /** Async hooks this trigger started (their own lines follow when they finish and are delivered). */
  async_started?: string[];
  /** On an async run's own lines: it finished, its result was delivered, or it expired undelivered. */
  async?: "finished" | "delivered" | "expired";
  /** On async lines: when the run started (with name and session, it identifies the run). */
  started_at?: string;
  /** The agent whose payload this run came from (`hooks run --host`, the warm route of `hooks serve`). */
  host?: string;
  /** Absent on async lines and on records of an older hookrun. */
  decision?: RunDecision;
  /** Why, when the run blocked or a hook gave its decision a reason; at most RUN_LOG_REASON_MAX characters (+ "…"). */
  reason?: string | null;
  /** Recording on (docs/cli.md#recording-contexts-opt-in): the host's payload as it was sent (with `host`), else the context. */
  context?: Record<string, unknown>;
  /** With a recorded payload: the variables of the agent's environment the host's adapter read (HostAdapter.readEnv). */
  env?: Record<string, string>;
  /** Recording on but the context was not kept, and why (too large). */
  context_omitted?: string;
}

/** What a trigger adds to its run-log line besides the result. */
export interface RunLogExtras {
  host?: string;
  /** The payload or context to record; undefined when recording is off. */
  context?: unknown;
  /** With a host's payload: the variables its adapter read, recorded with it. */
  env?: Record<string, string>;
}

export function runLogFile(stateDir: string): string {
  return path.join(stateDir, "runs.jsonl");
}

/**
 * A new record id: the time in base36 (8 characters until 2059, so ids sort by time as text)
 * and 4 random base36 characters, so runs of the same millisecond in different processes differ.
 * Math.random, not node:crypto: an id needs no secrecy, and loading node:crypto costs a cold
 * `hooks run` milliseconds (docs/performance.md).
 */
export function newRunId(now = Date.now()): string {
  const random = Math.floor(Math.random() * 36 ** 4);
  return `${now.toString(36).padStart(8, "0")}${random.toString(36).padStart(4, "0")}`;
}

/**
 * The decision of a run: block when it blocked; else the strongest decision of its hooks in
 * Claude's order (ask over allow; a `defer` leaves the call to the agent: none), with their
 * reasons joined; else none.
 */
export function runDecision(result: Pick<TriggerResult, "blocked" | "reason" | "blocked_by" | "hooks">): { decision: RunDecision; reason: string | null } {
  if (result.blocked) return { decision: "block", reason: result.reason ?? (result.blocked_by ? `blocked by ${result.blocked_by}` : null) };
  if (result.hooks.some((h) => h.decision === "defer")) return { decision: "none", reason: null };
  const ranked = (["ask", "allow"] as const).find((d) => result.hooks.some((h) => h.decision === d));
  if (!ranked) return { decision: "none", reason: null };
  const reasons = result.hooks.filter((h) => h.decision === ranked && h.reason).map((h) => h.reason as string);
  return { decision: ranked, reason: reasons.length > 0 ? reasons.join("; ") : null };
}

function boundedReason(reason: string | null): string | null {
  return reason !== null && reason.length > RUN_LOG_REASON_MAX ? `${reason.slice(0, RUN_LOG_REASON_MAX)}…` : reason;
}

// The context (and the variables read with it) to keep, or why it was left out: a record stays one bounded line.
function recordedContext(context: unknown, env: Record<string, string> | undefined): Pick<RunLogRecord, "context" | "env" | "context_omitted"> {
  let text: string | undefined;
  try {
    text = JSON.stringify(context);
  } catch {
    return { context_omitted: "not serialisable as JSON" };
  }
  if (text === undefined || context === null || typeof context !== "object" || Array.isArray(context)) return { context_omitted: "not a JSON object" };
  const envText = env === undefined ? undefined : JSON.stringify(env);
  const bytes = Buffer.byteLength(text) + (envText === undefined ? 0 : Buffer.byteLength(envText));
  if (bytes > RUN_LOG_CONTEXT_MAX_BYTES) return { context_omitted: `too large: ${bytes} bytes of JSON, over the ${RUN_LOG_CONTEXT_MAX_BYTES}-byte limit` };
  return { context: JSON.parse(text) as Record<string, unknown>, ...(envText !== undefined ? { env: JSON.parse(envText) as Record<string, string> } : {}) };
}

export function runLogRecord(result: TriggerResult, projectDir: string, startedMs: number, extras: RunLogExtras = {}): RunLogRecord {
  const { decision, reason } = runDecision(result);
  return {
    id: newRunId(startedMs),
    time: isoTime(startedMs),
    project_dir: projectDir,
    event: result.event,
    session_id: result.session_id,
    duration_ms: result.duration_ms,
    blocked: result.blocked,
    hooks: result.hooks.map((h) => ({ name: h.name, status: h.status, exit_code: h.exit_code, duration_ms: h.duration_ms })),
    ...(result.async_started.length > 0 ? { async_started: result.async_started } : {}),
    ...(extras.host !== undefined ? { host: extras.host } : {}),
    decision,
    reason: boundedReason(reason),
    ...(extras.context !== undefined ? recordedContext(extras.context, extras.env) : {}),
  };
}

/**
 * Append one record, rotating first when the file has reached the limit. The log is private
 * (0600; one made 0644 by an older hookrun is tightened), in a private state dir. Throws on I/O
 * errors and on a state dir hookrun refuses (StateDirError).
 */
export function appendRunLog(stateDir: string, record: RunLogRecord, maxBytes = RUN_LOG_MAX_BYTES): void {
  ensureStateDir(stateDir);
  const file = runLogFile(stateDir);
  // Every line gets an id, whoever built it (async lines are built by the workers too).
  const line = `${JSON.stringify(record.id === undefined ? { id: newRunId(), ...record } : record)}\n`;
  let size = -1;
  try {
    const st = statSync(file);
    size = st.size;
    if (st.mode & 0o077) chmodSync(file, 0o600);
  } catch {
    // no log yet
  }
  if (size >= 0 && size + line.length > maxBytes) renameSync(file, `${file}.1`);
  appendFileSync(file, line, { mode: 0o600 });
}

/** What the run log holds: its records, oldest first, and how many lines were not records. */
export interface RunLogContents {
  records: RunLogRecord[];
  /** Lines skipped: cut by a crash, not JSON, or not the shape of a record. */
  skipped: number;
}

/**
 * Every record of the run log, oldest first (the rotated file, then the current one). Only each
 * file's last READ_LIMITS.state bytes are read (the log rotates at 10 MiB, so that is all of a
 * healthy one); a line cut at that edge is dropped. The log is read back from disk, so every
 * line is checked for the shape `hooks log` prints, and skipped (counted) when it is not one.
 * Throws a StateDirError for a state dir hookrun refuses.
 */
export function readRunLog(stateDir: string): RunLogContents {
  ensureStateDir(stateDir, { create: false });
  const file = runLogFile(stateDir);
  const out: RunLogContents = { records: [], skipped: 0 };
  for (const f of [`${file}.1`, file]) {
    let text: string;
    let cut = false;
    try {
      cut = statSync(f).size > READ_LIMITS.state;
      text = readBoundedText(f, READ_LIMITS.state, { what: "run log", tail: true });
    } catch {
      continue;
    }
    const lines = text.split("\n");
    if (cut) lines.shift();
    for (const line of lines) {
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        out.skipped++;
        continue;
      }
      if (isRunLogRecord(value)) out.records.push(value);
      else out.skipped++;
    }
  }
  return out;
}

const PHASES = new Set(["finished", "delivered", "expired"]);
const DECISIONS = new Set(["block", "allow", "ask", "none"]);
/** What an id hookrun wrote looks like (a hostile one is refused, not printed). */
export const RUN_ID = /^[0-9a-z]{1,32}$/;
const HOST_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A recorded variable's name: what a host adapter reads (`AGENT_CODE_HOOK_TOOL`); a hostile one is refused. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * Whether a parsed line has the shape of a record (the log is read back from disk: a line of any
 * other shape is skipped, never trusted). Fields of a newer hookrun's records are optional, so an
 * older log still reads; when present, each must have its own type and bound.
 */
export function isRunLogRecord(value: unknown): value is RunLogRecord {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  for (const key of ["time", "project_dir", "event", "session_id"]) if (typeof r[key] !== "string") return false;
  if (typeof r.duration_ms !== "number" || typeof r.blocked !== "boolean" || !Array.isArray(r.hooks)) return false;
  for (const h of r.hooks as unknown[]) {
    const hook = h as Record<string, unknown> | null;
    if (!hook || typeof hook !== "object" || typeof hook.name !== "string" || typeof hook.status !== "string") return false;
    if (hook.exit_code !== null && typeof hook.exit_code !== "number") return false;
    if (typeof hook.duration_ms !== "number") return false;
  }
  if (r.async_started !== undefined && (!Array.isArray(r.async_started) || r.async_started.some((n) => typeof n !== "string"))) return false;
  if (r.async !== undefined && (typeof r.async !== "string" || !PHASES.has(r.async))) return false;
  if (r.started_at !== undefined && typeof r.started_at !== "string") return false;
  if (r.id !== undefined && (typeof r.id !== "string" || !RUN_ID.test(r.id))) return false;
  if (r.host !== undefined && (typeof r.host !== "string" || !HOST_NAME.test(r.host))) return false;
  if (r.decision !== undefined && (typeof r.decision !== "string" || !DECISIONS.has(r.decision))) return false;
  if (r.reason !== undefined && r.reason !== null && (typeof r.reason !== "string" || r.reason.length > RUN_LOG_REASON_MAX + 1)) return false;
  if (r.context !== undefined && (!r.context || typeof r.context !== "object" || Array.isArray(r.context))) return false;
  if (r.env !== undefined) {
    if (!r.env || typeof r.env !== "object" || Array.isArray(r.env)) return false;
    const vars = Object.entries(r.env);
    if (vars.length > 32 || vars.some(([k, v]) => !ENV_NAME.test(k) || typeof v !== "string")) return false;
  }
  if (r.context_omitted !== undefined && (typeof r.context_omitted !== "string" || r.context_omitted.length > 200)) return false;
  return true;
}
