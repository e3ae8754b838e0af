import fs from "node:fs";
import path from "node:path";
import type { PendingAsync } from "../runner/types.js";
import { parseAsyncFileName } from "./asyncFiles.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";

/** What one session directory holds that is not delivered yet: running (or publishing) and finished runs. */
export function listAsyncPending(dir: string): PendingAsync[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
  const finished = new Set(names.map(parseAsyncFileName).filter((p) => p?.kind === "result").map((p) => p!.id));
  const out: PendingAsync[] = [];
  for (const name of names) {
    const parsed = parseAsyncFileName(name);
    if (!parsed || (parsed.kind !== "result" && parsed.kind !== "started" && parsed.kind !== "publishing")) continue;
    if (parsed.kind !== "result" && finished.has(parsed.id)) continue;
    try {
      const record = JSON.parse(readBoundedText(path.join(dir, name), READ_LIMITS.state, { what: "async record" })) as Record<string, unknown> | null;
      if (!record || typeof record !== "object") continue;
      const { name: hook, event, session_id, started_at } = record;
      if (typeof hook !== "string" || typeof event !== "string" || typeof session_id !== "string" || typeof started_at !== "string") continue;
      out.push({ name: hook, event, session_id, state: parsed.kind === "result" ? "finished" : "running", started_at });
    } catch {
      // claimed or corrupt meanwhile: the next collection reports it
    }
  }
  return out;
}
