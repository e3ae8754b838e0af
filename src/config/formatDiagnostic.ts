import type { Diagnostic } from "../errors.js";

/** `FILE:LINE:COL: error: message` — the form editors and CI parse. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`;
}
