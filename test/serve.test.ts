import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { startServer, type RunningServer } from "../src/server/startServer.js";
import { config as runnerConfig, hook } from "./helpers/runnerConfig.js";
import { runCli, spawnCli, type CliProcess } from "./helpers/cli.js";
import { request, untilListening, type Target } from "./helpers/server.js";
import { alive, useSandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

let tmp: string;
let repo: string;
let state: string;
let env: Record<string, string>;
let servers: CliProcess[];

type HookLine = { name: string; command: string; event?: string; async?: boolean };
const byEvent = (hooks: HookLine[]): [string, HookLine[]][] => {
  const m = new Map<string, HookLine[]>();
  for (const h of hooks) m.set(h.event ?? "stop", [...(m.get(h.event ?? "stop") ?? []), h]);
  return [...m];
};
const hookYaml = (hooks: HookLine[], extra = "") =>
  extra +
  "hooks:\n" +
  byEvent(hooks)
    .map(([event, list]) => `  ${event}:\n${list.map((h) => `    - name: ${h.name}\n      command: ${JSON.stringify(h.command)}\n${h.async ? "      async: true\n" : ""}`).join("")}`)
    .join("");

function serve(args: string[] = []): CliProcess {
  const p = spawnCli(["--trust", "serve", ...args], { cwd: repo, env });
  servers.push(p);
  return p;
}

async function startServe(args: string[] = []): Promise<{ p: CliProcess; target: Target }> {
  const p = serve(args);
  const url = await untilListening(p);
  const target: Target = url.startsWith("unix:") ? { socketPath: url.slice(5) } : { port: Number(new URL(url).port) };
  return { p, target };
}

const hookNames = async (t: Target): Promise<string> => ((await request(t, "GET", "/v1/hooks")).json.hooks as { name: string }[]).map((h) => h.name).join(",");

/** A raw connection: what the server wrote on it so far, and whether it has closed it. */
interface RawClient {
  socket: net.Socket;
  received(): string;
  closed: Promise<string>;
  isClosed(): boolean;
}
function connectRaw(target: Target, send = ""): RawClient {
  const socket = "socketPath" in target ? net.connect(target.socketPath) : net.connect(target.port, "127.0.0.1");
  let data = "";
  let done = false;
  socket.setEncoding("utf8").on("data", (d: string) => (data += d));
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(data)));
  void closed.then(() => (done = true));
  if (send) socket.write(send);
  return { socket, received: () => data, closed, isClosed: () => done };
}
const statusOf = (raw: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
const bodyOf = (raw: string): any => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));

const sb = useSandbox({ prefix: "hookrun-serve-" });
beforeEach(() => {
  tmp = sb.current.root;
  repo = path.join(tmp, "repo");
  mkdirSync(repo);
  env = { ...sb.current.env, HOOKS_TRUST: "1" };
  state = env.HOOKS_STATE_DIR;
  servers = [];
});

// Runs before the sandbox's own afterEach removes the tree (after-hooks run in reverse order).
afterEach(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.exited));
});

describe("hooks serve: triggers", () => {
  it("answers POST /v1/trigger/{event} with the result of the runner (docs/running-hooks.md#the-result), in any spelling", async () => {
    writeFileSync(
      path.join(repo, "hooks.yaml"),
      hookYaml([
        { name: "say", command: "echo hello from $HOOK_EVENT" },
        { name: "guard", event: "pre_tool_use", command: "echo no >&2; exit 2" },
      ]),
    );
    const { target } = await startServe();
    const r = await request(target, "POST", "/v1/trigger/Stop", JSON.stringify({ session_id: "s1", turn_count: 2 }));
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toMatch(/application\/json/);
    expect(r.json).toMatchObject({ event: "stop", session_id: "s1", blocked: false, messages: [{ role: "system", content: "hello from stop", hook: "say" }] });
    expect(r.json.hooks[0]).toMatchObject({ name: "say", status: "ok", exit_code: 0 });
    const b = await request(target, "POST", "/v1/trigger/tool.execute.pre", JSON.stringify({ session_id: "s1", tool_name: "Bash" }));
    expect(b.status).toBe(200);
    expect(b.json).toMatchObject({ event: "pre_tool_use", blocked: true, blocked_by: "guard", reason: "no" });
  });

  it("derives last_assistant_message from transcript_path, as hooks run does (relative to the context's cwd)", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "cap", command: "cat > ctx.json" }]));
    const line = (role: string, text: string) => JSON.stringify({ type: role, message: { role, content: [{ type: "text", text }] } });
    mkdirSync(path.join(repo, "logs"));
    writeFileSync(path.join(repo, "logs", "t.jsonl"), [line("user", "hi"), line("assistant", "All tests pass."), ""].join("\n"));
    const { target } = await startServe();
    const seen = async (context: Record<string, unknown>): Promise<unknown> => {
      rmSync(path.join(repo, "ctx.json"), { force: true });
      expect((await request(target, "POST", "/v1/trigger/stop", JSON.stringify(context))).status).toBe(200);
      return (JSON.parse(readFileSync(path.join(repo, "ctx.json"), "utf8")) as { last_assistant_message?: unknown }).last_assistant_message;
    };
    expect(await seen({ session_id: "a", transcript_path: path.join(repo, "logs", "t.jsonl") })).toBe("All tests pass.");
    expect(await seen({ session_id: "a", cwd: path.join(repo, "logs"), transcript_path: "t.jsonl" })).toBe("All tests pass.");
    expect(await seen({ session_id: "a", transcript_path: path.join(repo, "logs", "t.jsonl"), last_assistant_message: "given" })).toBe("given");
    expect(await seen({ session_id: "a", transcript_path: path.join(repo, "missing.jsonl") })).toBe(null);
  });

  it("fires custom events declared in the config, and lists them in /v1/events", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "d", event: "deploy_finished", command: "echo deployed" }], "events:\n  deploy_finished: { custom: true, description: ours }\n"));
    const { target } = await startServe();
    const r = await request(target, "POST", "/v1/trigger/deploy-finished", "{}");
    expect(r.status).toBe(200);
    expect(r.json.messages[0].content).toBe("deployed");
    const events = (await request(target, "GET", "/v1/events")).json.events as { name: string; custom: boolean }[];
    expect(events.find((e) => e.name === "deploy_finished")).toMatchObject({ custom: true });
    expect(events.find((e) => e.name === "pre_tool_use")).toMatchObject({ custom: false, gate: "yes" });
  });

  it("gives 50 concurrent triggers from different sessions their own results", async () => {
    // The hook reads its session_id back from the context on stdin.
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "echo-session", command: `sed -n 's/.*"session_id":"\\([^"]*\\)".*/\\1/p'` }]));
    const { target } = await startServe();
    const ids = Array.from({ length: 50 }, (_, i) => `session-${i}-${Math.random().toString(36).slice(2)}`);
    const replies = await Promise.all(ids.map((id) => request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: id }))));
    replies.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(r.json.session_id).toBe(ids[i]);
      expect(r.json.hooks).toHaveLength(1);
      expect(r.json.hooks[0].status).toBe("ok");
      expect(r.json.messages).toEqual([{ role: "system", content: ids[i], hook: "echo-session" }]);
    });
  });
});

describe("hooks serve: async hooks", () => {
  it("runs async hooks in the server and delivers each result to its own session only", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "bg", command: `sed -n 's/.*"session_id":"\\([^"]*\\)".*/bg for \\1/p'`, async: true }]));
    const { target } = await startServe();
    const a = await request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "A" }));
    const b = await request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "B" }));
    expect(a.json.async_started).toEqual(["bg"]);
    expect(b.json.async_started).toEqual(["bg"]);
    // Any later event of a session delivers what finished for it, and nothing of the other session.
    const delivered = async (session: string) =>
      waitFor(
        async () => {
          const r = await request(target, "POST", "/v1/trigger/notification", JSON.stringify({ session_id: session }));
          return r.json.async_delivered.length ? r.json : null;
        },
        { what: `delivery to ${session}` },
      );
    const toA = await delivered("A");
    expect(toA.async_delivered).toHaveLength(1);
    expect(toA.async_delivered[0]).toMatchObject({ name: "bg", event: "stop", session_id: "A", status: "ok" });
    expect(toA.messages).toEqual([expect.objectContaining({ content: "bg for A", hook: "bg", async: true })]);
    const toB = await delivered("B");
    expect(toB.messages).toEqual([expect.objectContaining({ content: "bg for B", hook: "bg", async: true })]);
    const again = await request(target, "POST", "/v1/trigger/notification", JSON.stringify({ session_id: "A" }));
    expect(again.json.async_delivered).toEqual([]);
  });
});

describe("hooks serve: errors", () => {
  beforeEach(() => writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "a", command: "true" }])));

  it("400 on bad JSON and on a context that is not an object", async () => {
    const { target } = await startServe();
    const bad = await request(target, "POST", "/v1/trigger/stop", "{nope");
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/not valid JSON/);
    const arr = await request(target, "POST", "/v1/trigger/stop", "[1,2]");
    expect(arr.status).toBe(400);
    expect(arr.json.error.message).toMatch(/an array.*JSON object/);
  });

  it("404 with suggestions on an unknown event; 404 on an unknown route; 405 on a wrong method", async () => {
    const { target } = await startServe();
    const r = await request(target, "POST", "/v1/trigger/stpo", "{}");
    expect(r.status).toBe(404);
    expect(r.json.error.message).toMatch(/unknown event `stpo`/);
    expect(r.json.error).toMatchObject({ code: "usage", suggestions: expect.arrayContaining(["stop"]) });
    const route = await request(target, "GET", "/v2/nothing");
    expect(route.status).toBe(404);
    expect(route.json.error.message).toMatch(/no such endpoint/);
    const method = await request(target, "GET", "/v1/trigger/stop");
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe("POST");
  });

  it("400 with a suggestion on an unknown ?only= or ?skip= name, worded as the CLI's --only/--skip; nothing runs", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "lint", command: "touch ran" }]));
    const { target } = await startServe();
    const only = await request(target, "POST", "/v1/trigger/stop?only=lnt", "{}");
    expect(only.status).toBe(400);
    expect(only.json).toEqual({ error: { code: "unknown-hook", message: "only: no hook named lnt; did you mean lint?", names: ["lnt"] } });
    const skip = await request(target, "POST", "/v1/trigger/stop?skip=lint,zzz", "{}");
    expect(skip.status).toBe(400);
    expect(skip.json.error.message).toBe("skip: no hook named zzz; run `hooks list` to see them");
    expect(existsSync(path.join(repo, "ran"))).toBe(false);
    expect((await request(target, "POST", "/v1/trigger/stop?only=lint", "{}")).json.hooks.map((h: { name: string }) => h.name)).toEqual(["lint"]);
  });

  it("GET /v1/hooks serializes each hook as `hooks list --json` does", async () => {
    writeFileSync(
      path.join(repo, "hooks.yaml"),
      hookYaml([
        { name: "a", command: "true" },
        { name: "b", event: "pre_tool_use", command: "false" },
      ]),
    );
    const { target } = await startServe();
    const listed = JSON.parse((await runCli(["--trust", "list", "--json"], { cwd: repo, env })).stdout) as { name: string }[];
    const served = (await request(target, "GET", "/v1/hooks")).json.hooks as { name: string }[];
    const byName = (hooks: { name: string }[]) => [...hooks].sort((x, y) => x.name.localeCompare(y.name));
    expect(byName(served)).toEqual(byName(listed));
    expect(served.find((h) => h.name === "a")).toMatchObject({ source: { file: "hooks.yaml", line: 3, col: 7, layer: "project" } });
  });

  it("413 on a body over 10 MiB, declared or streamed, without waiting for all of it", async () => {
    const { target } = await startServe();
    const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
    const declared = await request(target, "POST", "/v1/trigger/stop", big);
    expect(declared.status).toBe(413);
    expect(declared.json.error.message).toMatch(/over 10 MiB/);
    // Chunked: no Content-Length, the server counts; the client keeps sending forever.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = http.request({ socketPath: (target as { socketPath: string }).socketPath, method: "POST", path: "/v1/trigger/stop", agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", (e) => (req.destroyed ? undefined : reject(e)));
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      const pump = (): void => {
        while (!req.destroyed && req.write(chunk));
        if (!req.destroyed) req.once("drain", pump);
      };
      pump();
    });
    expect(streamed).toBe(413);
    // The server is still fine.
    expect((await request(target, "POST", "/v1/trigger/stop", "{}")).status).toBe(200);
  });

  it("a client still sending a refused body reads the 413, on a socket and over TCP (the server lingers, it does not reset)", async () => {
    // Closing at once after the answer made the client's next write fail (EPIPE, or a TCP reset
    // that drops the answer unread): 43 of 100 such requests over TCP, 4 of 100 on the socket.
    const big = Buffer.alloc(11 * 1024 * 1024, 0x61);
    const { target: socket } = await startServe();
    const { target: tcp } = await startServe(["--port", "0"]);
    const auth = { authorization: `Bearer ${readFileSync(path.join(state, "serve.token"), "utf8").trim()}` };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await request(socket, "POST", "/v1/trigger/stop", big)).status);
      statuses.push((await request(tcp, "POST", "/v1/trigger/stop", big, auth)).status);
    }
    expect(statuses).toEqual(Array(20).fill(413));
  });

  it("requests pipelined behind a refused body do not run: the connection is closing", async () => {
    const ran = path.join(tmp, "ran.txt");
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "mark", command: `echo ran >> ${ran}` }]));
    const { target } = await startServe();
    const socket = net.connect((target as { socketPath: string }).socketPath);
    socket.on("error", () => {});
    let got = "";
    socket.setEncoding("utf8").on("data", (d: string) => (got += d));
    const size = 10 * 1024 * 1024 + 1;
    socket.write(`POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    socket.write(Buffer.alloc(size, 0x61));
    for (let i = 0; i < 20; i++) socket.write("POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    await new Promise((resolve) => socket.on("close", resolve));
    expect(statusOf(got)).toBe(413);
    expect(got.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    // The server is still fine, and one trigger marks once: none of the 20 ran.
    expect((await request(target, "POST", "/v1/trigger/stop", "{}")).status).toBe(200);
    expect(readFileSync(ran, "utf8")).toBe("ran\n");
  });

  it("a refused body is not read while an answer before it on the connection is pending: the client is pushed back", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "slow", command: "sleep 3" }]));
    const { target } = await startServe();
    const socket = net.connect({ path: (target as { socketPath: string }).socketPath, allowHalfOpen: true });
    socket.on("error", () => {});
    socket.write("POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    socket.write("POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n");
    // Send as fast as the server takes it for 1.5 s, while the first trigger's hook sleeps.
    let accepted = 0;
    let sending = true;
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const pump = (): void => {
      while (sending && socket.write(chunk)) accepted += chunk.length;
      if (sending) socket.once("drain", pump);
    };
    pump();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    sending = false;
    socket.destroy();
    // Dropping it as it came would take gigabytes here; pushed back, it is what the socket buffers hold.
    expect(accepted).toBeLessThan(64 * 1024 * 1024);
  });

  it("a client that hangs up cancels the hooks of every request it pipelined, not only the one being answered", async () => {
    const log = path.join(tmp, "log.txt");
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "slow", command: `echo start >> ${log}; sleep 5; echo done >> ${log}` }]));
    const { target } = await startServe();
    const socket = net.connect((target as { socketPath: string }).socketPath);
    socket.on("error", () => {});
    for (let i = 0; i < 3; i++) socket.write("POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    const lines = (): string[] => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
    // Node hands pipelined requests to the server at once: all three run side by side.
    await waitFor(() => lines().length === 3, { what: "the three hooks to start" });
    socket.destroy();
    // Every hook is killed: none writes "done" (each would after 5 s).
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(lines()).toEqual(["start", "start", "start"]);
  }, 20_000);

  it("403 naming the file when the project config is not trusted (no --trust, no HOOKS_TRUST)", async () => {
    const p = spawnCli(["serve"], { cwd: repo, env: { ...env, HOOKS_TRUST: undefined } as Record<string, string | undefined> });
    servers.push(p);
    const url = await untilListening(p);
    const target = { socketPath: url.slice(5) };
    const r = await request(target, "POST", "/v1/trigger/stop", "{}");
    expect(r.status).toBe(403);
    expect(r.json.error.message).toMatch(/not trusted.*hooks trust/);
    expect(r.json.error).toMatchObject({ code: "trust", files: ["hooks.yaml"] });
  });

  it("--port: 401 without or with a wrong token; the token file is 0600 and works", async () => {
    const { p, target } = await startServe(["--port", "0"]);
    const tokenFile = path.join(state, "serve.token");
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, "utf8").trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const none = await request(target, "GET", "/v1/health");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    const wrong = await request(target, "POST", "/v1/trigger/stop", "{}", { authorization: `Bearer ${"0".repeat(64)}` });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.message).toMatch(/wrong bearer token/);
    const ok = await request(target, "POST", "/v1/trigger/stop", "{}", { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.json.hooks[0].name).toBe("a");
    p.child.kill("SIGTERM");
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(tokenFile)).toBe(false);
  });
});

describe("hooks serve: live reload", () => {
  const file = () => path.join(repo, "hooks.yaml");
  beforeEach(() => writeFileSync(file(), hookYaml([{ name: "first", command: "echo first" }])));

  it("picks up an atomic-rename save", async () => {
    const { target } = await startServe();
    expect(await hookNames(target)).toBe("first");
    writeFileSync(path.join(repo, ".hooks.yaml.123.tmp"), hookYaml([{ name: "renamed", command: "echo renamed" }]));
    renameSync(path.join(repo, ".hooks.yaml.123.tmp"), file());
    await waitFor(async () => (await hookNames(target)) === "renamed", { what: "the atomic save" });
    const r = await request(target, "POST", "/v1/trigger/stop", "{}");
    expect(r.json.messages[0].content).toBe("renamed");
  });

  it("picks up a vim-style save (backup rename, new file, swap file)", async () => {
    const { target } = await startServe();
    writeFileSync(path.join(repo, ".hooks.yaml.swp"), "swap");
    renameSync(file(), `${file()}~`);
    writeFileSync(file(), hookYaml([{ name: "vim", command: "echo vim" }]));
    unlinkSync(`${file()}~`);
    unlinkSync(path.join(repo, ".hooks.yaml.swp"));
    await waitFor(async () => (await hookNames(target)) === "vim", { what: "the vim save" });
  });

  it("picks up delete and recreate", async () => {
    const { target } = await startServe();
    unlinkSync(file());
    await waitFor(async () => (await hookNames(target)) === "", { what: "the deletion" });
    writeFileSync(file(), hookYaml([{ name: "reborn", command: "echo reborn" }]));
    await waitFor(async () => (await hookNames(target)) === "reborn", { what: "the new file" });
  });

  it("keeps the old hooks running on an invalid save and reports it in /v1/health", async () => {
    const { p, target } = await startServe();
    expect((await request(target, "GET", "/v1/health")).json).toMatchObject({ status: "ok", hooks: 1, files: [{ path: "hooks.yaml", layer: "project" }], last_reload_error: null });
    writeFileSync(file(), "hooks:\n  stop: [ {name: broken\n");
    const health = await waitFor(
      async () => {
        const h = (await request(target, "GET", "/v1/health")).json;
        return h.status === "degraded" ? h : null;
      },
      { what: "degraded health" },
    );
    expect(health.hooks).toBe(1);
    expect(health.last_reload_error).toMatchObject({ code: "config", message: expect.any(String) });
    expect(health.last_reload_error.diagnostics[0]).toMatchObject({ file: "hooks.yaml", severity: "error", line: expect.any(Number) });
    expect(p.stderr()).toMatch(/keeping the last good config \(1 hooks\)/);
    const r = await request(target, "POST", "/v1/trigger/stop", "{}");
    expect(r.json.messages[0].content).toBe("first");
    const reload = await request(target, "POST", "/v1/reload");
    expect(reload.status).toBe(422);
    writeFileSync(file(), hookYaml([{ name: "fixed", command: "echo fixed" }]));
    await waitFor(async () => (await request(target, "GET", "/v1/health")).json.status === "ok", { what: "recovery" });
    expect(await hookNames(target)).toBe("fixed");
  });

  it("POST /v1/reload reloads at once and returns the health", async () => {
    const { target } = await startServe();
    writeFileSync(
      file(),
      hookYaml([
        { name: "x", command: "true" },
        { name: "y", command: "true" },
      ]),
    );
    const r = await request(target, "POST", "/v1/reload");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: "ok", hooks: 2 });
  });
});

describe("hooks serve: start-up and cancellation", () => {
  it("refuses to start on an invalid config (exit 78), and starts with none at all", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), "hooks: [unclosed\n");
    const bad = serve();
    expect((await bad.exited).code).toBe(78);
    expect(bad.stderr()).toMatch(/^hooks\.yaml:\d+:\d+: error: /m);
    unlinkSync(path.join(repo, "hooks.yaml"));
    const { target } = await startServe();
    expect((await request(target, "GET", "/v1/health")).json).toMatchObject({ status: "ok", hooks: 0, files: [] });
    const r = await request(target, "POST", "/v1/trigger/stop", "{}");
    expect(r.json).toMatchObject({ event: "stop", hooks: [] });
  });

  it("cancels a trigger's hooks when its client hangs up", async () => {
    const pidFile = path.join(tmp, "pid");
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "slow", command: `echo $$ > ${pidFile}; exec sleep 30` }]));
    const { target } = await startServe();
    const req = http.request({ socketPath: (target as { socketPath: string }).socketPath, method: "POST", path: "/v1/trigger/stop", agent: false });
    req.on("error", () => {});
    req.end("{}");
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", { what: "the hook to start" });
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(pid)).toBe(true);
    req.destroy();
    await waitFor(() => !alive(pid), { what: `hook pid ${pid} to be killed`, timeoutMs: 10_000 });
    expect((await request(target, "GET", "/v1/health")).status).toBe(200);
  });
});

describe("hooks serve: the socket", () => {
  beforeEach(() => writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "a", command: "true" }])));

  it("listens on $HOOKS_STATE_DIR/serve.sock, mode 0600, in a 0700 directory", async () => {
    const { target } = await startServe();
    const sock = path.join(state, "serve.sock");
    expect(target).toEqual({ socketPath: sock });
    expect(statSync(sock).isSocket()).toBe(true);
    expect(statSync(sock).mode & 0o777).toBe(0o600);
    expect(statSync(state).mode & 0o777).toBe(0o700);
  });

  it("refuses a state dir that others can write (socket or token there): exit 1 naming the fix, no socket", async () => {
    mkdirSync(state, { recursive: true });
    chmodSync(state, 0o777);
    for (const args of [[], ["--port", "0"]]) {
      const p = serve(args);
      expect((await p.exited).code).toBe(1);
      expect(p.stderr()).toContain(`chmod 700 ${state}`);
    }
    expect(existsSync(path.join(state, "serve.sock"))).toBe(false);
    expect(existsSync(path.join(state, "serve.token"))).toBe(false);
  });

  it("refuses to start a second server on a live socket, and takes over a stale one", async () => {
    const first = await startServe();
    const second = serve();
    expect((await second.exited).code).toBe(1);
    expect(second.stderr()).toMatch(/already listening on .*serve\.sock/);
    expect((await request(first.target, "GET", "/v1/health")).status).toBe(200);
    first.p.child.kill("SIGKILL");
    await first.p.exited;
    expect(existsSync(path.join(state, "serve.sock"))).toBe(true);
    const third = await startServe();
    expect((await request(third.target, "GET", "/v1/health")).json.status).toBe("ok");
  });

  it("on SIGTERM finishes the in-flight trigger, kills async hooks, removes the socket and exits 0", async () => {
    const pids = path.join(tmp, "pids");
    mkdirSync(pids);
    writeFileSync(
      path.join(repo, "hooks.yaml"),
      hookYaml([
        { name: "long", command: `echo $$ > ${pids}/long; sleep 2; echo finished` },
        { name: "bg", command: `echo $$ > ${pids}/bg; sleep 60`, async: true },
      ]),
    );
    const { p, target } = await startServe();
    const inflight = request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "t" }));
    await waitFor(() => existsSync(path.join(pids, "long")), { what: "the long hook to start" });
    p.child.kill("SIGTERM");
    const r = await inflight;
    expect(r.status).toBe(200);
    expect(r.json.hooks.find((h: { name: string }) => h.name === "long")).toMatchObject({ status: "ok", stdout: "finished\n" });
    expect(r.json.async_started).toEqual(["bg"]);
    // The async hook is inside its 5 s grace now: still running, killed before the exit.
    const bgPid = Number(readFileSync(path.join(pids, "bg"), "utf8"));
    expect(alive(bgPid)).toBe(true);
    const exit = await p.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(existsSync(path.join(state, "serve.sock"))).toBe(false);
    for (const f of ["long", "bg"]) {
      const pid = Number(readFileSync(path.join(pids, f), "utf8"));
      await waitFor(() => !alive(pid), { what: `${f} hook (pid ${pid}) to be gone`, timeoutMs: 5000 });
    }
  });
});

describe("hooks serve: other terminating signals", () => {
  for (const signal of ["SIGHUP", "SIGQUIT"] as const) {
    it(`on ${signal} (a closed terminal, a host) shuts down as on SIGTERM: socket removed, exit 0`, async () => {
      writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "a", command: "true" }]));
      const { p, target } = await startServe();
      expect((await request(target, "GET", "/v1/health")).status).toBe(200);
      p.child.kill(signal);
      expect(await p.exited).toEqual({ code: 0, signal: null });
      expect(p.stderr()).toMatch(new RegExp(`${signal}: finishing in-flight triggers`));
      expect(existsSync(path.join(state, "serve.sock"))).toBe(false);
    });
  }
});

describe("hooks serve: no request can end it", () => {
  beforeEach(() => writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "a", command: "true" }])));

  for (const mode of ["socket", "port"] as const) {
    it(`answers 400 to a request target that is not a URL (//x:99999) and keeps serving (${mode})`, async () => {
      const { p, target } = await startServe(mode === "port" ? ["--port", "0"] : []);
      const c = connectRaw(target, "GET //x:99999 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      const raw = await c.closed;
      expect(statusOf(raw)).toBe(400);
      expect(bodyOf(raw).error.message).toMatch(/request target "\/\/x:99999" is not a valid path/);
      const auth: Record<string, string> = mode === "port" ? { authorization: `Bearer ${readFileSync(path.join(state, "serve.token"), "utf8").trim()}` } : {};
      expect((await request(target, "GET", "/v1/health", undefined, auth)).status).toBe(200);
      expect(p.child.exitCode).toBe(null);
    });
  }

  it("answers a request Node cannot parse with a JSON 400 and closes that connection only", async () => {
    const { p, target } = await startServe();
    const raw = await connectRaw(target, "NOT HTTP AT ALL\r\n\r\n").closed;
    expect(statusOf(raw)).toBe(400);
    expect(bodyOf(raw).error.message).toMatch(/malformed HTTP request/);
    expect((await request(target, "GET", "/v1/health")).status).toBe(200);
    expect(p.child.exitCode).toBe(null);
  });
});

describe("hooks serve: slow clients", () => {
  it("on SIGTERM closes connections still sending a request, finishes the in-flight trigger, exits 0", async () => {
    const pids = path.join(tmp, "pids");
    mkdirSync(pids);
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "long", command: `echo $$ > ${pids}/long; sleep 1; echo finished` }]));
    const { p, target } = await startServe();
    const inflight = request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "t" }));
    await waitFor(() => existsSync(path.join(pids, "long")), { what: "the long hook to start" });
    // One client stalls in its body, one in its headers, one is idle between requests.
    const body = connectRaw(target, 'POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"se');
    const headers = connectRaw(target, "GET /v1/health HTTP/1.1\r\nHost: x\r\n");
    const idle = connectRaw(target, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
    await waitFor(() => statusOf(idle.received()) === 200, { what: "the idle client's first answer" });
    const signalled = Date.now();
    p.child.kill("SIGTERM");
    const r = await inflight;
    expect(r.status).toBe(200);
    expect(r.json.hooks[0]).toMatchObject({ name: "long", status: "ok", stdout: "finished\n" });
    // Well before the 10 s body stall limit: the shutdown did not wait for the stalled clients.
    await waitFor(() => p.child.exitCode !== null, { what: "the server to exit", timeoutMs: 6000 });
    expect(Date.now() - signalled).toBeLessThan(8000);
    expect(await p.exited).toEqual({ code: 0, signal: null });
    await waitFor(() => body.isClosed() && headers.isClosed() && idle.isClosed(), { what: "every connection to be closed" });
    expect(existsSync(path.join(state, "serve.sock"))).toBe(false);
  });
});

describe("startServer: bounds on receiving a request (never on the response)", () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close(0);
    server = null;
  });
  // In process, with short limits, so the test does not wait the real 10 s.
  const start = async (timeouts: { headersMs?: number; requestMs?: number; bodyStallMs?: number }): Promise<Target> => {
    const runner = createRunner(runnerConfig(repo, []), { env: { HOOKS_STATE_DIR: state }, cwd: repo, trust: "all", runLog: false });
    const socketPath = path.join(tmp, "t.sock");
    server = await startServer({ runner, watcher: null, socketPath, timeouts });
    return { socketPath };
  };

  it("a body that stalls gets 408 and its connection closed; the server goes on", async () => {
    const target = await start({ bodyStallMs: 300 });
    const c = connectRaw(target, 'POST /v1/trigger/stop HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"se');
    await waitFor(() => c.isClosed(), { what: "the stalled connection to be closed", timeoutMs: 5000 });
    expect(statusOf(c.received())).toBe(408);
    expect(c.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(c.received()).error.message).toMatch(/request body stalled: nothing arrived for 0\.3 s/);
    expect((await request(target, "GET", "/v1/health")).status).toBe(200);
  });

  it("headers that never end get 408 and the connection closed", async () => {
    const target = await start({ headersMs: 300, requestMs: 1000 });
    const c = connectRaw(target, "GET /v1/health HTTP/1.1\r\nHost: x\r\n");
    await waitFor(() => c.isClosed(), { what: "the stalled connection to be closed", timeoutMs: 5000 });
    expect(statusOf(c.received())).toBe(408);
    expect(bodyOf(c.received()).error.message).toMatch(/did not arrive in time/);
  });

  it("a trigger whose hooks outlast every request bound still gets its answer", async () => {
    const runner = createRunner(runnerConfig(repo, [hook("slow", "stop", { command: "sleep 1.5; echo done" })]), { env: { HOOKS_STATE_DIR: state }, cwd: repo, trust: "all", runLog: false });
    server = await startServer({ runner, watcher: null, socketPath: path.join(tmp, "t.sock"), timeouts: { headersMs: 200, requestMs: 500, bodyStallMs: 200 } });
    const r = await request({ socketPath: path.join(tmp, "t.sock") }, "POST", "/v1/trigger/stop", "{}");
    expect(r.status).toBe(200);
    expect(r.json.hooks[0]).toMatchObject({ name: "slow", status: "ok", stdout: "done\n" });
  });
});

describe("hooks serve: transcript_path that is not a regular file", () => {
  it("a FIFO neither blocks the trigger nor the server: null message, a warning, health still answers", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), hookYaml([{ name: "cap", command: "cat > ctx.json" }]));
    const fifo = path.join(tmp, "transcript.fifo");
    execFileSync("mkfifo", [fifo]);
    const { target } = await startServe();
    const r = await Promise.race([
      request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "f", transcript_path: fifo })),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the trigger hung on the FIFO")), 10_000)),
    ]);
    expect(r.status).toBe(200);
    expect(r.json.hooks[0]).toMatchObject({ name: "cap", status: "ok" });
    expect(r.json.warnings).toEqual([expect.stringMatching(/transcript .*transcript\.fifo is a FIFO, not a regular file/)]);
    expect(JSON.parse(readFileSync(path.join(repo, "ctx.json"), "utf8")).last_assistant_message).toBe(null);
    expect((await request(target, "GET", "/v1/health")).status).toBe(200);
  });
});
