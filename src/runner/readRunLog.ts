import { readFileSync } from "node:fs";
import { runLogFile, type RunLogRecord } from "./runLog.js";

/** Every record of the run log, oldest first (the rotated file, then the current one); bad lines skipped. */
export function readRunLog(stateDir: string): RunLogRecord[] {
  const file = runLogFile(stateDir);
  const records: RunLogRecord[] = [];
  for (const f of [file + ".1", file]) {
    let text: string;
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        records.push(JSON.parse(line) as RunLogRecord);
      } catch {
        // a line cut by a crash: skip it
      }
    }
  }
  return records;
}
