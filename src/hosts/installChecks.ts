import type { ResolvedConfig } from "../config/types.js";
import { dispatchTarget, installable, setupPort, wantedFor } from "./installTargets.js";

// What can be wrong with hookrun's entries already installed in a project, for `hooks validate`
// (and the server check of `hooks install --check`): entries stale against hooks.yaml, a host's
// own setup around them, a warm-mode server that does not answer.

/** Hosts whose entries in the project are stale against `config`. */
export async function staleHosts(config: ResolvedConfig): Promise<{ file: string; host: string; stale: string[] }[]> {
  const out: { file: string; host: string; stale: string[] }[] = [];
  for (const host of installable()) {
    try {
      const port = await setupPort(host, config.projectDir, false);
      const plan = await host.setup.plan(wantedFor(host, config, dispatchTarget(host, false, undefined), port), { base: config.projectDir, user: false, host });
      if (plan.installed && plan.stale.length) out.push({ file: plan.where, host: host.name, stale: plan.stale });
    } catch {
      // an unreadable host file is install's to report
    }
  }
  return out;
}

/**
 * What hosts whose entries are installed in the project warn about their setup (agent-code: a
 * settings layer hiding the entries, hooks that can outlast its 30 s).
 */
export async function hostSetupWarnings(config: ResolvedConfig, env: NodeJS.ProcessEnv): Promise<{ file: string; message: string }[]> {
  const out: { file: string; message: string }[] = [];
  for (const host of installable()) {
    if (!host.setup.warnings) continue;
    try {
      const plan = await host.setup.removal({ base: config.projectDir, user: false, host });
      if (!plan.installed) continue;
      for (const w of await host.setup.warnings(config, { file: plan.where, text: plan.before, user: false, env })) out.push({ file: plan.where, message: `${host.title}: ${w}` });
    } catch {
      // an unreadable host file is install's to report
    }
  }
  return out;
}

/** Hosts installed in warm mode in the project whose server does not answer now. */
export async function silentWarmServers(config: ResolvedConfig): Promise<{ file: string; host: string; port: number }[]> {
  const out: { file: string; host: string; port: number }[] = [];
  for (const host of installable()) {
    const port = await setupPort(host, config.projectDir, false);
    if (port !== null && !(await serverAnswers(port))) out.push({ file: host.setup.place(config.projectDir, false), host: host.name, port });
  }
  return out;
}

/** Whether anything answers HTTP on 127.0.0.1:port within a second (any status: a token-guarded 401 counts). */
export async function serverAnswers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/v1/health`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}
