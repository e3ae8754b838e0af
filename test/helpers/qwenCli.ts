import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type AgentBinary, agentPool, inCi } from "./agentProcess.js";
import { type ChatModelOptions, type ChatRequest, type OpenAIChatModel, type ScriptTurn, startOpenAIChatModel } from "./openaiChatModel.js";
import { removeTree } from "./removeTree.js";

/**
 * Run the real Qwen Code CLI (`qwen -p`, the pinned devDependency @qwen-code/qwen-code) headless
 * and offline against the scripted Chat Completions server of openaiChatModel.ts, in a temp HOME,
 * and read back every request the model received.
 */

export const QWEN_PACKAGE = "@qwen-code/qwen-code";

export type QwenBinary = AgentBinary;

export function findQwen(): QwenBinary {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${QWEN_PACKAGE}/package.json`));
  } catch {
    return { path: null, version: null, reason: `${QWEN_PACKAGE} is not installed (npm ci installs the devDependency)` };
  }
  const entry = path.join(dir, "cli-entry.js");
  if (!existsSync(entry)) return { path: null, version: null, reason: `${entry} is missing` };
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  return { path: entry, version, reason: null };
}

/** The CLI the end-to-end tests run, or the reason they skip; in CI a missing CLI is an error, never a skip. */
export function requireQwen(): QwenBinary {
  const found = findQwen();
  if (!found.path && inCi()) throw new Error(`Qwen Code end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

/** A temp HOME for one run: Qwen's user settings (the background memory agent off) and the XDG dirs hookrun uses. */
export interface QwenHome {
  dir: string;
  /** HOME and XDG_* for Qwen and for the hookrun CLI run beside it (the same trust store). */
  env: Record<string, string>;
  cleanup(): void;
}

export function makeQwenHome(userSettings: Record<string, unknown> = {}): QwenHome {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-qwen-home-")));
  mkdirSync(path.join(dir, ".qwen"), { recursive: true });
  // After each turn a memory agent sends a second conversation (with tools) to the same API.
  writeFileSync(path.join(dir, ".qwen", "settings.json"), JSON.stringify({ memory: { enableManagedAutoMemory: false }, ...userSettings }, null, 2));
  const env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, ".config"), XDG_STATE_HOME: path.join(dir, ".local/state"), XDG_CACHE_HOME: path.join(dir, ".cache") };
  return { dir, env, cleanup: () => removeTree(dir) };
}

export interface RunQwenOptions {
  /** Qwen's cwd: the project (holds .qwen/settings.json; $QWEN_PROJECT_DIR). */
  project: string;
  prompt: string;
  script: ScriptTurn[];
  home: QwenHome;
  model?: ChatModelOptions;
  env?: Record<string, string | undefined>;
  /** Kill Qwen's process group after this long; default 60 s. */
  timeoutMs?: number;
}

export interface QwenRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
  /** Every chat request (main and side) the model received. */
  requests: ChatRequest[];
  mainRequests: ChatRequest[];
}

/** Qwen runs are not limited in number; the pool spawns them (own process group, killed at the timeout). */
const runs = agentPool(Number.POSITIVE_INFINITY);

/** `qwen --approval-mode yolo -p PROMPT` in `project`, against a fresh scripted model. */
export async function runQwen(o: RunQwenOptions): Promise<QwenRun> {
  const qwen = findQwen();
  if (!qwen.path) throw new Error(`Qwen Code is not installed: ${qwen.reason}`);
  const model: OpenAIChatModel = await startOpenAIChatModel(o.script, { model: "mock-model", ...o.model });
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      ...o.home.env,
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: "dummy",
      OPENAI_MODEL: "mock-model",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    };
    for (const [k, v] of Object.entries(o.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    const run = await runs.spawn(process.execPath, [qwen.path, "--approval-mode", "yolo", "-p", o.prompt], { cwd: o.project, env, timeoutMs: o.timeoutMs, killExitedAtTimeout: true });
    return {
      exitCode: run.code,
      signal: run.signal,
      stdout: run.stdout,
      stderr: run.stderr,
      ms: run.durationMs,
      timedOut: run.timedOut,
      requests: [...model.requests],
      mainRequests: model.mainRequests,
    };
  } finally {
    await model.close();
  }
}

/** Everything a request told the model, as one string (message texts and tool results, in order). */
export function requestText(r: ChatRequest | undefined): string {
  const messages: any[] = Array.isArray(r?.body?.messages) ? r.body.messages : [];
  return messages
    .map((m) => {
      const c = m?.content;
      const text = typeof c === "string" ? c : Array.isArray(c) ? c.map((p: any) => (typeof p?.text === "string" ? p.text : "")).join("") : "";
      return `[${m?.role}] ${text}`;
    })
    .join("\n");
}
