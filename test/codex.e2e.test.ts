import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "./helpers/cli.js";
import { type CodexRun, alive, killCodexRuns, modelView, processesWithArg, requireCodex, runCodex } from "./helpers/codexCli.js";
import { FINAL_TEXT, type ScriptTurn, startResponsesModel } from "./helpers/openaiResponsesModel.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Hooks run by the real Codex CLI (`codex exec`, headless, offline, against the scripted
 * Responses server of helpers/openaiResponsesModel.ts), each case twice:
 *
 *   A  the hook configured DIRECTLY in .codex/hooks.json: what Codex itself does (ground truth);
 *   B  the same hook in hooks.yaml (`dialect: claude`: Codex's answers are Claude's JSON), and
 *      .codex/hooks.json written by `hooks install codex`, whose entries find the project's
 *      node_modules/.bin/hooks (a symlink to this checkout's dist/bin/hooks.js, as `npm i -D
 *      hookrun` leaves it) and run `hooks run EVENT --host codex`;
 *   B-import  A's hooks.json through `hooks import codex --write`: the hook in `dialect: codex`.
 *
 * What is checked is what the model received (the server's request log) and what happened on disk.
 * Where Codex fails open (it rejects `ask` and runs the tool), B (a claude hook) must differ from A
 * as docs/hosts/codex.md says; everywhere else the model sees under B what it sees under A. Under
 * B-import (a codex hook, read by Codex's rules) the model sees what it sees under A in every case.
 */

const codex = requireCodex();

type CodexEvent = "PreToolUse" | "PostToolUse" | "SessionStart" | "UserPromptSubmit" | "Stop";

interface Case {
  name: string;
  event: CodexEvent;
  matcher?: string;
  /** The hook script (sh); a function gets the project dir. */
  script: string | ((project: string) => string);
  /** Codex's `timeout` (A) and hooks.yaml's (B), seconds. */
  timeout?: number;
  model: ScriptTurn[];
  /** What Codex does with the hook (asserted on A). */
  codex: string;
  expectA(s: Side): void;
  /** What hookrun does under Codex; absent: the model sees exactly what it sees under A. */
  hookrun?: string;
  expectB?(s: Side): void;
  /** B-import (`dialect: codex`), besides the model seeing what it sees under A. */
  expectImported?(s: Side): void;
}

const PROMPT = "Run the command.";
const TOUCH: ScriptTurn = { tool: "exec_command", arguments: { cmd: "touch ran.txt && echo ran" } };
const PATCH = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n";
const ran = (project: string) => existsSync(path.join(project, "ran.txt"));
const json = (value: unknown) => `cat > /dev/null\nprintf '%s\\n' '${JSON.stringify(value)}'`;
const STOP_GUARD = `input=$(cat)\nif printf '%s' "$input" | grep -Eq '"stop_hook_active" *: *true'; then exit 0; fi`;
/** A `sleep 30` argument unique to a project dir, to find that project's sleeps in /proc. */
const sleepTag = (project: string) => `0.${String(createHash("sha256").update(project).digest().readUInt32BE(0)).padStart(10, "0")}`;
const RAN_OUTPUT = "output: Chunk ID: <id>\nWall time: <duration>\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nran\n";

const cases: Case[] = [
  {
    name: "a PreToolUse guard (exit 2) blocks a shell command",
    event: "PreToolUse",
    matcher: "Bash",
    script: `cat > /dev/null\necho "GUARD: rm is not allowed" >&2\nexit 2`,
    model: [TOUCH, { text: "All done." }],
    codex: "the command does not run; the model gets the reason as the tool's output",
    expectA(s) {
      expect(ran(s.project)).toBe(false);
      expect(s.view).toContain("output: Command blocked by PreToolUse hook: GUARD: rm is not allowed. Command: touch ran.txt && echo ran");
    },
  },
  {
    name: "a guard on Write|Edit blocks apply_patch (canonical tool names)",
    event: "PreToolUse",
    matcher: "Write|Edit",
    script: (project) => `cat > "${project}/payload.json"\necho "NOEDIT: generated files are read-only" >&2\nexit 2`,
    model: [{ tool: "apply_patch", custom: PATCH }, { text: "All done." }],
    codex: "Codex's matcher Write|Edit selects apply_patch; the patch is not applied; the hook sees tool_name apply_patch",
    expectA(s) {
      expect(existsSync(path.join(s.project, "hello.txt"))).toBe(false);
      expect(s.view.some((l) => l.startsWith("output: ") && l.includes("NOEDIT: generated files are read-only"))).toBe(true);
      expect(JSON.parse(readFileSync(path.join(s.project, "payload.json"), "utf8")).tool_name).toBe("apply_patch");
    },
    hookrun: "the same block; the claude-dialect hook sees the canonical tool name Write (the patch only adds a file), Codex's under host",
    expectB(s) {
      expect(existsSync(path.join(s.project, "hello.txt"))).toBe(false);
      expect(s.view.some((l) => l.startsWith("output: ") && l.includes("NOEDIT: generated files are read-only"))).toBe(true);
      const payload = JSON.parse(readFileSync(path.join(s.project, "payload.json"), "utf8"));
      expect(payload.tool_name).toBe("Write");
      expect(payload.host).toMatchObject({ name: "codex", tool_name: "apply_patch", patch_files: ["hello.txt"] });
    },
    expectImported(s) {
      // A codex hook gets Codex's own payload back: apply_patch and its patch.
      const payload = JSON.parse(readFileSync(path.join(s.project, "payload.json"), "utf8"));
      expect(payload).toMatchObject({ tool_name: "apply_patch", tool_input: { command: PATCH }, hook_event_name: "PreToolUse", model: "gpt-5.5" });
      expect(typeof payload.turn_id).toBe("string");
    },
  },
  {
    name: "SessionStart additionalContext",
    event: "SessionStart",
    script: json({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "STARTCTX: branch main, 2 files changed" } }),
    model: [{ text: "All done." }],
    codex: "a developer message before the prompt",
    expectA(s) {
      expect(s.view.slice(0, 2)).toEqual(["[developer] STARTCTX: branch main, 2 files changed", `[user] ${PROMPT}`]);
    },
  },
  {
    name: "UserPromptSubmit additionalContext",
    event: "UserPromptSubmit",
    script: json({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "PROMPTCTX: use pnpm" } }),
    model: [{ text: "All done." }],
    codex: "a developer message after the prompt",
    expectA(s) {
      expect(s.view.slice(0, 2)).toEqual([`[user] ${PROMPT}`, "[developer] PROMPTCTX: use pnpm"]);
    },
  },
  {
    name: 'PostToolUse {"decision":"block"} feedback',
    event: "PostToolUse",
    matcher: "Bash",
    script: json({ decision: "block", reason: "POSTBLOCK: lint failed" }),
    model: [TOUCH, { text: "All done." }],
    codex: "the tool ran; the model gets the reason in place of the tool's output",
    expectA(s) {
      expect(ran(s.project)).toBe(true);
      expect(s.view).toContain("output: POSTBLOCK: lint failed");
    },
  },
  {
    name: "a Stop hook blocks once (stop_hook_active guard)",
    event: "Stop",
    script: `${STOP_GUARD}\n${json({ decision: "block", reason: "STOPBLOCK: run the tests first" })}`,
    model: [{ text: "All done." }],
    codex: "the turn goes on with the reason as a <hook_prompt> user message; the model answers again and the agent stops",
    expectA(s) {
      expect(s.run.requests.length).toBe(2);
      expect(s.view).toEqual([`[user] ${PROMPT}`, "[assistant] All done.", '[user] <hook_prompt hook_run_id="<id>">STOPBLOCK: run the tests first</hook_prompt>']);
      expect(s.run.stdout.trim()).toBe(FINAL_TEXT);
    },
  },
  {
    name: 'PreToolUse permissionDecision "ask"',
    event: "PreToolUse",
    matcher: "Bash",
    script: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "ASK: touches prod" } }),
    model: [TOUCH, { text: "All done." }],
    codex: "Codex rejects `ask` as unsupported output and the command RUNS (fails open); the model never sees the reason",
    expectA(s) {
      expect(ran(s.project)).toBe(true);
      expect(s.view).toContain(RAN_OUTPUT);
      expect(JSON.stringify(s.run.requests)).not.toContain("ASK: touches prod");
    },
    hookrun: "degraded to a deny whose reason says Codex cannot ask: the command does not run",
    expectB(s) {
      expect(ran(s.project)).toBe(false);
      expect(s.view).toContain(
        "output: Command blocked by PreToolUse hook: hookrun: a hook asked for the user's confirmation (ASK: touches prod), and Codex hooks cannot ask: the call is denied; ask the user, then retry. Command: touch ran.txt && echo ran",
      );
    },
  },
  {
    name: "a PreToolUse hook that ignores SIGTERM and hangs past its 2 s timeout",
    event: "PreToolUse",
    matcher: "Bash",
    timeout: 2,
    script: (project) => `cat > /dev/null\ntrap '' TERM\necho $$ > "${project}/hook.pid"\nsleep 30 ${sleepTag(project)}`,
    model: [TOUCH, { text: "All done." }],
    codex: "killed at 2 s with its children; the command then runs; no process of the hook is left",
    expectA(s) {
      expect(ran(s.project)).toBe(true);
      expect(s.view).toContain(RAN_OUTPUT);
      expect(s.left).toEqual({ hookPid: "gone", sleeps: [] });
      expect(s.run.durationMs).toBeLessThan(15_000);
    },
    hookrun: "hookrun ends the hook at its own 2 s timeout (fails open: the command runs), well before Codex's 12 s on the dispatch; nothing is left",
    expectB(s) {
      expect(ran(s.project)).toBe(true);
      expect(s.view).toContain(RAN_OUTPUT);
      expect(s.left).toEqual({ hookPid: "gone", sleeps: [] });
      expect(s.hookrunLog).toEqual([expect.stringMatching(/^pre_tool_use: hook=timed_out /)]);
    },
    expectImported(s) {
      expect(s.left).toEqual({ hookPid: "gone", sleeps: [] });
      expect(s.hookrunLog).toEqual([expect.stringMatching(/^pre_tool_use: .*=timed_out /)]);
    },
  },
];

// ---------------------------------------------------------------------------------------------

type Variant = "A" | "B" | "B-import";

interface Side {
  project: string;
  run: CodexRun;
  view: string[];
  /** hookrun's run log (B): `event: name=status …`. */
  hookrunLog: string[];
  /** What is left of a hook that wrote hook.pid, once codex exited. */
  left: { hookPid: "none written" | "gone" | "alive"; sleeps: string[] };
  /** The .codex/hooks.json Codex read. */
  hooksJson: string;
}

const projects: string[] = [];

function newProject(variant: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-codex-e2e-${variant}-`)));
  projects.push(dir);
  mkdirSync(path.join(dir, ".codex", "hooks"), { recursive: true });
  return dir;
}

function writeScript(dir: string, c: Case): string {
  const file = path.join(dir, ".codex", "hooks", "hook.sh");
  writeFileSync(file, `#!/bin/sh\n${typeof c.script === "function" ? c.script(dir) : c.script}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A: the hook directly in .codex/hooks.json. */
function configureDirect(c: Case, dir: string): void {
  const handler = { type: "command", command: writeScript(dir, c), ...(c.timeout ? { timeout: c.timeout } : {}) };
  writeFileSync(path.join(dir, ".codex", "hooks.json"), `${JSON.stringify({ hooks: { [c.event]: [{ ...(c.matcher ? { matcher: c.matcher } : {}), hooks: [handler] }] } }, null, 2)}\n`);
}

const snake = (event: string) => event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();

/** B: hooks.yaml with the same hook (dialect claude) and the project's node_modules/.bin/hooks. */
function configureHookrun(c: Case, dir: string): void {
  const lines = ["version: 1", "hooks:", `  ${snake(c.event)}:`, "    - name: hook", "      dialect: claude"];
  if (c.matcher) lines.push(`      matcher: ${JSON.stringify(c.matcher)}`);
  if (c.timeout) lines.push(`      timeout: ${c.timeout}`);
  lines.push(`      command: ${JSON.stringify(writeScript(dir, c))}`);
  writeFileSync(path.join(dir, "hooks.yaml"), `${lines.join("\n")}\n`);
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
}

/**
 * B-import, as a user moves to hookrun: A's .codex/hooks.json goes through `hooks import codex
 * --write` (hooks.yaml), its hooks leave the file, and `hooks install codex` writes the entries.
 */
async function importDirect(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  await hooks(dir, env, ["import", "codex", "--write"]);
  writeFileSync(path.join(dir, ".codex", "hooks.json"), "{}\n");
}

/** The environment of a `hooks` command run as the user Codex runs as. */
const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

async function hooks(dir: string, env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  const r = await runCli(args, { cwd: dir, env: userEnv(env) });
  if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
}

function readRunLog(env: NodeJS.ProcessEnv): string[] {
  const file = path.join(env.HOOKS_STATE_DIR!, "runs.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const r = JSON.parse(l);
      return `${r.event}: ${(r.hooks ?? []).map((h: any) => `${h.name}=${h.status}${h.status === "ok" ? "" : ` (exit ${h.exit_code}, ${h.duration_ms} ms)`}`).join(" ")}`;
    });
}

function leftOf(project: string): Side["left"] {
  const file = path.join(project, "hook.pid");
  const hookPid = existsSync(file) ? (alive(Number(readFileSync(file, "utf8").trim())) ? "alive" : "gone") : "none written";
  return { hookPid, sleeps: processesWithArg(sleepTag(project)) };
}

interface SideOptions {
  /** B: run `hooks trust` (default true). */
  trust?: boolean;
  /** Start codex in this subdirectory of the project (made a git repo, as Codex then finds .codex/ at its root). */
  subdir?: string;
}

async function runSide(c: Case, variant: Variant, options: SideOptions = {}): Promise<Side> {
  const dir = newProject(variant);
  if (variant === "B") configureHookrun(c, dir);
  else configureDirect(c, dir);
  let cwd = dir;
  if (options.subdir) {
    cwd = path.join(dir, options.subdir);
    mkdirSync(cwd, { recursive: true });
    const git = spawnSync("git", ["init", "-q"], { cwd: dir, encoding: "utf8" });
    if (git.status !== 0) throw new Error(`git init: ${git.stderr}`);
  }
  let hookrunLog: string[] = [];
  const run = await runCodex({
    project: dir,
    cwd,
    prompt: PROMPT,
    script: c.model,
    timeoutMs: 60_000,
    setup:
      variant === "A"
        ? undefined
        : async (env) => {
            if (variant === "B-import") await importDirect(dir, env);
            await hooks(dir, env, ["install", "codex"]);
            if (options.trust !== false) await hooks(dir, env, ["trust", "--yes"]);
          },
    afterRun: variant === "A" ? undefined : (env) => void (hookrunLog = readRunLog(env)),
  });
  const view = modelView(run.requests, { "<project>": dir }).map((l) => l.replace(/hook_run_id="[^"]*"/g, 'hook_run_id="<id>"'));
  return { project: dir, run, view, hookrunLog, left: leftOf(dir), hooksJson: readFileSync(path.join(dir, ".codex", "hooks.json"), "utf8") };
}

function describeRun(s: Side): string {
  return `exit ${s.run.exitCode}${s.run.timedOut ? " (timed out)" : ""}, ${s.run.requests.length} requests, ${s.run.durationMs} ms; hooks: ${s.run.hookLines.join(" | ")}; hookrun: ${s.hookrunLog.join(" | ")}\nview:\n${s.view.join("\n")}\nhooks.json: ${s.hooksJson}\nstderr: ${s.run.stderr.slice(-1500)}`;
}

const runs = new Map<Case, Record<Variant, Promise<Side>>>();
let extra: { subdir: Promise<Side>; untrusted: Promise<Side> } | undefined;

/** Start every run at once on first use (runCodex caps how many Codex processes run together). */
function startAll(): void {
  if (extra) return;
  for (const c of cases) {
    const r = { A: runSide(c, "A"), B: runSide(c, "B"), "B-import": runSide(c, "B-import") };
    for (const p of Object.values(r)) p.catch(() => {});
    runs.set(c, r);
  }
  extra = { subdir: runSide(cases[0], "B", { subdir: "packages/app" }), untrusted: runSide(cases[2], "B", { trust: false }) };
  for (const p of Object.values(extra)) p.catch(() => {});
}
const runsOf = (c: Case) => {
  startAll();
  return runs.get(c)!;
};

describe.skipIf(!codex.path)(`Codex CLI ${codex.version ?? `(skipped: ${codex.reason})`}: a hook directly (A) and through hookrun (B: hooks.yaml + \`hooks install codex\`)`, () => {
  afterAll(() => {
    killCodexRuns();
    for (const dir of projects) removeTree(dir);
  });

  for (const c of cases) {
    describe(c.name, () => {
      it(`A (Codex): ${c.codex}`, { timeout: 90_000 }, async () => {
        const a = await runsOf(c).A;
        expect(a.run.exitCode, describeRun(a)).toBe(0);
        expect(a.run.hookLines.length, describeRun(a)).toBeGreaterThan(0);
        c.expectA(a);
      });
      it(`B (hookrun, hooks.yaml by hand, dialect: claude): ${c.hookrun ?? "the model sees what it sees under A"}`, { timeout: 90_000 }, async () => {
        const [a, b] = await Promise.all([runsOf(c).A, runsOf(c).B]);
        expect(b.run.exitCode, describeRun(b)).toBe(0);
        expect(b.hookrunLog.length, `hookrun ran nothing; ${describeRun(b)}`).toBeGreaterThan(0);
        if (c.expectB) c.expectB(b);
        else expect(b.view, describeRun(b)).toEqual(a.view);
      });
      it("B-import (hookrun, A's hooks.json through `hooks import codex --write`, dialect: codex): the model sees what it sees under A", { timeout: 90_000 }, async () => {
        const [a, b] = await Promise.all([runsOf(c).A, runsOf(c)["B-import"]]);
        expect(b.run.exitCode, describeRun(b)).toBe(0);
        expect(b.hookrunLog.length, `hookrun ran nothing; ${describeRun(b)}`).toBeGreaterThan(0);
        expect(b.view, describeRun(b)).toEqual(a.view);
        c.expectA(b);
        c.expectImported?.(b);
      });
    });
  }

  it("B from a subdirectory of a git project: the hook runs in the subdirectory, the dispatch finds the project's hookrun and the guard blocks", { timeout: 90_000 }, async () => {
    startAll();
    const s = await extra!.subdir;
    expect(s.run.exitCode, describeRun(s)).toBe(0);
    expect(existsSync(path.join(s.project, "packages", "app", "ran.txt"))).toBe(false);
    expect(s.view, describeRun(s)).toContain("output: Command blocked by PreToolUse hook: GUARD: rm is not allowed. Command: touch ran.txt && echo ran");
  });

  it("B without `hooks trust`: no hook runs, and at SessionStart the model is told so", { timeout: 90_000 }, async () => {
    startAll();
    const s = await extra!.untrusted;
    expect(s.run.exitCode, describeRun(s)).toBe(0);
    expect(s.hookrunLog).toEqual([]);
    const told = s.view.find((l) => l.startsWith("[developer] hookrun: the project's hooks are not running in this session: <project>/hooks.yaml is not trusted"));
    expect(told, describeRun(s)).toBeDefined();
    expect(s.view).not.toContain("[developer] STARTCTX: branch main, 2 files changed");
  });

  it("SessionEnd (0.169+) fires when `codex exec` ends: a hookrun session_end hook, installed by `hooks install codex`, runs with Codex's reason", { timeout: 90_000 }, async () => {
    const dir = newProject("session-end");
    writeFileSync(path.join(dir, "hooks.yaml"), "hooks:\n  session_end:\n    - name: bye\n      command: cat > ended.json\n");
    mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
    let hooksJson = "";
    const run = await runCodex({
      project: dir,
      prompt: PROMPT,
      script: [{ text: "done" }],
      timeoutMs: 60_000,
      setup: async (env) => {
        await hooks(dir, env, ["install", "codex"]);
        await hooks(dir, env, ["trust", "--yes"]);
        hooksJson = readFileSync(path.join(dir, ".codex", "hooks.json"), "utf8");
      },
    });
    expect(run.exitCode, run.stderr.slice(-1500)).toBe(0);
    expect(Object.keys(JSON.parse(hooksJson).hooks)).toEqual(["SessionEnd"]);
    const file = path.join(dir, "ended.json");
    expect(existsSync(file), `${hooksJson}\n${run.stderr.slice(-1500)}`).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ event: "session_end", reason: "other", host: { name: "codex", event: "SessionEnd" } });
  });

  it("`hooks install codex` wrote one entry per event, narrowed to the hook's matcher, with the walk-up command", async () => {
    startAll();
    const b = await runsOf(cases[1]).B;
    const file = JSON.parse(b.hooksJson);
    expect(Object.keys(file)).toEqual(["hooks"]);
    expect(file.hooks.PreToolUse).toHaveLength(1);
    expect(file.hooks.PreToolUse[0].matcher).toBe("Write|Edit|apply_patch");
    expect(file.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: "command", command: expect.stringContaining('exec "$d/node_modules/.bin/hooks" -C "$d" run pre_tool_use --host codex') });
  });
});

describe("the scripted Responses model", () => {
  it("streams created / output_item.done / completed, plays the script, then the final text, and logs every body", async () => {
    const model = await startResponsesModel([TOUCH, { tool: "apply_patch", custom: PATCH }]);
    try {
      const post = async (body: unknown) => {
        const text = await (await fetch(`${model.url}/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).text();
        return text
          .split("\n\n")
          .filter(Boolean)
          .map((chunk) =>
            JSON.parse(
              chunk
                .split("\n")
                .find((l) => l.startsWith("data: "))!
                .slice(6),
            ),
          );
      };
      const first = await post({ input: [{ role: "user", content: "hi" }] });
      expect(first.map((e) => e.type)).toEqual(["response.created", "response.output_item.done", "response.completed"]);
      expect(first[1].item).toMatchObject({ type: "function_call", name: "exec_command", call_id: "call_0000" });
      expect(JSON.parse(first[1].item.arguments)).toEqual({ cmd: "touch ran.txt && echo ran" });
      expect((await post({}))[1].item).toMatchObject({ type: "custom_tool_call", name: "apply_patch", input: PATCH });
      expect((await post({}))[1].item.content[0].text).toBe(FINAL_TEXT);
      expect(model.requests.map((r) => r.turn)).toEqual([0, 1, -1]);
      expect(model.requests[0].body.input[0].content).toBe("hi");
      expect((await fetch(`${model.url}/models`)).status).toBe(200);
      expect(model.other).toEqual([{ method: "GET", url: "/v1/models" }]);
    } finally {
      await model.close();
    }
  });
});
