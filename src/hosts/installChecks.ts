import { existsSync } from "node:fs";
import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { nodeCrypto } from "../fs/crypto.js";
import { readBoundedText } from "../fs/readBounded.js";
import { assertPrivateStatePath, stateDir } from "../fs/stateDir.js";
import { hostByName } from "./adapters.js";
import { healthProof, TOKEN_VAR } from "./warm.js";
import { dispatchTarget, type Installable, installable, setupMcp, setupPort, wantedFor } from "./installTargets.js";

// What can be wrong with hookrun's entries already installed in a project, for `hooks validate`
// (and the server check of `hooks install --check`): entries stale against hooks.yaml, a host's
// own setup around them, a warm-mode server that does not answer.

/**
 * The hosts whose config folder exists in the project: only they can hold hookrun's project
 * entries (each setup's file is inside its folder), so the checks below read no other. Taken once
 * and passed to each of them.
 */
export function hostsIn(projectDir: string): Installable[] {
  return installable().filter((h) => existsSync(path.join(projectDir, h.setup.folder)));
}

/**
 * Hosts whose entries in the project are stale against `config`; `inProcess`: the host's one
 * generated file, which does not depend on hooks.yaml, is another hookrun version's (or edited).
 */
export async function staleHosts(config: ResolvedConfig, hosts: readonly Installable[]): Promise<{ file: string; host: string; stale: string[]; inProcess: boolean }[]> {
  const out: { file: string; host: string; stale: string[]; inProcess: boolean }[] = [];
  for (const host of hosts) {
    try {
      // Whether hookrun's entries are there at all first (cheap: no entries computed), so a project
      // that uses few hosts does not compute every host's wanted entries (10 % of a `validate` of
      // 1,000 hooks).
      if (!(await host.setup.removal({ base: config.projectDir, user: false, host })).installed) continue;
      const mcp = await setupMcp(host, config.projectDir, false);
      const port = mcp ? null : await setupPort(host, config.projectDir, false);
      const plan = await host.setup.plan(wantedFor(host, config, dispatchTarget(host, false, undefined), port, mcp), { base: config.projectDir, user: false, host });
      if (plan.installed && plan.stale.length) out.push({ file: plan.where, host: host.name, stale: plan.stale, inProcess: host.setup.inProcess === true });
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
export async function hostSetupWarnings(config: ResolvedConfig, hosts: readonly Installable[], env: NodeJS.ProcessEnv): Promise<{ file: string; message: string }[]> {
  const out: { file: string; message: string }[] = [];
  for (const host of hosts) {
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

/** The warm servers of the project's setups that are not the user's own `hooks serve`: nothing answers, or what answers cannot prove it knows the token. */
export async function unprovenWarmServers(
  config: ResolvedConfig,
  hosts: readonly Installable[],
  env: NodeJS.ProcessEnv,
): Promise<{ file: string; host: string; port: number; state: WarmServerState }[]> {
  const out: { file: string; host: string; port: number; state: WarmServerState }[] = [];
  for (const host of hosts) {
    const port = await setupPort(host, config.projectDir, false);
    if (port === null) continue;
    const state = await warmServerState(port, env, config.projectDir);
    if (state !== "ours") out.push({ file: host.setup.place(config.projectDir, false), host: host.name, port, state });
  }
  return out;
}

/** Who answers on a warm setup's port (warmServerState). */
export type WarmServerState = "ours" | "elsewhere" | "foreign" | "unproven" | "down";

/**
 * Who answers on 127.0.0.1:port within a second: `ours` (it proved it knows the bearer token,
 * and that `projectDir` is its project), `elsewhere` (the user's own server, of another project:
 * it refuses this one's events), `foreign` (it answers and cannot prove it: another user's
 * listener, or a server with another token), `unproven` (it answers, and there is no token here
 * to check with: neither $HOOKS_SERVE_TOKEN nor the state dir's serve.token), `down` (nothing answers).
 */
export async function warmServerState(port: number, env: NodeJS.ProcessEnv, projectDir: string): Promise<WarmServerState> {
  const challenge = nodeCrypto().randomBytes(16).toString("hex");
  let body: unknown;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/health?challenge=${challenge}&project=${encodeURIComponent(projectDir)}`, { signal: AbortSignal.timeout(1000) });
    body = await res.json().catch(() => null);
  } catch {
    return "down";
  }
  const token = serveToken(env);
  if (token === null) return "unproven";
  const proof = body && typeof body === "object" ? (body as Record<string, unknown>).proof : undefined;
  if (typeof proof !== "string") return "foreign";
  if (proof === healthProof(token, challenge, "this")) return "ours";
  if (proof === healthProof(token, challenge, "other")) return "elsewhere";
  // a server older than the project check proves the token alone
  return proof === healthProof(token, challenge) ? "ours" : "foreign";
}

/** The bearer token the user's `hooks serve` uses: $HOOKS_SERVE_TOKEN, else the serve.token it keeps in the (private) state dir; null when neither. */
function serveToken(env: NodeJS.ProcessEnv): string | null {
  if (env[TOKEN_VAR]) return env[TOKEN_VAR];
  try {
    const file = path.join(stateDir(env), "serve.token");
    assertPrivateStatePath(file);
    return readBoundedText(file, 4096, { what: "serve token" }).trim() || null;
  } catch {
    return null;
  }
}

/** What a warm setup's server state means for the user of `hosts` (their names), or null when it is theirs. */
export function warmServerWarning(port: number, state: WarmServerState, hosts: readonly string[]): string | null {
  if (state === "ours") return null;
  const titles = hosts.map((h) => hostByName(h)?.title ?? h).join(" and ");
  const refuse = `${titles} ${hosts.length > 1 ? "refuse" : "refuses"} guarded actions`;
  if (state === "down") return `warm mode, and nothing answers on 127.0.0.1:${port}: ${refuse} until \`hooks serve --port ${port}\` runs`;
  if (state === "elsewhere")
    return `warm mode: what answers on 127.0.0.1:${port} is your \`hooks serve\` of another project: it refuses this project's events, so ${refuse} here. Start \`hooks serve\` in this project on a port of its own: \`hooks install ${hosts.join(" ")} --serve OTHER_PORT\``;
  if (state === "unproven")
    return `warm mode: something answers on 127.0.0.1:${port}, and there is no token here to check it is your \`hooks serve\` ($${TOKEN_VAR} unset, no serve.token in the state dir): set $${TOKEN_VAR} as the agent has it and check again`;
  return `WARNING: warm mode: what answers on 127.0.0.1:${port} is NOT your \`hooks serve\` (it cannot prove it knows $${TOKEN_VAR}): it receives every event's payload and the token, and its answers decide ${titles}'s guarded actions. Stop it (\`ss -ltnp 'sport = :${port}'\` names its process), or move to another port: \`hooks install ${hosts.join(" ")} --serve OTHER_PORT\``;
}
