import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClaudeRun, killClaudeRuns, modelView, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { type CliProcess, runCli, spawnCli } from "./helpers/cli.js";
import { freePort, untilListening } from "./helpers/server.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Warm mode in the real Claude Code CLI (headless, offline, scripted model): `hooks install claude
 * --serve PORT` writes http entries, `hooks serve --port PORT` answers them, and no hookrun process
 * starts per event (the projects here have no node_modules/.bin/hooks at all: a hook that runs, ran
 * in the server). What the model received is read from the model server's request log.
 * docs/hosts.md#warm-mode-claude-code documents what is asserted here.
 */

const claude = requireClaude();
const TOKEN = "warm-e2e-token-0123456789abcdef0123";
const GUARD = ["  pre_tool_use:", "    - name: reserved", "      matcher: Bash", `      command: 'if grep -q "touch ran.txt"; then echo "warm guard: ran.txt is reserved" >&2; exit 2; fi'`];
const CONTEXT = ["  user_prompt_submit:", "    - name: branch", `      command: ${JSON.stringify("echo 'WARM-CONTEXT: the deploy branch is release-7'")}`];
const TOUCH = { tool: "Bash", input: { command: "touch ran.txt && echo ran", description: "run it" } };

const projects: string[] = [];
const servers: CliProcess[] = [];
afterAll(async () => {
  killClaudeRuns();
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.exited));
  for (const p of projects) removeTree(p);
});

/** The environment of a `hooks` command run as the user Claude runs as. */
const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

interface Warm {
  run: ClaudeRun;
  project: string;
  view: string[];
  installOutput: string;
  /** Every request body the model received, as text. */
  received: string;
}

/**
 * One `claude -p` in a fresh project whose hooks.yaml holds `config`, installed in warm mode on a
 * free port; `server`: start `hooks serve --port` there first (with `serverToken`, default the one
 * Claude gets).
 */
async function runWarm(config: string[], options: { server: boolean; claudeToken?: string; script?: (typeof TOUCH)[]; args?: string[] }, signal?: AbortSignal): Promise<Warm> {
  const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-warm-e2e-")));
  projects.push(project);
  mkdirSync(path.join(project, ".claude"));
  writeFileSync(path.join(project, "hooks.yaml"), ["hooks:", ...config, ""].join("\n"));
  const port = await freePort();
  let installOutput = "";
  let server: CliProcess | undefined;
  const run = await runClaude({
    project,
    prompt: "Run the command.",
    script: options.script ?? [TOUCH],
    args: options.args,
    env: { HOOKS_SERVE_TOKEN: options.claudeToken ?? TOKEN },
    signal,
    timeoutMs: 60_000,
    setup: async (env) => {
      const install = await runCli(["install", "claude", "--serve", String(port)], { cwd: project, env: userEnv(env) });
      if (install.code !== 0) throw new Error(`hooks install exited ${install.code}: ${install.stderr}`);
      installOutput = install.stdout + install.stderr;
      const trust = await runCli(["trust", "--yes"], { cwd: project, env: userEnv(env) });
      if (trust.code !== 0) throw new Error(`hooks trust exited ${trust.code}: ${trust.stderr}`);
      if (options.server) {
        server = spawnCli(["serve", "--port", String(port)], { cwd: project, env: { ...userEnv(env), HOOKS_SERVE_TOKEN: TOKEN } });
        servers.push(server);
        await untilListening(server);
      }
    },
  });
  if (server) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  const view = modelView(run.requests, { paths: { "<project>": project }, hookCommands: [`http://127.0.0.1:${port}`] });
  return { run, project, view, installOutput, received: run.requests.map((r) => JSON.stringify(r.body)).join("\n") };
}

const ran = (w: Warm) => existsSync(path.join(w.project, "ran.txt"));

describe.skipIf(!claude.path)(`Claude Code ${claude.version ?? `(skipped: ${claude.reason})`} in warm mode (http entries answered by hooks serve)`, () => {
  it("a guard blocks a Bash command through the server and the model gets its reason; prompt context reaches the model; no hookrun process per event", { timeout: 120_000 }, async ({ signal }) => {
    const w = await runWarm([...CONTEXT, ...GUARD], { server: true }, signal);
    expect(w.run.exitCode).toBe(0);
    expect(ran(w)).toBe(false);
    expect(w.view).toContain("[user] tool_result error: PreToolUse:Bash hook error: warm guard: ran.txt is reserved");
    expect(w.received).toContain("UserPromptSubmit hook additional context: WARM-CONTEXT: the deploy branch is release-7");
    // The entries are http entries, and the project has no hooks binary a command entry could run.
    const settings = JSON.parse(readFileSync(path.join(w.project, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: "http", onFailure: "block" });
    expect(existsSync(path.join(w.project, "node_modules"))).toBe(false);
  });

  it("server down: the guarded tool call is refused and the model is told why (fail closed, as install says)", { timeout: 120_000 }, async ({ signal }) => {
    const w = await runWarm(GUARD, { server: false }, signal);
    expect(w.installOutput).toMatch(/WARNING: nothing answers on 127\.0\.0\.1:\d+ now/);
    expect(ran(w)).toBe(false);
    expect(w.view.join("\n")).toMatch(
      /\[user\] tool_result error: PreToolUse:Bash hook error: \[<hook-command>\/v1\/hosts\/claude\/PreToolUse\]: failed; blocking because onFailure is "block"\nconnect ECONNREFUSED 127\.0\.0\.1:\d+/,
    );
  });

  it("server down with a prompt hook: the prompt itself is refused, the model is never called, and the user reads why", { timeout: 120_000 }, async ({ signal }) => {
    const w = await runWarm([...CONTEXT, ...GUARD], { server: false }, signal);
    expect(w.run.mainRequests).toHaveLength(0);
    expect(ran(w)).toBe(false);
    expect(w.run.result?.result).toMatch(
      /^UserPromptSubmit operation blocked by hook:\n\[http:\/\/127\.0\.0\.1:\d+\/v1\/hosts\/claude\/UserPromptSubmit\]: failed; blocking because onFailure is "block"\nconnect ECONNREFUSED/,
    );
  });

  it("a wrong token (the server answers 401) fails closed too", { timeout: 120_000 }, async ({ signal }) => {
    const w = await runWarm(GUARD, { server: true, claudeToken: "not-the-servers-token-0000000000" }, signal);
    expect(ran(w)).toBe(false);
    expect(w.view.join("\n")).toMatch(/tool_result error: PreToolUse:Bash hook error: \[<hook-command>\/v1\/hosts\/claude\/PreToolUse\]: failed; blocking because onFailure is "block"\nHTTP 401/);
  });
});

// Per-event time inside Claude Code (opt-in: HOOKRUN_E2E_LATENCY=N Bash calls per run, 3 runs per
// side, alternated): the tool-call cycle (the model's answer carrying call i written → the request
// carrying its result received) with a `true` PreToolUse hook configured directly (A) and through
// the warm server (W); and, for W, Claude's own debug log: "HTTP hook POST" → "response status".
const LATENCY_CALLS = Number(process.env.HOOKRUN_E2E_LATENCY ?? 0);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe.runIf(claude.path && LATENCY_CALLS > 0)("latency of one warm PreToolUse inside Claude Code", () => {
  it(`${LATENCY_CALLS || "N"} Bash calls, a \`true\` hook directly vs answered by hooks serve`, { timeout: 600_000 }, async ({ signal }) => {
    const script = Array.from({ length: LATENCY_CALLS }, (_, i) => ({ tool: "Bash", input: { command: `echo ${i}`, description: "run it" } }));
    const cycles = (run: ClaudeRun) => run.mainRequests.slice(0, LATENCY_CALLS).map((r, i) => run.mainRequests[i + 1].at - r.answeredAt);
    const a: number[] = [];
    const w: number[] = [];
    const posts: number[] = [];
    for (let round = 0; round < 3; round++) {
      const direct = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-warm-direct-")));
      projects.push(direct);
      mkdirSync(path.join(direct, ".claude"));
      writeFileSync(path.join(direct, ".claude/settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }));
      a.push(...cycles(await runClaude({ project: direct, prompt: "Run the commands.", script, signal, timeoutMs: 120_000 })));
      const debug = path.join(os.tmpdir(), `hookrun-warm-debug-${process.pid}-${round}.log`);
      const warm = await runWarm(["  pre_tool_use:", '    - { name: bash-true, matcher: Bash, command: "true" }'], { server: true, script, args: ["--debug-file", debug] }, signal);
      w.push(...cycles(warm.run));
      let sent: number | null = null;
      for (const line of readFileSync(debug, "utf8").split("\n")) {
        const at = Date.parse(line.slice(0, 24));
        if (/Hooks: HTTP hook POST to \S+\/PreToolUse/.test(line)) sent = at;
        else if (sent !== null && /Hooks: HTTP hook response status 200/.test(line)) {
          posts.push(at - sent);
          sent = null;
        }
      }
      rmSync(debug, { force: true });
    }
    expect(posts).toHaveLength(3 * LATENCY_CALLS);
    console.log(
      [
        `Claude Code ${claude.version}, ${LATENCY_CALLS} Bash calls per run, 3 runs per side`,
        `A (direct \`true\`): tool-call cycle median ${median(a)} ms`,
        `W (warm): tool-call cycle median ${median(w)} ms; POST → response in Claude's debug log median ${median(posts)} ms (min ${Math.min(...posts)}, max ${Math.max(...posts)})`,
        `W − A per event: ${median(w) - median(a)} ms`,
      ].join("\n"),
    );
  });
});
