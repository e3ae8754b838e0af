import os from "node:os";
import type { ResolvedConfig, ResolvedHook } from "../config/types.js";
import { matchesMatcher } from "../config/matcher.js";
import { displayFile } from "../errors.js";
import { EVENT_BY_NAME, matchValue } from "../events/catalog.js";
import { pathsFiles, ifRuleMatches } from "../runner/permissionRule.js";
import { hooksDisabledByEnv, matchesPaths, namesDisabledByEnv, orderHooks, type SelectOptions } from "../runner/select.js";
import type { HookContext } from "../runner/types.js";
import { untrustedFiles } from "../trust/store.js";

// `hooks explain EVENT`, `hooks run --dry-run` and HOOKS_EXPLAIN=1 (what `hooks doctor` fires
// through each host's entry): for every hook of the event, whether a trigger with this context
// would run it and, when not, every reason, each naming where it comes from. The tests hold these
// reasons to what `selectHooks` does: a hook explained as running is one the runner selects.

export interface HookExplanation {
  name: string;
  /** Whether a trigger with this context would start it. */
  runs: boolean;
  /** Why it would not, one sentence each, every reason that applies (empty when it runs). */
  reasons: string[];
  priority: number;
  async: boolean;
  /** FILE:LINE of the declaration. */
  source: string;
}

export interface Explanation {
  /** The canonical event. */
  event: string;
  /** The host whose payload was read, when one was. */
  host?: string;
  /** False when a project or local file is not trusted: then no hook runs (the runner refuses the whole trigger). */
  trusted: boolean;
  /** The files that are not trusted (new or changed since `hooks trust`). */
  untrusted: string[];
  /** Every hook declared for the event, in run order (priority, then declaration). */
  hooks: HookExplanation[];
}

export interface ExplainOptions extends SelectOptions {
  /** "all" or true: trust every layer (as `--trust`, the library's default). */
  trust?: "all" | boolean;
  host?: string;
}

const quote = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : v === undefined ? "nothing" : JSON.stringify(v));

/** Why `h` would not run for this context (empty when it would), trust aside. */
export function reasonsNotRun(h: ResolvedHook, event: string, context: HookContext, config: ResolvedConfig, options: SelectOptions): string[] {
  const reasons: string[] = [];
  const base = options.cwd;
  const where = (s: { file: string; line: number }): string => `${displayFile(s.file, base)}:${s.line}`;
  if (hooksDisabledByEnv(options.env)) reasons.push(`HOOKS=${options.env.HOOKS?.trim()} turns every hook off`);
  if (!h.enabled) reasons.push(`disabled: \`enabled: false\` at ${where(h.enabledSource)} (\`hooks enable ${h.name}\` turns it on)`);
  if (namesDisabledByEnv(options.env)?.has(h.name)) reasons.push("named in HOOKS_DISABLED");
  if (options.only?.length && !options.only.includes(h.name)) reasons.push("not named by --only");
  if (options.skip?.includes(h.name)) reasons.push("named by --skip");
  const info = EVENT_BY_NAME.get(event);
  if (h.matcher !== undefined && info?.matchField) {
    const value = matchValue(info, context);
    if (!matchesMatcher(h.matcher, value))
      reasons.push(value === undefined ? `matcher ${quote(h.matcher)}: the context has no ${info.matchField}` : `matcher ${quote(h.matcher)} does not match ${info.matchField} ${quote(value)}`);
  }
  const cwd = typeof context.cwd === "string" && context.cwd ? context.cwd : options.cwd;
  if (h.if !== undefined && !ifRuleMatches(h.if, event, context, { cwd, projectDir: config.projectDir, home: options.env.HOME || os.homedir() }))
    reasons.push(`if ${quote(h.if)} does not match this ${context.tool_name === undefined ? "context (no tool call)" : `${String(context.tool_name)} call`}`);
  const files = pathsFiles(context);
  if (h.paths?.length && !files.some((f) => matchesPaths(h.paths!, f, cwd, config.projectDir)))
    reasons.push(files.length ? `paths ${quote(h.paths)} do not match ${files.length === 1 ? "path" : "paths"} ${files.map(quote).join(", ")}` : `paths ${quote(h.paths)}: the context has no path`);
  return reasons;
}

/**
 * Every hook of `event` (canonical) with whether a trigger with `context` would run it, and why
 * not. Untrusted project or local files stop every hook of the project when any would run, as
 * the runner does; that reason is added to each hook that would otherwise run.
 */
export function explainHooks(config: ResolvedConfig, event: string, context: HookContext, options: ExplainOptions): Explanation {
  const hooks = orderHooks(config.hooks.filter((h) => h.event === event)).map(
    (h): HookExplanation => ({
      name: h.name,
      runs: false,
      reasons: reasonsNotRun(h, event, context, config, options),
      priority: h.priority,
      async: h.async,
      source: `${displayFile(h.source.file, options.cwd)}:${h.source.line}`,
    }),
  );
  const untrusted = untrustedFiles(config, { env: options.env, trust: options.trust }).map((f) => displayFile(f.path, options.cwd));
  for (const h of hooks) {
    if (h.reasons.length === 0 && untrusted.length > 0) h.reasons.push(`${untrusted.join(", ")} not trusted (new or changed since it was reviewed): no hook runs until \`hooks trust\``);
    h.runs = h.reasons.length === 0;
  }
  return { event, ...(options.host ? { host: options.host } : {}), trusted: untrusted.length === 0, untrusted, hooks };
}

/** The text form: a summary line, then one line per hook (✓ runs, ✗ with its reasons). */
export function formatExplanation(x: Explanation, context: HookContext): string {
  const info = EVENT_BY_NAME.get(x.event);
  const field = info?.matchField && context[info.matchField] !== undefined ? ` (${info.matchField} ${quote(context[info.matchField])})` : "";
  const n = x.hooks.filter((h) => h.runs).length;
  const lines = [`${x.event}${field}${x.host ? ` from ${x.host}` : ""}: ${n} of ${x.hooks.length} hook${x.hooks.length === 1 ? "" : "s"} would run`];
  if (x.hooks.length === 0) lines.push("  no hook is declared for this event (`hooks list` shows every hook)");
  const width = Math.max(0, ...x.hooks.map((h) => h.name.length));
  for (const h of x.hooks) {
    const head = `  ${h.runs ? "✓" : "✗"} ${h.name.padEnd(width)}  priority ${h.priority}${h.async ? ", async" : ""}  ${h.source}`;
    lines.push(h.runs ? head : `${head}\n${h.reasons.map((r) => `      ${r}`).join("\n")}`);
  }
  return `${lines.join("\n")}\n`;
}
