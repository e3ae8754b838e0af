import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { signalGroup } from "../fs/processes.js";
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
  const probe = host.probe!;
  const text = probe.expand ? probe.expand(command, projectDir) : command;
  const argv = [...probe.shell(env), text];
  const payload = `${JSON.stringify(probe.payload(hostEvent, projectDir, tool))}\n`;
  const runEnv = { ...env, ...probe.env(projectDir, hostEvent, tool), HOOKS_EXPLAIN: "1" };
  const how = argv.length > 1 ? `\`${argv.slice(0, -1).join(" ")} COMMAND\`` : "the file itself";
  const bin = path.join(projectDir, "node_modules", ".bin", "hooks");
  const missingBin = /node_modules\/\.bin\/hooks/.test(command) && !existsSync(bin);
  const installFix = missingBin
    ? `add hookrun to the project: \`npm install --save-dev hookrun\` (or \`npm install\` when package.json lists it); ${path.relative(projectDir, bin)} is missing`
    : `run \`hooks install ${host.name}\` to rewrite the entry, then \`hooks doctor ${host.name}\` again`;

  const interrupted: ProbeOutcome = { ok: false, problem: "not fired: the doctor was interrupted", fix: "run `hooks doctor` again" };
  if (signal?.aborted) return interrupted;
  return new Promise<ProbeOutcome>((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0], argv.slice(1), { cwd: projectDir, env: runEnv, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ ok: false, problem: `cannot start ${argv[0]} (${(error as Error).message})`, fix: installFix });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    }, timeoutMs);
    // The probe leads a group of its own (detached): a signal to the doctor never reaches it, so
    // an interrupted doctor kills the group it started here, by its pid, before it exits.
    const abort = (): void => {
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    };
    signal?.addEventListener("abort", abort, { once: true });
    child.stdout!.on("data", (d: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.toString("utf8");
    });
    child.stderr!.on("data", (d: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.toString("utf8");
    });
    child.stdin!.on("error", () => {
      // a command that exits without reading its stdin: its exit says what went wrong
    });
    child.stdin!.end(payload);
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      const fix = error.code === "EACCES" ? `make it executable: \`chmod +x ${command}\`` : installFix;
      resolve({ ok: false, problem: `${host.title} could not start it (${error.code ?? error.message})`, fix });
    });
    child.on("close", (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
      if (signal?.aborted) {
        resolve(interrupted);
        return;
      }
      if (timedOut) {
        resolve({ ok: false, problem: `run as ${host.title} runs it (${how}), it did not answer within ${timeoutMs / 1000} s`, fix: installFix });
        return;
      }
      const said = tailOf(stderr) || tailOf(stdout);
      if (code !== 0) {
        const why = killedBy ? `was killed by ${killedBy}` : code === 127 ? "exits 127: command not found" : code === 126 ? "exits 126: not executable" : `exits ${code}`;
        const fix = code === 78 ? "fix hooks.yaml: `hooks validate` lists every problem" : installFix;
        resolve({ ok: false, problem: `run as ${host.title} runs it (${how}), it ${why}${said ? `: ${said}` : ""}`, fix });
        return;
      }
      let answer: unknown;
      try {
        answer = JSON.parse(stdout);
      } catch {
        answer = undefined;
      }
      const a = answer as ProbeAnswer | undefined;
      if (!a || typeof a !== "object" || typeof a.event !== "string" || (!Array.isArray(a.hooks) && typeof a.ignored !== "string")) {
        resolve({
          ok: false,
          problem: `run as ${host.title} runs it, it printed no explanation (HOOKS_EXPLAIN=1 unknown: a hookrun older than this one, or not hookrun)${said ? `: ${said}` : ""}`,
          fix: missingBin ? installFix : "update the project's hookrun (`npm install --save-dev hookrun@latest`), then `hooks install`",
        });
        return;
      }
      resolve({ ok: true, answer: a });
    });
  });
}
