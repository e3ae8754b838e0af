import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type AgentBinary, type AgentRunFields, type AgentRunOptions, agentPool, finishEnv, inCi, makeUserRoot, removeUserRoot, runFields, userEnv } from "./agentProcess.js";
import { type GeminiModelOptions, type GeminiRequest, type GeminiTurn, startGeminiModel } from "./geminiModel.js";

/**
 * Run the real Gemini CLI (`gemini -p`, the pinned devDependency's JS bundle, on this Node)
 * headless and offline against the scripted model of geminiModel.ts, in a temp HOME, and read
 * back every request the model received.
 */

export const GEMINI_PACKAGE = "@google/gemini-cli";
/** Always named: without `-m` Gemini first asks a router model, which would take a script turn. */
export const GEMINI_MODEL = "gemini-2.5-flash";

export type GeminiBinary = AgentBinary;

export function findGemini(): GeminiBinary {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${GEMINI_PACKAGE}/package.json`));
  } catch {
    return { path: null, version: null, reason: `${GEMINI_PACKAGE} is not installed (npm ci installs the devDependency)` };
  }
  const bin = path.join(dir, "bundle", "gemini.js");
  if (!existsSync(bin)) return { path: null, version: null, reason: `${bin} is missing` };
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  return { path: bin, version, reason: null };
}

/** The CLI the end-to-end tests run, or the reason they skip; under CI a missing CLI is an error, never a skip. */
export function requireGemini(): GeminiBinary {
  const found = findGemini();
  if (!found.path && inCi()) throw new Error(`Gemini CLI end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

export interface RunGeminiOptions extends Omit<AgentRunOptions, "afterRun"> {
  /** The project directory: Gemini's cwd, where it reads .gemini/settings.json ($GEMINI_PROJECT_DIR). */
  project: string;
  script: GeminiTurn[];
  model?: GeminiModelOptions;
  /**
   * Called once Gemini is started, with a function that ends the run (its process group killed,
   * `stopped` set): a test that watches for a state (a hang) ends the run when it has seen it.
   */
  onStart?: (stop: () => void) => void;
}

export interface GeminiRun extends AgentRunFields {
  requests: GeminiRequest[];
  mainRequests: GeminiRequest[];
  /** Whether onStart's stop ended it. */
  stopped: boolean;
}

/** At most this many Gemini processes at once (each is a heavy Node process). */
const runs = agentPool(Math.max(2, Math.min(3, os.availableParallelism())));

/**
 * Variables of the outer environment a run keeps; the rest (GEMINI_*, GOOGLE_*, proxies…) is
 * dropped. Unlike the other agents' runs, HOOKRUN_TEST_MARK is not kept.
 */
const KEEP = /^(PATH|LANG|LC_[A-Z]+|TZ|TMPDIR)$/;

/** Kill every Gemini run still going (afterAll: a test that timed out leaves its run behind). */
export function killGeminiRuns(): void {
  runs.killAll();
}

/** The user settings of every run: API-key auth (else `-p` exits "Invalid auth method selected"), nothing phoning home. */
export const USER_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
};

/**
 * Run `gemini -m gemini-2.5-flash --approval-mode=yolo -p PROMPT` in `project` against a scripted
 * model. Each run gets its own temp HOME and XDG dirs (removed afterwards) and a clean environment;
 * Gemini runs in its own process group, killed at `timeoutMs`, when `signal` aborts, and by
 * killGeminiRuns().
 */
export async function runGemini(options: RunGeminiOptions): Promise<GeminiRun> {
  const bin = findGemini();
  if (!bin.path) throw new Error(`Gemini CLI is not installed: ${bin.reason}`);
  const release = await runs.slot();
  const userRoot = makeUserRoot("hookrun-gemini-");
  const model = await startGeminiModel(options.script, options.model);
  try {
    const env = userEnv(userRoot, { HOME: "home", XDG_CONFIG_HOME: "config", XDG_CACHE_HOME: "cache", XDG_STATE_HOME: "state", XDG_DATA_HOME: "data" }, KEEP);
    mkdirSync(path.join(env.HOME!, ".gemini"));
    writeFileSync(path.join(env.HOME!, ".gemini", "settings.json"), `${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
    finishEnv(env, {
      HOOKS_STATE_DIR: path.join(userRoot, "state", "hookrun"),
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: "dummy",
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      NO_COLOR: "1",
      TERM: "dumb",
      ...options.env,
    });
    await options.setup?.(env as NodeJS.ProcessEnv);

    const args = [bin.path, "-m", GEMINI_MODEL, "--approval-mode=yolo", "-p", options.prompt];
    const run = await runs.spawn(process.execPath, args, { cwd: options.project, env: env as NodeJS.ProcessEnv, timeoutMs: options.timeoutMs, signal: options.signal, onStart: options.onStart });
    return {
      requests: [...model.requests],
      mainRequests: model.mainRequests,
      ...runFields(run),
      stopped: run.stopped,
    };
  } finally {
    await model.close();
    removeUserRoot(userRoot);
    release();
  }
}
