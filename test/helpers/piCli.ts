import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AgentBinary, agentPool, inCi } from "./agentProcess.js";
import { type ChatRequest, type OpenAIChatModel, type ScriptTurn, startOpenAIChatModel } from "./openaiChatModel.js";
import { removeTree } from "./removeTree.js";

/**
 * Run the real pi CLI (`pi -p`, the pinned devDependency @mariozechner/pi-coding-agent) headless
 * and offline (`PI_OFFLINE=1`) against the scripted Chat Completions server of
 * openaiChatModel.ts, named in a `models.json` of a temp agent dir (`PI_CODING_AGENT_DIR`) under
 * a temp HOME, and read back every request the model received.
 */

export const PI_PACKAGE = "@mariozechner/pi-coding-agent";

export function findPi(): AgentBinary {
  // Its exports name no package.json: the package's folder is found beside hookrun's own.
  const dir = path.resolve(import.meta.dirname, "../../node_modules", PI_PACKAGE);
  if (!existsSync(path.join(dir, "package.json"))) return { path: null, version: null, reason: `${PI_PACKAGE} is not installed (npm ci installs the devDependency)` };
  const entry = path.join(dir, "dist", "cli.js");
  if (!existsSync(entry)) return { path: null, version: null, reason: `${entry} is missing` };
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  return { path: entry, version, reason: null };
}

/** The CLI the end-to-end tests run, or the reason they skip; in CI a missing CLI is an error, never a skip. */
export function requirePi(): AgentBinary {
  const found = findPi();
  if (!found.path && inCi()) throw new Error(`pi end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

/** A temp HOME for one run: pi's agent dir and the XDG dirs hookrun uses (its trust store and run log). */
export interface PiHome {
  dir: string;
  /** pi's agent dir (models.json, sessions, user extensions). */
  agentDir: string;
  /** HOME, XDG_* and PI_CODING_AGENT_DIR, for pi and for the hookrun CLI run beside it. */
  env: Record<string, string>;
  cleanup(): void;
}

export function makePiHome(): PiHome {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-pi-home-")));
  const agentDir = path.join(dir, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  const env = {
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, ".config"),
    XDG_STATE_HOME: path.join(dir, ".local/state"),
    XDG_CACHE_HOME: path.join(dir, ".cache"),
    PI_CODING_AGENT_DIR: agentDir,
  };
  return { dir, agentDir, env, cleanup: () => removeTree(dir) };
}

export interface RunPiOptions {
  /** pi's cwd: the project (holds .pi/extensions/). */
  project: string;
  prompt: string;
  script: ScriptTurn[];
  home: PiHome;
  env?: Record<string, string | undefined>;
  /** Kill pi's process group after this long; default 60 s. */
  timeoutMs?: number;
}

export interface PiRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Every chat request the model received. */
  requests: ChatRequest[];
  mainRequests: ChatRequest[];
}

const runs = agentPool(Number.POSITIVE_INFINITY);

/** Kill every pi run still going (afterAll). */
export const killPiRuns = (): void => runs.killAll();

/** `pi -p PROMPT --no-session` in `project`, against a fresh scripted model named in the agent dir's models.json. */
export async function runPi(o: RunPiOptions): Promise<PiRun> {
  const pi = findPi();
  if (!pi.path) throw new Error(`pi is not installed: ${pi.reason}`);
  const model: OpenAIChatModel = await startOpenAIChatModel(o.script, { model: "mock-model" });
  try {
    const models = {
      providers: {
        mock: {
          baseUrl: model.baseUrl,
          api: "openai-completions",
          apiKey: "dummy",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: "mock-model", reasoning: false }],
        },
      },
    };
    writeFileSync(path.join(o.home.agentDir, "models.json"), JSON.stringify(models, null, 2));
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: "C.UTF-8", NO_COLOR: "1", ...o.home.env, PI_OFFLINE: "1" };
    for (const [k, v] of Object.entries(o.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    const args = [pi.path, "--provider", "mock", "--model", "mock-model", "--no-session", "-p", o.prompt];
    const run = await runs.spawn(process.execPath, args, { cwd: o.project, env, timeoutMs: o.timeoutMs, killExitedAtTimeout: true });
    return { exitCode: run.code, signal: run.signal, stdout: run.stdout, stderr: run.stderr, timedOut: run.timedOut, requests: [...model.requests], mainRequests: model.mainRequests };
  } finally {
    await model.close();
  }
}
