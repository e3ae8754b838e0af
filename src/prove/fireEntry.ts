import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { signalGroup } from "../fs/processes.js";
import { LOCAL_HTTP_VAR } from "../hosts/dispatch.js";
import type { HostAdapter } from "../hosts/types.js";

// `hooks doctor`'s probe: one dispatch command of a host's config run the way that host runs it
// (its shell, the project as cwd, its variables, a payload in its shape) with HOOKS_EXPLAIN=1,
// so hookrun says which hooks it would run and runs none. Whatever stands between the host and
// hookrun (a missing node_modules/.bin/hooks, a broken quote, an old hookrun) shows up here as
// the host would meet it.

/** What hookrun printed under HOOKS_EXPLAIN=1 (src/prove/explain.ts), or why a host's entry stays quiet. */
export interface ProbeAnswer {
  event: string;
  host?: string;
  trusted?: boolean;
  untrusted?: string[];
  hooks?: { name: string; runs: boolean; reasons: string[] }[];
  /** Set instead of `hooks` when hookrun, rightly, runs nothing for this entry (why, in words). */
  ignored?: string;
}

export type ProbeOutcome = { ok: true; answer: ProbeAnswer } | { ok: false; problem: string; fix: string };

/** Seconds a probe may take: a cold hookrun answers in well under one. */
export const PROBE_TIMEOUT_MS = 10_000;
const MAX_OUTPUT = 1024 * 1024;

const tailOf = (text: string): string => {
  const t = text.trim().split("\n").slice(-3).join(" / ");
  return t.length > 300 ? `…${t.slice(-300)}` : t;
};

/** How one entry is fired: the argv, its stdin and environment, and the fix for a dispatch that cannot start. */
interface ProbeRun {
  argv: string[];
  payload: string;
  env: NodeJS.ProcessEnv;
  /** How the host runs the command, in words. */
  how: string;
  missingBin: boolean;
  installFix: string;
}

/** What the fired process did. */
interface ProbeExit {
  /** It could not be started (spawn failed, or the 'error' event). */
  startError?: { code?: string; message: string };
  code: number | null;
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const INTERRUPTED: ProbeOutcome = { ok: false, problem: "not fired: the doctor was interrupted", fix: "run `hooks doctor` again" };

/**
 * Run `command` (the text of a dispatch entry, or a hook file for a host that runs files) as
 * `host` would for `hostEvent` in `projectDir`, and read hookrun's explanation from its stdout.
 * `signal` aborted (the doctor interrupted): the probe's process group is SIGKILLed at once, and
 * none is started once it is. `tool`: the host's tool the entry is limited to (HostProbe.entryTool).
 */
export async function fireEntry(
  host: HostAdapter,
  hostEvent: string,
  command: string,
  projectDir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = PROBE_TIMEOUT_MS,
  signal?: AbortSignal,
  tool?: string,
): Promise<ProbeOutcome> {
  const run = probeRun(host, hostEvent, command, projectDir, env, tool);
  if (signal?.aborted) return INTERRUPTED;
  const exit = await runProbe(run, projectDir, timeoutMs, signal);
  if (signal?.aborted) return INTERRUPTED;
  return judgeProbe(host, command, run, exit, timeoutMs);
}

function probeRun(host: HostAdapter, hostEvent: string, command: string, projectDir: string, env: NodeJS.ProcessEnv, tool?: string): ProbeRun {
  const probe = host.probe!;
  const text = probe.expand ? probe.expand(command, projectDir) : command;
  const argv = [...probe.shell(env), text];
  const bin = path.join(projectDir, "node_modules", ".bin", "hooks");
  const missingBin = /node_modules\/\.bin\/hooks/.test(command) && !existsSync(bin);
  // A warm mode's command entry steps aside under this variable (the http entry beside it runs the
  // hooks): fired without it, the entry proves the cold path; the server's check proves the warm one.
  const { [LOCAL_HTTP_VAR]: _warm, ...rest } = env;
  return {
    argv,
    payload: `${JSON.stringify(probe.payload(hostEvent, projectDir, tool))}\n`,
    env: { ...rest, ...probe.env(projectDir, hostEvent, tool), HOOKS_EXPLAIN: "1" },
    how: argv.length > 1 ? `\`${argv.slice(0, -1).join(" ")} COMMAND\`` : "the file itself",
    missingBin,
    installFix: missingBin
      ? `add hookrun to the project: \`npm install --save-dev hookrun\` (or \`npm install\` when package.json lists it); ${path.relative(projectDir, bin)} is missing`
      : `run \`hooks install ${host.name}\` to rewrite the entry, then \`hooks doctor ${host.name}\` again`,
  };
}

/** Start the probe in a process group of its own, feed it the payload, and collect what it does (bounded); killed at `timeoutMs` or on `signal`. */
function runProbe(run: ProbeRun, cwd: string, timeoutMs: number, signal?: AbortSignal): Promise<ProbeExit> {
  return new Promise<ProbeExit>((resolve) => {
    const exit: ProbeExit = { code: null, killedBy: null, stdout: "", stderr: "", timedOut: false };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(run.argv[0], run.argv.slice(1), { cwd, env: run.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ ...exit, startError: { message: (error as Error).message } });
      return;
    }
    const kill = (): void => {
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    };
    const timer = setTimeout(() => {
      exit.timedOut = true;
      kill();
    }, timeoutMs);
    // The probe leads a group of its own (detached): a signal to the doctor never reaches it, so
    // an interrupted doctor kills the group it started here, by its pid, before it exits.
    signal?.addEventListener("abort", kill, { once: true });
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", kill);
    };
    child.stdout!.on("data", (d: Buffer) => {
      if (exit.stdout.length < MAX_OUTPUT) exit.stdout += d.toString("utf8");
    });
    child.stderr!.on("data", (d: Buffer) => {
      if (exit.stderr.length < MAX_OUTPUT) exit.stderr += d.toString("utf8");
    });
    child.stdin!.on("error", () => {
      // a command that exits without reading its stdin: its exit says what went wrong
    });
    child.stdin!.end(run.payload);
    child.on("error", (error: NodeJS.ErrnoException) => {
      done();
      resolve({ ...exit, startError: { code: error.code, message: error.message } });
    });
    child.on("close", (code, killedBy) => {
      done();
      kill();
      resolve({ ...exit, code, killedBy });
    });
  });
}

/** The probe's outcome: hookrun's explanation, or what kept the entry from reaching it and the fix. */
function judgeProbe(host: HostAdapter, command: string, run: ProbeRun, exit: ProbeExit, timeoutMs: number): ProbeOutcome {
  if (exit.startError) {
    if (exit.startError.code === undefined) return { ok: false, problem: `cannot start ${run.argv[0]} (${exit.startError.message})`, fix: run.installFix };
    const fix = exit.startError.code === "EACCES" ? `make it executable: \`chmod +x ${command}\`` : run.installFix;
    return { ok: false, problem: `${host.title} could not start it (${exit.startError.code})`, fix };
  }
  if (exit.timedOut) return { ok: false, problem: `run as ${host.title} runs it (${run.how}), it did not answer within ${timeoutMs / 1000} s`, fix: run.installFix };
  const said = tailOf(exit.stderr) || tailOf(exit.stdout);
  const { code, killedBy } = exit;
  if (code !== 0) {
    const why = killedBy ? `was killed by ${killedBy}` : code === 127 ? "exits 127: command not found" : code === 126 ? "exits 126: not executable" : `exits ${code}`;
    const fix = code === 78 ? "fix hooks.yaml: `hooks validate` lists every problem" : run.installFix;
    return { ok: false, problem: `run as ${host.title} runs it (${run.how}), it ${why}${said ? `: ${said}` : ""}`, fix };
  }
  let answer: unknown;
  try {
    answer = JSON.parse(exit.stdout);
  } catch {
    answer = undefined;
  }
  const a = answer as ProbeAnswer | undefined;
  if (!a || typeof a !== "object" || typeof a.event !== "string" || (!Array.isArray(a.hooks) && typeof a.ignored !== "string"))
    return {
      ok: false,
      problem: `run as ${host.title} runs it, it printed no explanation (HOOKS_EXPLAIN=1 unknown: a hookrun older than this one, or not hookrun)${said ? `: ${said}` : ""}`,
      fix: run.missingBin ? run.installFix : "update the project's hookrun (`npm install --save-dev hookrun@latest`), then `hooks install`",
    };
  return { ok: true, answer: a };
}
