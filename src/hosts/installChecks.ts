import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { dispatchCommand } from "./dispatch.js";
import { installState } from "./hostFile.js";
import { ownedScripts, planScripts } from "./hostScripts.js";
import { dispatchTarget, filePort, type HostFile, installable, readHostFile, scriptDir, wantedEntries } from "./installTargets.js";

// What can be wrong with hookrun's entries already installed in a project, for `hooks validate`
// (and the server check of `hooks install --check`): entries stale against hooks.yaml, a host's
// own setup around them, a warm-mode server that does not answer.

/** Hosts whose entries in the project are stale against `config`. */
export function staleHosts(config: ResolvedConfig): { file: string; host: string; stale: string[] }[] {
  const out: { file: string; host: string; stale: string[] }[] = [];
  for (const host of installable()) {
    if (host.scripts) {
      try {
        const dir = scriptDir(host, config.projectDir, false);
        if (ownedScripts(dir).length === 0) continue;
        const plan = planScripts(
          dir,
          host.scripts.files(config, (event) => dispatchCommand(host.name, event, dispatchTarget(host, false, undefined))),
        );
        const stale = [...plan.write, ...plan.remove.map((file) => ({ file }))].map((x) => path.basename(x.file));
        if (stale.length) out.push({ file: dir, host: host.name, stale });
      } catch {
        // an unreadable hook file is install's to report
      }
      continue;
    }
    let f: HostFile;
    try {
      f = readHostFile(host, config.projectDir, false);
    } catch {
      continue;
    }
    if (f.text === null) continue;
    let state: ReturnType<typeof installState>;
    try {
      state = installState(host, f.text, f.file, wantedEntries(config, host, false, undefined, filePort(f)));
    } catch {
      continue;
    }
    if (state.installed && state.stale.length) out.push({ file: f.file, host: host.name, stale: state.stale });
  }
  return out;
}

/**
 * What hosts whose entries are installed in the project warn about their setup (agent-code: a
 * settings layer hiding the entries, hooks that can outlast its 30 s).
 */
export async function hostSetupWarnings(config: ResolvedConfig, env: NodeJS.ProcessEnv): Promise<{ file: string; message: string }[]> {
  const out: { file: string; message: string }[] = [];
  for (const host of installable().filter((h) => h.install?.warnings)) {
    try {
      const f = readHostFile(host, config.projectDir, false);
      if (f.text === null || !installState(host, f.text, f.file, {}).installed) continue;
      for (const w of await host.install!.warnings!(config, { file: f.file, text: f.text, user: false, env })) out.push({ file: f.file, message: `${host.title}: ${w}` });
    } catch {
      // an unreadable host file is install's to report
    }
  }
  return out;
}

/** Hosts installed in warm mode in the project whose server does not answer now. */
export async function silentWarmServers(config: ResolvedConfig): Promise<{ file: string; host: string; port: number }[]> {
  const out: { file: string; host: string; port: number }[] = [];
  for (const host of installable().filter((h) => h.install)) {
    let f: HostFile;
    try {
      f = readHostFile(host, config.projectDir, false);
    } catch {
      continue;
    }
    const port = filePort(f);
    if (port !== null && !(await serverAnswers(port))) out.push({ file: f.file, host: host.name, port });
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
