import fs from "node:fs";
import path from "node:path";
import type { PendingAsync } from "../runner/types.js";
import { parseAsyncFileName } from "./asyncFiles.js";

/** What one session directory holds that is not delivered yet: running and finished runs. */
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
    if (!parsed || (parsed.kind !== "result" && parsed.kind !== "started")) continue;
    if (parsed.kind === "started" && finished.has(parsed.id)) continue;
    try {
      const record = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as { name: string; event: string; session_id: string; started_at: string };
      out.push({ name: record.name, event: record.event, session_id: record.session_id, state: parsed.kind === "result" ? "finished" : "running", started_at: record.started_at });
    } catch {
      // claimed or corrupt meanwhile: the next collection reports it
    }
  }
  return out;
}
