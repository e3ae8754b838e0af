import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type AgentBinary, type AgentRunFields, type AgentRunOptions, agentPool, finishEnv, inCi, makeUserRoot, removeUserRoot, runFields, userEnv } from "./agentProcess.js";
import { type ModelOptions, type ModelRequest, type ScriptTurn, startAnthropicModel } from "./anthropicModel.js";

/**
 * Run the real Claude Code CLI (`claude -p`, the pinned devDependency) headless and offline
 * against the scripted model of anthropicModel.ts, in a temp HOME, and read back every request
 * the model received.
 */

export const CLAUDE_PACKAGE = "@anthropic-ai/claude-code";

/** The platform package's name (`@anthropic-ai/claude-code-linux-x64`, `…-linux-x64-musl`, …). */
export function claudePlatformPackage(platform: string = process.platform, arch: string = process.arch): string {
  const report = platform === "linux" ? (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined) : undefined;
  const musl = platform === "linux" && report !== undefined && !report.header?.glibcVersionRuntime;
  return `${CLAUDE_PACKAGE}-${platform}-${arch}${musl ? "-musl" : ""}`;
}

export type ClaudeBinary = AgentBinary;

/**
 * Find the native Claude Code binary of this platform's package (npm installs only the matching
 * optional dependency; its postinstall, which would copy it over bin/claude.exe, is not run).
 */
export function findClaude(): ClaudeBinary {
  const pkg = claudePlatformPackage();
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return { path: null, version: null, reason: `${pkg} is not installed (npm ci installs it with the devDependency ${CLAUDE_PACKAGE} on this platform)` };
  }
  const bin = path.join(dir, process.platform === "win32" ? "claude.exe" : "claude");
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return { path: null, version: null, reason: `${bin} is missing or not executable` };
  }
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  return { path: bin, version, reason: null };
}

export { inCi };

/**
 * The binary the end-to-end tests run, or the reason they skip. In CI a missing binary is an
 * error, not a skip: CI must never go green without having run Claude Code.
 */
export function requireClaude(): ClaudeBinary {
  const found = findClaude();
  if (!found.path && inCi()) throw new Error(`Claude Code end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

export interface RunClaudeOptions extends AgentRunOptions {
  /** The project directory: Claude's cwd and $CLAUDE_PROJECT_DIR (holds .claude/settings.json). */
  project: string;
  /** The model's turns on the main conversation (see anthropicModel.ts). */
  script: ScriptTurn[];
  model?: ModelOptions;
  /** Extra CLI arguments after the defaults. */
  args?: string[];
  /**
   * Stream the prompt on stdin (`--input-format stream-json`, output in stream-json) instead of
   * passing it as an argument, and end stdin once stdout holds this many results (turns): Claude
   * then runs as a streamed session, where background hooks (asyncRewake) can start a turn of
   * their own before the input ends.
   */
  streamTurns?: number;
}

export interface ClaudeRun extends AgentRunFields {
  /** Every request to /v1/messages, in arrival order. */
  requests: ModelRequest[];
  /** The main conversation's requests. */
  mainRequests: ModelRequest[];
  /** Side requests (no tools: title generation, quota checks, …). */
  sideRequests: ModelRequest[];
  /** `--output-format json`'s object (null when stdout was not JSON). */
  result: any;
  /** The command of every hook in the project's .claude/settings.json (modelView replaces them). */
  hookCommands: string[];
  /** The temp dir that held HOME and the XDG dirs (already removed). */
  userRoot: string;
}

/** The commands of every hook in a Claude Code settings file. */
export function settingsHookCommands(file: string): string[] {
  if (!existsSync(file)) return [];
  const settings = JSON.parse(readFileSync(file, "utf8")) as { hooks?: Record<string, { hooks?: { command?: string }[] }[]> };
  const out: string[] = [];
  for (const groups of Object.values(settings.hooks ?? {})) for (const g of groups) for (const h of g.hooks ?? []) if (typeof h.command === "string") out.push(h.command);
  return out;
}

/** At most this many Claude processes at once (each is a heavy native process). */
const runs = agentPool(Math.max(2, Math.min(4, os.availableParallelism())));

/** Kill every Claude run still going (for afterAll: a test that timed out leaves its run behind). */
export function killClaudeRuns(): void {
  runs.killAll();
}

/**
 * Run `claude -p PROMPT --output-format json` in `project` against a scripted model. Each run
 * gets its own temp HOME and XDG dirs (removed afterwards) and a clean environment (agentProcess.ts
 * KEEP: ANTHROPIC_*, CLAUDE*, proxies… are dropped). Claude runs in its own process group, killed
 * at `timeoutMs`, when `signal` aborts, and by killClaudeRuns().
 */
export async function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  const bin = findClaude();
  if (!bin.path) throw new Error(`Claude Code is not installed: ${bin.reason}`);
  const release = await runs.slot();
  const userRoot = makeUserRoot("hookrun-claude-");
  const model = await startAnthropicModel(options.script, options.model);
  try {
    const env = finishEnv(userEnv(userRoot, { HOME: "home", XDG_CONFIG_HOME: "config", XDG_CACHE_HOME: "cache", XDG_STATE_HOME: "state", XDG_DATA_HOME: "data" }), {
      HOOKS_STATE_DIR: path.join(userRoot, "state", "hookrun"),
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "dummy",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      // --dangerously-skip-permissions is refused as root unless Claude believes it is sandboxed
      IS_SANDBOX: "1",
      NO_COLOR: "1",
      TERM: "dumb",
      ...options.env,
    });
    await options.setup?.(env);

    const streamed = options.streamTurns !== undefined;
    const args = streamed
      ? ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", ...(options.args ?? [])]
      : ["-p", options.prompt, "--output-format", "json", "--dangerously-skip-permissions", ...(options.args ?? [])];
    const stdin = streamed
      ? {
          input: `${JSON.stringify({ type: "user", message: { role: "user", content: options.prompt } })}\n`,
          endWhen: (out: string) => out.split("\n").filter(isResultLine).length >= options.streamTurns!,
        }
      : undefined;
    const run = await runs.spawn(bin.path, args, { cwd: options.project, env, timeoutMs: options.timeoutMs, signal: options.signal, stdin });
    await options.afterRun?.(env);
    let result: any = null;
    try {
      result = JSON.parse(run.stdout);
    } catch {
      // not JSON: left null, stdout is in the run
    }
    return {
      requests: [...model.requests],
      mainRequests: model.mainRequests,
      sideRequests: model.sideRequests,
      result,
      ...runFields(run),
      hookCommands: settingsHookCommands(path.join(options.project, ".claude", "settings.json")),
      userRoot,
    };
  } finally {
    await model.close();
    removeUserRoot(userRoot);
    release();
  }
}

/** Whether a line of stream-json output is a turn's result. */
function isResultLine(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === "result";
  } catch {
    return false;
  }
}

export interface ModelViewOptions {
  /** Hook command lines to replace by `<hook-command>` (Claude quotes them in some feedback). */
  hookCommands?: string[];
  /** Absolute paths to replace by `<project>`, `<home>`, …: `{ "<project>": "/tmp/…/project" }`. */
  paths?: Record<string, string>;
}

const BOILERPLATE_REMINDER = /^<system-reminder>\nAttribution for git commits/;
const ENVIRONMENT = "# Environment\n";

/** The text of a message's content (a string, or its blocks). */
function blocksOfMessage(content: unknown): any[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
}

function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b: any) => (b?.type === "text" ? b.text : `<${b?.type}>`)).join("\n");
  return JSON.stringify(content);
}

/**
 * What the model received, normalised for comparing two runs: taken from the last main request
 * (the whole conversation), one line per block:
 * - before the model's first turn: the blocks Claude added around the prompt (hook context,
 *   system reminders; its own attribution reminder and environment section are left out);
 * - from the model's first turn on (its first tool call, else its first text): every block, as
 *   `[role] kind: text` (`tool_result error:` when is_error).
 * Tool-use ids, the hook commands, the given paths, temp paths, session ids and durations become
 * placeholders, so runs in different temp dirs compare equal.
 */
export function modelView(requests: ModelRequest[], options: ModelViewOptions = {}): string[] {
  const main = requests.filter((r) => r.main);
  const last = main.at(-1);
  if (!last) return [];
  const messages: any[] = last.body?.messages ?? [];
  let first = messages.findIndex((m) => m.role === "assistant" && blocksOfMessage(m.content).some((b) => b.type === "tool_use"));
  if (first < 0) first = messages.findIndex((m) => m.role === "assistant");
  if (first < 0) first = messages.length;

  const replacements: [string, string][] = [];
  for (const c of options.hookCommands ?? []) replacements.push([c, "<hook-command>"]);
  for (const [name, p] of Object.entries(options.paths ?? {})) replacements.push([p, name]);
  replacements.sort((a, b) => b[0].length - a[0].length);
  const normalise = (text: string): string => {
    let t = text;
    for (const [from, to] of replacements) if (from) t = t.split(from).join(to);
    return t
      .replace(/toolu_[A-Za-z0-9]+/g, "<tool-id>")
      .replace(/\/tmp\/[^\s"'`:)\]]+/g, "<tmp>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/\b\d+(\.\d+)?\s?(ms|s)\b/g, "<duration>");
  };

  const view: string[] = [];
  messages.forEach((m, i) => {
    for (const b of blocksOfMessage(m.content)) {
      let line: string | undefined;
      if (b.type === "text") {
        let text: string = b.text ?? "";
        if (i < first) {
          if (BOILERPLATE_REMINDER.test(text)) continue;
          const env = text.indexOf(ENVIRONMENT);
          if (env >= 0) text = text.slice(0, env).trimEnd();
          if (!text) continue;
        }
        line = `text: ${text}`;
      } else if (b.type === "tool_use") line = `tool_use ${b.name}: ${JSON.stringify(b.input)}`;
      else if (b.type === "tool_result") line = `tool_result${b.is_error ? " error" : ""}: ${toolResultText(b.content)}`;
      else line = `${b.type}: ${JSON.stringify(b)}`;
      view.push(`[${m.role}] ${normalise(line)}`);
    }
  });
  return view;
}
