import path from "node:path";
import type { Diagnostic } from "../errors.js";
import { terminalSafe } from "../text/terminalSafe.js";

/** `FILE:LINE:COL: error: message` — the form editors and CI parse; FILE relative to `cwd` when inside it. */
export function formatDiagnostic(d: Diagnostic, cwd?: string): string {
  // Messages quote values from the file: a config must not be able to rewrite the terminal.
  return terminalSafe(`${displayFile(d.file, cwd)}:${d.line}:${d.col}: ${d.severity}: ${d.message}`);
}

/** A path as users want to click it: relative to `cwd` when inside it, else absolute. */
export function displayFile(file: string, cwd?: string): string {
  if (!cwd) return file;
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}
