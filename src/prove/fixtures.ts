import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseConfigText } from "../config/parseConfigText.js";
import type { ConfigPath, ParsedConfigText } from "../config/positions.js";
import { displayPath, toConfigPath, valueAt } from "../config/schemaDiagnostics.js";
import { type Diagnostic, UsageError } from "../errors.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { failureLine, rankedDecision } from "../hosts/resultText.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { TriggerResult } from "../runner/types.js";
import { didYouMean } from "../text.js";
import validateFixture from "./validateFixture.generated.js";

// `hooks test` (docs/testing-hooks.md): fixtures checked into the repo, each an event and a context (optionally
// a host's payload) with what the run must give. This module finds, reads, validates and judges
// them; the run itself is `hooks run`'s own, handed in by the CLI (`fire`), so a fixture passes
// exactly when the same event fired by `hooks run` (or by the host, through its entry) would.

/** A file holding fixtures: `*.hooktest.yaml`, `*.hooktest.yml` or `*.hooktest.json`. */
export const FIXTURE_FILE = /\.hooktest\.(?:ya?ml|json)$/;
/** The folder, next to the project's hooks.yaml, searched (with that folder) when no path is named. */
export const FIXTURE_DIR = "hooks.tests";

/** `{pattern}` or a substring. */
export type TextMatch = string | { pattern: string };

export interface FixtureExpect {
  decision?: "block" | "allow" | "ask" | "defer" | "none";
  reason?: TextMatch;
  messages?: TextMatch[];
  additional_context?: TextMatch;
  updated_input?: unknown;
  continue?: boolean;
  stop_reason?: TextMatch;
  hooks_ran?: string[];
  async_started?: string[];
  exit_code?: number;
}

export interface Fixture {
  name: string;
  file: string;
  line: number;
  event: string;
  host?: string;
  /** The inline context (or host payload); undefined with `contextFile` or neither. */
  context?: Record<string, unknown>;
  /** `context_file`, resolved against the fixture's folder. */
  contextFile?: string;
  env: Record<string, string>;
  expect: FixtureExpect;
}

/** What firing a fixture gave: the exit code, the merged result (null when nothing ran: an error or a host's not-run answer). */
export interface Fired {
  exitCode: number;
  result: TriggerResult | null;
  /** The error sentence when the run did not happen (config invalid, untrusted, unknown event…). */
  error?: string;
}

/** What a run gave, in the terms of `expect`. */
export interface Actual {
  decision: NonNullable<FixtureExpect["decision"]>;
  reason: string | null;
  messages: string[];
  additional_context: string;
  updated_input: unknown;
  continue: boolean;
  stop_reason: string | null;
  hooks_ran: string[];
  async_started: string[];
  exit_code: number;
}

export interface Difference {
  field: keyof FixtureExpect;
  expected: unknown;
  actual: unknown;
}

export interface FixtureOutcome {
  name: string;
  file: string;
  line: number;
  event: string;
  host?: string;
  /** pass: every expectation held; fail: one did not; error: the fixture could not be read or run. */
  status: "pass" | "fail" | "error";
  duration_ms: number;
  differences: Difference[];
  /** Why the fixture could not be read (FILE:LINE:COL) or run. */
  error?: string;
  actual?: Actual;
  /** Hooks of the run that failed, one line each (a spawn error, a timeout): often why an expectation did not hold. */
  hook_failures?: string[];
}

/**
 * The fixture files `paths` name: a file is taken whatever its name, a folder is searched for
 * `*.hooktest.{yaml,yml,json}` (not inside node_modules or dot folders). No path: the project
 * folder itself (not recursively) and its `hooks.tests/` folder.
 */
export function findFixtureFiles(paths: readonly string[], cwd: string, projectDir: string): string[] {
  const found = new Set<string>();
  if (paths.length === 0) {
    walk(projectDir, found, false);
    const dir = path.join(projectDir, FIXTURE_DIR);
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir, found, true);
    return [...found].sort();
  }
  for (const p of paths) {
    const abs = path.resolve(cwd, p);
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st) throw new UsageError(`${p}: no such file or folder; name fixture files or folders holding *.hooktest.yaml files`);
    if (st.isDirectory()) walk(abs, found, true);
    else found.add(abs);
  }
  return [...found].sort();
}

function walk(dir: string, into: Set<string>, deep: boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (deep && entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(full, into, true);
    } else if (FIXTURE_FILE.test(entry.name) && (entry.isFile() || entry.isSymbolicLink())) into.add(full);
  }
}

/** ajv's error objects, as the standalone validator produces them. */
interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

const FIXTURE_KEYS = ["$schema", "name", "description", "event", "host", "context", "context_file", "env", "expect"];
const EXPECT_KEYS = ["decision", "reason", "messages", "additional_context", "updated_input", "continue", "stop_reason", "hooks_ran", "async_started", "exit_code"];

/** Why a fixture must expect something, in the diagnostic that says it does not. */
const NOTHING_CHECKED = "what the run must give: a fixture that checks nothing cannot fail; `expect: {exit_code: 0}` says the run went well";

const TYPE_WORDS: Record<string, string> = { object: "a map", array: "a list", string: "a text", integer: "a whole number", boolean: "true or false", number: "a number" };

/** Read and validate one fixture file: its fixtures, or the diagnostics (FILE:LINE:COL) that keep it from running. */
export async function loadFixtureFile(file: string): Promise<{ fixtures: Fixture[]; diagnostics: Diagnostic[] }> {
  const at = (line: number, col: number, message: string): Diagnostic => ({ file, line, col, severity: "error", message });
  let text: string;
  try {
    text = readBoundedText(file, READ_LIMITS.config, { what: "fixture file" });
  } catch (error) {
    return { fixtures: [], diagnostics: [at(1, 1, (error as Error).message)] };
  }
  if (text.replace(/^\s*#.*$/gm, "").trim() === "")
    return { fixtures: [], diagnostics: [at(1, 1, "the file is empty: write one fixture (`event:` and `expect:`) or `fixtures:` with a list of them")] };
  const parsed = await parseConfigText(file, text);
  // parseConfigText speaks of hooks.yaml when the top level is not a map: say it of a fixture.
  const diagnostics = parsed.diagnostics.map((d) =>
    /^the top level must be a map/.test(d.message) ? { ...d, message: "the top level must be a map: one fixture (`event:`, `expect:`) or `fixtures:` with a list" } : d,
  );
  if (diagnostics.length > 0 || parsed.value === undefined) return { fixtures: [], diagnostics };
  diagnostics.push(...schemaProblems(parsed));
  if (diagnostics.length > 0) return { fixtures: [], diagnostics: byPosition(diagnostics) };
  const top = parsed.value as Record<string, unknown>;
  const list = Array.isArray(top.fixtures) ? (top.fixtures as Record<string, unknown>[]) : [top];
  const base = path.basename(file).replace(/(\.hooktest)?\.(ya?ml|json)$/, "");
  const fixtures: Fixture[] = [];
  list.forEach((raw, i) => {
    const where: ConfigPath = Array.isArray(top.fixtures) ? ["fixtures", i] : [];
    const pos = parsed.locate(where);
    const exp = (raw.expect ?? {}) as FixtureExpect;
    for (const [key, value] of textMatches(exp)) {
      const problem = typeof value === "object" ? badPattern(value.pattern) : null;
      if (problem) {
        const p = parsed.locate([...where, "expect", ...key, "pattern"]);
        diagnostics.push(at(p.line, p.col, `expect.${displayPath(key)}.pattern is not a valid regular expression: ${problem}`));
      }
    }
    // A fixture file is not under `hooks trust`: its env reaches the hooks, never what decides
    // which config loads and whether it is trusted (HOOKS_CONFIG=evil.yaml with HOOKS_TRUST=1,
    // or an XDG_CONFIG_HOME whose always-trusted user layer is in the repository).
    for (const name of Object.keys((raw.env ?? {}) as Record<string, unknown>))
      if (FIXTURE_ENV_RESERVED.test(name) || !ENV_NAME.test(name)) {
        const p = parsed.locate([...where, "env", name]);
        diagnostics.push(
          at(p.line, p.col, `env.${name}: a fixture cannot set ${name} (it decides which config runs, its trust or state, or what code a trusted command loads); set it around \`hooks test\` instead`),
        );
      }
    let contextFile: string | undefined;
    if (typeof raw.context_file === "string") {
      contextFile = path.resolve(path.dirname(file), raw.context_file);
      if (!statSync(contextFile, { throwIfNoEntry: false })?.isFile()) {
        const p = parsed.locate([...where, "context_file"]);
        diagnostics.push(at(p.line, p.col, `context_file ${raw.context_file}: no such file (${contextFile}); the path is relative to the fixture file`));
      }
    }
    fixtures.push({
      name: typeof raw.name === "string" ? raw.name : list.length > 1 ? `${base} #${i + 1}` : base,
      file,
      line: pos.line,
      event: raw.event as string,
      host: raw.host as string | undefined,
      context: raw.context as Record<string, unknown> | undefined,
      contextFile,
      env: (raw.env ?? {}) as Record<string, string>,
      expect: exp,
    });
  });
  return diagnostics.length > 0 ? { fixtures: [], diagnostics: byPosition(diagnostics) } : { fixtures, diagnostics };
}

/**
 * Variables a fixture may not set: those that decide which config loads, whether it is trusted and
 * where state lives, and those that make a trusted command run other code (PATH, NODE_OPTIONS,
 * LD_PRELOAD, BASH_ENV, PYTHONPATH, …). A deny-list narrows what an unreviewed fixture can do; it
 * cannot make a repository you do not trust safe to test (docs/testing-hooks.md says so).
 */
export const FIXTURE_ENV_RESERVED =
  /^(HOOKS_CONFIG|HOOKS_TRUST|HOOKS_STATE_DIR|HOOKS_EXPLAIN|HOME|XDG_\w+|CI|PATH|CDPATH|SHELL|IFS|ENV|BASH_ENV|BASH_FUNC_.*|\w*OPTS?|\w*_OPTIONS|GLOBIGNORE|PS4|PROMPT_COMMAND|NODE_\w+|NPM_CONFIG_\w*|LD_\w+|DYLD_\w+|GCONV_PATH|PYTHON\w*|PERL\w*|RUBY\w*|GEM_\w+|LUA_\w+|CLASSPATH|GIT_\w+)$/i;

/** An environment name a shell can hold as a variable: others (`BASH_FUNC_git%%`, `a-b`) only pass through to programs that read them specially. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const byPosition = (ds: Diagnostic[]): Diagnostic[] => ds.sort((a, b) => a.line - b.line || a.col - b.col);

// Every text expectation with its path under `expect`.
function textMatches(exp: FixtureExpect): [ConfigPath, TextMatch][] {
  const out: [ConfigPath, TextMatch][] = [];
  if (exp.reason !== undefined) out.push([["reason"], exp.reason]);
  if (exp.additional_context !== undefined) out.push([["additional_context"], exp.additional_context]);
  if (exp.stop_reason !== undefined) out.push([["stop_reason"], exp.stop_reason]);
  for (const [i, m] of (exp.messages ?? []).entries()) out.push([["messages", i], m]);
  return out;
}

function badPattern(pattern: string): string | null {
  try {
    new RegExp(pattern);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: /, "");
  }
}

/** schema/fixture.schema.json's errors, one sentence each at the LINE:COL of the key or value. */
function schemaProblems(parsed: ParsedConfigText): Diagnostic[] {
  const validate = validateFixture as unknown as ((data: unknown) => boolean) & { errors?: SchemaError[] | null };
  if (validate(parsed.value)) return [];
  const errors = validate.errors ?? [];
  // A text expectation is a string or {pattern}: say that once, not once per alternative.
  const anyOf = errors.filter((e) => e.keyword === "anyOf").map((e) => e.instancePath);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "if") continue;
    if (e.keyword !== "anyOf" && anyOf.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`))) continue;
    const segs = toConfigPath(parsed.value, e.instancePath);
    const where = displayPath(segs);
    let target: ConfigPath = segs;
    let kind: "key" | "value" = "value";
    let message: string;
    switch (e.keyword) {
      case "required": {
        const missing = String(e.params.missingProperty);
        message = `${segs.length ? `${where}: ` : ""}missing \`${missing}\` (${missing === "expect" ? NOTHING_CHECKED : "the event to fire"})`;
        break;
      }
      case "minProperties":
        message = `${where}: empty (${NOTHING_CHECKED})`;
        break;
      case "additionalProperties": {
        const key = String(e.params.additionalProperty);
        const known = segs[segs.length - 1] === "expect" ? EXPECT_KEYS : segs.length === 0 || typeof segs[segs.length - 1] === "number" ? FIXTURE_KEYS : [];
        target = [...segs, key];
        kind = "key";
        message = `unknown key \`${key}\`${segs.length ? ` in ${where}` : ""}${didYouMean(key, known)}`;
        break;
      }
      case "not":
        target = [...segs, "context_file"];
        kind = "key";
        message = "give `context` or `context_file`, not both";
        break;
      case "enum":
        message = `${where}: ${JSON.stringify(valueAt(parsed.value, segs))} is not one of ${(e.params.allowedValues as unknown[]).join(", ")}`;
        break;
      case "anyOf":
        message = `${where}: expected a text (a substring) or {pattern: REGEX}`;
        break;
      case "type":
        message = `${where}: expected ${TYPE_WORDS[String(e.params.type)] ?? String(e.params.type)}`;
        break;
      case "minItems":
        message = segs[segs.length - 1] === "messages" ? `${where}: the list is empty (it would check nothing); give at least one text` : `${where}: the list is empty; give at least one fixture`;
        break;
      case "minLength":
        message = `${where}: must not be empty`;
        break;
      default:
        message = `${where}: does not fit the fixture schema (${e.keyword})`;
    }
    const key = `${target.join("\u0000")}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: parsed.file, ...parsed.locate(target, kind), severity: "error", message, path: e.instancePath || "/" });
  }
  return out;
}

/** A run's result in the terms of `expect` (see schema/fixture.schema.json for each field's meaning). */
export function actualOf(fired: Fired): Actual {
  const r = fired.result;
  const ranked = r ? rankedDecision(r) : null;
  const shown = r ? r.messages.filter((m) => !m.hide) : [];
  return {
    decision: r?.blocked ? "block" : (ranked?.decision ?? "none"),
    reason: r?.blocked ? r.reason : ranked?.reason || null,
    messages: r ? r.messages.map((m) => m.content) : [],
    additional_context: shown
      .filter((m) => m.kind === undefined || m.kind === "followup")
      .map((m) => m.content.trim())
      .filter(Boolean)
      .join("\n\n"),
    updated_input: r?.updated_input ?? null,
    continue: r ? r.continue : true,
    stop_reason: r && !r.continue ? r.stop_reason : null,
    hooks_ran: r ? r.hooks.filter((h) => h.status !== "skipped" && h.status !== "cancelled").map((h) => h.name) : [],
    async_started: r ? r.async_started : [],
    exit_code: fired.exitCode,
  };
}

const matchesText = (want: TextMatch, got: string | null): boolean => got !== null && (typeof want === "string" ? got.includes(want) : new RegExp(want.pattern).test(got));

/** Every expectation of `fixture` the run did not meet (empty: it passed). */
export function compareFixture(expect: FixtureExpect, actual: Actual): Difference[] {
  const out: Difference[] = [];
  const differ = (field: keyof FixtureExpect, ok: boolean, got: unknown = actual[field as keyof Actual]) => {
    if (!ok) out.push({ field, expected: expect[field], actual: got });
  };
  if (expect.decision !== undefined) differ("decision", expect.decision === actual.decision);
  if (expect.reason !== undefined) differ("reason", matchesText(expect.reason, actual.reason));
  if (expect.messages !== undefined) {
    const missing = expect.messages.filter((want) => !actual.messages.some((m) => matchesText(want, m)));
    if (missing.length > 0) out.push({ field: "messages", expected: missing, actual: actual.messages });
  }
  if (expect.additional_context !== undefined) differ("additional_context", matchesText(expect.additional_context, actual.additional_context));
  if (expect.updated_input !== undefined) differ("updated_input", deepEqual(expect.updated_input, actual.updated_input));
  if (expect.continue !== undefined) differ("continue", expect.continue === actual.continue);
  if (expect.stop_reason !== undefined) differ("stop_reason", matchesText(expect.stop_reason, actual.stop_reason));
  if (expect.hooks_ran !== undefined) differ("hooks_ran", deepEqual(expect.hooks_ran, actual.hooks_ran));
  if (expect.async_started !== undefined) differ("async_started", deepEqual(expect.async_started, actual.async_started));
  if (expect.exit_code !== undefined) differ("exit_code", expect.exit_code === actual.exit_code);
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Fire one fixture with `fire` (the CLI's `hooks run`) and judge it. */
export async function runFixture(fixture: Fixture, fire: (fixture: Fixture) => Promise<Fired>): Promise<FixtureOutcome> {
  const started = performance.now();
  const fired = await fire(fixture);
  const head = { name: fixture.name, file: fixture.file, line: fixture.line, event: fixture.event, ...(fixture.host ? { host: fixture.host } : {}) };
  const duration_ms = Math.round(performance.now() - started);
  const actual = actualOf(fired);
  const differences = compareFixture(fixture.expect, actual);
  // A run that did not happen passes only when the fixture expects exactly that (its exit code).
  if (fired.error !== undefined && (fixture.expect.exit_code === undefined || differences.length > 0)) return { ...head, status: "error", duration_ms, differences, error: fired.error, actual };
  const failed = fired.result ? [...fired.result.hooks, ...fired.result.async_delivered].filter((h) => FAILURE_STATUSES.has(h.status)).map(failureLine) : [];
  return { ...head, status: differences.length ? "fail" : "pass", duration_ms, differences, actual, ...(failed.length ? { hook_failures: failed } : {}) };
}
