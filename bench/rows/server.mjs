// Row 7: a warm `hooks serve` answering over its Unix socket, as a non-Node agent would call it
// (a curl process per event), against a cold `lefthook run` of the same one-`true` job.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { median, summarize, alternate } from "../lib/stats.mjs";
import { hooksYaml, project } from "../lib/fixtures.mjs";
import { cliPath } from "../lib/cli.mjs";
import { lefthookArgs, lefthookBinary, lefthookRepo } from "../lib/lefthook.mjs";
import { timeOk, timeProcess } from "../lib/timeProcess.mjs";

const CURL = "/usr/bin/curl";

/** One HTTP request over the socket from inside this process (no curl start-up). */
function request(socketPath, method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method, path: urlPath, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function waitForHealth(socketPath, server, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`hooks serve exited ${server.exitCode} before answering`);
    if (existsSync(socketPath)) {
      try {
        const r = await request(socketPath, "GET", "/v1/health");
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("hooks serve did not answer /v1/health within 15 s");
}

function stopServer(server) {
  if (server.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill("SIGKILL"), 10_000);
    server.on("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill("SIGTERM");
  });
}

export async function serverRoundTrip({ root, quick }) {
  const fixture = project(hooksYaml({ event: "stop", count: 1 }));
  const socketPath = path.join(fixture.state, "bench.sock");
  const stderr = [];
  const server = spawn(process.execPath, [cliPath(root), "--no-user-config", "--trust", "serve", "--socket", socketPath], {
    cwd: fixture.dir,
    env: fixture.env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  server.stderr.on("data", (c) => stderr.push(c));
  try {
    await waitForHealth(socketPath, server).catch((e) => {
      throw new Error(`${e.message}: ${Buffer.concat(stderr).toString().trim().slice(-500)}`);
    });
    const body = JSON.stringify({ session_id: "bench", turn_count: 1, last_assistant_message: "Done." });
    const url = "http://localhost/v1/trigger/stop";
    const check = await request(socketPath, "POST", "/v1/trigger/stop", body);
    const parsed = JSON.parse(check.body);
    if (check.status !== 200 || parsed.hooks?.[0]?.status !== "ok") throw new Error(`server trigger answered ${check.status}: ${check.body.slice(0, 300)}`);

    const useCurl = existsSync(CURL);
    const curl = async () => {
      const r = await timeProcess(CURL, ["-sS", "--fail", "--unix-socket", socketPath, "-X", "POST", "-H", "content-type: application/json", "--data-binary", body, url], { env: fixture.env });
      if (r.code !== 0 || !r.stdout.includes('"status":"ok"')) throw new Error(`curl exited ${r.code}: ${r.stderr.trim() || r.stdout.slice(0, 300)}`);
      return r.ms;
    };
    const inProcess = async () => {
      const start = performance.now();
      const r = await request(socketPath, "POST", "/v1/trigger/stop", body);
      if (r.status !== 200) throw new Error(`server answered ${r.status}`);
      return performance.now() - start;
    };
    const lh = lefthookRepo();
    const lefthookBin = lefthookBinary(root);
    const lefthook = () => timeOk(lefthookBin, lefthookArgs("bench-one"), { cwd: lh.dir, env: lh.env });
    const runs = quick ? 5 : 41;
    const [ref, sub] = await alternate(runs, lefthook, useCurl ? curl : inProcess, 3);
    const direct = [];
    for (let i = 0; i < (quick ? 5 : 41); i++) direct.push(await inProcess());
    // The row's floor: the same curl command against a server that answers at once.
    const floor = useCurl ? await curlFloor(path.join(fixture.state, "floor.sock"), body, fixture.env, quick ? 5 : 21) : null;
    return {
      reference: median(ref),
      hookrun: median(sub),
      unit: "ms",
      ratio: median(sub) / median(ref),
      detail: {
        lefthook_run: summarize(ref),
        hookrun_curl: summarize(sub),
        in_process_http_client: summarize(direct),
        curl_against_instant_server: floor && summarize(floor),
        client: useCurl ? "curl" : "node http client",
        runs,
      },
      note:
        `${useCurl ? "curl process per request" : "no /usr/bin/curl: in-process HTTP client"}; in-process client round trip ${median(direct).toFixed(2)} ms` +
        (floor ? `; curl against a server that answers at once ${median(floor).toFixed(2)} ms (${(median(floor) / median(ref)).toFixed(2)}× lefthook: the floor of this row)` : ""),
    };
  } finally {
    await stopServer(server);
  }
}

/** curl's own cost: the same request against a Node server that answers `{}` at once. */
async function curlFloor(socketPath, body, env, runs) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.setHeader("content-type", "application/json").end('{"status":"ok"}'));
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(socketPath, resolve));
  try {
    const args = ["-sS", "--fail", "--unix-socket", socketPath, "-X", "POST", "-H", "content-type: application/json", "--data-binary", body, "http://localhost/v1/trigger/stop"];
    await timeOk(CURL, args, { env });
    const out = [];
    for (let i = 0; i < runs; i++) out.push(await timeOk(CURL, args, { env }));
    return out;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** lefthook alone, for context: one job and 100 sequential jobs, cold each time. */
export async function lefthookContext({ root, quick }) {
  const lh = lefthookRepo();
  const bin = lefthookBinary(root);
  const runs = quick ? 3 : 15;
  const [one, hundred] = await alternate(
    runs,
    () => timeOk(bin, lefthookArgs("bench-one"), { cwd: lh.dir, env: lh.env }),
    () => timeOk(bin, lefthookArgs("bench-100"), { cwd: lh.dir, env: lh.env }),
    1,
  );
  return { one_job_ms: summarize(one), hundred_jobs_ms: summarize(hundred) };
}
