import { spawn } from "node:child_process";
import { loadConfig } from "../../config/loadConfig.js";
import type { ResolvedConfig } from "../../config/types.js";
import { ContextError, UsageError } from "../../errors.js";
import { runningInCi } from "../../env.js";
import { hastenTerminations, terminateGroup } from "../../fs/processes.js";
import { trustCommand } from "../../hosts/notRunWords.js";
import { type HostEventOutcome, type HostEventRequest, runHostEvent } from "../../hosts/runHostEvent.js";
import { HOST_NAMES, hostRow, resolveHostRuntime } from "../../hosts/table.js";
import type { HostAnswer, HostRuntime } from "../../hosts/types.js";
import { formatJunit } from "../../report/formatJunit.js";
import { formatElapsed, formatFooter, formatHookBlock } from "../../report/formatText.js";
import { formatGithubAnnotations, formatGithubHookBlock, isGithubActions } from "../../report/github.js";
import { hookJson } from "../../report/json.js";
import { buildContext, checkHookNames } from "../../runner/context.js";
import { createRunner } from "../../runner/createRunner.js";
import { FAILURE_STATUSES } from "../../runner/runHook.js";
import { planHooks } from "../../runner/select.js";
import type { HookContext, HookEndEvent, HookResult, HookStartEvent, Runner, TriggerOptions, TriggerResult } from "../../runner/types.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT, signalExitCode } from "../exitCodes.js";
import { onTerminatingSignal, SIGNAL_KILL_GRACE_MS } from "../signals.js";
import type { CliOutput } from "../stdioWriter.js";
import { type ContextFlags, readRunContext } from "./runContext.js";

/** The options of `hooks run` (see the command table). */
export interface RunFlags extends ContextFlags {
  output?: string;
  host?: string;
  json?: boolean;
  dryRun?: boolean;
  record?: boolean;
  /** `hooks explain`: say for every hook of the event whether it would run and why not; run nothing. */
  explain?: boolean;
  only?: string[];
  skip?: string[];
  /** `--rewake NAMES`: only these rewake hooks, in the foreground, a block answered with exit 2 (docs/async.md#rewake). */
  rewake?: string[];
  /** `--skip-rewake`: rewake hooks left to their own entries. */
  skipRewake?: boolean;
  wait?: boolean;
  maxParallel?: string;
  /** The dispatch entry's `--fail-closed` (docs/fail-closed.md). */
  failClosed?: boolean;
  /** The dispatch entry's `--deadline SECONDS`: when the host kills it. */
  deadline?: string;
}

/**
 * Exit code of a finished run (docs/cli.md#exit-codes): 2 blocked, 1 a hook failed, else 0 (continue:false too).
 * With `waited`, async hooks this run started and waited for count too (a CI job fails on them);
 * results of earlier runs delivered now do not.
 */
export function exitCodeForResult(result: TriggerResult, waited = false): number {
  if (result.blocked) return EXIT.blocked;
  if (result.hooks.some((h) => FAILURE_STATUSES.has(h.status))) return EXIT.failed;
  const own = waited ? result.async_delivered.slice(result.async_delivered.length - result.async_started.length) : [];
  if (own.some((h) => FAILURE_STATUSES.has(h.status))) return EXIT.failed;
  return EXIT.ok;
}

const OUTPUTS = ["text", "json", "junit", "claude"];

/** How `hooks run`'s flags say to answer: in a host's contract, or as text, JSON or JUnit. */
export interface RunPlan {
  /** `--fail-closed`: block on a gate event when hookrun cannot run the hooks. */
  failClosed?: boolean;
  /** `--deadline SECONDS`, in ms: when the host kills this dispatch. */
  deadlineMs?: number;
  /** Run a file's last trusted version while it is changed or invalid (default: with a host); `hooks test` tests the file as it is. */
  lastTrusted?: boolean;
  /** The host named (`--host NAME`, `--output claude`) or `auto`; undefined: none named. */
  hostFlag: string | undefined;
  /** `--output`; undefined: the host's contract when there is one, else text. */
  asked: string | undefined;
  maxParallel: number | undefined;
  explain: "json" | "text" | null;
}

function planRun(ctx: CliContext, flags: RunFlags): RunPlan {
  const asked = flags.json ? "json" : flags.output;
  if (asked !== undefined && !OUTPUTS.includes(asked)) throw new UsageError(`--output ${asked} is not supported; use ${OUTPUTS.join(", ")}`);
  if (flags.host !== undefined && flags.host !== "auto" && !hostRow(flags.host)) throw new UsageError(`--host ${flags.host}: no such host; use auto or one of ${HOST_NAMES.join(", ")}`);
  // `--output claude` is `--host claude`, as before hosts had a flag of their own.
  const hostFlag = asked === "claude" ? "claude" : flags.host;
  if (hostFlag !== undefined && asked !== undefined && asked !== "claude")
    throw new UsageError(`--host ${hostFlag} answers in the host's contract; leave out --output ${asked} (or --host to get ${asked})`);
  let maxParallel: number | undefined;
  if (flags.maxParallel !== undefined) {
    maxParallel = Number(flags.maxParallel);
    if (!Number.isInteger(maxParallel) || maxParallel < 1) throw new UsageError(`--max-parallel ${flags.maxParallel}: expected a whole number ≥ 1`);
  }
  // HOOKS_EXPLAIN=1 (set by `hooks doctor` when it fires a host's entry as the host would): the
  // explanation as JSON instead of a run, so the probe reaches hookrun and starts no hook.
  const probe = ctx.env.HOOKS_EXPLAIN === "1";
  const explain = flags.explain || probe ? (probe || flags.json || asked === "json" ? "json" : "text") : null;
  let deadlineMs: number | undefined;
  if (flags.deadline !== undefined) {
    deadlineMs = Number(flags.deadline) * 1000;
    if (!/^\d+(\.\d+)?$/.test(flags.deadline) || deadlineMs <= 0)
      throw new UsageError(`--deadline ${flags.deadline}: expected the seconds after which the agent kills this dispatch (its entry's timeout)`);
  }
  return { hostFlag, asked, maxParallel, explain, failClosed: flags.failClosed, deadlineMs };
}

/**
 * The request of one `hooks run` (and of each `hooks test` fixture) for the one path from an
 * event to its answer (src/hosts/runHostEvent.ts). Without --output, the payload of a known host
 * is answered in that host's contract (docs/hosts.md). `runner` makes the run's runner; the
 * caller closes it.
 */
export async function cliHostEventRequest(
  ctx: CliContext,
  eventArg: string,
  payload: HookContext,
  plan: Pick<RunPlan, "hostFlag" | "asked" | "failClosed" | "lastTrusted" | "deadlineMs">,
  runner: (config: ResolvedConfig) => Runner,
  options: TriggerOptions,
  payloadProblem?: Error,
): Promise<HostEventRequest> {
  const host = plan.asked !== undefined && plan.asked !== "claude" ? null : await resolveHostRuntime(plan.hostFlag, payload);
  return {
    host,
    named: plan.hostFlag === "auto" ? undefined : plan.hostFlag,
    event: eventArg,
    payload,
    env: ctx.env,
    cwd: ctx.cwd,
    config: (overrides) => loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env, overrides }),
    runner,
    trust: ctx.trust,
    trustCommand: (projectDir) => trustCommand(ctx, projectDir),
    options,
    failClosed: plan.failClosed,
    deadlineMs: plan.deadlineMs,
    // The agent's clock started when it started this process: Node's start and the config's load count.
    startedAt: performance.timeOrigin,
    lastTrusted: plan.lastTrusted,
    payloadProblem,
  };
}

/** The runner of one CLI run: async hooks in detached `hooks __async-worker`s that outlive this process (docs/async.md). */
export function cliRunner(ctx: CliContext, config: ResolvedConfig, maxParallel?: number): Runner {
  return createRunner(config, {
    env: ctx.env,
    cwd: ctx.cwd,
    maxParallel,
    trust: ctx.trust ? "all" : "checked",
    asyncMode: ctx.entry ? "detached" : "memory",
    asyncWorker: ctx.entry ? [process.execPath, ctx.entry, "__async-worker"] : undefined,
  });
}

/**
 * `hooks run EVENT`: fire one event through the one path to its answer and print what the hooks
 * said: the host's answer, or the result as text, JSON or JUnit.
 */
export async function runHooks(ctx: CliContext, eventArg: string, flags: RunFlags): Promise<number> {
  const plan = planRun(ctx, flags);
  // A context hookrun cannot read (over its limit, not JSON) fails closed where a hook asks it to (docs/fail-closed.md).
  let payload: HookContext = {};
  let payloadProblem: ContextError | undefined;
  try {
    payload = await readRunContext(ctx, flags);
  } catch (error) {
    if (!(error instanceof ContextError) || plan.hostFlag === undefined) throw error;
    payloadProblem = error;
  }
  const names = (config: ResolvedConfig): void => {
    const all = config.hooks.map((h) => h.name);
    checkHookNames("--only", flags.only, all);
    checkHookNames("--skip", flags.skip, all);
    if (config.files.length === 0) ctx.stderr.write(`hooks: no hooks.yaml found from ${ctx.cwd} up (nor a user config); nothing to run\n`);
  };
  if (plan.explain || flags.dryRun) {
    const request = await cliHostEventRequest(
      ctx,
      eventArg,
      payload,
      plan,
      () => {
        throw new Error("a dry run runs nothing");
      },
      {},
      payloadProblem,
    );
    const outcome = await runHostEvent({ ...request, prepareOnly: true });
    if (outcome.kind === "ignored") {
      if (plan.explain === "json") ctx.stdout.write(`${JSON.stringify({ event: outcome.event, host: request.host?.name, ignored: outcome.why })}\n`);
      return EXIT.ok;
    }
    if (outcome.kind !== "prepared") return outcome.kind === "not-run" || outcome.kind === "blocked" ? answer(ctx, outcome.answer) : EXIT.ok;
    names(outcome.config);
    return inspectRun(ctx, flags, plan, request.host, outcome);
  }
  // CI leaves nothing behind: under CI `hooks run` waits for its async hooks.
  const wait = flags.wait ?? runningInCi(ctx.env);
  const rewake = flags.rewake ? ({ only: flags.rewake, rewake: "foreground" } as const) : flags.skipRewake ? ({ rewake: "skip" } as const) : {};
  const options = { only: flags.only, skip: flags.skip, wait, ...rewake, ...(flags.record ? { log: { record: true } } : {}) };
  const { outcome, session } = await dispatchEvent(ctx, eventArg, payload, plan, options, names, payloadProblem);
  if (outcome.kind === "ignored" || outcome.kind === "not-run" || outcome.kind === "blocked") return answer(ctx, outcome.answer);
  if (outcome.kind !== "ran") return EXIT.ok;
  // Only Claude Code runs the entry in the background; a host that fires Claude's entries as plain hooks (Cursor) gets its own answer.
  const rewoken = flags.rewake && session.host?.name === "claude" ? rewakeAnswer(outcome.result) : null;
  if (rewoken) return answer(ctx, rewoken);
  const code = outcome.answer ? answer(ctx, outcome.answer) : printResult(ctx, outcome.result, session);
  if (session.interrupted) return signalExitCode(session.interrupted);
  return outcome.answer ? code : exitCodeForResult(outcome.result, wait);
}

/**
 * What Claude Code's asyncRewake entry reads (docs/async.md#rewake): the hooks' block and feedback
 * reasons on stderr with exit 2, which wakes the model with them; null when there are none (the
 * host's answer as usual).
 */
function rewakeAnswer(result: TriggerResult): HostAnswer | null {
  const texts = [...(result.blocked && result.reason ? [result.reason] : []), ...result.messages.filter((m) => m.kind === "feedback" || m.kind === "followup").map((m) => m.content)];
  return texts.length ? { stdout: "", stderr: `${texts.join("\n")}\n`, exitCode: 2 } : null;
}

/**
 * One event fired from the command line (`hooks run`, each `hooks test` fixture) through the one
 * path to its answer, with what a process adds around it: the runner's signals, live progress,
 * and the hand-off of what outlives the run. `check` sees the config before anything runs.
 */
export async function dispatchEvent(
  ctx: CliContext,
  eventArg: string,
  payload: HookContext,
  plan: Pick<RunPlan, "hostFlag" | "asked" | "maxParallel" | "failClosed" | "lastTrusted" | "deadlineMs">,
  options: TriggerOptions,
  check?: (config: ResolvedConfig) => void,
  payloadProblem?: Error,
): Promise<{ outcome: HostEventOutcome; session: RunSession }> {
  const session = startSession(ctx, plan);
  try {
    const request = await cliHostEventRequest(ctx, eventArg, payload, plan, (config) => (check?.(config), session.start(config)), options, payloadProblem);
    session.host = request.host;
    return { outcome: await runHostEvent(request), session };
  } finally {
    await session.stop();
  }
}

/** `hooks explain` and `hooks run --dry-run`: what would run for this context, and why not; nothing runs. */
async function inspectRun(ctx: CliContext, flags: RunFlags, plan: RunPlan, host: HostRuntime | null, prepared: Extract<HostEventOutcome, { kind: "prepared" }>): Promise<number> {
  const { config, event, context } = prepared;
  if (prepared.transcriptWarning) ctx.stderr.write(`hooks: warning: ${prepared.transcriptWarning}\n`);
  // Loaded only here: a plain `hooks run` never pays for it (docs/performance.md).
  const { explainHooks, formatExplanation } = await import("../../prove/explain.js");
  const selectOptions = { env: ctx.env, cwd: ctx.cwd, only: flags.only, skip: flags.skip };
  const why = explainHooks(config, event, context, { ...selectOptions, trust: ctx.trust, host: host?.name });
  if (plan.explain === "json") ctx.stdout.write(`${JSON.stringify(why, null, 2)}\n`);
  else if (plan.explain === "text") ctx.stdout.write(terminalSafe(formatExplanation(why, context), { keepNewlines: true }));
  if (plan.explain) return EXIT.ok;
  const planned = planHooks(config, event, context, selectOptions);
  const stdinContext = buildContext(event, context, ctx.cwd, ctx.env);
  const hooks = planned.map((h) => hookJson(h, ctx.cwd, ctx.env));
  const notRun = why.hooks.filter((h) => !h.runs).map((h) => ({ name: h.name, reasons: h.reasons }));
  if (!host && plan.asked === "json") ctx.stdout.write(`${JSON.stringify({ event, dry_run: true, hooks, not_run: notRun, trusted: why.trusted, context: stdinContext }, null, 2)}\n`);
  else {
    const lines = [`${event}: ${hooks.length} hook${hooks.length === 1 ? "" : "s"} would run (dry run)`];
    for (const h of hooks) lines.push(`  ${h.name}  priority ${h.priority}${h.async ? "  async" : ""}  ${h.command ?? JSON.stringify(h.args)}  (${h.source.file}:${h.source.line})`);
    for (const h of notRun) lines.push(`  not run: ${h.name}: ${h.reasons.join("; ")}`);
    lines.push("context:", JSON.stringify(stdinContext, null, 2));
    ctx.stdout.write(`${terminalSafe(lines.join("\n"), { keepNewlines: true })}\n`);
  }
  return EXIT.ok;
}

/** The process side of one `hooks run`: its runner, signals, live progress and, at the end, the hand-off of leftovers. */
export interface RunSession {
  host: HostRuntime | null;
  interrupted: NodeJS.Signals | null;
  progress: ReturnType<typeof startProgress> | null;
  /** How a result without a host is printed. */
  format: string;
  github: boolean;
  start(config: ResolvedConfig): Runner;
  stop(): Promise<void>;
}

function startSession(ctx: CliContext, plan: Pick<RunPlan, "asked" | "maxParallel">): RunSession {
  let runner: Runner | null = null;
  let stopSignals: (() => void) | null = null;
  const session: RunSession = {
    host: null,
    interrupted: null,
    progress: null,
    format: plan.asked ?? "text",
    github: false,
    start(config) {
      runner = cliRunner(ctx, config, plan.maxParallel);
      const own = runner;
      // SIGINT, SIGTERM, SIGHUP, SIGQUIT…: kill every hook's group, report what ran, exit 128+n
      // (docs/running-hooks.md#signals). Unhandled, SIGHUP (a closed terminal) would
      // end the CLI and leave the hooks running. A host that kills the CLI's tree SIGKILLs it
      // soon after (Claude Code: 1.5 s later), so the hooks' groups, out of the host's reach, get
      // SIGKILL well before (SIGNAL_KILL_GRACE_MS); the CLI exits only once each group is gone or
      // SIGKILLed. A second signal kills them at once.
      stopSignals = onTerminatingSignal((signal) => {
        if (session.interrupted) return hastenTerminations(0);
        session.interrupted = signal;
        hastenTerminations(SIGNAL_KILL_GRACE_MS);
        void own.close({ graceMs: 0 });
      });
      // Text output only: under GitHub Actions each hook's block is folded in a log group.
      if (!session.host && session.format === "text") {
        session.github = isGithubActions(ctx.env);
        session.progress = startProgress(own, ctx.stdout, ctx.color, session.github ? formatGithubHookBlock : formatHookBlock);
      }
      return own;
    },
    async stop() {
      session.progress?.stop();
      if (!runner) return;
      // Background jobs of claude-dialect hooks may finish after this process, within their timeout.
      const handedOff = !session.interrupted && handOffBackground(ctx, runner);
      await runner.close({ keepBackground: handedOff });
      stopSignals?.();
    },
  };
  return session;
}

/** A run's result as text, JSON or JUnit (no host). */
function printResult(ctx: CliContext, result: TriggerResult, session: RunSession): number {
  if (session.format === "json") ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (session.format === "junit") ctx.stdout.write(formatJunit([result]));
  else if (result.hooks.length > 0 || result.warnings.length > 0 || result.async_started.length > 0 || result.async_delivered.length > 0) {
    const block = session.github ? formatGithubHookBlock : formatHookBlock;
    // Results of earlier runs' async hooks (delivered now, first) and hooks that never ran
    // (skipped, cancelled before starting) were not shown while running.
    for (const r of [...result.async_delivered, ...result.hooks]) if (!session.progress?.shown.has(r)) ctx.stdout.write(block(r, { color: ctx.color }));
    if (session.github) ctx.stdout.write(formatGithubAnnotations(result));
    ctx.stdout.write(formatFooter(result, { color: ctx.color }));
  }
  return EXIT.ok;
}

/** Print a host's answer; its exit code is the host contract's (a block may be exit 0 with JSON). */
function answer(ctx: CliContext, a: HostAnswer): number {
  ctx.stdout.write(a.stdout);
  ctx.stderr.write(a.stderr);
  return a.exitCode;
}

/**
 * Give each process group a finished claude-dialect hook left running to a detached
 * `hooks __watchdog`, which kills it at the hook's timeout (a group that empties first is left
 * alone). False when one cannot be handed on (no CLI entry to start a watchdog with, no /proc to
 * identify the group by): close() then kills them all.
 */
function handOffBackground(ctx: CliContext, runner: Runner): boolean {
  const left = runner.leftovers();
  if (left.length === 0) return true;
  if (!ctx.entry || left.some((l) => l.start === null)) return false;
  for (const { pgid, deadline, start } of left) {
    try {
      const watchdog = spawn(process.execPath, [ctx.entry, "__watchdog", String(pgid), String(deadline), String(start)], { detached: true, stdio: "ignore", env: ctx.env, cwd: "/" });
      // cwd "/": the project directory may be gone before the watchdog has started (and a Node
      // process whose working directory was removed fails at start-up).
      // A watchdog that could not start leaves no one to end the group at its timeout: end it now.
      watchdog.once("error", () => void terminateGroup(pgid));
      watchdog.unref();
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Text progress while hooks run: each hook's block is printed as soon as it finishes; on a TTY a
 * line rewritten in place also lists the hooks still running with their elapsed time.
 * `printed` collects the names already shown, and `shown` the results, so the final report does
 * not repeat them.
 */
export function startProgress(runner: Runner, out: CliOutput, color: boolean, block: typeof formatHookBlock = formatHookBlock): { stop: () => void; printed: Set<string>; shown: Set<HookResult> } {
  const tty = Boolean(out.isTTY);
  const printed = new Set<string>();
  const shown = new Set<HookResult>();
  const running = new Map<string, number>();
  const clear = (): void => void (tty && out.write("\r\x1b[K"));
  const draw = (): void => {
    if (!tty) return;
    if (running.size === 0) {
      clear();
      return;
    }
    const now = Date.now();
    // Hook names come from config: escaped like the rest of the report (see formatText).
    const text = [...running].map(([name, t]) => `${terminalSafe(name)} ${formatElapsed(now - t)}`).join(", ");
    out.write(`\r\x1b[K${color ? "\x1b[90m" : ""}… running: ${text}${color ? "\x1b[0m" : ""}`);
  };
  const onStart = (e: HookStartEvent): void => {
    running.set(e.name, Date.now());
    draw();
  };
  const onEnd = (e: HookEndEvent): void => {
    running.delete(e.name);
    clear();
    out.write(block(e.result, { color }));
    printed.add(e.name);
    shown.add(e.result);
    draw();
  };
  runner.on("hook:start", onStart);
  runner.on("hook:end", onEnd);
  const timer = tty ? setInterval(draw, 100) : undefined;
  return {
    printed,
    shown,
    stop: () => {
      if (timer) clearInterval(timer);
      runner.off("hook:start", onStart);
      runner.off("hook:end", onEnd);
      clear();
    },
  };
}
