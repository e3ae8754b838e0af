import fs from "node:fs";
import path from "node:path";
import type { AsyncJob } from "./asyncJob.js";
import { asyncFileName } from "./asyncFiles.js";
import { writeJsonAtomic } from "./writeJsonAtomic.js";

/** Record that an async run started (atomically); returns the record's path, the worker's job. */
export function writeAsyncJob(dir: string, job: AsyncJob): string {
  const file = path.join(dir, asyncFileName(job.id, "started"));
  writeJsonAtomic(file, job);
  return file;
}

/** Read a started record; throws on a missing or malformed file. */
export function readAsyncJob(file: string): AsyncJob {
  const job = JSON.parse(fs.readFileSync(file, "utf8")) as AsyncJob;
  if (!job || typeof job !== "object" || typeof job.id !== "string" || typeof job.name !== "string" || !job.hook) {
    throw new Error(`${file} is not an async job record`);
  }
  return job;
}
