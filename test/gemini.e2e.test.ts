import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ASK_DEGRADED } from "../src/hosts/geminiRender.js";
import { CLI, runCli } from "./helpers/cli.js";
import { type GeminiRun, killGeminiRuns, requireGemini, runGemini } from "./helpers/geminiCli.js";
import { conversation, type GeminiTurn } from "./helpers/geminiModel.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * hooks.yaml run by the real Gemini CLI (`gemini -p`, headless, offline, against the scripted
 * Gemini API of helpers/geminiModel.ts), checked by what the model received (the server's request
 * log) and what happened on disk:
 *
 *   A  the hook configured DIRECTLY in .gemini/settings.json: what Gemini CLI does (ground truth);
 *   B  hooks.yaml with native hooks, installed with `hooks install gemini` (the entries run the
 *      project's node_modules/.bin/hooks, here a symlink to this checkout's dist/bin/hooks.js),
 *      trusted with `hooks trust --yes` as the user Gemini runs as;
 *   B-import  A's very settings.json through `hooks import gemini --write` (hooks.yaml), its hooks
 *      then removed from the settings and `hooks install gemini` run, as a user moves to hookrun.
 *
 * Where they exist, the model must see the same conversation under B and B-import as under A.
 * Every run starts at once (runGemini caps how many run together); each test awaits its own.
 */

const gemini = requireGemini();

const PROMPT = "Run the command.";
const shell = (command: string): GeminiTurn => ({ tool: "run_shell_command", args: { command, description: "run it" } });
/** The tool call most cases make: it leaves a file behind when it really ran. */
const TOUCH = shell("touch ran.txt && echo ran");
const ran = (project: string) => existsSync(path.join(project, "ran.txt"));
const json = (value: unknown) => `printf '%s\\n' '${JSON.stringify(value)}'`;
/** Every hook appends its name to hooks.log, so a test knows which ran and how often. */
const logged = (name: string, command: string) => `echo ${name} >> hooks.log; ${command}`;
const hookLog = (project: string) => (existsSync(path.join(project, "hooks.log")) ? readFileSync(path.join(project, "hooks.log"), "utf8").trim().split("\n") : []);
/** A stop hook that blocks once: exit 0 when the payload says stop_hook_active is true. */
const STOP_ONCE = `input=$(cat); if printf '%s' "$input" | grep -Eq '"stop_hook_active" *: *true'; then exit 0; fi; echo "Also run the tests." >&2; exit 2`;

/** A second argument for `sleep` (GNU sleep adds them) unique to a project, to find its processes in /proc. */
const sleepTag = (project: string) => `0.${String(createHash("sha256").update(project).digest().readUInt32BE(0)).padStart(10, "0")}`;

/** The live (not zombie) processes whose command line has `arg` as an argument: their pids. */
function processesWithArg(arg: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (argv.includes(arg) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Kill what a hang case left (after the assertions read it), so a failing test leaves nothing either. */
function killLeft(arg: string): void {
  for (const pid of processesWithArg(arg)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

interface GeminiHook {
  event: string;
  matcher?: string;
  command: string;
  timeout?: number;
}

interface Case {
  name: string;
  script: GeminiTurn[];
  /** A: Gemini's own hooks (absent: no ground-truth run). */
  direct?: (project: string) => GeminiHook[];
  /** B: hooks.yaml. */
  hooksYaml?: (project: string) => string;
  /** B: change the installed settings before the run. */
  editInstalled?: (settings: any) => void;
  /** Kill Gemini after this long (default 60 s). */
  timeoutMs?: number;
  /** Watches the run from its start; `stop` ends it (see runGemini's onStart). */
  watch?: (project: string, stop: () => void) => void;
  /** B: leave hooks.yaml untrusted (no `hooks trust`). */
  untrusted?: boolean;
}

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-gemini-e2e-")));
const dump: Record<string, unknown> = {};
afterAll(() => {
  if (process.env.HOOKRUN_E2E_DUMP) writeFileSync(process.env.HOOKRUN_E2E_DUMP, JSON.stringify(dump, null, 2));
  killGeminiRuns();
  removeTree(root);
});

const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

interface Side {
  project: string;
  run: GeminiRun;
  /** The conversation of the last main request (what the model saw last), normalised. */
  view: string[];
  /** The installed .gemini/settings.json (B). */
  settings?: any;
}

function normalise(lines: string[], project: string): string[] {
  return lines
    .filter((l) => !l.startsWith("[user] text: <session_context>"))
    .map((l) =>
      l
        .split(project)
        .join("<project>")
        .replace(/PGID: \d+/g, "PGID: <pgid>"),
    );
}

/** Gemini's own hooks of a case in .gemini/settings.json (A; B-import's input). */
function writeDirect(c: Case, project: string): void {
  const hooks: Record<string, unknown[]> = {};
  for (const h of c.direct!(project))
    (hooks[h.event] ??= []).push({ ...(h.matcher && { matcher: h.matcher }), hooks: [{ type: "command", command: h.command, ...(h.timeout && { timeout: h.timeout }) }] });
  writeFileSync(path.join(project, ".gemini", "settings.json"), `${JSON.stringify({ hooks }, null, 2)}\n`);
}

type Variant = "A" | "B" | "B-import";

async function hooksCli(args: string[], project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const r = await runCli(args, { cwd: project, env: userEnv(env) });
  if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
}

async function runSide(c: Case, variant: Variant): Promise<Side> {
  const project = path.join(root, `${c.name.replace(/\W+/g, "-")}-${variant}`);
  mkdirSync(path.join(project, ".gemini"), { recursive: true });
  const file = path.join(project, ".gemini", "settings.json");
  let settings: any;
  if (variant !== "B") writeDirect(c, project);
  else writeFileSync(path.join(project, "hooks.yaml"), c.hooksYaml!(project));
  if (variant !== "A") {
    mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
    symlinkSync(CLI, path.join(project, "node_modules", ".bin", "hooks"));
  }
  const run = await runGemini({
    project,
    prompt: PROMPT,
    script: c.script,
    timeoutMs: c.timeoutMs,
    onStart: c.watch && ((stop) => c.watch!(project, stop)),
    setup: async (env) => {
      if (variant === "A") return;
      if (variant === "B-import") {
        // As a user moves to hookrun: import Gemini's hooks into hooks.yaml, drop them from the settings, install.
        await hooksCli(["import", "gemini", "--write"], project, env);
        const { hooks: _imported, ...rest } = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
        writeFileSync(file, `${JSON.stringify(rest, null, 2)}\n`);
      }
      await hooksCli(["install", "gemini"], project, env);
      settings = JSON.parse(readFileSync(file, "utf8"));
      if (c.editInstalled) {
        c.editInstalled(settings);
        writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
      }
      if (!c.untrusted) await hooksCli(["-C", project, "trust", "--yes"], project, env);
    },
  });
  const last = run.mainRequests.at(-1);
  const out = { project, run, view: normalise(last ? conversation(last.body) : [], project), settings };
  if (process.env.HOOKRUN_E2E_DUMP) dump[`${c.name}/${variant}`] = { ...out, requests: run.requests.map((r) => normalise(conversation(r.body), project)) };
  return out;
}

const INFORMS: Case = {
  name: "informs",
  script: [TOUCH, { text: "Ran it." }],
  direct: () => [
    { event: "SessionStart", command: logged("start", json({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Use pnpm in this repo." } })) },
    { event: "BeforeAgent", command: logged("prompt", json({ hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "Branch: main" } })) },
    { event: "AfterTool", matcher: "run_shell_command", command: logged("lint", json({ hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "lint: 2 errors" } })) },
  ],
  // Native hooks: plain stdout is context; exit 2 after a tool is feedback for the model.
  hooksYaml: () => `version: 1
hooks:
  session_start:
    - name: start
      command: ${JSON.stringify(logged("start", 'echo "Use pnpm in this repo."'))}
  user_prompt_submit:
    - name: prompt
      command: ${JSON.stringify(logged("prompt", 'echo "Branch: main"'))}
  post_tool_use:
    - name: lint
      matcher: Bash
      command: ${JSON.stringify(logged("lint", 'echo "lint: 2 errors" >&2; exit 2'))}
`,
};

const GUARD: Case = {
  name: "guard",
  script: [TOUCH, { text: "Blocked." }],
  direct: () => [{ event: "BeforeTool", matcher: "run_shell_command", command: logged("guard", 'echo "no touching here" >&2; exit 2') }],
  hooksYaml: () => `version: 1
hooks:
  pre_tool_use:
    - name: guard
      matcher: Bash
      command: ${JSON.stringify(logged("guard", 'echo "no touching here" >&2; exit 2'))}
`,
};

const STOP: Case = {
  name: "stop",
  script: [{ text: "First answer." }, { text: "Tests pass." }],
  direct: () => [{ event: "AfterAgent", command: logged("stop", STOP_ONCE) }],
  hooksYaml: () => `version: 1
hooks:
  stop:
    - name: stop
      command: ${JSON.stringify(logged("stop", STOP_ONCE))}
`,
};

const ASK: Case = {
  name: "ask",
  script: [TOUCH, { text: "Not run." }],
  hooksYaml: () => `version: 1
hooks:
  pre_tool_use:
    - name: prod
      matcher: Bash
      command: ${JSON.stringify(logged("prod", json({ hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "touches prod" } })))}
`,
};

/**
 * A guard written for Claude Code (`dialect: claude`): it reads Claude's payload (`tool_name` Bash,
 * `tool_input.command`) and answers with Claude's JSON deny, and runs under Gemini through hookrun.
 */
const CLAUDE_GUARD_SCRIPT = `node -e '
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const p = JSON.parse(s);
  require("fs").appendFileSync("hooks.log", "claude-guard " + p.hook_event_name + " " + p.tool_name + "\\n");
  if (p.tool_name === "Bash" && /touch/.test(p.tool_input.command))
    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "CLAUDE-GUARD: no touching in " + p.tool_input.command } }));
});'`;
const CLAUDE_GUARD: Case = {
  name: "claude-guard",
  script: [TOUCH, { text: "Blocked." }],
  hooksYaml: () => `version: 1
hooks:
  pre_tool_use:
    - name: claude-guard
      dialect: claude
      matcher: Bash
      command: ${JSON.stringify(CLAUDE_GUARD_SCRIPT)}
`,
};

/** The informing hooks and a guard, never trusted: no hook may run, and neither the user nor the model may be left unaware. */
const UNTRUSTED: Case = {
  name: "untrusted",
  script: [TOUCH, { text: "Ran it." }],
  untrusted: true,
  hooksYaml: () => `${INFORMS.hooksYaml!("")}  pre_tool_use:
    - name: guard
      matcher: Bash
      command: ${JSON.stringify(logged("guard", "exit 2"))}
`,
};

/** A hook whose child sleeps on (holding the hook's stdout) past every timeout. */
const stubborn = (project: string) => `echo $$ > hook.pid; sleep 300 ${sleepTag(project)}; echo done`;

const HANG_HOOKRUN: Case = {
  name: "hang-hookrun-timeout",
  script: [TOUCH, { text: "Ran it." }],
  hooksYaml: (project) => `version: 1
hooks:
  pre_tool_use:
    - name: stubborn
      matcher: Bash
      timeout: 2
      command: ${JSON.stringify(stubborn(project))}
`,
};

/** The same hook with hookrun's default timeout, and the installed entry's timeout cut to 3 s: Gemini's fires first. */
const HANG_GEMINI: Case = {
  name: "hang-gemini-timeout",
  script: [TOUCH, { text: "Ran it." }],
  hooksYaml: (project) => `version: 1
hooks:
  pre_tool_use:
    - name: stubborn
      matcher: Bash
      command: ${JSON.stringify(stubborn(project))}
`,
  editInstalled: (settings) => {
    settings.hooks.BeforeTool[0].hooks[0].timeout = 3000;
  },
};

/** Ground truth for the hang: the same hook directly in Gemini, with a 2 s timeout. */
const HANG_DIRECT: Case = {
  name: "hang-direct",
  script: [TOUCH, { text: "Ran it." }],
  direct: (project) => [{ event: "BeforeTool", matcher: "run_shell_command", command: stubborn(project), timeout: 2000 }],
  watch: (project, stop) => {
    // Once the hook has started: Gemini's 2 s timeout, the 5 s after which it means to SIGKILL, 2 s more; then look and end the run.
    const file = path.join(project, "hook.pid");
    const poll = setInterval(() => {
      if (!existsSync(file) || readFileSync(file, "utf8").trim() === "") return;
      clearInterval(poll);
      setTimeout(() => {
        const pid = Number(readFileSync(file, "utf8"));
        hangSeen = { shellAlive: processAlive(pid), sleeps: processesWithArg(sleepTag(project)).length };
        stop();
      }, 9_000);
    }, 100);
    setTimeout(() => clearInterval(poll), 60_000).unref();
  },
};
/** What was running 9 s after the direct hang's hook started (7 s after Gemini's 2 s timeout), before the test ended the run. */
let hangSeen: { shellAlive: boolean; sleeps: number } | null = null;

// Start every run now; each test awaits its own.
const started = new Map<string, Promise<Side>>();
const side = (c: Case, v: Variant) => {
  const key = `${c.name}/${v}`;
  if (!started.has(key)) {
    const p = runSide(c, v);
    p.catch(() => {});
    started.set(key, p);
  }
  return started.get(key)!;
};

const functionResponses = (s: Side) => s.view.filter((l) => l.startsWith("[user] functionResponse"));

describe.skipIf(!gemini.path)(
  `Gemini CLI ${gemini.version ?? `(skipped: ${gemini.reason})`}: hooks.yaml installed with \`hooks install gemini\` (B) against the same hooks in .gemini/settings.json (A)`,
  () => {
    if (gemini.path)
      for (const [c, v] of [
        [INFORMS, "A"],
        [INFORMS, "B"],
        [INFORMS, "B-import"],
        [GUARD, "A"],
        [GUARD, "B"],
        [GUARD, "B-import"],
        [STOP, "A"],
        [STOP, "B"],
        [STOP, "B-import"],
        [ASK, "B"],
        [CLAUDE_GUARD, "B"],
        [UNTRUSTED, "B"],
        [HANG_HOOKRUN, "B"],
        [HANG_GEMINI, "B"],
        [HANG_DIRECT, "A"],
      ] as const)
        side(c, v);

    it("the installed entries: exec, unquoted $GEMINI_PROJECT_DIR, matcher narrowed, timeout in ms", { timeout: 120_000 }, async () => {
      const b = await side(GUARD, "B");
      expect(b.settings.hooks).toEqual({
        BeforeTool: [
          {
            matcher: "^(?:run_shell_command)$",
            hooks: [
              {
                type: "command",
                name: "hookrun",
                // hookrun that cannot start: Gemini's not-run answer, exit 0 (its 127 would block every call)
                command: expect.stringMatching(
                  /^\{ \[ -x \$GEMINI_PROJECT_DIR\/node_modules\/\.bin\/hooks \] && command -v node >\/dev\/null 2>&1; \} \|\| \{ printf '%s\\n' '\{"systemMessage":.*could not start.*'; exit 0; \}; exec \$GEMINI_PROJECT_DIR\/node_modules\/\.bin\/hooks -C \$GEMINI_PROJECT_DIR run pre_tool_use --host gemini$/s,
                ),
                timeout: 72_000,
              },
            ],
          },
        ],
      });
    });

    it("session-start and prompt context reach the model in <hook_context>; post-tool feedback reaches it next to the tool's result", { timeout: 120_000 }, async () => {
      const [a, b, i] = await Promise.all([side(INFORMS, "A"), side(INFORMS, "B"), side(INFORMS, "B-import")]);
      for (const s of [a, b, i]) {
        expect(s.run.exitCode, s.run.stderr).toBe(0);
        expect(ran(s.project)).toBe(true);
        expect(hookLog(s.project).sort()).toEqual(["lint", "prompt", "start"]);
        const first = normalise(conversation(s.run.mainRequests[0].body), s.project);
        // SessionStart's context is put before the prompt, in its part; BeforeAgent's is a part after it.
        expect(first).toContain(`[user] text: <hook_context>Use pnpm in this repo.</hook_context>\n\n${PROMPT}`);
        expect(first).toContain("[user] text: <hook_context>Branch: main</hook_context>");
        expect(functionResponses(s)).toHaveLength(1);
        expect(functionResponses(s)[0]).toContain("<hook_context>lint: 2 errors</hook_context>");
      }
      expect(b.view).toEqual(a.view);
      expect(i.view).toEqual(a.view);
    });

    it("a guard blocks a shell command: it does not run, and the model gets the reason", { timeout: 120_000 }, async () => {
      const [a, b, i] = await Promise.all([side(GUARD, "A"), side(GUARD, "B"), side(GUARD, "B-import")]);
      for (const s of [a, b, i]) {
        expect(s.run.exitCode, s.run.stderr).toBe(0);
        expect(ran(s.project)).toBe(false);
        expect(hookLog(s.project)).toEqual(["guard"]);
        expect(functionResponses(s)).toEqual([`[user] functionResponse run_shell_command: {"error":"Tool execution blocked: no touching here"}`]);
      }
      expect(b.view).toEqual(a.view);
      expect(i.view).toEqual(a.view);
    });

    it("a stop hook blocks once: the model is prompted with its reason and answers again, then the agent stops", { timeout: 120_000 }, async () => {
      const [a, b, i] = await Promise.all([side(STOP, "A"), side(STOP, "B"), side(STOP, "B-import")]);
      for (const s of [a, b, i]) {
        expect(s.run.exitCode, s.run.stderr).toBe(0);
        expect(hookLog(s.project)).toEqual(["stop", "stop"]);
        expect(s.run.mainRequests).toHaveLength(2);
        expect(s.view.slice(-2)).toEqual(["[model] text: First answer.", "[user] text: Also run the tests."]);
        expect(s.run.stdout).toContain("Tests pass.");
      }
      expect(b.view).toEqual(a.view);
      expect(i.view).toEqual(a.view);
    });

    it("a guard written for Claude Code (dialect: claude) runs under Gemini: it reads Claude's payload, its Claude deny blocks the shell call, and the model gets its reason", {
      timeout: 120_000,
    }, async () => {
      const b = await side(CLAUDE_GUARD, "B");
      expect(b.run.exitCode, b.run.stderr).toBe(0);
      expect(ran(b.project)).toBe(false);
      // Claude's names on its stdin, though Gemini fired BeforeTool for run_shell_command.
      expect(hookLog(b.project)).toEqual(["claude-guard PreToolUse Bash"]);
      expect(functionResponses(b)).toEqual([`[user] functionResponse run_shell_command: {"error":"Tool execution blocked: CLAUDE-GUARD: no touching in touch ran.txt && echo ran"}`]);
    });

    it("ask degrades to a deny whose reason says so (Gemini's own ask would wait forever in -p)", { timeout: 120_000 }, async () => {
      const b = await side(ASK, "B");
      expect(b.run.timedOut).toBe(false);
      expect(b.run.exitCode, b.run.stderr).toBe(0);
      expect(ran(b.project)).toBe(false);
      expect(functionResponses(b)).toEqual([`[user] functionResponse run_shell_command: ${JSON.stringify({ error: `Tool execution blocked: touches prod (${ASK_DEGRADED})` })}`]);
    });

    it("an untrusted hooks.yaml runs no hook, and says so to the user (stderr) and to the model (session start and prompt)", { timeout: 120_000 }, async () => {
      const b = await side(UNTRUSTED, "B");
      expect(b.run.exitCode, b.run.stderr).toBe(0);
      expect(hookLog(b.project)).toEqual([]);
      // Fail open, never in silence: the agent goes on without the hooks.
      expect(ran(b.project)).toBe(true);
      expect(b.run.stderr).toContain("Hook system message: hookrun: the project's hooks did not run: ");
      const first = conversation(b.run.mainRequests[0].body).join("\n");
      expect(first).toContain("<hook_context>hookrun: the project's hooks are not running in this session: ");
      expect(first).toContain("is not trusted");
    });

    describe("a hook that hangs", () => {
      it("A (ground truth): Gemini kills only the hook's shell at its timeout; the child holds the pipe and `gemini -p` never ends", { timeout: 120_000 }, async () => {
        const a = await side(HANG_DIRECT, "A");
        killLeft(sleepTag(a.project));
        expect(a.run.timedOut).toBe(false);
        expect(a.run.stopped).toBe(true);
        // 7 s after the hook's 2 s timeout: its shell is gone, its child sleeps on, gemini -p has not ended, the tool never ran.
        expect(hangSeen).toEqual({ shellAlive: false, sleeps: 1 });
        expect(ran(a.project)).toBe(false);
      });

      it("B: hookrun's own timeout ends the hook's whole process group; the agent goes on, nothing is left", { timeout: 120_000 }, async () => {
        const b = await side(HANG_HOOKRUN, "B");
        const left = processesWithArg(sleepTag(b.project));
        killLeft(sleepTag(b.project));
        expect(b.run.timedOut).toBe(false);
        expect(b.run.exitCode, b.run.stderr).toBe(0);
        expect(left).toEqual([]);
        // hookrun fails open on a timed-out hook: the tool ran, and the user is told (-p prints systemMessage on stderr).
        expect(ran(b.project)).toBe(true);
        expect(b.run.stderr).toContain("Hook system message: hook stubborn timed out: timed out after 2s");
        expect(existsSync(path.join(b.project, "hook.pid"))).toBe(true);
      });

      it("B: when Gemini's timeout fires first, the process it kills is hookrun (exec), which ends its hooks: nothing is left", { timeout: 120_000 }, async () => {
        const b = await side(HANG_GEMINI, "B");
        const left = processesWithArg(sleepTag(b.project));
        killLeft(sleepTag(b.project));
        expect(b.settings.hooks.BeforeTool[0].hooks[0].timeout).toBe(3000);
        expect(b.run.timedOut).toBe(false);
        expect(b.run.exitCode, b.run.stderr).toBe(0);
        expect(left).toEqual([]);
        expect(existsSync(path.join(b.project, "hook.pid"))).toBe(true);
        expect(ran(b.project)).toBe(true);
      });
    });
  },
);
