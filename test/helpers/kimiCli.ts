import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type AgentBinary, agentPool, finishEnv, inCi, makeUserRoot, removeUserRoot, userEnv } from "./agentProcess.js";
import { type ChatRequest, type ScriptTurn, startOpenAIChatModel } from "./openaiChatModel.js";

/**
 * Run the real Kimi Code CLI (`kimi -p`, npm `@moonshot-ai/kimi-code`) headless and offline
 * against the scripted Chat Completions server of openaiChatModel.ts, named as an `openai`
 * provider in `~/.kimi-code/config.toml` of a temp HOME, and read back every request the model
 * received. Kimi Code is not a devDependency (its optional dependencies name platform packages
 * some registries lack, which would break `npm ci`): .ci/run installs it beside its Node 22 and
 * names its entry in HOOKRUN_KIMI_CODE. It needs Node 22.19 or later; the tests run it with the
 * Node that runs them, and skip (saying why) without the variable or on an older Node.
 */

export const KIMI_PACKAGE = "@moonshot-ai/kimi-code";
export const KIMI_VARIABLE = "HOOKRUN_KIMI_CODE";
const MIN_NODE = [22, 19] as const;

/** Whether this Node is too old for Kimi Code. */
function nodeTooOld(): boolean {
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  return major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1]);
}

export function findKimi(env: NodeJS.ProcessEnv = process.env): AgentBinary {
  const entry = env[KIMI_VARIABLE];
  if (!entry) return { path: null, version: null, reason: `${KIMI_VARIABLE} is not set (.ci/run installs ${KIMI_PACKAGE} for its Node 22 pass and sets it)` };
  if (nodeTooOld()) return { path: null, version: null, reason: `Kimi Code needs Node ${MIN_NODE.join(".")} or later; this is ${process.versions.node}` };
  const manifest = path.join(path.dirname(path.dirname(entry)), "package.json");
  if (!existsSync(entry) || !existsSync(manifest)) return { path: null, version: null, reason: `${KIMI_VARIABLE}=${entry}: no ${KIMI_PACKAGE} there` };
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; version: string };
  if (pkg.name !== KIMI_PACKAGE) return { path: null, version: null, reason: `${KIMI_VARIABLE}=${entry} is ${pkg.name}, not ${KIMI_PACKAGE}` };
  return { path: entry, version: pkg.version, reason: null };
}

/** The CLI the end-to-end tests run, or the reason they skip; a variable set in CI that names no Kimi Code is an error, never a skip. */
export function requireKimi(): AgentBinary {
  const found = findKimi();
  if (!found.path && inCi() && process.env[KIMI_VARIABLE] && !nodeTooOld()) throw new Error(`Kimi Code end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

/** A temp HOME for one run: Kimi Code's ~/.kimi-code and the XDG dirs hookrun uses (its trust store and run log). */
export interface KimiHome {
  dir: string;
  /** `~/.kimi-code/config.toml`. */
  config: string;
  /** HOME and XDG_*, for Kimi Code and for the hookrun CLI run beside it; KIMI_CODE_HOME unset. */
  env: Record<string, string | undefined>;
  cleanup(): void;
}

export function makeKimiHome(): KimiHome {
  const root = makeUserRoot("hookrun-kimi-home-");
  const env = userEnv(root, { HOME: "home", XDG_CONFIG_HOME: "config", XDG_STATE_HOME: "state", XDG_CACHE_HOME: "cache" });
  env.KIMI_CODE_HOME = undefined;
  const dir = env.HOME!;
  mkdirSync(path.join(dir, ".kimi-code"));
  return { dir, config: path.join(dir, ".kimi-code", "config.toml"), env, cleanup: () => removeUserRoot(root) };
}

/** The provider and model tables naming the scripted server, written before any `[[hooks]]` table. */
export function modelConfig(baseUrl: string): string {
  return `default_model = "mock"

[providers.mock]
type = "openai"
base_url = "${baseUrl}"
api_key = "dummy"

[models.mock]
provider = "mock"
model = "mock-model"
max_context_size = 100000
`;
}

export interface KimiRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Every chat request the model received (Kimi Code offers tools on each). */
  requests: ChatRequest[];
}

export interface RunKimiOptions {
  /** Kimi Code's cwd: the session's project directory. */
  project: string;
  prompt: string;
  script: ScriptTurn[];
  home: KimiHome;
  /**
   * Called once the model server is up and the model tables are in `home.config`: add the
   * `[[hooks]]` tables (by hand, or `hooks install kimi --user`).
   */
  hooks: (home: KimiHome) => void | Promise<void>;
  /** Kill Kimi Code's process group after this long; default 90 s. */
  timeoutMs?: number;
}

const runs = agentPool(Number.POSITIVE_INFINITY);

/** Kill every Kimi Code run still going (afterAll). */
export const killKimiRuns = (): void => runs.killAll();

/** `kimi -p PROMPT` in `project` (prompt mode runs with Kimi Code's automatic approvals), against a fresh scripted model. */
export async function runKimi(o: RunKimiOptions): Promise<KimiRun> {
  const kimi = findKimi();
  if (!kimi.path) throw new Error(`Kimi Code cannot run: ${kimi.reason}`);
  const model = await startOpenAIChatModel(o.script, { model: "mock-model" });
  try {
    writeFileSync(o.home.config, modelConfig(model.baseUrl));
    await o.hooks(o.home);
    // Offline: no telemetry, no update check, no model catalog refresh at start.
    const env = finishEnv({ ...o.home.env }, { LANG: "C.UTF-8", NO_COLOR: "1", KIMI_DISABLE_TELEMETRY: "1", KIMI_CODE_NO_AUTO_UPDATE: "1", KIMI_CODE_MODEL_CATALOG_REFRESH_ON_START: "0" });
    const run = await runs.spawn(process.execPath, [kimi.path, "--output-format", "text", "-p", o.prompt], {
      cwd: o.project,
      env,
      timeoutMs: o.timeoutMs ?? 90_000,
      killExitedAtTimeout: true,
    });
    return { exitCode: run.code, signal: run.signal, stdout: run.stdout, stderr: run.stderr, timedOut: run.timedOut, requests: [...model.requests] };
  } finally {
    await model.close();
  }
}
