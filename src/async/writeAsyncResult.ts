import fs from "node:fs";
import path from "node:path";
import type { AsyncDelivery, Message } from "../runner/types.js";
import { asyncFileName } from "./asyncFiles.js";
import { writeJsonAtomic } from "../fs/writeFileAtomic.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";

/**
 * Write a result file as is (atomically). Only publishAsyncResult may call it for a run that has
 * a started record; anything else (tests, fixtures) creates results that no worker contends for.
 */
export function writeAsyncResult(dir: string, id: string, delivery: AsyncDelivery): string {
  const file = path.join(dir, asyncFileName(id, "result"));
  writeJsonAtomic(file, delivery);
  return file;
}

/**
 * Publish a finished run, exactly once: first take the run's started record (rename it to
 * `<id>.publishing.json`; renaming one source succeeds for one process only), then write the
 * result (atomic rename), then drop the publishing marker and the worker record. If a collector
 * took the started record first, it has declared the run lost and delivered that instead: the
 * result is dropped (false), so a worker that was stopped past its deadline and resumes later
 * can never cause a second delivery.
 */
export function publishAsyncResult(dir: string, id: string, delivery: AsyncDelivery): boolean {
  const publishing = path.join(dir, asyncFileName(id, "publishing"));
  try {
    fs.renameSync(path.join(dir, asyncFileName(id, "started")), publishing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // Lost: the collector removed the worker record when it claimed the run; a late update
    // of ours may have written it again.
    fs.rmSync(path.join(dir, asyncFileName(id, "worker")), { force: true });
    return false;
  }
  writeAsyncResult(dir, id, delivery);
  fs.rmSync(publishing, { force: true });
  fs.rmSync(path.join(dir, asyncFileName(id, "worker")), { force: true });
  return true;
}

const ROLES = new Set(["system", "user", "assistant"]);
// "blocked" never survives neutralizeAsyncResult, nor "skipped" a worker: not async outcomes.
const STATUSES = new Set(["ok", "failed", "timed_out", "spawn_error", "invalid_output", "cancelled"]);

/**
 * Read a result file (at most READ_LIMITS.state bytes, regular files only) and rebuild it from
 * checked fields: it comes from disk, and its messages go to the agent, so nothing of an
 * unexpected shape passes. Async results never block, stop or transform (SPEC §5.3): such
 * fields are not carried over. Throws with the offending field.
 */
export function readAsyncDelivery(file: string): AsyncDelivery {
  const value = JSON.parse(readBoundedText(file, READ_LIMITS.state, { what: "async result" })) as Record<string, unknown> | null;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  const str = (key: string): string => {
    if (typeof value[key] !== "string") throw new Error(`field "${key}" is missing or not a string`);
    return value[key] as string;
  };
  const strOrNull = (key: string): string | null => {
    const v = value[key] ?? null;
    if (v !== null && typeof v !== "string") throw new Error(`field "${key}" is not a string or null`);
    return v as string | null;
  };
  const num = (key: string, nullable: boolean): number | null => {
    const v = value[key] ?? null;
    if (v === null && nullable) return null;
    if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`field "${key}" is not a number`);
    return v;
  };
  if (!Array.isArray(value.messages)) throw new Error(`field "messages" is not a list`);
  const messages: Message[] = value.messages.map((m: unknown, i: number) => {
    const msg = m as Record<string, unknown> | null;
    if (!msg || typeof msg !== "object" || Array.isArray(msg)) throw new Error(`messages[${i}] is not an object`);
    if (typeof msg.content !== "string") throw new Error(`messages[${i}].content is not a string`);
    const role = msg.role ?? "system";
    if (typeof role !== "string" || !ROLES.has(role)) throw new Error(`messages[${i}].role is not system, user or assistant`);
    const out: Message = { role: role as Message["role"], content: msg.content };
    for (const flag of ["hide", "pinned"] as const) {
      if (msg[flag] === undefined) continue;
      if (typeof msg[flag] !== "boolean") throw new Error(`messages[${i}].${flag} is not a boolean`);
      out[flag] = msg[flag] as boolean;
    }
    return out;
  });
  const warnings = value.warnings ?? [];
  if (!Array.isArray(warnings) || warnings.some((w) => typeof w !== "string")) throw new Error(`field "warnings" is not a list of strings`);
  if (value.truncated !== undefined && typeof value.truncated !== "boolean") throw new Error(`field "truncated" is not a boolean`);
  if (!STATUSES.has(str("status"))) throw new Error(`field "status" is not an async hook status`);
  const delivery: AsyncDelivery = {
    name: str("name"),
    status: str("status") as AsyncDelivery["status"],
    exit_code: num("exit_code", true),
    signal: strOrNull("signal"),
    duration_ms: num("duration_ms", false) as number,
    stdout: strOrNull("stdout") ?? "",
    stderr: strOrNull("stderr") ?? "",
    truncated: value.truncated === true,
    messages,
    decision: value.decision === "allow" || value.decision === "ask" ? value.decision : null,
    error: strOrNull("error"),
    warnings: warnings as string[],
    event: str("event"),
    session_id: str("session_id"),
    started_at: str("started_at"),
    finished_at: str("finished_at"),
  };
  if (value.json && typeof value.json === "object" && !Array.isArray(value.json)) delivery.json = value.json as Record<string, unknown>;
  return delivery;
}
