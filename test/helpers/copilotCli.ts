import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type AgentRunFields, type AgentRunOptions, agentPool, finishEnv, inCi, makeUserRoot, removeUserRoot, runFields, userEnv } from "./agentProcess.js";
import { type ChatModelOptions, type ChatRequest, type ScriptTurn, startOpenAIChatModel } from "./openaiChatModel.js";
import { removeTree } from "./removeTree.js";

/**
 * Run the real GitHub Copilot CLI (`copilot -p`, the pinned devDependency) headless and offline
 * against the scripted model of openaiChatModel.ts (Copilot's "bring your own provider" mode:
 * COPILOT_OFFLINE + COPILOT_PROVIDER_*), in a temp HOME, and read back every request the model
 * received. GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true makes `-p` run the repository's hooks.
 *
 * The native binary unpacks ~235 MB into $XDG_CACHE_HOME/copilot on its first start: every run
 * shares one cache dir under the OS temp dir (COPILOT_CACHE), kept between runs.
 */

export const COPILOT_PACKAGE = "@github/copilot";

/** The cache every run shares (the binary's unpacked runtime; outside the clone, kept between runs). */
export const COPILOT_CACHE = path.join(os.tmpdir(), "hookrun-copilot-cache");

/** The platform package's name (`@github/copilot-linux-x64`, `…-linuxmusl-x64`, `…-darwin-arm64`, …). */
export function copilotPlatformPackage(platform: string = process.platform, arch: string = process.arch): string {
  const report = platform === "linux" ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined) : undefined;
  const musl = platform === "linux" && report !== undefined && !report.header?.glibcVersionRuntime;
  return `${COPILOT_PACKAGE}-${platform}${musl ? "musl" : ""}-${arch}`;
}

export interface CopilotBinary {
  /** The argv that starts Copilot (the native binary, else node + the package's loader), or null. */
  argv: string[] | null;
  version: string | null;
  /** Why there is none (for a skip message). */
  reason: string | null;
}

/** The native binary of this platform's package, else the loader of @github/copilot (which finds it itself). */
export function findCopilot(): CopilotBinary {
  const require = createRequire(import.meta.url);
  const version = (dir: string) => (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  const pkg = copilotPlatformPackage();
  try {
    const dir = path.dirname(require.resolve(`${pkg}/package.json`));
    const bin = path.join(dir, process.platform === "win32" ? "copilot.exe" : "copilot");
    accessSync(bin, constants.X_OK);
    return { argv: [bin], version: version(dir), reason: null };
  } catch {
    // no native binary: try the loader
  }
  try {
    const dir = path.dirname(require.resolve(`${COPILOT_PACKAGE}/package.json`));
    const loader = path.join(dir, "npm-loader.js");
    if (!existsSync(loader)) return { argv: null, version: null, reason: `${loader} is missing` };
    return { argv: [process.execPath, loader], version: version(dir), reason: null };
  } catch {
    return { argv: null, version: null, reason: `${COPILOT_PACKAGE} is not installed (npm ci installs it, with ${pkg}, as a devDependency)` };
  }
}

/** The binary the end-to-end tests run, or the reason they skip; in CI a missing binary is an error. */
export function requireCopilot(): CopilotBinary {
  const found = findCopilot();
  if (!found.argv && inCi()) throw new Error(`Copilot CLI end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

/**
 * Unpack the runtime into COPILOT_CACHE once (`copilot --version`), before runs start in
 * parallel, so they never race to unpack it. A no-op when it is there.
 */
export function warmCopilotCache(): void {
  const bin = findCopilot();
  if (!bin.argv) return;
  mkdirSync(COPILOT_CACHE, { recursive: true });
  const home = mkdtempSync(path.join(os.tmpdir(), "hookrun-copilot-warm-"));
  try {
    execFileSync(bin.argv[0], [...bin.argv.slice(1), "--version"], {
      env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: COPILOT_CACHE, COPILOT_OFFLINE: "true" },
      stdio: "ignore",
      timeout: 120_000,
    });
  } finally {
    removeTree(home);
  }
}

export interface RunCopilotOptions extends AgentRunOptions {
  /** The project directory: Copilot's cwd (holds .github/hooks/). */
  project: string;
  /** The model's turns (see openaiChatModel.ts). */
  script: ScriptTurn[];
  model?: ChatModelOptions;
  args?: string[];
}

export interface CopilotRun extends AgentRunFields {
  requests: ChatRequest[];
  mainRequests: ChatRequest[];
}

/** At most this many Copilot processes at once. */
const runs = agentPool(Math.max(2, Math.min(4, os.availableParallelism())));

let stopped = false;

/** Kill every Copilot run still going, and refuse the ones still waiting for a slot (for afterAll). */
export function killCopilotRuns(): void {
  stopped = true;
  runs.killAll();
}

/**
 * Run `copilot -p PROMPT --allow-all-tools` in `project` against a scripted model. Each run gets its
 * own temp HOME and XDG config/state/data dirs (removed afterwards; the cache is shared) and a clean
 * environment. Copilot runs in its own process group, killed at `timeoutMs` or when `signal` aborts.
 */
export async function runCopilot(options: RunCopilotOptions): Promise<CopilotRun> {
  const bin = findCopilot();
  if (!bin.argv) throw new Error(`Copilot CLI is not installed: ${bin.reason}`);
  const release = await runs.slot();
  if (stopped) {
    release();
    throw new Error("Copilot runs were stopped (killCopilotRuns)");
  }
  const userRoot = makeUserRoot("hookrun-copilot-");
  const model = await startOpenAIChatModel(options.script, options.model);
  try {
    // the outer environment's GITHUB_*, COPILOT_*, tokens, proxies… are dropped (agentProcess.ts KEEP)
    const env = userEnv(userRoot, { HOME: "home", XDG_CONFIG_HOME: "config", XDG_STATE_HOME: "state", XDG_DATA_HOME: "data" });
    mkdirSync(COPILOT_CACHE, { recursive: true });
    finishEnv(env, {
      XDG_CACHE_HOME: COPILOT_CACHE,
      HOOKS_STATE_DIR: path.join(userRoot, "state", "hookrun"),
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: model.baseUrl,
      COPILOT_PROVIDER_TYPE: "openai",
      COPILOT_PROVIDER_API_KEY: "dummy",
      COPILOT_MODEL: "mock-model",
      GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: "true",
      NO_COLOR: "1",
      TERM: "dumb",
      ...options.env,
    });
    await options.setup?.(env as NodeJS.ProcessEnv);

    const args = [...bin.argv.slice(1), "-p", options.prompt, "--allow-all-tools", ...(options.args ?? [])];
    const run = await runs.spawn(bin.argv[0], args, { cwd: options.project, env: env as NodeJS.ProcessEnv, timeoutMs: options.timeoutMs, signal: options.signal });
    await options.afterRun?.(env as NodeJS.ProcessEnv);
    return {
      requests: [...model.requests],
      mainRequests: model.mainRequests,
      ...runFields(run),
    };
  } finally {
    await model.close();
    removeUserRoot(userRoot);
    release();
  }
}

/**
 * What the model received, from the last main request (the whole conversation): one line per
 * message, `[role] text` (`[tool] text` for a tool result, `[assistant] call NAME ARGS` for a tool
 * call); the system prompt is left out and Copilot's `<current_datetime>` prefix removed.
 */
export function chatView(requests: ChatRequest[]): string[] {
  const last = requests.filter((r) => r.main).at(-1);
  const messages: any[] = last?.body?.messages ?? [];
  const view: string[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    const text = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p: any) => p?.text ?? "").join("") : "";
    if (text) view.push(`[${m.role}] ${text.replace(/^<current_datetime>[^<]*<\/current_datetime>\n\n/, "")}`);
    for (const c of m.tool_calls ?? []) view.push(`[assistant] call ${c.function?.name} ${c.function?.arguments}`);
  }
  return view;
}
