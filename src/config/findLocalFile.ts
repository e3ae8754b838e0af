import path from "node:path";
import { configCandidate, LOCAL_FILE_NAMES } from "./configCandidates.js";

/** The local layer beside a project file (hooks.local.{yaml,yml,json}), or null when absent. */
export function findLocalFile(projectFile: string, extra?: ReadonlySet<string>): string | null {
  return configCandidate(path.dirname(projectFile), LOCAL_FILE_NAMES, extra);
}

/** Where a new local layer is created beside a project file. */
export function defaultLocalFile(projectFile: string): string {
  return path.join(path.dirname(projectFile), "hooks.local.yaml");
}
