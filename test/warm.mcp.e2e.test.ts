import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClaudeRun, killClaudeRuns, modelView, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, runCli } from "./helpers/cli.js";
import { killCodexRuns, modelView as codexView, requireCodex, runCodex } from "./helpers/codexCli.js";
import type { ScriptTurn as CodexTurn } from "./helpers/openaiResponsesModel.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Warm mode over MCP in the real Claude Code CLI (headless, offline, scripted model): `hooks
 * install claude --warm` registers `hooks mcp` in .mcp.json and writes mcp_tool entries; Claude
 * Code starts the server once for the session and calls its tool for each event. The project's
 * node_modules/.bin/hooks is a wrapper that records every start of hookrun: one start (`mcp`) for
 * the whole session proves no hookrun process ran per event.
 * docs/hosts.md#warm-mode-over-mcp-claude-code documents what is asserted here.
 */

const claude = requireClaude();
const codex = requireCodex();
const GUARD = ["  pre_tool_use:", "    - name: reserved", "      matcher: Bash", `      command: 'if grep -q "touch ran.txt"; then echo "warm mcp guard: ran.txt is reserved" >&2; exit 2; fi'`];
const CONTEXT = ["  user_prompt_submit:", "    - name: branch", `      command: ${JSON.stringify("echo 'MCP-CONTEXT: the deploy branch is release-7'")}`];
const TOUCH: { tool: string; input: Record<string, unknown> } = { tool: "Bash", input: { command: "touch ran.txt && echo ran", description: "run it" } };
const MODEL_CALL = { tool: "mcp__hookrun__hook", input: { host: "claude", event: "Stop", payload: { session_id: "made-up" } } };

const projects: string[] = [];
afterAll(() => {
  killClaudeRuns();
  killCodexRuns();
  for (const p of projects) removeTree(p);
});

/** The environment of a `hooks` command run as the user Claude runs as. */
const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

interface Warm {
  run: ClaudeRun;
  project: string;
  view: string[];
  installOutput: string;
  /** Every start of the project's hookrun: its arguments, one line each. */
  starts: string[];
  received: string;
}

/**
 * One `claude -p` in a fresh project whose hooks.yaml holds `config`, installed with `--warm`.
 * `bin`: "wrapper" (records each start, then runs the built CLI), "broken" (a hookrun that cannot start).
 * `cold`: command entries instead (`hooks install claude`), for the cost comparison.
 */
async function runWarm(config: string[], options: { bin: "wrapper" | "broken"; script?: (typeof TOUCH)[]; args?: string[]; cold?: boolean }, signal?: AbortSignal): Promise<Warm> {
  const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-mcp-e2e-")));
  projects.push(project);
  mkdirSync(path.join(project, ".claude"));
  mkdirSync(path.join(project, "node_modules/.bin"), { recursive: true });
  const starts = path.join(project, "starts.log");
  const bin = path.join(project, "node_modules/.bin/hooks");
  writeFileSync(
    bin,
    options.bin === "wrapper" ? `#!/bin/sh\necho "$*" >> '${starts}'\nexec '${process.execPath}' '${CLI}' "$@"\n` : `#!/bin/sh\necho "$*" >> '${starts}'\necho "hookrun is broken" >&2\nexit 1\n`,
  );
  chmodSync(bin, 0o755);
  writeFileSync(path.join(project, "hooks.yaml"), ["hooks:", ...config, ""].join("\n"));
  let installOutput = "";
  const run = await runClaude({
    project,
    prompt: "Run the command.",
    script: options.script ?? [TOUCH],
    args: options.args,
    signal,
    timeoutMs: 90_000,
    setup: async (env) => {
      const install = await runCli(["install", "claude", ...(options.cold ? [] : ["--warm"])], { cwd: project, env: userEnv(env) });
      if (install.code !== 0) throw new Error(`hooks install exited ${install.code}: ${install.stderr}`);
      installOutput = install.stdout + install.stderr;
      const trust = await runCli(["trust", "--yes"], { cwd: project, env: userEnv(env) });
      if (trust.code !== 0) throw new Error(`hooks trust exited ${trust.code}: ${trust.stderr}`);
    },
  });
  const view = modelView(run.requests, { paths: { "<project>": project } });
  const log = existsSync(starts) ? readFileSync(starts, "utf8").trim() : "";
  return { run, project, view, installOutput, starts: log ? log.split("\n") : [], received: run.requests.map((r) => JSON.stringify(r.body)).join("\n") };
}

const ran = (w: Warm) => existsSync(path.join(w.project, "ran.txt"));

describe.skipIf(!claude.path)(`Claude Code ${claude.version ?? `(skipped: ${claude.reason})`} in warm mode over MCP (mcp_tool entries answered by hooks mcp)`, () => {
  it("a guard blocks a Bash command through the MCP server and the model gets its reason; prompt context reaches the model; one hookrun process for the session", { timeout: 150_000 }, async ({
    signal,
  }) => {
    const w = await runWarm([...CONTEXT, ...GUARD], { bin: "wrapper", script: [MODEL_CALL, TOUCH] }, signal);
    expect(w.run.exitCode).toBe(0);
    // The model cannot call hookrun's tool itself (the deny rule install writes); the entries still do.
    expect(w.view).toContain("[user] tool_result error: <tool_use_error>Error: No such tool available: mcp__hookrun__hook</tool_use_error>");
    expect(ran(w)).toBe(false);
    expect(w.view).toContain("[user] tool_result error: PreToolUse:Bash hook error: warm mcp guard: ran.txt is reserved");
    expect(w.received).toContain("MCP-CONTEXT: the deploy branch is release-7");
    const settings = JSON.parse(readFileSync(path.join(w.project, ".claude/settings.json"), "utf8"));
    expect(settings.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: "mcp_tool", server: "hookrun", tool: "hook", onFailure: "block" });
    expect(JSON.parse(readFileSync(path.join(w.project, ".mcp.json"), "utf8")).mcpServers.hookrun.args[1]).toContain("mcp --host claude");
    // Two events reached hookrun (the prompt's context, the guard) and hookrun started once: as the MCP server.
    expect(w.starts).toEqual([`-C ${w.project} mcp --host claude`]);
  });

  it("the server killed mid-session: the call in flight is refused; Claude Code starts the server again and the guard holds", { timeout: 150_000 }, async ({ signal }) => {
    // A second hook of the guard's event kills the process that runs it (hooks mcp) when it sees `echo die`.
    const killer = ["    - name: killer", "      matcher: Bash", `      command: 'if grep -q "echo die"; then kill -9 $PPID; fi'`];
    const w = await runWarm([...GUARD, ...killer], { bin: "wrapper", script: [{ tool: "Bash", input: { command: "echo die", description: "run it" } }, TOUCH] }, signal);
    expect(ran(w)).toBe(false);
    const view = w.view.join("\n");
    expect(view).not.toMatch(/tool_result: die/);
    expect(view).toMatch(/\[user\] tool_result error: PreToolUse:Bash hook error: \[hookrun\/hook\]: failed; blocking because onFailure is "block"/);
    expect(w.view).toContain("[user] tool_result error: PreToolUse:Bash hook error: warm mcp guard: ran.txt is reserved");
    expect(w.starts).toEqual([`-C ${w.project} mcp --host claude`, `-C ${w.project} mcp --host claude`]);
  });

  it("server cannot start: the prompt is refused before the model is called, and the guarded command never runs (fail closed)", { timeout: 150_000 }, async ({ signal }) => {
    const w = await runWarm([...CONTEXT, ...GUARD], { bin: "broken" }, signal);
    expect(ran(w)).toBe(false);
    expect(w.run.mainRequests).toHaveLength(0);
    expect(w.run.result?.result).toMatch(/^UserPromptSubmit operation blocked by hook:\n\[hookrun\/hook\]: failed; blocking because onFailure is "block"/);
  });

  it("server cannot start, a guard only: the guarded Bash call is refused and the model is told why", { timeout: 150_000 }, async ({ signal }) => {
    const w = await runWarm(GUARD, { bin: "broken" }, signal);
    expect(ran(w)).toBe(false);
    expect(w.view.join("\n")).toMatch(/\[user\] tool_result error: PreToolUse:Bash hook error: \[hookrun\/hook\]: failed; blocking because onFailure is "block"/);
  });
});

/**
 * Why `hooks install codex --warm` is refused: Codex's MCP-tool hooks answer through `hooks mcp`
 * when the server is up, but when it is not configured or cannot start, Codex runs the guarded
 * command ("PreToolUse Failed"). If Codex ever fails closed here, this test fails, and a warm
 * install for Codex can be reconsidered (docs/hosts/codex.md#no-warm-mode-over-mcp).
 */
describe.skipIf(!codex.path)(`Codex ${codex.version ?? `(skipped: ${codex.reason})`}: MCP-tool hooks`, () => {
  const CODEX_TOUCH: CodexTurn = { tool: "exec_command", arguments: { cmd: "touch ran.txt && echo ran" } };
  const hooksJson = {
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "mcp_tool",
              server: "hookrun",
              tool: "hook",
              input: {
                host: "claude",
                event: "PreToolUse",
                payload: { session_id: "${session_id}", cwd: "${cwd}", hook_event_name: "${hook_event_name}", tool_name: "${tool_name}", tool_input: "${tool_input}" },
              },
              timeout: 30,
            },
          ],
        },
      ],
    },
  };
  async function runCodexMcp(server: "hooks mcp" | "absent" | "cannot start", signal: AbortSignal) {
    const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-mcp-codex-")));
    projects.push(project);
    mkdirSync(path.join(project, ".codex"));
    writeFileSync(path.join(project, ".codex/hooks.json"), `${JSON.stringify(hooksJson, null, 2)}\n`);
    writeFileSync(path.join(project, "hooks.yaml"), ["hooks:", ...GUARD, ""].join("\n"));
    const command = server === "cannot start" ? "/nonexistent/hooks" : process.execPath;
    const configToml =
      server === "absent"
        ? ""
        : ["", "[mcp_servers.hookrun]", `command = ${JSON.stringify(command)}`, `args = ${JSON.stringify([CLI, "-C", project, "mcp", "--host", "claude"])}`, 'env = { HOOKS_TRUST = "1" }', ""].join(
            "\n",
          );
    const run = await runCodex({ project, prompt: "Run it.", script: [CODEX_TOUCH, { text: "All done." }], timeoutMs: 60_000, configToml, signal });
    return { run, project, view: codexView(run.requests, { "<project>": project }).join("\n") };
  }

  it("with hooks mcp up, the guard's deny reaches the model and the command does not run", { timeout: 120_000 }, async ({ signal }) => {
    const c = await runCodexMcp("hooks mcp", signal);
    expect(existsSync(path.join(c.project, "ran.txt"))).toBe(false);
    expect(c.view).toContain("Command blocked by PreToolUse hook: warm mcp guard: ran.txt is reserved");
  });

  it.for(["absent", "cannot start"] as const)("with the server %s, Codex runs the guarded command (it fails open: no warm install for Codex)", { timeout: 120_000 }, async (server, { signal }) => {
    const c = await runCodexMcp(server, signal);
    expect(existsSync(path.join(c.project, "ran.txt"))).toBe(true);
    expect(c.run.stderr).toMatch(/hook: PreToolUse Failed/);
  });
});

// Per-event time inside Claude Code: the tool-call cycle (the model's answer carrying call i
// written → the request carrying its result received) with a `true` PreToolUse hook configured
// directly (A), through hookrun's command entry (C: hookrun started per event) and through the
// warm MCP path (M). Printed, never asserted. By default one short
// run per side; HOOKRUN_E2E_LATENCY=N: N Bash calls per run, 3 runs per side.
const LONG = Number(process.env.HOOKRUN_E2E_LATENCY ?? 0);
const CALLS = LONG > 0 ? LONG : 3;
const ROUNDS = LONG > 0 ? 3 : 1;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe.skipIf(!claude.path)("cost of one warm MCP PreToolUse inside Claude Code", () => {
  it(`${CALLS} Bash calls, a \`true\` hook directly, through a cold hookrun, and answered by hooks mcp`, { timeout: 600_000 }, async ({ signal }) => {
    const script = Array.from({ length: CALLS }, (_, i) => ({ tool: "Bash", input: { command: `echo ${i}`, description: "run it" } }));
    const cycles = (run: ClaudeRun) => run.mainRequests.slice(0, CALLS).map((r, i) => run.mainRequests[i + 1].at - r.answeredAt);
    const a: number[] = [];
    const c: number[] = [];
    const m: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const direct = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-mcp-direct-")));
      projects.push(direct);
      mkdirSync(path.join(direct, ".claude"));
      writeFileSync(path.join(direct, ".claude/settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }));
      a.push(...cycles(await runClaude({ project: direct, prompt: "Run the commands.", script, signal, timeoutMs: 120_000 })));
      const config = ["  pre_tool_use:", '    - { name: bash-true, matcher: Bash, command: "true" }'];
      c.push(...cycles((await runWarm(config, { bin: "wrapper", script, cold: true }, signal)).run));
      m.push(...cycles((await runWarm(config, { bin: "wrapper", script }, signal)).run));
    }
    console.log(
      [
        `Claude Code ${claude.version}, ${CALLS} Bash calls per run, ${ROUNDS} run(s) per side`,
        `A (direct \`true\`): tool-call cycle median ${median(a)} ms`,
        `C (cold: hookrun started per event by a command entry): tool-call cycle median ${median(c)} ms`,
        `M (warm MCP, hooks mcp): tool-call cycle median ${median(m)} ms`,
        `M − A per event: ${median(m) - median(a)} ms; C − A: ${median(c) - median(a)} ms`,
      ].join("\n"),
    );
  });
});
