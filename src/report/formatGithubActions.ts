import type { HookResult, TriggerResult } from "../runner/types.js";
import { formatHookDetails, formatHookLine, formatSummary, type TextStyle } from "./formatText.js";
import { githubCommand } from "./githubCommand.js";

const ANNOTATED = new Set(["blocked", "failed", "timed_out", "spawn_error", "invalid_output"]);
const STDERR_TAIL_LINES = 10;

/** The annotation text for a hook that failed or blocked: what happened, then its stderr tail. */
function annotation(r: HookResult): string {
  const what = r.status === "blocked" ? `blocked: ${r.reason ?? "no reason given"}` : `${r.status.replace("_", " ")}: ${r.error ?? (r.exit_code !== null ? `exit ${r.exit_code}` : r.signal ?? "")}`;
  const tail = r.status === "blocked" ? "" : r.stderr.trimEnd().split("\n").slice(-STDERR_TAIL_LINES).join("\n");
  return tail ? `${what}\n${tail}` : what;
}

/**
 * The text report as a GitHub Actions step log: each hook's block folded in `::group::`, each
 * failure or block as an `::error` annotation and each hook warning as `::warning`, then the
 * summary. Hook output is indented under its line, so it can never start a workflow command.
 */
export function formatGithubActions(result: TriggerResult, style: TextStyle): string {
  const lines: string[] = [];
  for (const r of result.hooks) {
    const details = formatHookDetails(r, style);
    if (details.length === 0) lines.push(formatHookLine(r, style));
    else lines.push(githubCommand("group", formatHookLine(r, style)), ...details, "::endgroup::");
  }
  for (const w of result.warnings) lines.push(githubCommand("warning", w, { title: `hookrun ${result.event}` }));
  for (const r of result.hooks) {
    const title = `hookrun ${result.event}: ${r.name}`;
    if (ANNOTATED.has(r.status)) lines.push(githubCommand("error", annotation(r), { title }));
    for (const w of r.warnings) lines.push(githubCommand("warning", w, { title }));
  }
  lines.push(formatSummary(result, style));
  return lines.join("\n") + "\n";
}
