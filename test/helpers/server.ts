import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { CLI } from "./cli.js";

export interface ServeProcess {
  child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment runCli uses: the outer CI/HOOKS* variables dropped, the test's own added. */
export function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(base)) if (k === "CI" || k.startsWith("HOOKS") || k === "GITHUB_ACTIONS") delete base[k];
  const out = { ...base, NO_COLOR: "1", ...env };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as NodeJS.ProcessEnv;
}

/** Spawn the built CLI (`hooks serve`, `hooks watch`, …) as a long-lived process. */
export function spawnCli(args: string[], options: { cwd: string; env: Record<string, string | undefined> }): ServeProcess {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, stderr: () => err, exited };
}

/** Wait until the server logs that it listens (or dies trying). */
export async function untilListening(p: ServeProcess, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = /listening on (\S+)/.exec(p.stderr());
    if (m) return m[1];
    if (p.child.exitCode !== null) throw new Error(`server exited ${p.child.exitCode}: ${p.stderr()}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: any;
}

export type Target = { socketPath: string } | { port: number };

/** One HTTP request over the socket (or to 127.0.0.1:port); the body is JSON-parsed. */
export function request(target: Target, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const where = "socketPath" in target ? { socketPath: target.socketPath } : { host: "127.0.0.1", port: target.port };
    const req = http.request({ ...where, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = { raw: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
