import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { type AgentBinary, type AgentRunFields, agentPool, finishEnv, inCi, makeUserRoot, removeUserRoot, runFields, userEnv } from "./agentProcess.js";
import { type ChatRequest, type ScriptTurn, startOpenAIChatModel } from "./openaiChatModel.js";

/**
 * Run the real opencode CLI (`opencode run`, the pinned devDependency opencode-ai) headless and
 * offline against the scripted Chat Completions server of openaiChatModel.ts (a custom provider
 * in the project's opencode.json), in a temp HOME, and read back every request the model received.
 * The npm launcher in node_modules/.bin is a stub until its postinstall runs: the platform
 * package's binary is run directly (the `-baseline` build on a CPU without AVX2).
 */

export const OPENCODE_PACKAGE = "opencode-ai";

export function findOpencode(): AgentBinary {
  const require = createRequire(import.meta.url);
  let version: string;
  try {
    version = (JSON.parse(readFileSync(require.resolve(`${OPENCODE_PACKAGE}/package.json`), "utf8")) as { version: string }).version;
  } catch {
    return { path: null, version: null, reason: `${OPENCODE_PACKAGE} is not installed (npm ci installs the devDependency)` };
  }
  const avx2 = existsSync("/proc/cpuinfo") && /\bavx2\b/.test(readFileSync("/proc/cpuinfo", "utf8"));
  for (const pkg of avx2 ? ["opencode-linux-x64", "opencode-linux-x64-baseline"] : ["opencode-linux-x64-baseline"]) {
    try {
      const bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", "opencode");
      if (existsSync(bin)) return { path: bin, version, reason: null };
    } catch {
      // not this platform's package
    }
  }
  return { path: null, version: null, reason: "no opencode-linux-x64 platform package with bin/opencode (this platform has none)" };
}

/** The CLI the end-to-end tests run, or the reason they skip; in CI a missing CLI is an error, never a skip. */
export function requireOpencode(): AgentBinary {
  const found = findOpencode();
  if (!found.path && inCi()) throw new Error(`opencode end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

export interface RunOpencodeOptions {
  /** opencode's cwd: the project (its opencode.json is written here). */
  project: string;
  prompt: string;
  script: ScriptTurn[];
  /** Called with the run's environment (HOME, XDG dirs, HOOKS_STATE_DIR) before opencode starts: `hooks install`, `hooks trust`. */
  setup?: (env: NodeJS.ProcessEnv) => Promise<void> | void;
  /** Called with the same environment after opencode exits, before the temp HOME is removed. */
  afterRun?: (env: NodeJS.ProcessEnv) => void;
  env?: Record<string, string | undefined>;
  /** Kill opencode's process group after this long; default 90 s. */
  timeoutMs?: number;
}

export interface OpencodeRun extends AgentRunFields {
  /** Every chat request (main and side) the model received. */
  requests: ChatRequest[];
  /** The requests of the main conversation (those offering tools). */
  mainRequests: ChatRequest[];
}

/** Two opencode runs at a time: each starts a Bun runtime of ~200 MB. */
const runs = agentPool(2);

export const killOpencodeRuns = (): void => runs.killAll();

/** `opencode run PROMPT` in `project`, against a fresh scripted model. */
export async function runOpencode(o: RunOpencodeOptions): Promise<OpencodeRun> {
  const opencode = findOpencode();
  if (!opencode.path) throw new Error(`opencode is not installed: ${opencode.reason}`);
  const free = await runs.slot();
  const root = makeUserRoot("hookrun-opencode-");
  const model = await startOpenAIChatModel(o.script, { model: "mock-model" });
  try {
    const config = {
      $schema: "https://opencode.ai/config.json",
      provider: { mock: { npm: "@ai-sdk/openai-compatible", name: "Mock", options: { baseURL: model.baseUrl, apiKey: "dummy" }, models: { "mock-model": { name: "Mock", tool_call: true } } } },
      model: "mock/mock-model",
      small_model: "mock/mock-model",
      // A batch tool once ran other tools past the plugin hooks: asked for, to see that none is offered.
      experimental: { batch_tool: true },
    };
    writeFileSync(path.join(o.project, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
    const env = finishEnv(userEnv(root, { HOME: "home", XDG_CONFIG_HOME: "config", XDG_DATA_HOME: "data", XDG_STATE_HOME: "state", XDG_CACHE_HOME: "cache", HOOKS_STATE_DIR: "hooks-state" }), {
      NO_COLOR: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      // At every start opencode runs `npm install @opencode-ai/plugin` in its config folders
      // (.opencode/ included): offline, it fails at once instead of fetching ~60 MB.
      npm_config_offline: "true",
      ...o.env,
    });
    mkdirSync(path.join(env.HOME!, ".config"), { recursive: true });
    await o.setup?.(env);
    const run = await runs.spawn(opencode.path, ["run", o.prompt], { cwd: o.project, env, timeoutMs: o.timeoutMs ?? 90_000, killExitedAtTimeout: true });
    o.afterRun?.(env);
    return { ...runFields(run), requests: [...model.requests], mainRequests: model.mainRequests };
  } finally {
    await model.close();
    removeUserRoot(root);
    free();
  }
}

/**
 * What the model received in a request, one line per message: `[system] …` (opencode's own
 * system prompt, the first system message, left out), `[user] …`, `[assistant] tool NAME ARGS`,
 * `[tool] RESULT`; `replace` maps absolute paths to placeholders.
 */
export function modelView(request: ChatRequest | undefined, replace: Record<string, string> = {}): string[] {
  const messages: any[] = Array.isArray(request?.body?.messages) ? request!.body.messages : [];
  const lines: string[] = [];
  messages.forEach((m, i) => {
    const text = typeof m?.content === "string" ? m.content : Array.isArray(m?.content) ? m.content.map((p: any) => p?.text ?? "").join("") : "";
    if (m?.role === "system" && i === 0) return;
    if (m?.role === "assistant" && Array.isArray(m.tool_calls)) for (const c of m.tool_calls) lines.push(`[assistant] tool ${c.function?.name} ${c.function?.arguments}`);
    else lines.push(`[${m?.role}] ${text}`);
  });
  return lines.map((l) => Object.entries(replace).reduce((s, [to, from]) => s.split(from).join(to), l));
}
