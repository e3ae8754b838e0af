/**
 * `loop_limit` on stop / subagent_stop hooks (docs/configuration.md#loop_limit): how many stops
 * in a row one hook may keep the agent going. The count lives per project and session in the
 * state dir (`<stateDir>/loops/<project>/<session>.json`, `{"<event>/<hook>": n}`), so it holds
 * whichever host fired the event and across `hooks run` processes.
 */
import fs from "node:fs";
import path from "node:path";
import { projectKey, sessionKey } from "../async/paths.js";
import { LOOP_EVENTS } from "../events/catalog.js";
import type { ResolvedHook } from "../config/types.js";
import { readBoundedText } from "../fs/readBounded.js";
import { writeJsonAtomic } from "../fs/writeFileAtomic.js";
import type { HookResult, TriggerResult } from "./types.js";

/** A count file is a few names and numbers; anything bigger is not ours. */
const MAX_COUNT_FILE = 64 * 1024;

export function loopCountFile(stateDir: string, projectDir: string, sessionId: string): string {
  return path.join(stateDir, "loops", projectKey(projectDir), `${sessionKey(sessionId)}.json`);
}

/** Whether a hook's result keeps the agent going: a block or a follow-up message. */
function continues(r: HookResult): boolean {
  return r.decision === "block" || r.messages.some((m) => m.kind === "followup");
}

/**
 * The stored counts of the session. A missing file is no continuation yet; an unreadable, corrupt
 * or foreign one is read as no continuation yet too (so the limit is never stricter than asked),
 * with a warning saying so: the count then restarts, it never becomes unlimited unsaid.
 */
function readCounts(file: string, warnings: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  let text: string;
  try {
    text = readBoundedText(file, MAX_COUNT_FILE, { what: "loop count file" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && fs.existsSync(file)) warnings.push(`loop_limit: count file ${file} not read (${(error as Error).message}); counting again from 0`);
    return counts;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    warnings.push(`loop_limit: count file ${file} is not a JSON object of counts; counting again from 0`);
    return counts;
  }
  for (const [k, v] of Object.entries(value)) if (Number.isSafeInteger(v) && (v as number) >= 0) counts.set(k, v as number);
  return counts;
}

/**
 * How many stops in a row `hook` has kept the agent going in this session (0 when unknown): the
 * `loop_count` a cursor-dialect hook gets when another host fires the stop.
 */
export function storedLoopCount(stateDir: string, projectDir: string, sessionId: string, hook: ResolvedHook): number {
  return readCounts(loopCountFile(stateDir, projectDir, sessionId), []).get(`${hook.event}/${hook.name}`) ?? 0;
}

/**
 * Apply the `loop_limit` of the hooks that ran on a stop / subagent_stop: a hook that has kept
 * the agent going `loop_limit` times in a row has its next continuation turned into a notice for
 * the user (the stop goes through, and its count restarts); a run that does not continue restarts
 * the count. The previous count is the one stored for the session.
 */
export function applyLoopLimits(result: TriggerResult, hooks: readonly ResolvedHook[], stateDir: string, projectDir: string): void {
  if (!LOOP_EVENTS.has(result.event)) return;
  const limited = new Map<string, number>();
  for (const h of hooks) if (typeof h.loopLimit === "number") limited.set(h.name, h.loopLimit);
  if (limited.size === 0) return;
  const file = loopCountFile(stateDir, projectDir, result.session_id);
  const counts = readCounts(file, result.warnings);
  let changed = false;
  for (const r of result.hooks) {
    const limit = limited.get(r.name);
    if (limit === undefined) continue;
    const key = `${result.event}/${r.name}`;
    const before = counts.get(key) ?? 0;
    let after = 0;
    if (continues(r)) {
      if (before >= limit) {
        const why = r.reason ?? r.messages.find((m) => m.kind === "followup")?.content ?? "";
        r.messages = r.messages.filter((m) => m.kind !== "followup");
        r.messages.push({
          role: "system",
          kind: "notice",
          hook: r.name,
          content: `hook \`${r.name}\` reached its loop_limit (${limit} continuations in a row): the agent stops${why ? `; it asked: ${why}` : ""}`,
        });
        if (r.status === "blocked") r.status = "ok";
        r.decision = null;
        r.reason = null;
      } else after = before + 1;
    }
    if (after !== before) changed = true;
    if (after === 0) counts.delete(key);
    else counts.set(key, after);
  }
  if (!changed) return;
  try {
    writeJsonAtomic(file, Object.fromEntries(counts));
  } catch (error) {
    result.warnings.push(`loop_limit: count not saved to ${file}: ${(error as Error).message}`);
  }
}
