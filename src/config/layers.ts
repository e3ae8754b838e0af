import { LOOP_EVENTS } from "../events/catalog.js";
import path from "node:path";
import type { Diagnostic } from "../errors.js";
import { tryParseHookEvent, normalizeEventName } from "../events/parseHookEvent.js";
import type { ParsedConfigText } from "./positions.js";
import { HOOK_KEYS } from "./schemaDiagnostics.js";
import type { HookSpec, Layer, ResolvedHook, SourceLocation, ResolvedEventSettings } from "./types.js";
import { parseDuration, parseSize, DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT_MS } from "./units.js";
import { DIALECT_BY_NAME } from "../events/dialects.js";
import { EVENTS } from "../events/catalog.js";

export interface LayerFile {
  parsed: ParsedConfigText;
  layer: Layer;
  /** Directory hooks of this file run in; null for the user layer. */
  dir: string | null;
}

interface Draft {
  hook: ResolvedHook;
  /** The fields as written, merged over layers; defaults are applied at the end. */
  spec: Partial<HookSpec>;
  env: Record<string, string>;
}

/**
 * Concatenate hooks user → project → local; a name already declared by an earlier layer
 * overrides that hook field by field (docs/configuration.md#files-and-layers) and must sit under the same event.
 */
export function mergeHooks(files: LayerFile[], defaults: MergedDefaults, custom: readonly string[]): { hooks: ResolvedHook[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, Draft>();
  const drafts: Draft[] = [];
  for (const { parsed, layer, dir } of files) {
    const hooks = (parsed.value as { hooks?: unknown } | undefined)?.hooks;
    if (!hooks || typeof hooks !== "object" || Array.isArray(hooks)) continue;
    const seenHere = new Set<string>();
    for (const [key, list] of Object.entries(hooks as Record<string, unknown>)) {
      if (key.startsWith("x-") || !Array.isArray(list)) continue;
      const event = tryParseHookEvent(key, custom);
      if (event === null) continue;
      list.forEach((raw, i) => {
        if (!raw || typeof raw !== "object" || Array.isArray(raw)) return;
        const spec = raw as Partial<HookSpec>;
        if (typeof spec.name !== "string" || seenHere.has(spec.name)) return;
        seenHere.add(spec.name);
        const loc = (path: (string | number)[], target: "key" | "value" = "value"): SourceLocation => lazyLocation(parsed, layer, path, target);
        const here = loc(["hooks", key, i]);
        const prev = byName.get(spec.name);
        if (prev) {
          if (prev.hook.event !== event) {
            const p = prev.hook.source;
            diagnostics.push({
              file: parsed.file,
              line: here.line,
              col: here.col,
              severity: "error",
              message: `hook \`${spec.name}\` overrides the hook declared under \`${prev.hook.event}\` at ${nameFrom(parsed.file, p.file)}:${p.line}:${p.col}, but sits under \`${event}\`: move this override under \`${prev.hook.event}\` (or rename it to declare a new hook)`,
            });
            return;
          }
          applySpec(prev, spec, loc, ["hooks", key, i]);
          prev.hook.sources.push(here);
          return;
        }
        // A misspelt `comand:` is already reported as an unknown key; don't pile a second error on it.
        // (Looked for only when the hook has neither: every key against the list, for each hook, costs.)
        const misspelt = (): boolean => Object.keys(spec).some((k) => !k.startsWith("x-") && !HOOK_KEYS.includes(k));
        if (spec.command === undefined && spec.args === undefined && !misspelt()) {
          diagnostics.push({
            file: parsed.file,
            line: here.line,
            col: here.col,
            severity: "error",
            message: `hook \`${spec.name}\` has neither \`command\` nor \`args\`: add one (only a hook overriding one of an earlier layer may omit both, and no earlier layer declares \`${spec.name}\`)`,
          });
        }
        const draft: Draft = {
          hook: {
            name: spec.name,
            event,
            priority: 0,
            async: false,
            timeoutMs: defaults.timeoutMs,
            enabled: true,
            env: {},
            dir,
            shell: defaults.shell,
            onFailure: "continue",
            maxOutput: defaults.maxOutput,
            dialect: "native",
            order: drafts.length,
            source: here,
            enabledSource: here,
            sources: [here],
          },
          spec: {},
          env: {},
        };
        applySpec(draft, spec, loc, ["hooks", key, i]);
        byName.set(spec.name, draft);
        drafts.push(draft);
      });
    }
  }
  return { hooks: drafts.map((d) => finish(d, defaults)), diagnostics };
}

function applySpec(draft: Draft, spec: Partial<HookSpec>, loc: (p: (string | number)[], t?: "key" | "value") => SourceLocation, at: (string | number)[]): void {
  if (spec.command !== undefined) {
    draft.spec.command = spec.command;
    delete draft.spec.args;
  }
  if (spec.args !== undefined) {
    draft.spec.args = spec.args;
    if (spec.command === undefined) delete draft.spec.command;
  }
  for (const k of ["description", "priority", "async", "rewake", "timeout", "matcher", "if", "paths", "cwd", "shell", "on_failure", "max_output", "dialect", "loop_limit"] as const) {
    if (spec[k] !== undefined) (draft.spec as Record<string, unknown>)[k] = spec[k];
  }
  if (spec.enabled !== undefined) {
    draft.spec.enabled = spec.enabled;
    draft.hook.enabledSource = loc([...at, "enabled"], "key");
  }
  // Spread, not Object.assign: a variable named __proto__ stays a variable (assign would set the prototype).
  if (spec.env && typeof spec.env === "object") draft.env = { ...draft.env, ...spec.env };
}

function finish(d: Draft, defaults: MergedDefaults): ResolvedHook {
  const h = d.hook;
  const s = d.spec;
  if (typeof s.command === "string") h.command = s.command;
  if (Array.isArray(s.args)) h.args = s.args;
  if (typeof s.description === "string") h.description = s.description;
  if (typeof s.priority === "number") h.priority = s.priority;
  if (typeof s.async === "boolean") h.async = s.async;
  if (s.rewake === true && h.async) h.rewake = true;
  const dialect = typeof s.dialect === "string" ? DIALECT_BY_NAME.get(s.dialect) : undefined;
  if (dialect) h.dialect = dialect.name;
  // The dialect's host's own default (Claude Code: 600 s on most events), unless a file sets defaults.timeout.
  h.timeoutMs = parseDuration(s.timeout) ?? (dialect?.defaultTimeoutMs && !defaults.timeoutSet ? dialect.defaultTimeoutMs(h.event) : defaults.timeoutMs);
  if (typeof s.enabled === "boolean") h.enabled = s.enabled;
  if (typeof s.matcher === "string") h.matcher = s.matcher;
  if (typeof s.if === "string") h.if = s.if;
  if (Array.isArray(s.paths)) h.paths = s.paths;
  h.env = { ...defaults.env, ...d.env };
  if (typeof s.cwd === "string") h.cwd = s.cwd;
  if (typeof s.shell === "string") h.shell = s.shell;
  if (s.on_failure === "block" || s.on_failure === "continue") h.onFailure = s.on_failure;
  h.maxOutput = parseSize(s.max_output) ?? defaults.maxOutput;
  if (typeof s.loop_limit === "number" && Number.isSafeInteger(s.loop_limit) && s.loop_limit > 0 && LOOP_EVENTS.has(h.event)) h.loopLimit = s.loop_limit;
  else if (s.loop_limit === undefined && LOOP_EVENTS.has(h.event)) {
    const dialectDefault = dialect?.loopLimit;
    if (dialectDefault !== undefined) h.loopLimit = dialectDefault;
  }
  return h;
}

/** Another file as seen from `from`: its base name when beside it, else its full path. */
function nameFrom(from: string, file: string): string {
  return path.dirname(from) === path.dirname(file) ? path.basename(file) : file;
}

/**
 * A hook's FILE:LINE:COL, its line and column looked up on first read: most runs never print
 * them, and locating needs the file's source tree, which a valid file otherwise never builds.
 */
function lazyLocation(parsed: ParsedConfigText, layer: Layer, path: (string | number)[], target: "key" | "value"): SourceLocation {
  let at: { line: number; col: number } | undefined;
  return {
    file: parsed.file,
    layer,
    get line() {
      return (at ??= parsed.locate(path, target)).line;
    },
    get col() {
      return (at ??= parsed.locate(path, target)).col;
    },
  };
}

export interface MergedDefaults {
  timeoutMs: number;
  /** Whether some layer's defaults.timeout set timeoutMs. */
  timeoutSet: boolean;
  shell: string;
  env: Record<string, string>;
  maxOutput: number;
}

/** `defaults:` of every layer, merged key by key and `env` variable by variable (later wins). */
export function mergeDefaults(values: unknown[]): MergedDefaults {
  const merged: MergedDefaults = { timeoutMs: DEFAULT_TIMEOUT_MS, timeoutSet: false, shell: "sh", env: {}, maxOutput: DEFAULT_MAX_OUTPUT };
  for (const value of values) {
    const d = (value as { defaults?: unknown } | undefined)?.defaults as Record<string, unknown> | null | undefined;
    if (!d || typeof d !== "object") continue;
    const timeout = parseDuration(d.timeout);
    if (timeout !== null) {
      merged.timeoutMs = timeout;
      merged.timeoutSet = true;
    }
    merged.maxOutput = parseSize(d.max_output) ?? merged.maxOutput;
    if (typeof d.shell === "string") merged.shell = d.shell;
    // Spread, not Object.assign: a variable named __proto__ stays a variable (assign would set the prototype).
    if (d.env && typeof d.env === "object") merged.env = { ...merged.env, ...d.env };
  }
  return merged;
}

/** `events:` of every layer merged key by key (later layers win), under canonical names. */
export function mergeEventSettings(values: unknown[], custom: readonly string[]): Record<string, ResolvedEventSettings> {
  // No prototype: event names are user text, and a custom event called `constructor` must not
  // find Object.prototype.constructor here (or in any `config.events[name]` downstream).
  const merged: Record<string, ResolvedEventSettings> = Object.create(null);
  for (const value of values) {
    const events = (value as { events?: unknown } | undefined)?.events;
    if (!events || typeof events !== "object" || Array.isArray(events)) continue;
    for (const [key, raw] of Object.entries(events)) {
      if (key.startsWith("x-")) continue;
      const name = tryParseHookEvent(key, custom);
      if (name === null) continue;
      const s = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
      const prev: ResolvedEventSettings = merged[name] ?? { parallel: false, custom: custom.includes(name) };
      const next: ResolvedEventSettings = { ...prev };
      if (typeof s.parallel === "boolean") next.parallel = s.parallel;
      if (typeof s.description === "string") next.description = s.description;
      if (typeof s.gate === "boolean") next.gate = s.gate;
      merged[name] = next;
    }
  }
  return merged;
}

/** Normalised names of the custom events a file declares under `events:` with `custom: true`. */
export function customEvents(value: unknown): string[] {
  const events = (value as { events?: unknown } | undefined)?.events;
  if (!events || typeof events !== "object" || Array.isArray(events)) return [];
  const out: string[] = [];
  for (const [key, settings] of Object.entries(events)) {
    if (key.startsWith("x-") || tryParseHookEvent(key) !== null) continue;
    if ((settings as { custom?: unknown } | null)?.custom === true) out.push(normalizeEventName(key));
  }
  return out;
}

const EVENT_RANK = new Map(EVENTS.map((e, i) => [e.name, i]));

/** Hooks by event (catalog order, then custom events by name), then run order: priority high first, ties in declaration order. */
export function sortHooks(hooks: readonly ResolvedHook[]): ResolvedHook[] {
  return [...hooks].sort(
    (a, b) => (EVENT_RANK.get(a.event) ?? EVENTS.length) - (EVENT_RANK.get(b.event) ?? EVENTS.length) || a.event.localeCompare(b.event) || b.priority - a.priority || a.order - b.order,
  );
}
