import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type AgentBinary, inCi, killGroup } from "./agentProcess.js";
import { removeTree } from "./removeTree.js";

/**
 * Run the real Qoder CLI (the pinned devDependency @qoder-ai/qodercli) headless and offline. Qoder
 * talks only to its own (logged-in) model service: `qodercli -p` without a login says "Not logged
 * in · Please run /login". Its Agent Client Protocol mode (`--acp`, JSON-RPC on stdin/stdout) with
 * `--fake-responses FILE` (scripted model turns, one JSON line each) runs without one. When the
 * script runs out, Qoder records the request it could not answer, whole (the messages and
 * system reminders the model would have received), in the session's transcript as the error
 * "No more mock responses for generateContentStream, got request: {…}": that request is what a
 * test reads, as the other e2e tests read a scripted server's request log.
 */

export const QODER_PACKAGE = "@qoder-ai/qodercli";

export function findQoder(): AgentBinary {
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${QODER_PACKAGE}/package.json`));
  } catch {
    return { path: null, version: null, reason: `${QODER_PACKAGE} is not installed (npm ci installs the devDependency)` };
  }
  const entry = path.join(dir, "bundle", "qodercli.js");
  if (!existsSync(entry)) return { path: null, version: null, reason: `${entry} is missing` };
  const version = (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  return { path: entry, version, reason: null };
}

/** The CLI the end-to-end tests run, or the reason they skip; in CI a missing CLI is an error, never a skip. */
export function requireQoder(): AgentBinary {
  const found = findQoder();
  if (!found.path && inCi()) throw new Error(`Qoder CLI end-to-end tests cannot run in CI: ${found.reason}`);
  return found;
}

/** A temp HOME for one run (Qoder's ~/.qoder, and the XDG dirs hookrun uses: the same trust store). */
export interface QoderHome {
  dir: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function makeQoderHome(): QoderHome {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-qoder-home-")));
  const env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, ".config"), XDG_STATE_HOME: path.join(dir, ".local/state"), XDG_CACHE_HOME: path.join(dir, ".cache") };
  return { dir, env, cleanup: () => removeTree(dir) };
}

/** One scripted model turn: text, and tool calls by Qoder's tool names (`Bash` with `{command, description}`). */
export interface QoderTurn {
  text?: string;
  calls?: { name: string; args: Record<string, unknown> }[];
}

export interface QoderRun {
  /** Every `session/update` notification's `update`, in order (tool calls, their results, message chunks). */
  updates: any[];
  /** The `session/prompt` reply (its `result` or `error`). */
  reply: any;
  /** The request the script ran out at (`{chatAsk, model, messages, tools}`), or null. */
  unanswered: any;
  /** Its text: every string in it, joined (the system reminders, the prompt, tool results). */
  unansweredText: string;
  stderr: string;
  timedOut: boolean;
  /**
   * Qoder's own session log (`~/.qoder/logs/sessions/…/segments/*.jsonl`), in order, cut to what
   * tells hook timing apart: hook started/finished (event, source, success, exit code), the prompt
   * received, the turn started, and every warning or error. One line per event.
   */
  log: string[];
}

/** Every Qoder run still going, for afterAll (a failed beforeAll leaves its sibling runs behind). */
const live = new Set<ChildProcess>();

export function killAllQoder(): void {
  for (const c of live) killGroup(c);
}

/** The scripted turns as Qoder's fake-responses file (Gemini-shaped `generateContentStream` lines). */
function fakeResponses(turns: QoderTurn[]): string {
  return turns
    .map((t) => {
      const parts: unknown[] = [];
      if (t.text) parts.push({ text: t.text });
      for (const c of t.calls ?? []) parts.push({ functionCall: { name: c.name, args: c.args } });
      return JSON.stringify({ method: "generateContentStream", response: [{ candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] }] });
    })
    .join("\n");
}

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** The JSON object at the start of `text` (a stack trace follows it in Qoder's error text). */
function firstObject(text: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return text.slice(0, i + 1);
    }
  }
  return text;
}

/** The request Qoder recorded when the script ran out, from the session transcripts under `home`. */
function unansweredRequest(home: string): any {
  const root = path.join(home, ".qoder", "projects");
  if (!existsSync(root)) return null;
  const mark = "got request:\n";
  for (const project of readdirSync(root)) {
    for (const file of readdirSync(path.join(root, project))) {
      if (!file.endsWith(".jsonl")) continue;
      for (const line of readFileSync(path.join(root, project, file), "utf8").split("\n")) {
        if (!line.includes("No more mock responses")) continue;
        const details = (JSON.parse(line) as { errorDetails?: string }).errorDetails ?? "";
        const at = details.indexOf(mark);
        if (at >= 0) return JSON.parse(firstObject(details.slice(at + mark.length)));
      }
    }
  }
  return null;
}

/** Qoder's session log under `home`, one line per event that matters to hooks (QoderRun.log). */
function sessionLog(home: string): string[] {
  const root = path.join(home, ".qoder", "logs", "sessions");
  const events: any[] = [];
  if (!existsSync(root)) return [];
  for (const project of readdirSync(root))
    for (const session of readdirSync(path.join(root, project))) {
      const dir = path.join(root, project, session, "segments");
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir))
        for (const line of readFileSync(path.join(dir, file), "utf8").split("\n")) {
          if (!line.startsWith("{")) continue;
          const e = JSON.parse(line);
          if (/^hook\.|^input\.prompt\.received$|^turn\.started$/.test(e.type) || e.level === "warn" || e.level === "error") events.push(e);
        }
    }
  events.sort((a, b) => String(a.ts).localeCompare(String(b.ts)) || (a.seq ?? 0) - (b.seq ?? 0));
  return events.map((e) => {
    const d = e.data ?? {};
    const hook = e.type.startsWith("hook.")
      ? ` ${d.hook_event_name} source=${d.source}${d.plugin_id ? `/${d.plugin_id}` : ""}${e.type === "hook.finished" ? ` success=${d.success} exit=${d.exit_code} ${d.duration_ms}ms${d.error ? ` error=${d.error}` : ""}` : ""}`
      : "";
    return `${e.ts} ${e.level} ${e.type}${hook}${e.level !== "info" ? ` ${JSON.stringify(d).slice(0, 300)}` : ""}`;
  });
}

/**
 * `qodercli --acp --fake-responses FILE --yolo` in `project`: initialize, open a session, send
 * `prompt`, wait for the reply, then kill Qoder's process group. `turns` are the model's answers,
 * in order; the request after the last is recorded (QoderRun.unanswered).
 */
export async function runQoder(o: { project: string; home: QoderHome; prompt: string; turns: QoderTurn[]; timeoutMs?: number }): Promise<QoderRun> {
  const qoder = findQoder();
  if (!qoder.path) throw new Error(`Qoder CLI is not installed: ${qoder.reason}`);
  mkdirSync(o.home.dir, { recursive: true });
  const fake = path.join(o.home.dir, "fake-responses.jsonl");
  writeFileSync(fake, fakeResponses(o.turns));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: "C.UTF-8", NO_COLOR: "1", ...o.home.env };
  const child = spawn(process.execPath, [qoder.path, "--acp", "--fake-responses", fake, "--yolo"], { cwd: o.project, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  live.add(child);
  const updates: any[] = [];
  let stderr = "";
  let buffer = "";
  let next = 0;
  const pending = new Map<number, (reply: any) => void>();
  child.stdin.on("error", () => {});
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on("data", (d: Buffer) => {
    buffer += d.toString();
    for (let n = buffer.indexOf("\n"); n >= 0; n = buffer.indexOf("\n")) {
      const line = buffer.slice(0, n).trim();
      buffer = buffer.slice(n + 1);
      if (!line.startsWith("{")) continue;
      const m = JSON.parse(line);
      if (m.method === "session/update") updates.push(m.params?.update);
      else if (m.method === "session/request_permission") {
        // Yolo mode asks nothing; should it ask, the first option (allow) is taken.
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { outcome: { outcome: "selected", optionId: m.params.options[0].optionId } } })}\n`);
      } else if (m.id !== undefined && m.method === undefined) {
        pending.get(m.id)?.(m);
        pending.delete(m.id);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const call = (method: string, params: unknown) =>
    new Promise<any>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<any>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      resolve({ error: { message: "timed out" } });
    }, o.timeoutMs ?? 90_000);
  });
  try {
    const session = async () => {
      await call("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const s = await call("session/new", { cwd: o.project, mcpServers: [] });
      if (!s.result?.sessionId) return s;
      return call("session/prompt", { sessionId: s.result.sessionId, prompt: [{ type: "text", text: o.prompt }] });
    };
    const reply = await Promise.race([session(), timeout, exited.then(() => ({ error: { message: "qodercli exited" } }))]);
    const unanswered = unansweredRequest(o.home.dir);
    return { updates, reply, unanswered, unansweredText: unanswered ? strings(unanswered, []).join("\n") : "", stderr, timedOut, log: sessionLog(o.home.dir) };
  } finally {
    clearTimeout(timer);
    killGroup(child);
    await exited;
    live.delete(child);
  }
}
