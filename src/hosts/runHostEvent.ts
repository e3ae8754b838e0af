import { existsSync } from "node:fs";
import type { ResolvedConfig } from "../config/types.js";
import { ConfigError, TrustError } from "../errors.js";
import { ShortGrace } from "../fs/processes.js";
import { StateDirError } from "../fs/stateDir.js";
import { parseHookEvent, tryParseHookEvent } from "../events/parseHookEvent.js";
import { deriveLastMessage } from "../interop/lastMessageFromTranscript.js";
import { hooksDisabledByEnv } from "../runner/select.js";
import type { HookContext, Runner, TriggerOptions, TriggerResult } from "../runner/types.js";
import { terminalSafe } from "../text.js";
import { type KeptVersion, keptNotice, loadLastTrusted } from "../trust/lastTrusted.js";
import { assertTrusted } from "../trust/store.js";
import { asksFailClosed, closedReason, failedClosedResult, isGateEvent, textAsksFailClosed } from "./failClosed.js";
import { couldNotRunWords, invalidConfigWords, notTrustedWords } from "./notRunWords.js";
import { hostRow } from "./table.js";
import type { HostAdapter, HostAnswer, HostRuntime, Payload } from "./types.js";

/**
 * One event from an agent to its answer (docs/architecture.md#one-path-from-an-event-to-its-answer).
 * Every door calls this and nothing else for it: `hooks run [--host]`, every trigger route of
 * `hooks serve`, `hooks test` and, through `hooks run`, the doctor's probe. It owns the event name
 * (the host's or hookrun's, any spelling), routing, reading the payload, the config's state
 * (loaded, untrusted, invalid), the trigger, the host's answer and the answer when hooks did not
 * run; a door only turns the outcome into its own bytes (a process's stdout and exit code, an
 * HTTP body).
 */

/** The environment of a dispatch. */
type Env = Readonly<Record<string, string | undefined>>;

export interface HostEventRequest {
  /** The host whose payload this is and whose contract answers; null: hookrun's own context and result. */
  host: HostRuntime | null;
  /**
   * The host the caller named (`--host NAME`), when it is not `host` itself (a `.claude/settings.json`
   * entry fired by Copilot CLI): if `host` has hookrun entries of its own for the event, this one stays quiet.
   */
  named?: string;
  /** The event as the door got it: the host's name for it or hookrun's, in any spelling. */
  event: string;
  payload: Payload;
  env: Env;
  /** The directory the dispatch runs in (a relative transcript path is read from here). */
  cwd: string;
  /**
   * The config as it stands now; throws ConfigError when it does not load. With `overrides`
   * (file → text), those files' texts in place of the files: their last trusted versions.
   */
  config(overrides?: Record<string, string>): Promise<ResolvedConfig> | ResolvedConfig;
  /**
   * Run the last trusted version of a file that changed since it was trusted or no longer loads
   * (docs/trust.md#the-last-trusted-version-keeps-guarding). Default: with a host (an agent's
   * event); `hooks run` without one, in a terminal or CI, sees the config as it is.
   */
  lastTrusted?: boolean;
  /** The runner for `config` (a door makes a fresh one or hands its warm one). */
  runner(config: ResolvedConfig): Runner;
  /** `--trust` or the library's `trust: "all"`: the config runs without a recorded review. */
  trust?: boolean;
  /** The command that reviews and trusts the config of `projectDir`, as the user should type it. */
  trustCommand(projectDir: string): string;
  /** --only, --skip, --wait, a cancel signal, what the run log records. */
  options?: TriggerOptions;
  /** Stop after reading the payload, running nothing (`hooks explain`, `--dry-run`, the doctor's probe). */
  prepareOnly?: boolean;
  /**
   * The dispatch entry asked to fail closed (`--fail-closed`, written by `hooks install` for an
   * event with an `on_failure: block` hook): it holds even when the config no longer says so.
   */
  failClosed?: boolean;
  /** The door could not read the payload (over the context limit, not JSON): `payload` is empty. */
  payloadProblem?: Error;
  /**
   * With `failClosed`: when the host kills the dispatch (`--deadline`, the entry's timeout),
   * counted from `startedAt`. hookrun stops its hooks before then and blocks, so the kill never
   * lets a guarded call through.
   */
  deadlineMs?: number;
  /**
   * When the host's clock for `deadlineMs` started (epoch ms; the CLI passes its process's start,
   * so the time Node took to start and load the config counts). Default: now.
   */
  startedAt?: number;
}

/** What came of an event, for the door to print. */
export type HostEventOutcome =
  /** The hooks ran: the result, and the host's answer (null without a host). */
  | { kind: "ran"; event: string; config: ResolvedConfig; context: HookContext; result: TriggerResult; answer: HostAnswer | null; hostEvent?: string }
  /** `prepareOnly`: the event and context that would run. */
  | { kind: "prepared"; event: string; config: ResolvedConfig; context: HookContext; transcriptWarning: string | null }
  /** Nothing runs and nothing is said: the host fired this for none of hookrun's events, or another entry of the host runs it. */
  | { kind: "ignored"; event: string; why: string; answer: HostAnswer }
  /** The config kept the hooks from running (untrusted or invalid): the host's not-run answer. */
  | { kind: "not-run"; event: string; why: "untrusted" | "invalid" | "failed"; error: Error; answer: HostAnswer }
  /**
   * hookrun could not run a hook that asked `on_failure: block` (docs/fail-closed.md): the call is
   * blocked, `result` says why (hookrun's own block), `answer` is the host's blocking answer.
   */
  | { kind: "blocked"; event: string; cause: string; result: TriggerResult; answer: HostAnswer; hostEvent?: string };

/** An answer that says nothing: exit 0, no output. */
const SILENT: HostAnswer = Object.freeze({ stdout: "", stderr: "", exitCode: 0 });

/**
 * Events on which a host's not-run answer reaches the session before anything else happens (the
 * start of a session, a prompt): there the trust check runs even when no hook of the event would,
 * so the user hears at once that the project's hooks are off. An adapter may name its own.
 */
const ANNOUNCED = new Set(["session_start", "user_prompt_submit"]);

export async function runHostEvent(req: HostEventRequest): Promise<HostEventOutcome> {
  const { host } = req;
  const hostEvent = host && Object.hasOwn(host.events, req.event) ? host.events[req.event] : undefined;
  const early = hostEvent ?? tryParseHookEvent(req.event) ?? req.event;
  // A host event fired for none of hookrun's events (Qwen's UserPromptSubmit on a continuation).
  if (host?.route && !req.payloadProblem && host.route(req.payload, early) === null)
    return { kind: "ignored", event: early, why: `${host.title} sends this event for no hookrun event: nothing runs`, answer: SILENT };
  let config: ResolvedConfig;
  let kept: KeptVersion[] = [];
  try {
    if ((req.lastTrusted ?? host !== null) && !req.prepareOnly) ({ config, kept } = await loadLastTrusted((o) => req.config(o), { env: req.env, trust: req.trust }));
    else config = await req.config();
  } catch (error) {
    if (!host || req.prepareOnly || !(error instanceof ConfigError)) throw error;
    const files = [...new Set(error.diagnostics.filter((d) => d.severity === "error").map((d) => d.file))];
    if (isGateEvent(early, null) && (req.failClosed || textAsksFailClosed(files)))
      return blocked(req.payload, host, early, `the hooks config does not load (${firstProblem(error)})`, "fix it (`hooks validate` lists every problem)");
    return { kind: "not-run", event: early, why: "invalid", error, answer: invalidAnswer(host, early, error) };
  }
  const custom = Object.keys(config.events).filter((e) => config.events[e].custom);
  const event = hostEvent ?? parseHookEvent(req.event, custom);
  const failsClosed = host !== null && (asksFailClosed(config, event) || (req.failClosed === true && isGateEvent(event, config)));
  if (req.payloadProblem) {
    if (failsClosed) return blocked(req.payload, host, event, req.payloadProblem.message, "see docs/limits.md");
    if (host) return failedOpen(host, event, req.payloadProblem);
    throw req.payloadProblem;
  }
  if (host && req.named !== undefined && req.named !== host.name && (await hasOwnEntries(host, config.projectDir, event)))
    return { kind: "ignored", event, why: `${host.title} has hookrun entries of its own for this event, which run the hooks; this ${req.named} entry stays quiet`, answer: SILENT };
  const deadline = failsClosed && req.deadlineMs ? startDeadline(req.deadlineMs, req.startedAt ?? Date.now()) : null;
  try {
    const options = deadline ? { ...req.options, signal: req.options?.signal ? AbortSignal.any([req.options.signal, deadline.signal]) : deadline.signal } : req.options;
    // The user hears, in the agent, what changed and how to review it (a notice: never the model's).
    const outcome = await readAndRun({ ...req, options }, config, event, kept.length ? keptNotice(kept, req.trustCommand(config.projectDir)) : null);
    if (host && deadline?.signal.aborted && outcome.kind === "ran" && !outcome.result.blocked)
      return blocked(
        req.payload,
        host,
        event,
        `its hooks did not finish before ${host.title} would kill hookrun (${req.deadlineMs! / 1000} s)`,
        "make the hooks faster, or run `hooks install` again if their timeouts grew",
      );
    return outcome;
  } catch (error) {
    if (!host) throw error;
    if (error instanceof TrustError) {
      const review = req.trustCommand(config.projectDir);
      if (failsClosed) return blocked(req.payload, host, event, error.message, `review it: ${review}`);
      const answer = host.notRun(event, ...notTrustedWords(error.files, review));
      return { kind: "not-run", event, why: "untrusted", error, answer: withDiagnostic(answer, `hooks: ${error.message}`) };
    }
    if (failsClosed && !req.prepareOnly) return blocked(req.payload, host, event, ...failedWords(error));
    // Failing open under a host is said in the host's contract (its exit code stays "go on"), not as an exit code it may read as a block.
    if (!req.prepareOnly && error instanceof StateDirError) return failedOpen(host, event, error);
    throw error;
  } finally {
    deadline?.stop();
  }
}

/**
 * A signal that fires before a host's kill, `ms` after `startedAt`, leaving hookrun time to stop
 * its hooks' process groups and answer (docs/fail-closed.md, `--deadline`).
 */
function startDeadline(ms: number, startedAt: number): { signal: AbortSignal; stop(): void } {
  const margin = deadlineMargin(ms);
  const abort = new AbortController();
  const timer = setTimeout(
    // A hook that ignores SIGTERM must not keep the answer past the kill: SIGKILL comes half the
    // margin after SIGTERM instead of a hook timeout's 2 s.
    () => abort.abort(new ShortGrace(margin / 2)),
    Math.max(0, startedAt + ms - margin - Date.now()),
  );
  timer.unref();
  return { signal: abort.signal, stop: () => clearTimeout(timer) };
}

/**
 * How long before a host's kill at `ms` hookrun stops its hooks: a tenth of the time, at least
 * 1 s (a loaded machine's event loop and process exits are slow) but never more than half of
 * it, and at most 3 s.
 */
function deadlineMargin(ms: number): number {
  return Math.min(3000, Math.max(ms / 10, Math.min(1000, ms / 2)));
}

/** The payload read as the host's, then, unless only preparing, the trigger and the host's answer. */
async function readAndRun(req: HostEventRequest, config: ResolvedConfig, event: string, notice: string | null): Promise<HostEventOutcome> {
  const { host } = req;
  const context = host ? host.read(req.payload, event, req.env) : req.payload;
  // A transcript that cannot be read (a FIFO, a device, too large) never fails the run.
  const transcriptWarning = deriveLastMessage(context, req.cwd);
  if (req.prepareOnly) return { kind: "prepared", event, config, context, transcriptWarning };
  if (host && (host.announceNotRun ?? ANNOUNCED).has(event) && !hooksDisabledByEnv(req.env)) assertTrusted(config, { env: req.env, trust: req.trust });
  // With a host, the run log records the payload as the host sent it, and the variables its
  // adapter read: `hooks log --fixture` replays both through the same adapter. `always`: an
  // event that matched no hook is logged too, so `hooks log --follow` shows it reached hookrun.
  const log = { always: true, ...req.options?.log, ...(host ? { host: host.name, payload: req.payload, env: readEnvOf(host, req.env) } : {}) };
  const result = await req.runner(config).trigger(event, context, { ...req.options, log });
  if (transcriptWarning) result.warnings.unshift(transcriptWarning);
  if (notice) result.messages.unshift({ role: "system", kind: "notice", content: notice });
  const fired = host ? firedAs(host, req) : undefined;
  return { kind: "ran", event, config, context, result, answer: host ? host.render(result, fired) : null, ...(fired && { hostEvent: fired }) };
}

/** hookrun failed closed: the host's blocking answer, the cause and the fix in its reason, and on stderr for the person reading the log. */
function blocked(payload: Payload, host: HostRuntime, event: string, cause: string, fix: string): HostEventOutcome & { kind: "blocked" } {
  const reason = closedReason(cause, fix);
  const sessionId = typeof payload.session_id === "string" ? payload.session_id : "";
  const result = failedClosedResult(event, sessionId, reason);
  const fired = firedAs(host, { event: "", payload });
  return { kind: "blocked", event, cause, result, answer: withDiagnostic(host.render(result, fired), `hooks: ${reason}`), ...(fired && { hostEvent: fired }) };
}

/**
 * The host's own name of the event that fired: the payload's `hook_event_name` when it is one
 * of the host's events, else the event the door was given when it is one.
 */
function firedAs(host: HostRuntime, req: Pick<HostEventRequest, "event" | "payload">): string | undefined {
  const named = Object.hasOwn(req.payload, "hook_event_name") ? req.payload.hook_event_name : undefined;
  if (typeof named === "string" && Object.hasOwn(host.events, named)) return named;
  return Object.hasOwn(host.events, req.event) ? req.event : undefined;
}

/** The cause and the fix of hookrun's block when hookrun itself failed. */
function failedWords(error: unknown): [cause: string, fix: string] {
  return [`hookrun failed: ${error instanceof Error ? error.message : String(error)}`, "run `hooks doctor`; report it if it persists"];
}

/**
 * What a fail-closed dispatch answers when hookrun failed around the one path (a crash, an error
 * in its own command line; src/hosts/crashAnswer.ts reads argv for it): the host's block.
 */
export function failedAnswer(host: HostRuntime, event: string, error: unknown): HostAnswer {
  return blocked({}, host, event, ...failedWords(error)).answer;
}

/**
 * What a dispatch entry answers when hookrun cannot start at all (`hooks install` writes it into
 * the entry, src/hosts/dispatch.ts): failing closed, the host's own block, rendered by its adapter;
 * failing open, the host's not-run answer.
 */
export function cannotStartAnswer(host: HostRuntime, event: string, closed = true): HostAnswer {
  const cause = "its binary is missing or node is not on PATH";
  const fix = "run `npm install` in the project (or `hooks doctor`)";
  if (!closed) return host.notRun(event, ...couldNotRunWords(`it could not start (${cause}; ${fix})`));
  const reason = `hookrun blocked this because a hook asks to fail closed (on_failure: block) and hookrun could not start: ${cause}; ${fix}`;
  return host.render(failedClosedResult(event, "", reason));
}

/** hookrun could not run the hooks and no guard asked to fail closed: the host's not-run answer, saying so. */
function failedOpen(host: HostRuntime, event: string, error: Error): HostEventOutcome {
  const answer = withDiagnostic(host.notRun(event, ...couldNotRunWords(error.message)), `hooks: ${error.message}`);
  return { kind: "not-run", event, why: "failed", error, answer };
}

/** A config error's first problem, as FILE:LINE:COL: message. */
function firstProblem(error: ConfigError): string {
  const d = error.diagnostics.find((x) => x.severity === "error") ?? error.diagnostics[0];
  return d ? `${d.file}:${d.line}:${d.col}: ${d.message}` : error.message;
}

/** The host's answer for a config that does not load, its first error named as FILE:LINE:COL. */
function invalidAnswer(host: HostRuntime, event: string, error: ConfigError): HostAnswer {
  const problem = firstProblem(error);
  return withDiagnostic(host.notRun(event, ...invalidConfigWords(problem)), `hooks: ${error.message}${error.diagnostics.length ? `\n${problem}` : ""}`);
}

/**
 * The host's answer first, hookrun's own diagnostic after it on stderr: a host that reads
 * stderr's first line (agent-code) reads its answer, a person reading the log sees why.
 */
function withDiagnostic(answer: HostAnswer, diagnostic: string): HostAnswer {
  return { ...answer, stderr: `${answer.stderr}${terminalSafe(diagnostic)}\n` };
}

/** The variables of `env` a host's adapter reads (HostAdapter.readEnv), those set. */
function readEnvOf(host: HostRuntime, env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of host.readEnv ?? []) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Whether `host`'s own setup in the project holds hookrun entries for `event` (its whole adapter,
 * when `host` is its runtime part, and its editor load only then).
 */
async function hasOwnEntries(host: HostRuntime, projectDir: string, event: string): Promise<boolean> {
  const setup = (host as HostAdapter).setup ?? (await hostRow(host.name)?.adapter())?.setup;
  if (!setup || !existsSync(setup.place(projectDir, false))) return false;
  try {
    return Object.keys(await setup.installed(projectDir, false)).some((name) => host.events[name] === event);
  } catch {
    // An unreadable file runs the hooks here: running them once too often beats not at all.
    return false;
  }
}
