// Rows "agent event through `hooks install`'s entry" (command mode, warm mode): what an agent
// waits for per dispatched event, measured as Claude Code runs the entry, not inside Claude Code:
//   command  `/bin/sh -c '<the installed PreToolUse command>'`, the PreToolUse payload on stdin,
//            cwd the project, $CLAUDE_PROJECT_DIR set, the project's node_modules/.bin/hooks (a
//            link to this build) — against the same `true` hook configured directly (`/bin/sh -c true`);
//   warm     one HTTP POST of the payload to `hooks serve --port` with the entry's URL and bearer
//            header, a new connection each time — against the same direct hook.
// hooks.yaml is a realistic 10-hook config in which one `true` hook matches the Bash call.
// NODE_EXTRA_CA_CERTS is unset (users do not have it); the command row also reports its ratio
// to `node -e 0` (docs/performance.md#per-agent-event-hooks-installs-entries).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { cliPath } from "../lib/cli.mjs";
import { project } from "../lib/fixtures.mjs";
import { alternateAll, median, summarize } from "../lib/stats.mjs";
import { timeOk } from "../lib/timeProcess.mjs";

const TOKEN = "bench-warm-token-0123456789abcdef";

// Ten hooks over five events; for a Bash PreToolUse exactly one (`bash-true`) matches.
const CONFIG = `version: 1
hooks:
  session_start:
    - { name: branch-context, command: "git branch --show-current 2>/dev/null || true" }
  user_prompt_submit:
    - { name: prompt-log, command: "true", async: true }
  pre_tool_use:
    - { name: bash-true, matcher: Bash, command: "true" }
    - { name: no-env-writes, matcher: Write|Edit, command: "./scripts/no-env.sh" }
    - { name: read-guard, matcher: Read, command: "./scripts/read-guard.sh" }
    - { name: web-allowlist, matcher: WebFetch, command: "./scripts/web.sh" }
  post_tool_use:
    - { name: format, matcher: Write|Edit, command: "npx prettier --write \\"$HOOK_FILE\\"", timeout: 30s }
    - { name: lint, matcher: Write|Edit, command: "npm run lint --silent", timeout: 60s }
  stop:
    - { name: tests, command: "npm test --silent", timeout: 2m }
    - { name: summary, command: "true", async: true }
`;

const payload = (dir) =>
  JSON.stringify({
    session_id: "bench-session",
    transcript_path: "",
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls", description: "list" },
    tool_use_id: "toolu_bench",
  });

/** Wall time of a process with `input` on its stdin, until it exited and its pipes closed; fails unless exit 0. */
function timeWithStdin(command, args, input, options) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], ...options });
    const out = [];
    const err = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    child.stdin.on("error", () => {}); // `true` may exit before reading
    child.stdin.end(input);
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      if (code !== 0) reject(new Error(`${args.join(" ")} exited ${code}: ${Buffer.concat(err).toString().slice(-400)}`));
      else resolve({ ms, stdout: Buffer.concat(out).toString() });
    });
  });
}

/** A project installed for Claude Code (the project's hooks binary linked to this build), trusted. */
function installedProject(root, installArgs) {
  const fixture = project(CONFIG);
  const env = { ...fixture.env };
  delete env.NODE_EXTRA_CA_CERTS;
  mkdirSync(path.join(fixture.dir, ".claude"));
  mkdirSync(path.join(fixture.dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(cliPath(root), path.join(fixture.dir, "node_modules", ".bin", "hooks"));
  const cli = (args) => execFileSync(process.execPath, [cliPath(root), ...args], { cwd: fixture.dir, env, stdio: ["ignore", "pipe", "pipe"] });
  cli(["--no-user-config", "trust", "--yes"]);
  cli(["--no-user-config", "install", "claude", ...installArgs]);
  const settings = JSON.parse(readFileSync(path.join(fixture.dir, ".claude", "settings.json"), "utf8"));
  const entry = settings.hooks.PreToolUse.find((e) => !e.matcher || e.matcher.split("|").includes("Bash"));
  return { fixture, env, hook: entry.hooks[0] };
}

/** The direct hook as Claude Code runs it: `/bin/sh -c true` with the payload on stdin. */
const direct = (dir, env, input) => async () => (await timeWithStdin("/bin/sh", ["-c", "true"], input, { cwd: dir, env })).ms;

export async function installCommand({ root, quick }) {
  const { fixture, env, hook } = installedProject(root, []);
  const input = payload(fixture.dir);
  const shellEnv = { ...env, CLAUDE_PROJECT_DIR: fixture.dir };
  const dispatch = async () => {
    const r = await timeWithStdin("/bin/sh", ["-c", hook.command], input, { cwd: fixture.dir, env: shellEnv });
    if (r.stdout.trim() !== "{}") throw new Error(`the dispatch answered ${JSON.stringify(r.stdout.slice(0, 300))}, not {} (the true hook allowed)`);
    return r.ms;
  };
  const node = () => timeOk(process.execPath, ["-e", "0"], { cwd: fixture.dir, env });
  const runs = quick ? 3 : 31;
  const [ref, sub, nodeMs] = await alternateAll(runs, [direct(fixture.dir, env, input), dispatch, node], 2);
  return {
    reference: median(ref),
    hookrun: median(sub),
    unit: "ms",
    ratio: median(sub) / median(ref),
    detail: { command: hook.command, direct_sh_true: summarize(ref), dispatch: summarize(sub), node_e_0: summarize(nodeMs), ratio_to_node_e_0: median(sub) / median(nodeMs), runs },
    note: `\`/bin/sh -c '${hook.command}'\` with a PreToolUse payload (10-hook hooks.yaml, one \`true\` matches) +${(median(sub) - median(ref)).toFixed(1)} ms over \`/bin/sh -c true\`; ${(median(sub) / median(nodeMs)).toFixed(2)}× \`node -e 0\` (${median(nodeMs).toFixed(1)} ms; \`hooks run\`'s own target: ≤ 1.45×); measured as Claude Code runs the entry, not inside it`,
  };
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** POST as Claude Code's http hook does (axios: JSON body, the entry's headers); a new connection each time unless `agent`. */
function post(url, headers, body, agent = false) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200 || text.trim() !== "{}") reject(new Error(`the server answered ${res.statusCode}: ${text.slice(0, 300)}`));
        else resolve(performance.now() - start);
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The warm row's floor: a Node server that does nothing but what any warm server must, read the
 * POST, spawn `/bin/sh -c true` with the payload on stdin, answer `{}`.
 */
async function floorServer() {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const child = spawn("/bin/sh", ["-c", "true"], { stdio: ["pipe", "ignore", "ignore"] });
      child.stdin.on("error", () => {});
      child.stdin.end(Buffer.concat(chunks));
      child.on("close", () => res.setHeader("content-type", "application/json").end("{}\n"));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1/hosts/claude/PreToolUse`, close: () => new Promise((resolve) => server.close(resolve)) };
}

export async function installWarm({ root, quick }) {
  const port = await freePort();
  const { fixture, env, hook } = installedProject(root, ["--serve", String(port)]);
  const input = payload(fixture.dir);
  const serverEnv = { ...env, HOOKS_SERVE_TOKEN: TOKEN };
  const server = spawn(process.execPath, [cliPath(root), "--no-user-config", "serve", "--port", String(port)], { cwd: fixture.dir, env: serverEnv, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  server.stderr.on("data", (c) => (log += c));
  try {
    const deadline = Date.now() + 15_000;
    while (!/listening on/.test(log)) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`hooks serve did not start: ${log.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const headers = Object.fromEntries(Object.entries(hook.headers).map(([k, v]) => [k, v.replace("$HOOKS_SERVE_TOKEN", TOKEN)]));
    const fresh = () => post(hook.url, headers, input);
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const reused = () => post(hook.url, headers, input, keepAlive);
    const floor = await floorServer();
    const runs = quick ? 3 : 41;
    let ref;
    let sub;
    let kept;
    let bare;
    try {
      [ref, sub, kept, bare] = await alternateAll(runs, [direct(fixture.dir, env, input), fresh, reused, () => post(floor.url, headers, input)], 3);
    } finally {
      keepAlive.destroy();
      await floor.close();
    }
    return {
      reference: median(ref),
      hookrun: median(sub),
      unit: "ms",
      ratio: median(sub) / median(ref),
      detail: { url: hook.url, direct_sh_true: summarize(ref), post_new_connection: summarize(sub), post_keep_alive: summarize(kept), bare_node_server: summarize(bare), runs },
      note: `POST ${hook.url} (bearer token, new connection each time) +${(median(sub) - median(ref)).toFixed(1)} ms over \`/bin/sh -c true\`; keep-alive ${median(kept).toFixed(1)} ms; a bare Node server that only spawns \`sh -c true\` per POST ${median(bare).toFixed(1)} ms (the floor of warm mode); measured with a Node client as Claude Code's http hook sends it, not inside Claude Code`,
    };
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.on("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
  }
}
