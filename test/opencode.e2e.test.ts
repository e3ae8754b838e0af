import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { processesWithArg } from "./helpers/agentProcess.js";
import { CLI, ROOT, runCli } from "./helpers/cli.js";
import type { ScriptTurn } from "./helpers/openaiChatModel.js";
import { killOpencodeRuns, modelView, type OpencodeRun, requireOpencode, runOpencode } from "./helpers/opencodeCli.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Hooks under the real opencode CLI (`opencode run`, headless, offline, against the scripted Chat
 * Completions server of helpers/openaiChatModel.ts), each case twice:
 *
 *   A  the behaviour written by hand as an opencode plugin in `.opencode/plugins/`: what opencode
 *      itself does with it (the control);
 *   B  the hook in hooks.yaml, and the plugin `hooks install opencode` writes, which imports
 *      hookrun from the project's node_modules (a symlink to this checkout, as `npm i -D hookrun`
 *      leaves it; dist is built by test/globalSetup.ts) and runs it in opencode's process.
 *
 * What is checked is what the model received (the server's request log) and what happened on disk.
 */

const opencode = requireOpencode();

const PROMPT = "Run the command.";
const TOUCH: ScriptTurn = { tool: "bash", input: { command: "touch ran.txt && echo ran", description: "Touch a file" } };
const ran = (project: string) => existsSync(path.join(project, "ran.txt"));
/** A `sleep` argument unique to a project dir, to find that project's sleeps in /proc. */
const sleepTag = (project: string) => `300.${String(createHash("sha256").update(project).digest().readUInt32BE(0)).padStart(10, "0")}`;

interface Case {
  name: string;
  model: ScriptTurn[];
  /** A: the control plugin's hooks object (JS source); gets the project dir. */
  plugin(project: string): string;
  /** B: hooks.yaml's `hooks:` map (YAML lines, indented by two); gets the project dir. */
  hooks(project: string): string;
  timeoutMs?: number;
  expectA(s: Side): void;
  expectB(s: Side): void;
}

interface Side {
  project: string;
  run: OpencodeRun;
  /** The model's view of each main request. */
  views: string[][];
  left: string[];
}

const cases: Case[] = [
  {
    name: "a guard blocks a shell call; its reason is the tool's result",
    model: [TOUCH, { text: "All done." }],
    plugin: () => `{ "tool.execute.before": async (input) => { if (input.tool === "bash") throw new Error("GUARD: no shell today"); } }`,
    hooks: () => `  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: 'cat > /dev/null; echo "GUARD: no shell today" >&2; exit 2'\n`,
    expectA(s) {
      expect(ran(s.project)).toBe(false);
      expect(s.views[1].at(-1)).toBe("[tool] GUARD: no shell today");
    },
    expectB(s) {
      this.expectA(s);
    },
  },
  {
    name: "session context reaches the first request",
    model: [{ text: "All done." }],
    plugin: () => `{ "experimental.chat.system.transform": async (input, output) => { output.system.push("STARTCTX: branch main"); } }`,
    hooks: () => `  session_start:\n    - name: ctx\n      command: 'cat > /dev/null; echo "STARTCTX: branch main"'\n`,
    expectA(s) {
      // opencode quotes a message that has spaces.
      expect(s.views[0]).toEqual(["[system] STARTCTX: branch main", `[user] "${PROMPT}"`]);
    },
    expectB(s) {
      this.expectA(s);
    },
  },
  {
    name: "after-tool feedback is added to the tool's result",
    model: [TOUCH, { text: "All done." }],
    plugin: () => `{ "tool.execute.after": async (input, output) => { if (input.tool === "bash") output.output = output.output + "\\n\\nFEEDBACK: run the tests"; } }`,
    hooks: () =>
      `  post_tool_use:\n    - name: feedback\n      matcher: Bash\n      dialect: claude\n      command: 'cat > /dev/null; printf "%s\\n" "{\\"decision\\":\\"block\\",\\"reason\\":\\"FEEDBACK: run the tests\\"}"'\n`,
    expectA(s) {
      expect(ran(s.project)).toBe(true);
      expect(s.views[1].at(-1)).toMatch(/^\[tool\] ran\n+FEEDBACK: run the tests$/);
    },
    expectB(s) {
      this.expectA(s);
    },
  },
  {
    name: "a hanging hook",
    model: [TOUCH, { text: "All done." }],
    plugin: (project) =>
      `{ "tool.execute.before": async () => { const { spawn } = await import("node:child_process"); await new Promise((resolve) => spawn("sleep", ["${sleepTag(project)}"], { stdio: "ignore" }).on("exit", resolve)); } }`,
    hooks: (project) => `  pre_tool_use:\n    - name: slow\n      timeout: 2\n      command: 'cat > /dev/null; sleep ${sleepTag(project)}'\n`,
    timeoutMs: 30_000,
    expectA(s) {
      // opencode has no timeout for a plugin: the run hangs until it is killed, the tool never runs.
      expect(s.run.timedOut).toBe(true);
      expect(ran(s.project)).toBe(false);
    },
    expectB(s) {
      // hookrun's timeout cuts the hook (its process group killed) and the call goes on.
      expect(s.run.timedOut).toBe(false);
      expect(s.run.exitCode).toBe(0);
      expect(ran(s.project)).toBe(true);
      expect(s.left).toEqual([]);
      expect(s.views[1].at(-1)).toBe("[tool] ran\n");
    },
  },
];

const roots: string[] = [];

function newProject(): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-opencode-e2e-")));
  roots.push(root);
  const project = path.join(root, "project");
  mkdirSync(project);
  return project;
}

/** The `hooks` CLI as the user opencode runs as. */
async function hooks(project: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const vars = Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "HOOKS_STATE_DIR"].map((k) => [k, env[k]]));
  const r = await runCli(args, { cwd: project, env: vars });
  if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** B's project: hooks.yaml, and node_modules/hookrun (and .bin/hooks) pointing at this checkout. */
function configureHookrun(project: string, hooksMap: string): void {
  writeFileSync(path.join(project, "hooks.yaml"), `version: 1\nhooks:\n${hooksMap}`);
  mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, path.join(project, "node_modules", "hookrun"));
  symlinkSync(CLI, path.join(project, "node_modules", ".bin", "hooks"));
}

interface SideOptions {
  /** B: `hooks trust` (default true). */
  trust?: boolean;
  /** B: node_modules/hookrun removed after `hooks install` (an uninstalled or broken hookrun). */
  removeHookrun?: boolean;
}

async function runSide(c: Case, variant: "A" | "B", options: SideOptions = {}): Promise<Side> {
  const project = newProject();
  if (variant === "A") {
    mkdirSync(path.join(project, ".opencode", "plugins"), { recursive: true });
    writeFileSync(path.join(project, ".opencode", "plugins", "control.js"), `export const control = async () => (${c.plugin(project)});\n`);
  } else configureHookrun(project, c.hooks(project));
  const run = await runOpencode({
    project,
    prompt: PROMPT,
    script: c.model,
    timeoutMs: c.timeoutMs,
    setup:
      variant === "A"
        ? undefined
        : async (env) => {
            await hooks(project, env, ["install", "opencode"]);
            if (options.trust !== false) await hooks(project, env, ["trust", "--yes"]);
            if (options.removeHookrun) rmSync(path.join(project, "node_modules", "hookrun"));
          },
  });
  return { project, run, views: run.mainRequests.map((r) => modelView(r, { "<project>": project })), left: processesWithArg(sleepTag(project)) };
}

function describeRun(s: Side): string {
  return `exit ${s.run.exitCode}${s.run.timedOut ? " (timed out)" : ""}, ${s.run.requests.length} requests, ${s.run.durationMs} ms\nviews:\n${s.views.map((v) => v.join("\n")).join("\n--\n")}\nstderr: ${s.run.stderr.slice(-1500)}`;
}

const runs = new Map<Case, Record<"A" | "B", Promise<Side>>>();
let extra: { missing: Promise<Side>; untrusted: Promise<Side>; exiting: Promise<Side> } | undefined;

/** A stop hook that outlives the turn (session.idle, which opencode does not wait for). */
const LATE_STOP: Case = {
  ...cases[0],
  name: "a stop hook still running when opencode exits",
  model: [{ text: "All done." }],
  hooks: (project) => `  stop:\n    - name: late\n      timeout: 600\n      command: 'cat > /dev/null; echo started > stop-started; sleep ${sleepTag(project)}'\n`,
};

/**
 * LATE_STOP's run, run again (up to 3 runs in all) while opencode exited before the stop hook even
 * started: opencode does not wait for session.idle, and under load its exit can come before
 * hookrun has started the hook, which leaves nothing to test. A hook that never starts fails all three.
 */
async function lateStopRun(): Promise<Side> {
  const started = (s: Side) => existsSync(path.join(s.project, "stop-started"));
  let s = await runSide(LATE_STOP, "B");
  for (let run = 2; run <= 3 && !started(s); run++) {
    console.warn(`opencode e2e: opencode exited before the late stop hook started (run ${run - 1}); running it again`);
    s = await runSide(LATE_STOP, "B");
  }
  return s;
}

/** Start every run at once on first use (runOpencode caps how many run together). */
function startAll(): void {
  if (extra) return;
  for (const c of cases) runs.set(c, { A: runSide(c, "A"), B: runSide(c, "B") });
  extra = { missing: runSide(cases[0], "B", { removeHookrun: true }), untrusted: runSide(cases[0], "B", { trust: false }), exiting: lateStopRun() };
  for (const p of [...[...runs.values()].flatMap((r) => [r.A, r.B]), ...Object.values(extra)]) p.catch(() => {});
}

afterAll(() => {
  const t0 = Date.now();
  killOpencodeRuns();
  for (const sleep of roots.flatMap((r) => processesWithArg(sleepTag(path.join(r, "project"))))) {
    try {
      process.kill(Number(sleep.split(":")[0]), "SIGKILL");
    } catch {
      // gone
    }
  }
  for (const r of roots) removeTree(r);
  if (Date.now() - t0 > 5000) console.warn(`opencode e2e: cleanup took ${Date.now() - t0} ms`);
}, 120_000);

describe.skipIf(!opencode.path)(`opencode ${opencode.version ?? `(skipped: ${opencode.reason})`}: a plugin by hand (A) and hooks.yaml through \`hooks install opencode\` (B)`, () => {
  for (const c of cases) {
    describe(c.name, () => {
      it("A (a plugin by hand)", { timeout: 180_000 }, async () => {
        startAll();
        const s = await runs.get(c)!.A;
        try {
          c.expectA(s);
        } catch (error) {
          throw new Error(`${(error as Error).message}\n${describeRun(s)}`);
        }
      });
      it("B (hooks.yaml + hooks install opencode)", { timeout: 180_000 }, async () => {
        startAll();
        const s = await runs.get(c)!.B;
        try {
          c.expectB(s);
          // opencode 1.18.33 has no batch tool (a tool that once ran other tools past the plugin hooks).
          for (const r of s.run.mainRequests) expect((r.body?.tools ?? []).map((t: any) => t.function?.name)).not.toContain("batch");
        } catch (error) {
          throw new Error(`${(error as Error).message}\n${describeRun(s)}`);
        }
      });
    });
  }

  it("B with hookrun not importable: the plugin loads and refuses every tool call, saying why", { timeout: 180_000 }, async () => {
    startAll();
    const s = await extra!.missing;
    try {
      expect(ran(s.project)).toBe(false);
      expect(s.views[1].at(-1)).toMatch(/^\[tool\] hookrun could not be loaded \(no node_modules\/hookrun in .* or above\), so its hooks \(guards included\) do not run/);
      expect(s.views[1].at(-1)).toContain("run `npm install` in the project");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${describeRun(s)}`);
    }
  });

  it("B: a stop hook still running when opencode exits is killed with it (nothing left running)", { timeout: 180_000 }, async () => {
    startAll();
    const s = await extra!.exiting;
    try {
      expect(s.run.exitCode).toBe(0);
      expect(existsSync(path.join(s.project, "stop-started"))).toBe(true);
      expect(s.left).toEqual([]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${describeRun(s)}\nstop hook started: ${existsSync(path.join(s.project, "stop-started"))}`);
    }
  });

  it("B without `hooks trust`: no hook runs, and the model is told so from the first request", { timeout: 180_000 }, async () => {
    startAll();
    const s = await extra!.untrusted;
    try {
      expect(ran(s.project)).toBe(true);
      expect(s.views[1].at(-1)).toBe("[tool] ran\n");
      expect(s.views[0][0]).toMatch(/^\[system\] hookrun: the project's hooks are not running in this session: <project>\/hooks\.yaml is not trusted/);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${describeRun(s)}`);
    }
  });
});
