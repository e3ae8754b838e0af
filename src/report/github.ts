import type { HookResult, TriggerResult } from "../runner/types.js";
import { formatFooter, formatHookBlock, type TextStyle } from "./formatText.js";

// GitHub Actions workflow commands (`::name key=value::message`), escaped the way the runner's
// own toolkit does so a hook's output cannot end the command early or inject another one.

/** Escape a command's message: `%`, CR and LF. */
export function escapeGithubData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escape a property value: as a message, plus `:` and `,`. */
export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** One workflow command line, e.g. `::error title=hookrun%3A stop/lint::lint failed`. */
export function githubCommand(name: string, message: string, properties: Record<string, string> = {}): string {
  const props = Object.entries(properties)
    .map(([k, v]) => `${k}=${escapeGithubProperty(v)}`)
    .join(",");
  return `::${name}${props ? ` ${props}` : ""}::${escapeGithubData(message)}`;
}

/** True when running as a GitHub Actions step. */
export const isGithubActions = (env: NodeJS.ProcessEnv) => env.GITHUB_ACTIONS === "true";

const ANNOTATED = new Set(["blocked", "failed", "timed_out", "spawn_error", "invalid_output"]);
const STDERR_TAIL_LINES = 10;

/** The annotation text for a hook that failed or blocked: what happened, then its stderr tail. */
function annotation(r: HookResult): string {
  const what = r.status === "blocked" ? `blocked: ${r.reason ?? "no reason given"}` : `${r.status.replace("_", " ")}: ${r.error ?? (r.exit_code !== null ? `exit ${r.exit_code}` : (r.signal ?? ""))}`;
  const tail = r.status === "blocked" ? "" : r.stderr.trimEnd().split("\n").slice(-STDERR_TAIL_LINES).join("\n");
  return tail ? `${what}\n${tail}` : what;
}

/**
 * A hook's text block for a GitHub Actions log: its line as the title of a `::group::` that folds
 * its details (none: just the line). Details are indented, so hook output cannot start a
 * workflow command of its own.
 */
export function formatGithubHookBlock(r: HookResult, style: TextStyle): string {
  const [line, ...details] = formatHookBlock(r, style).trimEnd().split("\n");
  if (details.length === 0) return `${line}\n`;
  return `${githubCommand("group", line)}\n${details.join("\n")}\n::endgroup::\n`;
}

/** `::error` for each hook (delivered async ones first) that failed or blocked, `::warning` per warning. */
export function formatGithubAnnotations(result: TriggerResult): string {
  const lines = result.warnings.map((w) => githubCommand("warning", w, { title: `hookrun ${result.event}` }));
  for (const r of [...result.async_delivered, ...result.hooks]) {
    const title = `hookrun ${"event" in r ? r.event : result.event}: ${r.name}`;
    if (ANNOTATED.has(r.status)) lines.push(githubCommand("error", annotation(r), { title }));
    for (const w of r.warnings) lines.push(githubCommand("warning", w, { title }));
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** The whole text report as a GitHub Actions step log: grouped blocks, annotations, footer. */
export function formatGithubActions(result: TriggerResult, style: TextStyle): string {
  return [...result.async_delivered, ...result.hooks].map((r) => formatGithubHookBlock(r, style)).join("") + formatGithubAnnotations(result) + formatFooter(result, style);
}
