import { randomUUID } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { findProjectFile } from "../../config/discover.js";
import { loadConfig } from "../../config/loadConfig.js";
import { ConfigError, displayFile, formatDiagnostic, UsageError } from "../../errors.js";
import { runningInCi } from "../../env.js";
import { type Difference, type Fired, type Fixture, type FixtureOutcome, FIXTURE_DIR, findFixtureFiles, loadFixtureFile, runFixture, type TextMatch } from "../../prove/fixtures.js";
import { formatElapsed } from "../../report/formatText.js";
import { type JunitCase, junitXml } from "../../report/formatJunit.js";
import { terminalSafe } from "../../text.js";
import { untrustedFiles } from "../../trust/store.js";
import type { CliContext } from "../context.js";
import { EXIT, exitCodeFor, formatError, signalExitCode } from "../exitCodes.js";
import { onTerminatingSignal } from "../signals.js";
import type { CliOutput } from "../stdioWriter.js";
import { dispatchEvent, exitCodeForResult } from "./run.js";
import { readRunContext } from "./runContext.js";

export interface TestFlags {
  json?: boolean;
  junit?: boolean;
  filter?: string;
}

/**
 * `hooks test [PATHS…]`: run the fixtures through `hooks run` (real hooks, the project's layers
 * and trust, the host's read and render) and say which held. Exit 0 when all pass, 1 when any
 * fails or cannot be read, 77/78 when none could run because the config is untrusted/invalid.
 */
export async function testFixtures(ctx: CliContext, paths: string[], flags: TestFlags): Promise<number> {
  if (flags.json && flags.junit) throw new UsageError("--json and --junit are two reports; choose one");
  const started = performance.now();
  const projectFile = findProjectFile({ cwd: ctx.cwd, configPath: ctx.configPath, env: ctx.env });
  const projectDir = projectFile ? path.dirname(projectFile) : ctx.cwd;
  const files = findFixtureFiles(paths, ctx.cwd, projectDir);
  const wanted = (text: string): boolean => !flags.filter || text.toLowerCase().includes(flags.filter.toLowerCase());
  const outcomes: FixtureOutcome[] = [];
  const fixtures: Fixture[] = [];
  for (const file of files) {
    const loaded = await loadFixtureFile(file);
    for (const f of loaded.fixtures) if (wanted(f.name) || wanted(displayFile(f.file, ctx.cwd))) fixtures.push(f);
    // A file that cannot be read is a failing test (its fixtures would otherwise vanish from CI).
    if (loaded.diagnostics.length > 0 && wanted(displayFile(file, ctx.cwd))) {
      const first = loaded.diagnostics[0];
      outcomes.push({
        name: path.basename(file),
        file,
        line: first.line,
        event: "",
        status: "error",
        duration_ms: 0,
        differences: [],
        error: loaded.diagnostics.map((d) => formatDiagnostic(d, ctx.cwd)).join("\n"),
      });
    }
  }
  if (fixtures.length === 0 && outcomes.length === 0) {
    const where = paths.length ? paths.join(", ") : `*.hooktest.yaml in ${displayFile(projectDir, ctx.cwd) || "."} and ${displayFile(path.join(projectDir, FIXTURE_DIR), ctx.cwd)}/`;
    ctx.stderr.write(`${terminalSafe(`hooks: no fixtures found${flags.filter ? ` matching "${flags.filter}"` : ""} (${where}); write one as docs/testing-hooks.md shows`)}\n`);
    if (flags.json) ctx.stdout.write(`${JSON.stringify(summary([], started), null, 2)}\n`);
    return EXIT.failed;
  }
  const blocked = fixtures.length > 0 ? await configBlocks(ctx) : null;

  let interrupted: NodeJS.Signals | null = null;
  const stop = onTerminatingSignal((s) => void (interrupted ??= s));
  try {
    for (const fixture of fixtures) {
      if (interrupted) break;
      const outcome = await runFixture(fixture, (f) => fire(ctx, f));
      // Its hooks were killed mid-run: what came out is not what the hooks say, so it is not judged.
      if (interrupted) Object.assign(outcome, { status: "error", error: `interrupted by ${interrupted}: its hooks were killed, so it was not judged` });
      outcomes.push(outcome);
      if (!flags.json && !flags.junit) ctx.stdout.write(formatOutcome(outcome, ctx));
    }
  } finally {
    stop();
  }
  // Reports in file order, the unreadable files among the others.
  const report = summary(
    outcomes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line)),
    started,
  );
  if (flags.json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (flags.junit) ctx.stdout.write(junitReport(outcomes, ctx.cwd));
  else {
    for (const o of outcomes) if (o.event === "") ctx.stdout.write(formatOutcome(o, ctx));
    ctx.stdout.write(`${summaryLine(report, ctx.color)}\n`);
  }
  if (interrupted) return signalExitCode(interrupted);
  if (report.failed + report.errors === 0) return EXIT.ok;
  // Nothing ran, for the reason the config gives (untrusted, invalid): that reason's exit code.
  return blocked !== null && outcomes.every((o) => o.status === "error") ? blocked : EXIT.failed;
}

/** Fire one fixture exactly as `hooks run EVENT [--host HOST] < context` would, capturing what it prints. */
async function fire(ctx: CliContext, fixture: Fixture): Promise<Fired> {
  // What a run prints is not the fixture's report: the outcome is.
  const quiet: CliOutput = { isTTY: false, write: () => true };
  const payload = fixture.contextFile ? "" : JSON.stringify(fixture.context ?? {});
  // A session of its own: async results of earlier runs (of "default") are not delivered into it.
  // fixture.env never holds what decides config and trust (FIXTURE_ENV_RESERVED, refused when loading).
  const env: NodeJS.ProcessEnv = { ...ctx.env, HOOKS_SESSION_ID: `hooks-test-${randomUUID()}`, ...fixture.env };
  // HOOKS_EXPLAIN=1 (hooks doctor's probes) would make the run explain instead of running.
  delete env.HOOKS_EXPLAIN;
  const run: CliContext = {
    stdout: quiet,
    stderr: quiet,
    stdin: Readable.from([Buffer.from(payload)]),
    stdinFd: undefined,
    env,
    cwd: ctx.cwd,
    configPath: ctx.configPath,
    userConfig: ctx.userConfig,
    trust: ctx.trust,
    color: false,
    verbose: ctx.verbose,
    entry: ctx.entry,
  };
  try {
    const payload = await readRunContext(run, { context: fixture.contextFile });
    // Waits for the run's async hooks (as under CI): a test leaves nothing running behind it.
    // The file as it is: a fixture tests the edit, never the last trusted version an agent would get.
    const plan = { hostFlag: fixture.host, asked: fixture.host ? undefined : "json", maxParallel: undefined, lastTrusted: false };
    const { outcome } = await dispatchEvent(run, fixture.event, payload, plan, { wait: true });
    if (outcome.kind === "ran") return { exitCode: outcome.answer?.exitCode ?? exitCodeForResult(outcome.result, true), result: outcome.result };
    // A host answered without running the hooks (config invalid or untrusted): say what it told the user.
    if (outcome.kind === "not-run") return { exitCode: outcome.answer.exitCode, result: null, error: outcome.answer.stderr.trim() || outcome.error.message };
    // hookrun failed closed (docs/fail-closed.md): the host's blocking answer, and hookrun's own result.
    if (outcome.kind === "blocked") return { exitCode: outcome.answer.exitCode, result: outcome.result };
    return { exitCode: EXIT.ok, result: null };
  } catch (error) {
    return { exitCode: exitCodeFor(error), result: null, error: formatError(error, ctx.verbose, ctx.cwd).trim() };
  }
}

/**
 * Whether the project's config keeps every hook from running: EXIT.config when it does not load,
 * EXIT.untrusted when it is not trusted, else null. Under CI it runs without `hooks trust`, as
 * `hooks run` does there (the checkout is the code under test): said on stderr, never silently.
 */
async function configBlocks(ctx: CliContext): Promise<number | null> {
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  } catch (error) {
    return error instanceof ConfigError ? EXIT.config : null;
  }
  if (untrustedFiles(config, { env: ctx.env, trust: ctx.trust }).length > 0) return EXIT.untrusted;
  if (runningInCi(ctx.env) && !ctx.trust && ctx.env.HOOKS_TRUST !== "1") {
    const bad = untrustedFiles(config, { env: { ...ctx.env, CI: "" } });
    if (bad.length > 0)
      ctx.stderr.write(
        `${terminalSafe(`hooks: CI is set, so the hooks of ${bad.map((f) => displayFile(f.path, ctx.cwd)).join(", ")} run without \`hooks trust\` (as \`hooks run\` does under CI)`)}\n`,
      );
  }
  return null;
}

interface TestReport {
  passed: number;
  failed: number;
  errors: number;
  duration_ms: number;
  fixtures: FixtureOutcome[];
}

function summary(outcomes: FixtureOutcome[], started: number): TestReport {
  const count = (s: FixtureOutcome["status"]) => outcomes.filter((o) => o.status === s).length;
  return { passed: count("pass"), failed: count("fail"), errors: count("error"), duration_ms: Math.round(performance.now() - started), fixtures: outcomes };
}

function summaryLine(r: TestReport, color: boolean): string {
  const n = r.fixtures.length;
  const text = `${n} fixture${n === 1 ? "" : "s"}: ${r.passed} passed, ${r.failed} failed${r.errors ? `, ${r.errors} could not run` : ""} in ${formatElapsed(r.duration_ms)}`;
  return color ? `\x1b[${r.failed + r.errors ? 31 : 32}m${text}\x1b[0m` : text;
}

const show = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v));
const showText = (m: TextMatch): string => (typeof m === "string" ? `text containing ${JSON.stringify(m)}` : `text matching /${m.pattern}/`);

/** One difference in words: what was expected, what the run gave. */
export function describeDifference(d: Difference): string {
  switch (d.field) {
    case "reason":
    case "additional_context":
    case "stop_reason":
      return `${d.field}: expected ${showText(d.expected as TextMatch)}, got ${show(d.actual)}`;
    case "messages":
      return `messages: expected a message with ${(d.expected as TextMatch[]).map(showText).join(" and one with ")}, got ${show(d.actual)}`;
    default:
      return `${d.field}: expected ${show(d.expected)}, got ${show(d.actual)}`;
  }
}

function formatOutcome(o: FixtureOutcome, ctx: CliContext): string {
  const paint = (code: number, s: string) => (ctx.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const where = `${displayFile(o.file, ctx.cwd)}:${o.line}`;
  if (o.event === "") return `${paint(31, "✗")} ${terminalSafe(o.name)}: cannot be read\n${indent(o.error ?? "")}\n`;
  const mark = o.status === "pass" ? paint(32, "✓") : paint(31, "✗");
  const head = terminalSafe(`${o.name}  (${where}${o.host ? `, ${o.host}` : ""})  ${formatElapsed(o.duration_ms)}`);
  const lines = [`${mark} ${head}`];
  // A run that did not happen differs in every field: its reason is the one line worth reading.
  if (o.error) lines.push(indent(`did not run: ${o.error}`));
  else for (const d of o.differences) lines.push(indent(terminalSafe(describeDifference(d))));
  // Why an expectation may not have held: a hook that failed (it fails open).
  if (o.status === "fail") for (const f of o.hook_failures ?? []) lines.push(indent(`note: ${f}`));
  return `${lines.join("\n")}\n`;
}

const indent = (text: string): string =>
  text
    .split("\n")
    .map((l) => `    ${terminalSafe(l)}`)
    .join("\n");

/** JUnit XML: one testsuite per fixture file, one testcase per fixture. */
function junitReport(outcomes: FixtureOutcome[], cwd: string): string {
  const suites = new Map<string, { name: string; ms: number; cases: JunitCase[] }>();
  for (const o of outcomes) {
    const file = displayFile(o.file, cwd);
    let s = suites.get(file);
    if (!s) suites.set(file, (s = { name: file, ms: 0, cases: [] }));
    s.ms += o.duration_ms;
    const c: JunitCase = { name: o.name, classname: file, ms: o.duration_ms };
    if (o.status !== "pass") {
      const detail = o.error ? `did not run: ${o.error}` : [...o.differences.map(describeDifference), ...(o.hook_failures ?? []).map((f) => `note: ${f}`)].join("\n");
      c.failure = { message: detail.split("\n")[0], type: o.status === "error" ? "error" : "expectation", detail: `${file}:${o.line}\n${detail}` };
    }
    s.cases.push(c);
  }
  return junitXml([...suites.values()]);
}
