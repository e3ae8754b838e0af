import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { hastenTerminations, terminateGroup } from "../../fs/processes.js";
import { loadConfig } from "../../config/loadConfig.js";
import { deriveLastMessage } from "../../interop/lastMessageFromTranscript.js";
import { ConfigError, TrustError, UsageError } from "../../errors.js";
import { parseHookEvent, tryParseHookEvent } from "../../events/parseHookEvent.js";
import { NOT_RUN_CONTEXT_EVENTS } from "../../hosts/claude.js";
import { HOSTS, hostByName, invalidConfigWords, notTrustedWords, resolveHost } from "../../hosts/table.js";
import type { HostAdapter, HostAnswer } from "../../hosts/types.js";
import { READ_LIMITS, readBoundedText } from "../../fs/readBounded.js";
import { assertTrusted } from "../../trust/store.js";
import { formatGithubAnnotations, formatGithubHookBlock, isGithubActions } from "../../report/github.js";
import { formatJunit } from "../../report/formatJunit.js";
import { formatElapsed, formatFooter, formatHookBlock } from "../../report/formatText.js";
import { buildContext } from "../../runner/context.js";
import { createRunner } from "../../runner/createRunner.js";
import { FAILURE_STATUSES } from "../../runner/runHook.js";
import { hooksDisabledByEnv, planHooks } from "../../runner/select.js";
import type { HookEndEvent, HookResult, HookStartEvent, Runner, TriggerResult } from "../../runner/types.js";
import { checkHookNames } from "../../runner/context.js";
import { hookJson } from "../../report/json.js";
import type { CliOutput } from "../stdioWriter.js";
import { terminalSafe } from "../../text.js";
import type { CliContext } from "../context.js";
import { EXIT, signalExitCode } from "../exitCodes.js";
import { readRunContext, type ContextFlags } from "./runContext.js";
import { onTerminatingSignal, SIGNAL_KILL_GRACE_MS } from "../signals.js";
import { runningInCi } from "../../env.js";

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
  wait?: boolean;
  maxParallel?: string;
}

/**
 * Exit code of a finished run (SPEC §8): 2 blocked, 1 a hook failed, else 0 (continue:false too).
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

/** The variables of `env` a host's adapter reads (HostAdapter.readEnv), those set. */
function readEnvOf(host: HostAdapter, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of host.readEnv ?? []) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/**
 * The command that reviews and trusts the config of `projectDir`, spelled with the binary that is
 * running when it is a project's installed one (`node_modules/.bin/hooks`), else `hooks`.
 */
export function trustCommand(ctx: Pick<CliContext, "entry" | "configPath">, projectDir: string): string {
  const m = ctx.entry ? /^(.*[\\/]node_modules)[\\/](?:\.bin[\\/]hook(?:s|run)|hookrun[\\/]dist[\\/]bin[\\/]hooks\.js)$/.exec(ctx.entry) : null;
  const local = m ? path.join(m[1], ".bin", "hooks") : null;
  const bin = local && existsSync(local) ? shellWord(local) : "hooks";
  return `${bin} -C ${shellWord(projectDir)}${ctx.configPath ? ` -c ${shellWord(ctx.configPath)}` : ""} trust`;
}

/**
 * `hooks run EVENT`: fire one event and print what the hooks said. `observe` gets the merged
 * result before it is printed or rendered for a host: `hooks test` runs each fixture through here
 * and compares that result (and the exit code) with what the fixture expects.
 */
export async function runHooks(ctx: CliContext, eventArg: string, flags: RunFlags, observe?: (result: TriggerResult) => void): Promise<number> {
  const asked = flags.json ? "json" : flags.output;
  if (asked !== undefined && !OUTPUTS.includes(asked)) throw new UsageError(`--output ${asked} is not supported; use ${OUTPUTS.join(", ")}`);
  if (flags.host !== undefined && flags.host !== "auto" && !hostByName(flags.host))
    throw new UsageError(`--host ${flags.host}: no such host; use auto or one of ${HOSTS.map((h) => h.name).join(", ")}`);
  // `--output claude` is `--host claude`, as before hosts had a flag of their own.
  const hostFlag = asked === "claude" ? "claude" : flags.host;
  if (hostFlag !== undefined && asked !== undefined && asked !== "claude")
    throw new UsageError(`--host ${hostFlag} answers in the host's contract; leave out --output ${asked} (or --host to get ${asked})`);
  let maxParallel: number | undefined;
  if (flags.maxParallel !== undefined) {
    maxParallel = Number(flags.maxParallel);
    if (!Number.isInteger(maxParallel) || maxParallel < 1) throw new UsageError(`--max-parallel ${flags.maxParallel}: expected a whole number ≥ 1`);
  }
  const payload = await readRunContext(ctx, flags);
  // HOOKS_EXPLAIN=1 (set by `hooks doctor` when it fires a host's entry as the host would): the
  // explanation as JSON instead of a run, so the probe reaches hookrun and starts no hook.
  const explain = flags.explain || ctx.env.HOOKS_EXPLAIN === "1" ? (ctx.env.HOOKS_EXPLAIN === "1" || flags.json || asked === "json" ? "json" : "text") : null;
  // Without --output, the payload of a known host is answered in that host's contract (SPEC §13).
  const host: HostAdapter | null = asked !== undefined && asked !== "claude" ? null : resolveHost(hostFlag, payload);
  const output = host ? "host" : (asked ?? "text");
  const hostEvent = (arg: string): string | undefined => (host && Object.hasOwn(host.events, arg) ? host.events[arg] : undefined);
  // A host event fired for none of hookrun's events (Qwen's UserPromptSubmit on a continuation): nothing runs, nothing is said.
  if (host?.route && host.route(payload, hostEvent(eventArg) ?? tryParseHookEvent(eventArg) ?? eventArg) === null) {
    if (explain === "json") ctx.stdout.write(`${JSON.stringify({ event: eventArg, host: host.name, ignored: `${host.title} sends this event for no hookrun event: nothing runs` })}\n`);
    return EXIT.ok;
  }
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig({ cwd: ctx.cwd, configPath: ctx.configPath, userConfig: ctx.userConfig, env: ctx.env });
  } catch (error) {
    // Exit 78 would be a non-blocking error most hosts show no headless user: say it in the agent.
    if (!host || explain || !(error instanceof ConfigError)) throw error;
    const d = error.diagnostics.find((x) => x.severity === "error") ?? error.diagnostics[0];
    const problem = d ? `${d.file}:${d.line}:${d.col}: ${d.message}` : error.message;
    // The host's answer first: a host that reads stderr's first line (agent-code) reads it, not this diagnostic.
    const code = answer(ctx, host.notRun(hostEvent(eventArg) ?? tryParseHookEvent(eventArg) ?? eventArg, ...invalidConfigWords(problem)));
    ctx.stderr.write(`${terminalSafe(`hooks: ${error.message}${d ? `\n${problem}` : ""}`)}\n`);
    return code;
  }
  const custom = Object.keys(config.events).filter((e) => config.events[e].custom);
  const event = hostEvent(eventArg) ?? parseHookEvent(eventArg, custom);
  // Another host's entry fired by this host (Copilot CLI runs .claude/settings.json too): when this
  // host has hookrun entries of its own for the event, those run the hooks; this one stays quiet,
  // or every hook would run twice.
  if (host && hostFlag !== undefined && hostFlag !== "auto" && host.name !== hostFlag && (await hasOwnEntries(host, config.projectDir, event))) {
    if (explain === "json")
      ctx.stdout.write(
        `${JSON.stringify({ event, host: host.name, ignored: `${host.title} has hookrun entries of its own for this event, which run the hooks; this ${hostFlag} entry stays quiet` })}\n`,
      );
    return EXIT.ok;
  }
  const context = host ? host.read(payload, event, ctx.env) : payload;
  // After the host read: a host's payload is recognised by what it carries, and this is not its.
  if (context.session_id === undefined || context.session_id === "") context.session_id = ctx.env.HOOKS_SESSION_ID || "default";
  // A transcript that cannot be read (a FIFO, a device, too large) never fails the run.
  const transcriptWarning = deriveLastMessage(context, ctx.cwd);
  const names = config.hooks.map((h) => h.name);
  checkHookNames("--only", flags.only, names);
  checkHookNames("--skip", flags.skip, names);
  if (config.files.length === 0) ctx.stderr.write(`hooks: no hooks.yaml found from ${ctx.cwd} up (nor a user config); nothing to run\n`);

  if (explain || flags.dryRun) {
    if (transcriptWarning) ctx.stderr.write(`hooks: warning: ${transcriptWarning}\n`);
    // Loaded only here: a plain `hooks run` never pays for it (SPEC §15).
    const { explainHooks, formatExplanation } = await import("../../prove/explain.js");
    const selectOptions = { env: ctx.env, cwd: ctx.cwd, only: flags.only, skip: flags.skip };
    const why = explainHooks(config, event, context, { ...selectOptions, trust: ctx.trust, host: host?.name });
    if (explain === "json") ctx.stdout.write(`${JSON.stringify(why, null, 2)}\n`);
    else if (explain === "text") ctx.stdout.write(terminalSafe(formatExplanation(why, context), { keepNewlines: true }));
    if (explain) return EXIT.ok;
    const plan = planHooks(config, event, context, selectOptions);
    const stdinContext = buildContext(event, context, ctx.cwd, ctx.env);
    const hooks = plan.map((h) => hookJson(h, ctx.cwd, ctx.env));
    const notRun = why.hooks.filter((h) => !h.runs).map((h) => ({ name: h.name, reasons: h.reasons }));
    if (output === "json") ctx.stdout.write(`${JSON.stringify({ event, dry_run: true, hooks, not_run: notRun, trusted: why.trusted, context: stdinContext }, null, 2)}\n`);
    else {
      const lines = [`${event}: ${hooks.length} hook${hooks.length === 1 ? "" : "s"} would run (dry run)`];
      for (const h of hooks) lines.push(`  ${h.name}  priority ${h.priority}${h.async ? "  async" : ""}  ${h.command ?? JSON.stringify(h.args)}  (${h.source.file}:${h.source.line})`);
      for (const h of notRun) lines.push(`  not run: ${h.name}: ${h.reasons.join("; ")}`);
      lines.push("context:", JSON.stringify(stdinContext, null, 2));
      ctx.stdout.write(`${terminalSafe(lines.join("\n"), { keepNewlines: true })}\n`);
    }
    return EXIT.ok;
  }

  // Each async hook runs in a detached `hooks __async-worker` that outlives this process (SPEC §5.3).
  const runner = createRunner(config, {
    env: ctx.env,
    cwd: ctx.cwd,
    maxParallel,
    trust: ctx.trust ? "all" : "checked",
    asyncMode: ctx.entry ? "detached" : "memory",
    asyncWorker: ctx.entry ? [process.execPath, ctx.entry, "__async-worker"] : undefined,
  });
  // CI leaves nothing behind: under CI `hooks run` waits for its async hooks.
  const wait = flags.wait ?? runningInCi(ctx.env);
  // SIGINT, SIGTERM, SIGHUP, SIGQUIT…: kill every hook's group, report what ran, exit 128+n
  // (SPEC §5.6). Unhandled, SIGHUP (a closed terminal) would end the CLI and leave the hooks running.
  // A host that kills the CLI's tree SIGKILLs it soon after (Claude Code: 1.5 s later), so the
  // hooks' groups, out of the host's reach, get SIGKILL well before (SIGNAL_KILL_GRACE_MS); the
  // CLI exits only once each group is gone or SIGKILLed. A second signal kills them at once.
  let interrupted: NodeJS.Signals | null = null;
  const stopSignals = onTerminatingSignal((signal) => {
    if (interrupted) return hastenTerminations(0);
    interrupted = signal;
    hastenTerminations(SIGNAL_KILL_GRACE_MS);
    void runner.close({ graceMs: 0 });
  });
  // Under GitHub Actions each hook's block is folded in a log group (SPEC §8).
  const github = output === "text" && isGithubActions(ctx.env);
  const block = github ? formatGithubHookBlock : formatHookBlock;
  const progress = output === "text" ? startProgress(runner, ctx.stdout, ctx.color, block) : null;
  let result: TriggerResult;
  try {
    // Claude Code's model hears about untrusted config on these events even when none of their
    // hooks would run (elsewhere trust is checked only when something would run, as always).
    // (Not under HOOKS=0: nothing would run anyway, and the user knows why.)
    if (host && NOT_RUN_CONTEXT_EVENTS.has(event) && !hooksDisabledByEnv(ctx.env)) assertTrusted(config, { env: ctx.env, trust: ctx.trust });
    // With a host, the run log records the payload as the host sent it: `hooks log --fixture` replays it through the same adapter.
    // `always`: an event that matched no hook is logged too, so `hooks log --follow` shows it reached hookrun.
    // So do the variables its adapter read (agent-code's tool is only in AGENT_CODE_HOOK_TOOL), for the same replay.
    const log = { always: true, ...(host ? { host: host.name, payload, env: readEnvOf(host, ctx.env) } : {}), ...(flags.record ? { record: true } : {}) };
    result = await runner.trigger(event, context, { only: flags.only, skip: flags.skip, wait, log });
  } catch (error) {
    // Exit 77 would be a non-blocking error most hosts show no headless user: say it in the agent.
    if (!host || !(error instanceof TrustError)) throw error;
    const code = answer(ctx, host.notRun(event, ...notTrustedWords(error.files, trustCommand(ctx, config.projectDir))));
    ctx.stderr.write(`${terminalSafe(`hooks: ${error.message}`)}\n`);
    return code;
  } finally {
    progress?.stop();
    // Background jobs of claude-dialect hooks may finish after this process, within their timeout.
    const handedOff = !interrupted && handOffBackground(ctx, runner);
    await runner.close({ keepBackground: handedOff });
    stopSignals();
  }
  if (transcriptWarning) result.warnings.unshift(transcriptWarning);
  observe?.(result);
  let hostAnswer: HostAnswer | null = null;
  if (host) hostAnswer = host.render(result);
  else if (output === "json") ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (output === "junit") ctx.stdout.write(formatJunit([result]));
  else if (result.hooks.length > 0 || result.warnings.length > 0 || result.async_started.length > 0 || result.async_delivered.length > 0) {
    // Results of earlier runs' async hooks (delivered now, first) and hooks that never ran
    // (skipped, cancelled before starting) were not shown while running.
    for (const r of [...result.async_delivered, ...result.hooks]) if (!progress?.shown.has(r)) ctx.stdout.write(block(r, { color: ctx.color }));
    if (github) ctx.stdout.write(formatGithubAnnotations(result));
    ctx.stdout.write(formatFooter(result, { color: ctx.color }));
  }
  if (hostAnswer) {
    const code = answer(ctx, hostAnswer);
    return interrupted ? signalExitCode(interrupted) : code;
  }
  if (interrupted) return signalExitCode(interrupted);
  return exitCodeForResult(result, wait);
}

/** Whether `host`'s own config file in the project holds hookrun entries for `event` (the JSON editor loads only then). */
async function hasOwnEntries(host: HostAdapter, projectDir: string, event: string): Promise<boolean> {
  if (!host.install) return false;
  const file = path.join(projectDir, host.install.projectFile);
  if (!existsSync(file)) return false;
  try {
    const { installedEntries } = await import("../../hosts/hostFile.js");
    const own = installedEntries(host, readBoundedText(file, READ_LIMITS.config, { what: `${host.title} config` }), file);
    return Object.keys(own).some((name) => host.events[name] === event);
  } catch {
    // An unreadable file runs the hooks here: running them once too often beats not at all.
    return false;
  }
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
