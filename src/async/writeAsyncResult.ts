import fs from "node:fs";
import path from "node:path";
import type { AsyncDelivery } from "../runner/types.js";
import { asyncFileName } from "./asyncFiles.js";
import { writeJsonAtomic } from "./writeJsonAtomic.js";

/**
 * Publish a finished async run: the result file appears whole (atomic rename), and only then is
 * the started record removed, so at every instant the run is either running or finished on disk.
 */
export function writeAsyncResult(dir: string, id: string, delivery: AsyncDelivery): string {
  const file = path.join(dir, asyncFileName(id, "result"));
  writeJsonAtomic(file, delivery);
  fs.rmSync(path.join(dir, asyncFileName(id, "started")), { force: true });
  return file;
}
