import { assertConfigFound } from "../../config/discover.js";
import { displayFile, formatDiagnostic } from "../../errors.js";
import { formatDuration } from "../../config/units.js";
import { sortHooks } from "../../config/layers.js";
import type { ResolvedHook, SourceLocation } from "../../config/types.js";
import { parseHookEvent } from "../../events/parseHookEvent.js";
import { hooksDisabledByEnv, namesDisabledByEnv } from "../../runner/select.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../exitCodes.js";
import { loadCliConfig } from "./loadCliConfig.js";
import { terminalSafe } from "../../text.js";

/** `hooks list`: the merged hooks in run order, with where each is declared and where its state was decided. */
export async function listHooks(ctx: CliContext, opts: { event?: string; json?: boolean }): Promise<number> {
  const config = await loadCliConfig(ctx);
  assertConfigFound(config, ctx.cwd);
  let hooks = sortHooks(config.hooks);
  if (opts.event !== undefined) {
    const custom = Object.keys(config.events).filter((e) => config.events[e].custom);
    const event = parseHookEvent(opts.event, custom);
    hooks = hooks.filter((h) => h.event === event);
  }
  const where = (s: SourceLocation, col = false) => `${displayFile(s.file, ctx.cwd)}:${s.line}${col ? `:${s.col}` : ""}`;
  // The environment can turn hooks off for one invocation (SPEC §5.1); list shows the state a
  // `hooks run` with this environment would see, and names the variable that decided it.
  const allOff = hooksDisabledByEnv(ctx.env) ? `HOOKS=${ctx.env.HOOKS?.trim()}` : null;
  const namedOff = namesDisabledByEnv(ctx.env);
  const offBy = (h: ResolvedHook): string | null => (!h.enabled ? null : (allOff ?? (namedOff?.has(h.name) ? "HOOKS_DISABLED" : null)));
  const run = (h: ResolvedHook) => h.command ?? JSON.stringify(h.args ?? []);
  if (opts.json) {
    const rows = hooks.map((h) => ({
      event: h.event,
      name: h.name,
      priority: h.priority,
      async: h.async,
      timeout_ms: h.timeoutMs,
      enabled: h.enabled && offBy(h) === null,
      source: where(h.source, true),
      layer: h.source.layer,
      enabled_source: where(h.enabledSource, true),
      disabled_by_env: offBy(h),
      command: h.command ?? null,
      args: h.args ?? null,
      description: h.description ?? null,
      matcher: h.matcher ?? null,
      paths: h.paths ?? null,
      overridden_by: h.sources.slice(1).map((s) => where(s, true)),
    }));
    ctx.stdout.write(JSON.stringify(rows, null, 2) + "\n");
    return EXIT.ok;
  }
  for (const w of config.warnings) ctx.stderr.write(formatDiagnostic(w, ctx.cwd) + "\n");
  if (hooks.length === 0) {
    ctx.stdout.write(opts.event ? `no hooks for ${opts.event}\n` : "no hooks\n");
    return EXIT.ok;
  }
  const head = ["EVENT", "NAME", "PRIO", "ASYNC", "TIMEOUT", "STATE", "SOURCE", "STATE FROM", "COMMAND"];
  const rows = hooks.map((h) => [
    h.event,
    h.name,
    String(h.priority),
    h.async ? "yes" : "no",
    formatDuration(h.timeoutMs),
    h.enabled && offBy(h) === null ? "enabled" : "disabled",
    where(h.source),
    offBy(h) ?? (h.enabledSource === h.source ? "-" : where(h.enabledSource)),
    oneLine(run(h)),
  ].map((cell) => terminalSafe(cell)));
  const widths = head.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
  ctx.stdout.write([line(head), ...rows.map(line)].join("\n") + "\n");
  return EXIT.ok;
}

// A multi-line script shows as its first line, so the table stays one row per hook.
function oneLine(command: string): string {
  const lines = command.trim().split("\n");
  return lines.length > 1 ? `${lines[0].trim()} …` : lines[0];
}
