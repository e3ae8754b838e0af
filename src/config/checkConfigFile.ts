import { LOOP_EVENTS } from "../events/catalog.js";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { type Diagnostic, UsageError } from "../errors.js";
import { TOOL_CALL_EVENTS } from "../events/catalog.js";
import { eventInfo, parseHookEvent, tryParseHookEvent } from "../events/parseHookEvent.js";
import { durationProblem, sizeProblem } from "./units.js";
import { matcherRule } from "./matcher.js";
import type { ConfigPath, ParsedConfigText } from "./positions.js";

export interface CheckConfigFileInput {
  parsed: ParsedConfigText;
  /** Directory hooks of this file run in; null for the user layer (the caller's cwd). */
  dir: string | null;
  /** The caller's working directory, for hooks of the user layer. */
  cwd: string;
  /** Custom events declared by any layer (normalised name → gate). */
  custom: ReadonlyMap<string, boolean>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The checks that a schema cannot express (docs/configuration.md#diagnostics): events,
 * durations, sizes, regexes, duplicate names, directories and scripts on disk. Merging checks
 * (overrides) live in mergeLayers.
 */
export function checkConfigFile(input: CheckConfigFileInput): Diagnostic[] {
  const { parsed } = input;
  const custom = [...input.custom.keys()];
  const out: Diagnostic[] = [];
  const report: Report = (severity, at, message, target = "value") => out.push({ file: parsed.file, ...parsed.locate(at, target), severity, message });
  const root = parsed.value;
  if (!isObj(root)) return out;
  if (isObj(root.defaults)) {
    const d = root.defaults;
    if (d.timeout !== undefined) problem(report, ["defaults"], "timeout", durationProblem("timeout", d.timeout));
    if (d.max_output !== undefined) problem(report, ["defaults"], "max_output", sizeProblem("max_output", d.max_output));
  }
  if (isObj(root.events)) checkEvents(report, root.events, custom);
  if (!isObj(root.hooks)) return out;
  const firstByName = new Map<string, ConfigPath>();
  const matchers: Matchers = new Map();
  for (const [key, list] of Object.entries(root.hooks)) {
    if (key.startsWith("x-")) continue;
    const event = tryParseHookEvent(key, custom);
    if (event === null) report("error", ["hooks", key], `unknown event \`${key}\`${suggest(key, custom)}; or declare it under \`events:\` with \`custom: true\``, "key");
    if (!Array.isArray(list)) continue;
    list.forEach((hook, i) => {
      if (!isObj(hook)) return;
      const at: ConfigPath = ["hooks", key, i];
      if (typeof hook.name === "string") {
        const first = firstByName.get(hook.name);
        if (first) {
          const p = parsed.locate([...first, "name"]);
          report("error", [...at, "name"], `duplicate hook name \`${hook.name}\`: already used at line ${p.line}, column ${p.col} of this file; names are unique in a file, rename one`);
        } else firstByName.set(hook.name, at);
      }
      checkHook(report, at, hook, event, input.custom, matchers);
      checkHookPaths(report, at, hook, input);
    });
  }
  return out;
}

/** Adds one diagnostic at a path of the file (its key's position, or its value's). */
type Report = (severity: Diagnostic["severity"], at: ConfigPath, message: string, target?: "key" | "value") => void;

/** The settings of `events:`: custom events declared as such, built-in ones left as they are. */
function checkEvents(report: Report, events: Obj, custom: string[]): void {
  for (const [key, settings] of Object.entries(events)) {
    if (key.startsWith("x-")) continue;
    const builtin = tryParseHookEvent(key);
    const s = isObj(settings) ? settings : {};
    if (builtin === null) {
      if (s.custom !== true && tryParseHookEvent(key, custom) === null)
        report("error", ["events", key], `unknown event \`${key}\` under \`events\`${suggest(key, custom)}; to declare your own event, add \`custom: true\``, "key");
      continue;
    }
    const info = eventInfo(builtin)!;
    if (s.custom === true) report("error", ["events", key, "custom"], `\`${key}\` is a built-in event: remove \`custom: true\``, "key");
    if (s.gate !== undefined)
      report("error", ["events", key, "gate"], `\`gate\` can only be set on custom events; \`${builtin}\` ${info.gate === "yes" ? "can" : "cannot"} block by definition: remove it`, "key");
    if (s.parallel === true && info.gate === "transform") {
      report("error", ["events", key, "parallel"], `\`parallel\` is not allowed on \`${builtin}\`: its hooks chain updated_input one after another, so they cannot run in parallel`, "key");
    }
  }
}

/** One hook's fields: command or args, durations and sizes, its matcher, an `if` or on_failure that cannot apply to its event. */
function checkHook(report: Report, at: ConfigPath, hook: Obj, event: string | null, custom: ReadonlyMap<string, boolean>, matchers: Matchers): void {
  if (hook.command !== undefined && hook.args !== undefined) {
    report("error", [...at, "args"], `hook${label(hook)} has both \`command\` and \`args\`: keep exactly one (command runs in a shell, args runs without one)`, "key");
  }
  if (hook.rewake === true && hook.async !== true)
    report("error", [...at, "rewake"], `hook${label(hook)} has \`rewake: true\` without \`async: true\`: only a hook run in the background can wake the model; add \`async: true\``, "key");
  if (hook.loop_limit !== undefined && hook.loop_limit !== null && event !== null && !LOOP_EVENTS.has(event))
    report(
      "error",
      [...at, "loop_limit"],
      `hook${label(hook)} has \`loop_limit\` on \`${event}\`: it bounds how many stops in a row a hook keeps the agent going, so only stop and subagent_stop take it; remove it or move the hook`,
      "key",
    );
  if (hook.timeout !== undefined) problem(report, at, "timeout", durationProblem("timeout", hook.timeout));
  if (hook.max_output !== undefined) problem(report, at, "max_output", sizeProblem("max_output", hook.max_output));
  if (typeof hook.matcher === "string") checkMatcher(report, at, hook.matcher, event, matchers);
  if (typeof hook.if === "string" && event !== null && !TOOL_CALL_EVENTS.has(event)) {
    report("warning", [...at, "if"], `hook${label(hook)} never runs: \`if\` tests a tool call, and \`${event}\` has none (only ${[...TOOL_CALL_EVENTS].join(", ")}); remove \`if\` or move the hook`);
  }
  if (hook.on_failure === "block" && event !== null && !canBlock(event, custom)) {
    report("warning", [...at, "on_failure"], `\`on_failure: block\` has no effect on \`${event}\`, which cannot block: remove it or move the hook to a gate event`);
  }
}

/** A hook's `cwd` and the script its command names, on disk (relative to the file's directory). */
function checkHookPaths(report: Report, at: ConfigPath, hook: Obj, input: CheckConfigFileInput): void {
  // User-layer hooks run in whatever directory the caller is in: only absolute paths are checkable.
  const hookCwd = typeof hook.cwd === "string" && hook.cwd !== "" ? hook.cwd : null;
  if (input.dir === null && !(hookCwd && path.isAbsolute(hookCwd))) return;
  let runDir = input.dir ?? input.cwd;
  if (hookCwd) {
    runDir = path.resolve(runDir, hookCwd);
    if (!isDirectory(runDir)) {
      report("error", [...at, "cwd"], `\`cwd\` ${JSON.stringify(hookCwd)} does not exist (resolved to ${runDir}): create it or fix the path (it is relative to the directory of this file)`);
      return;
    }
  }
  // A command without a `/` names no relative script: skip the word regex (most commands).
  const script = typeof hook.command === "string" ? (hook.command.includes("/") ? firstWord(hook.command) : null) : Array.isArray(hook.args) && typeof hook.args[0] === "string" ? hook.args[0] : null;
  if (script && looksLikeRelativeScript(script) && !existsSync(path.resolve(runDir, script))) {
    const field = typeof hook.command === "string" ? "command" : "args";
    report("warning", [...at, field], `\`${field}\` runs ${script}, which does not exist (looked for ${path.resolve(runDir, script)}): create it or fix the path`);
  }
}

/** Reports `message`, when there is one, at `key` under `at` (the path is built only then: most values are fine). */
function problem(report: (s: Diagnostic["severity"], at: ConfigPath, m: string) => void, at: ConfigPath, key: string, message: string | null): void {
  if (message) report("error", [...at, key], message);
}

function label(hook: Obj): string {
  return typeof hook.name === "string" ? ` \`${hook.name}\`` : "";
}

function suggest(key: string, custom: readonly string[]): string {
  try {
    parseHookEvent(key, custom);
  } catch (e) {
    if (e instanceof UsageError && e.suggestions.length) return ` (did you mean ${e.suggestions.map((s) => `\`${s}\``).join(" or ")}?)`;
  }
  return " (run `hooks events` for the list)";
}

/**
 * What a matcher value is, once per distinct value in a file (large configs repeat a few
 * matchers on many hooks): whether it matches everything, and why it is not a valid regex.
 */
type Matchers = Map<string, { all: boolean; regexError: string | null }>;

function checkMatcher(report: Report, at: ConfigPath, matcher: string, event: string | null, matchers: Matchers): void {
  let known = matchers.get(matcher);
  if (known === undefined) {
    const rule = matcherRule(matcher);
    let regexError: string | null = null;
    if (rule.kind === "regex") {
      try {
        new RegExp(rule.source);
      } catch (e) {
        regexError = (e as Error).message.replace(/^Invalid regular expression: /, "");
      }
    }
    known = { all: rule.kind === "all", regexError };
    matchers.set(matcher, known);
  }
  if (known.regexError !== null) {
    report("error", [...at, "matcher"], `invalid regex in \`matcher\`: ${known.regexError}; fix it, or use plain names separated by |`);
    return;
  }
  if (known.all || event === null) return;
  const info = eventInfo(event);
  if (!info || info.matchField === null) {
    report("warning", [...at, "matcher"], `\`matcher\` has no effect on \`${event}\`, which has no match field: remove it${info ? "" : " (custom events have none)"}`);
  }
}

function canBlock(event: string, custom: ReadonlyMap<string, boolean>): boolean {
  const info = eventInfo(event);
  return info ? info.gate === "yes" : custom.get(event) === true;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The program a shell command starts with, when it is a plain word (no quoting or expansion). */
function firstWord(command: string): string | null {
  const m = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*([^\s;&|<>()'"`$\\]+)(?=\s|$)/.exec(command);
  return m ? m[1] : null;
}

function looksLikeRelativeScript(word: string): boolean {
  return !path.isAbsolute(word) && !word.startsWith("~") && word.includes("/") && !word.includes("://");
}
