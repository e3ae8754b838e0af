import { accessSync, constants, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type AgentBinary, type AgentRunFields, type AgentRunOptions, agentPool, finishEnv, inCi, makeUserRoot, removeUserRoot, runFields, userEnv } from "./agentProcess.js";
import { type ModelOptions, type ModelRequest, type ScriptTurn, startResponsesModel } from "./openaiResponsesModel.js";

/**
 * Run the real Codex CLI (`codex exec`, the pinned devDependency @openai/codex) headless and
 * offline against the scripted Responses server of openaiResponsesModel.ts, in a temp HOME and
 * CODEX_HOME, and read back every request the model received.
 *
 * CODEX_HOME/config.toml points Codex at the server (model_provider "mock", wire_api
 * "responses", the key from MOCK_API_KEY) and marks the project trusted: Codex (0.169.0 and 0.171.0) reads a
 * project's .codex/hooks.json only in a trusted project and ignores it silently otherwise
 * (`--dangerously-bypass-hook-trust` skips only the per-hook review).
 */

/** Process probes the tests of a killed run use (in agentProcess.ts, shared with claude.e2e.test.ts). */
export { alive, processesWithArg } from "./agentProcess.js";

export const CODEX_PACKAGE = "@openai/codex";
/** A model Codex has metadata for (so it offers apply_patch, and warns less). */
export const CODEX_MODEL = "gpt-5.5";

const TRIPLES: Record<string, string> = {
  "linux-x64": "x86_64-unknown-linux-musl",
  "linux-arm64": "aarch64-unknown-linux-musl",
  "darwin-x64": "x86_64-apple-darwin",
  "darwin-arm64": "aarch64-apple-darwin",
  "win32-x64": "x86_64-pc-windows-msvc",
  "win32-arm64": "aarch64-pc-windows-msvc",
};

export type CodexBinary = AgentBinary;

/** The native binary of this platform's package (`@openai/codex-linux-x64/vendor/<triple>/bin/codex`). */
export function findCodex(): CodexBinary {
  const key = `${process.platform}-${process.arch}`;
  const pkg = `${CODEX_PACKAGE}-${key}`;
  const triple = TRIPLES[key];
  if (!triple) return { path: null, version: null, reason: `no Codex binary is published for ${key}` };
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
  } catch {
    return { path: null, version: null, reason: `${pkg} is not installed (npm ci installs it with the devDependency ${CODEX_PACKAGE} on this platform)` };
  }
  const bin = path.join(dir, "vendor", triple, "bin", process.platform === "win32" ? "codex.exe" : "codex");
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return { path: null, version: null, reason: `${bin} is missing or not executable` };
  }
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version.replace(/-.*$/, "");
  return { path: bin, version, reason: null };
}

/** The binary, or the reason to skip; under CI a missing binary is an error (CI must never go green without Codex). */
export function requireCodex(): CodexBinary {
  const found = findCodex();
  if (!found.path && inCi()) throw new Error(`Codex end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

export interface RunCodexOptions extends AgentRunOptions {
  /** The project directory: Codex's cwd (holds .codex/hooks.json), trusted in config.toml. */
  project: string;
  /** Where `codex exec` starts (default: the project); a subdirectory shows where hooks run. */
  cwd?: string;
  script: ScriptTurn[];
  model?: ModelOptions;
  /** Extra `codex exec` arguments before the prompt. */
  args?: string[];
  /** Lines appended to config.toml. */
  configToml?: string;
}

export interface CodexRun extends AgentRunFields {
  requests: ModelRequest[];
  /** The `hook: Event Status` lines codex exec printed, in order. */
  hookLines: string[];
}

const runs = agentPool(Math.max(2, Math.min(4, os.availableParallelism())));

/** Kill every Codex run still going (afterAll). */
export function killCodexRuns(): void {
  runs.killAll();
}

const toml = (s: string) => JSON.stringify(s);

/**
 * `codex exec --skip-git-repo-check --dangerously-bypass-hook-trust
 * --dangerously-bypass-approvals-and-sandbox -m gpt-5.5 PROMPT` in the project against a scripted
 * model, in its own temp HOME / CODEX_HOME (removed afterwards) and its own process group.
 */
export async function runCodex(options: RunCodexOptions): Promise<CodexRun> {
  const bin = findCodex();
  if (!bin.path) throw new Error(`Codex is not installed: ${bin.reason}`);
  const release = await runs.slot();
  const userRoot = makeUserRoot("hookrun-codex-");
  const model = await startResponsesModel(options.script, { model: CODEX_MODEL, ...options.model });
  try {
    // the outer environment's OPENAI_*, CODEX_*, proxies… are dropped (agentProcess.ts KEEP)
    const env = userEnv(userRoot, { HOME: "home", CODEX_HOME: "codex-home", XDG_CONFIG_HOME: "config", XDG_CACHE_HOME: "cache", XDG_STATE_HOME: "state", XDG_DATA_HOME: "data" });
    writeFileSync(
      path.join(env.CODEX_HOME!, "config.toml"),
      [
        `model = ${toml(CODEX_MODEL)}`,
        'model_provider = "mock"',
        "[model_providers.mock]",
        'name = "mock"',
        `base_url = ${toml(model.url)}`,
        'env_key = "MOCK_API_KEY"',
        'wire_api = "responses"',
        "[analytics]",
        "enabled = false",
        `[projects.${toml(options.project)}]`,
        'trust_level = "trusted"',
        options.configToml ?? "",
      ].join("\n"),
    );
    finishEnv(env, {
      HOOKS_STATE_DIR: path.join(userRoot, "state", "hookrun"),
      MOCK_API_KEY: "dummy",
      SHELL: "/bin/bash",
      NO_COLOR: "1",
      TERM: "dumb",
      ...options.env,
    });
    await options.setup?.(env as NodeJS.ProcessEnv);

    const args = ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", "--color", "never", ...(options.args ?? []), options.prompt];
    const run = await runs.spawn(bin.path, args, { cwd: options.cwd ?? options.project, env: env as NodeJS.ProcessEnv, timeoutMs: options.timeoutMs, signal: options.signal });
    await options.afterRun?.(env as NodeJS.ProcessEnv);
    return {
      requests: [...model.requests],
      ...runFields(run),
      hookLines: run.stderr.split("\n").filter((l) => l.startsWith("hook: ")),
    };
  } finally {
    await model.close();
    removeUserRoot(userRoot);
    release();
  }
}

/** The text of a Responses input message's content. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c: any) => (typeof c?.text === "string" ? c.text : `<${c?.type}>`)).join("\n");
  return JSON.stringify(content);
}

function isEnvironmentContext(x: any): boolean {
  return x?.type === "message" && x.role === "user" && contentText(x.content).startsWith("<environment_context>");
}

/**
 * What the model received, from the last request (the whole conversation), one line per input
 * item after Codex's own preamble (its instructions and the `<environment_context>` message):
 * `[developer] …` (hook context), `[user] …`, `[assistant] …`, `call NAME: ARGS`,
 * `output: …` (tool results). Paths given, temp paths, ids and durations become placeholders.
 */
export function modelView(requests: ModelRequest[], paths: Record<string, string> = {}): string[] {
  const last = requests.at(-1);
  if (!last) return [];
  const input: any[] = Array.isArray(last.body?.input) ? last.body.input : [];
  const start = input.findIndex(isEnvironmentContext);
  const replacements = Object.entries(paths)
    .map(([name, p]) => [p, name] as const)
    .sort((a, b) => b[0].length - a[0].length);
  const normalise = (text: string): string => {
    let t = text;
    for (const [from, to] of replacements) if (from) t = t.split(from).join(to);
    return t
      .replace(/\/tmp\/[^\s"'`:)\]]+/g, "<tmp>")
      .replace(/Chunk ID: [0-9a-f]+/g, "Chunk ID: <id>")
      .replace(/Wall time: [\d.]+ seconds?/g, "Wall time: <duration>");
  };
  const view: string[] = [];
  for (const x of input.slice(start + 1)) {
    // Codex sends a fresh `<environment_context>` when the date changes mid-session (a run that
    // crosses midnight): it is Codex's own preamble, not what the hooks gave the model.
    if (isEnvironmentContext(x)) continue;
    let line: string;
    if (x?.type === "message") line = `[${x.role}] ${contentText(x.content)}`;
    else if (x?.type === "function_call") line = `call ${x.name}: ${x.arguments}`;
    else if (x?.type === "custom_tool_call") line = `call ${x.name}: ${x.input}`;
    else if (x?.type === "function_call_output" || x?.type === "custom_tool_call_output") line = `output: ${typeof x.output === "string" ? x.output : JSON.stringify(x.output)}`;
    else line = `${x?.type}: ${JSON.stringify(x)}`;
    view.push(normalise(line));
  }
  return view;
}
