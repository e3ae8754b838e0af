import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, type CliProcess, runCli, spawnCli } from "./helpers/cli.js";
import { type CopilotRun, chatView, killCopilotRuns, requireCopilot, runCopilot, warmCopilotCache } from "./helpers/copilotCli.js";
import type { ScriptTurn } from "./helpers/openaiChatModel.js";
import { removeTree } from "./helpers/removeTree.js";
import { freePort, untilListening } from "./helpers/server.js";

/**
 * Hooks run by the real GitHub Copilot CLI (`copilot -p`, headless, offline, against the scripted
 * Chat Completions server of helpers/openaiChatModel.ts), each case twice:
 *
 *   A  the hook configured DIRECTLY in Copilot, in its own camelCase contract
 *      (.github/hooks/direct.json): what Copilot does (ground truth);
 *   B  the same hook in hooks.yaml (hookrun's native dialect), handed to hookrun by the entries of
 *      `hooks install copilot` (.github/hooks/hookrun.json), which run the project's
 *      node_modules/.bin/hooks (a symlink to this checkout's dist/bin/hooks.js, as `npm i -D
 *      hookrun` leaves it), after `hooks trust`.
 *
 * Both are judged by the same expectations, on what the model received (the server's request log)
 * and what happened on disk, never on hookrun's word.
 */

const copilot = requireCopilot();

type Arm = "A" | "B" | "C" | "I" | "U";
const ARMS: readonly Arm[] = ["A", "B", "C", "I", "U"];
const ARM_TITLES: Record<Arm, string> = {
  A: "A: configured directly in Copilot",
  B: "B: through hookrun, `hooks install copilot`",
  C: "C: through hookrun's Claude Code entries (`hooks install claude`), which Copilot also runs",
  I: "I: A's very file through `hooks import copilot --write`, then `hooks install copilot`",
  U: "U: through hookrun, `hooks install copilot --user` (~/.copilot/hooks/hookrun.json)",
};

interface DirectHook {
  /** Script name under .hooks/ (without .sh). */
  script: string;
  matcher?: string;
  timeoutSec?: number;
}

interface Case {
  name: string;
  prompt?: string;
  script: ScriptTurn[];
  /** The hook scripts (sh), by name; each first logs its name to HOOKS_RAN. */
  scripts: Record<string, string | ((project: string) => string)>;
  /** A: Copilot's camelCase event → hooks. */
  direct: Record<string, DirectHook[]>;
  /** B: hooks.yaml (its hooks run `./.hooks/NAME.sh`). */
  yaml: string;
  /** B without `hooks trust`. */
  untrusted?: boolean;
  /** The arms this case runs (default A and B). */
  arms?: Arm[];
  expect(run: CopilotRun, project: string, arm: Arm): void | Promise<void>;
}

const PROMPT = "Run the command.";
const bash = (command: string): ScriptTurn => ({ tool: "bash", input: { command, description: "run it" } });
const TOUCH = bash("touch ran.txt && echo ran");
const ran = (project: string) => existsSync(path.join(project, "ran.txt"));
const json = (value: unknown) => `printf '%s\\n' '${JSON.stringify(value)}'`;
const HOOKS_RAN = ".hooks-ran";
const hooksRan = (project: string): string[] => (existsSync(path.join(project, HOOKS_RAN)) ? readFileSync(path.join(project, HOOKS_RAN), "utf8").trim().split("\n") : []);
/** The tool results the model received, in order. */
const toolResults = (run: CopilotRun) => chatView(run.requests).filter((l) => l.startsWith("[tool] "));

/** A `sleep` argument unique to a project (GNU sleep adds its arguments), to find its process in /proc. */
const sleepTag = (project: string) => `0.${String(createHash("sha256").update(project).digest().readUInt32BE(0)).padStart(10, "0")}`;

function processesWithArg(arg: string): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (argv.includes(arg) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z") out.push(`${pid}: ${argv.join(" ").trim()}`);
    } catch {
      // gone
    }
  }
  return out;
}

const STOP_REASON = "Run the tests before you stop.";

const cases: Case[] = [
  {
    name: "a guard blocks a shell command: it does not run, the model gets the reason; another tool runs without spawning the guard",
    script: [TOUCH, { tool: "create", input: { path: "notes.txt", file_text: "x\n" } }],
    scripts: {
      deny: json({ permissionDecision: "deny", permissionDecisionReason: "no shell in this repo" }),
      guard: "echo 'no shell in this repo' >&2\nexit 2",
    },
    direct: { preToolUse: [{ script: "deny", matcher: "bash" }] },
    // I: the imported guard is `dialect: copilot`, so its flat permissionDecision denies through hookrun too.
    arms: ["A", "B", "C", "I", "U"],
    yaml: "hooks:\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: ./.hooks/guard.sh\n",
    expect(run, project, arm) {
      expect(ran(project)).toBe(false);
      expect(existsSync(path.join(project, "notes.txt"))).toBe(true);
      expect(toolResults(run)[0]).toBe("[tool] Denied by preToolUse hook: no shell in this repo");
      expect(hooksRan(project)).toEqual([arm === "A" || arm === "I" ? "deny" : "guard"]);
      if (arm === "B") {
        // The entry is narrowed to the shell tool (Copilot anchors the matcher): \`create\` never spawns hookrun.
        const installed = JSON.parse(readFileSync(path.join(project, ".github", "hooks", "hookrun.json"), "utf8"));
        expect(installed.hooks.preToolUse[0].matcher).toBe("Bash|bash");
      }
    },
  },
  {
    name: "context added at session start and at the prompt reaches the model",
    script: [{ text: "ok" }],
    scripts: {
      "ctx-start": json({ additionalContext: "Use pnpm, never npm." }),
      "ctx-prompt": json({ additionalContext: "Branch: main" }),
      start: "echo 'Use pnpm, never npm.'",
      prompt: "echo 'Branch: main'",
    },
    direct: { sessionStart: [{ script: "ctx-start" }], userPromptSubmitted: [{ script: "ctx-prompt" }] },
    arms: ["A", "B", "C", "I"],
    yaml: "hooks:\n  session_start:\n    - name: start\n      command: ./.hooks/start.sh\n  user_prompt_submit:\n    - name: prompt\n      command: ./.hooks/prompt.sh\n",
    expect(run) {
      const view = chatView(run.requests);
      expect(view[0]).toBe("[user] Use pnpm, never npm.");
      expect(view[1]).toBe(`[user] ${PROMPT}\n\n<system_reminder>\nBranch: main\n</system_reminder>`);
    },
  },
  {
    name: "post-tool feedback reaches the model beside the tool's result",
    script: [bash("echo hello")],
    scripts: { "post-ctx": json({ additionalContext: "lint: 2 problems in src/a.ts" }), lint: "echo 'lint: 2 problems in src/a.ts' >&2\nexit 2" },
    direct: { postToolUse: [{ script: "post-ctx", matcher: "bash" }] },
    arms: ["A", "B", "C", "I"],
    yaml: "hooks:\n  post_tool_use:\n    - name: lint\n      matcher: Bash\n      command: ./.hooks/lint.sh\n",
    expect(run) {
      const [result] = toolResults(run);
      expect(result).toContain("hello");
      expect(result).toMatch(/Tool "bash" succeeded\. Additional guidance from postToolUse hooks:\nlint: 2 problems in src\/a\.ts$/);
    },
  },
  {
    name: "context after a failed tool call reaches the model beside the failure",
    script: [{ tool: "edit", input: { path: "missing.txt", old_str: "a", new_str: "b" } }],
    scripts: { "fail-ctx": json({ additionalContext: "create the file first" }), hint: "echo 'create the file first'" },
    direct: { postToolUseFailure: [{ script: "fail-ctx", matcher: "edit" }] },
    yaml: "hooks:\n  post_tool_use_failure:\n    - name: hint\n      matcher: Edit\n      command: ./.hooks/hint.sh\n",
    expect(run, project, arm) {
      expect(hooksRan(project)).toEqual([arm === "A" ? "fail-ctx" : "hint"]);
      const view = chatView(run.requests);
      expect(view).toContain('[user] Tool "edit" failed. Additional guidance from postToolUseFailure hooks:\ncreate the file first');
    },
  },
  {
    name: "a stop hook blocks once, the agent continues with the reason, then stops",
    script: [{ text: "All done." }, { text: "Tests pass." }],
    scripts: {
      // The same script under A and B: Copilot's agentStop and hookrun's native dialect both read decision/reason.
      "stop-once": `input=$(cat)\nif printf '%s' "$input" | grep -Eq '"stop_hook_active" *: *true'; then exit 0; fi\n${json({ decision: "block", reason: STOP_REASON })}`,
    },
    direct: { agentStop: [{ script: "stop-once" }] },
    arms: ["A", "B", "I"],
    yaml: "hooks:\n  stop:\n    - name: stop-once\n      command: ./.hooks/stop-once.sh\n",
    expect(run, project) {
      expect(hooksRan(project)).toEqual(["stop-once", "stop-once"]);
      expect(run.mainRequests).toHaveLength(2);
      const view = chatView(run.requests);
      expect(view).toContain("[assistant] All done.");
      expect(view.at(-1)).toBe(`[user] ${STOP_REASON}`);
      expect(run.stdout).toContain("Tests pass.");
    },
  },
  {
    name: "ask degrades to a denial with the reason (no one to ask in -p)",
    script: [TOUCH],
    scripts: { "ask-direct": json({ permissionDecision: "ask", permissionDecisionReason: "a human must approve this" }), ask: json({ decision: "ask", reason: "a human must approve this" }) },
    direct: { preToolUse: [{ script: "ask-direct", matcher: "bash" }] },
    yaml: "hooks:\n  pre_tool_use:\n    - name: ask\n      matcher: Bash\n      command: ./.hooks/ask.sh\n",
    expect(run, project) {
      expect(ran(project)).toBe(false);
      expect(toolResults(run)[0]).toBe("[tool] Denied by preToolUse hook (unable to ask user for confirmation): a human must approve this");
    },
  },
  {
    name: "a hook that hangs is cut off, leaves no process, and the tool call goes on",
    script: [TOUCH],
    scripts: { hang: (project) => `echo $$ > hook.pid\nsleep 30 ${sleepTag(project)}` },
    direct: { preToolUse: [{ script: "hang", matcher: "bash", timeoutSec: 2 }] },
    arms: ["A", "B", "I"],
    yaml: "hooks:\n  pre_tool_use:\n    - name: hang\n      matcher: Bash\n      timeout: 2\n      command: ./.hooks/hang.sh\n",
    async expect(run, project) {
      expect(run.timedOut).toBe(false);
      expect(existsSync(path.join(project, "hook.pid"))).toBe(true);
      // Copilot (A), a hand-written hooks.yaml (B) and the imported `dialect: copilot` hook (I) let
      // the call through when the guard hangs: a timeout fails open under Copilot.
      expect(ran(project)).toBe(true);
      // Cut off at the hook's own 2 s (hookrun under B and I, Copilot under A), not at B's entry's 12 s.
      const started = statSync(path.join(project, "hook.pid")).mtimeMs;
      const after = statSync(path.join(project, "ran.txt")).mtimeMs;
      expect(after - started).toBeLessThan(9_000);
      expect(processesWithArg(sleepTag(project))).toEqual([]);
    },
  },
  {
    name: "a guard that crashes: hookrun goes on without it (fail open), and the model is told so it can tell the user",
    script: [TOUCH],
    scripts: { broken: "echo 'jq: command not found' >&2\nexit 1" },
    direct: {},
    yaml: "hooks:\n  pre_tool_use:\n    - name: broken\n      matcher: Bash\n      command: ./.hooks/broken.sh\n",
    arms: ["B"],
    expect(run, project) {
      expect(hooksRan(project)).toEqual(["broken"]);
      expect(ran(project)).toBe(true);
      expect(chatView(run.requests)).toContain(
        "[user] Additional context from preToolUse hook:\nhookrun: hook broken failed: exit code 1: jq: command not found. Copilot shows the user nothing of this: tell them.",
      );
    },
  },
  {
    name: "an untrusted hooks.yaml: no hook runs, and the model is told why at session start (fail open, said)",
    script: [TOUCH],
    scripts: { guard: "echo 'no shell in this repo' >&2\nexit 2", start: "echo 'Use pnpm, never npm.'" },
    direct: {},
    yaml: "hooks:\n  session_start:\n    - name: start\n      command: ./.hooks/start.sh\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: ./.hooks/guard.sh\n",
    untrusted: true,
    arms: ["B"],
    expect(run, project) {
      expect(hooksRan(project)).toEqual([]);
      expect(ran(project)).toBe(true);
      const view = chatView(run.requests);
      expect(view[0]).toMatch(/^\[user\] hookrun: the project's hooks are not running in this session: .*hooks\.yaml is not trusted .* Do not run `hooks trust` yourself: the review is theirs\.$/);
      expect(view.join("\n")).not.toContain("Use pnpm");
    },
  },
];

// ---------------------------------------------------------------------------------------------

const dirs: string[] = [];

function makeProject(c: Case, arm: Arm): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-copilot-e2e-${arm}-`)));
  dirs.push(dir);
  mkdirSync(path.join(dir, ".hooks"));
  mkdirSync(path.join(dir, ".github", "hooks"), { recursive: true });
  for (const [name, body] of Object.entries(c.scripts)) {
    const file = path.join(dir, ".hooks", `${name}.sh`);
    writeFileSync(file, `#!/bin/sh\necho ${name} >> ${HOOKS_RAN}\n${typeof body === "function" ? body(dir) : body}\n`);
    chmodSync(file, 0o755);
  }
  return dir;
}

function configureDirect(c: Case, dir: string): void {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(c.direct))
    hooks[event] = list.map((h) => ({ type: "command", bash: `./.hooks/${h.script}.sh`, ...(h.matcher ? { matcher: h.matcher } : {}), ...(h.timeoutSec ? { timeoutSec: h.timeoutSec } : {}) }));
  writeFileSync(path.join(dir, ".github", "hooks", "direct.json"), `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`);
}

/** The environment of a `hooks` command run as the user Copilot runs as. */
const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR"].map((k) => [k, env[k]]));

/** I: direct.json → `hooks import copilot FILE --write` → hooks.yaml; direct.json removed; then as B. */
async function importDirect(c: Case, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  configureDirect(c, dir);
  const file = path.join(".github", "hooks", "direct.json");
  const r = await runCli(["import", "copilot", file, "--write"], { cwd: dir, env: userEnv(env) });
  if (r.code !== 0) throw new Error(`hooks import copilot exited ${r.code}: ${r.stderr}`);
  rmSync(path.join(dir, file));
  await configureHookrun(c, dir, env, "copilot", false);
}

/** B (C): hooks.yaml, node_modules/.bin/hooks, `hooks install copilot` (`claude`) and `hooks trust --yes` as the run's user. */
async function configureHookrun(c: Case, dir: string, env: NodeJS.ProcessEnv, host: "copilot" | "claude", writeYaml = true, user = false): Promise<void> {
  if (writeYaml) writeFileSync(path.join(dir, "hooks.yaml"), `version: 1\n${c.yaml}`);
  if (!user) {
    mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  }
  const install = await runCli(["install", host, ...(user ? ["--user"] : [])], { cwd: dir, env: userEnv(env) });
  if (install.code !== 0) throw new Error(`hooks install ${host} exited ${install.code}: ${install.stderr}`);
  const file = user ? path.join(env.HOME!, ".copilot", "hooks", "hookrun.json") : host === "copilot" ? path.join(dir, ".github", "hooks", "hookrun.json") : path.join(dir, ".claude", "settings.json");
  if (!existsSync(file)) throw new Error(`hooks install ${host} wrote no ${file}`);
  if (c.untrusted) return;
  const trust = await runCli(["-C", dir, "trust", "--yes"], { cwd: dir, env: userEnv(env) });
  if (trust.code !== 0) throw new Error(`hooks trust exited ${trust.code}: ${trust.stderr}`);
}

function runArm(c: Case, arm: Arm): Promise<{ run: CopilotRun; project: string }> {
  const project = makeProject(c, arm);
  if (arm === "A") configureDirect(c, project);
  return runCopilot({
    project,
    prompt: c.prompt ?? PROMPT,
    script: c.script,
    timeoutMs: 60_000,
    setup: arm === "A" ? undefined : arm === "I" ? (env) => importDirect(c, project, env) : (env) => configureHookrun(c, project, env, arm === "C" ? "claude" : "copilot", true, arm === "U"),
  }).then((run) => ({ run, project }));
}

// Concurrent: the runs of every test start at once (runCopilot caps how many Copilot processes run together).
describe.skipIf(!copilot.argv)(`Copilot CLI ${copilot.version ?? `(skipped: ${copilot.reason})`}: a hook directly (A) and through \`hooks install copilot\` (B)`, { concurrent: true }, () => {
  const runs = new Map<string, Promise<{ run: CopilotRun; project: string }>>();
  const runOf = (c: Case, arm: Arm) => {
    const key = `${arm} ${c.name}`;
    if (!runs.has(key)) runs.set(key, runArm(c, arm));
    return runs.get(key)!;
  };

  beforeAll(() => warmCopilotCache(), 120_000);

  afterAll(async () => {
    killCopilotRuns();
    await Promise.allSettled(runs.values());
    for (const d of dirs) removeTree(d);
  }, 60_000);

  describe("its own http hooks to a local server", httpHookCases);
  describe("warm mode: `hooks install copilot --serve PORT` answered by `hooks serve --port PORT`", warmCases);

  for (const c of cases) {
    describe(c.name, () => {
      for (const arm of ARMS.filter((a) => (c.arms ?? ["A", "B"]).includes(a))) {
        it(ARM_TITLES[arm], { timeout: 90_000 }, async () => {
          const { run, project } = await runOf(c, arm);
          expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
          await c.expect(run, project, arm);
        });
      }
    });
  }
});

/**
 * Copilot's own http hooks (`{"type": "http", "url"}` in .github/hooks/*.json), against a local
 * server: what warm mode's entries are built on (docs/hosts/copilot.md#warm-mode). Each guard is a
 * preToolUse http hook that a server answers with a deny.
 */
/** A fresh project with `.github/hooks/`, removed after the file's tests. */
function copilotProject(prefix: string): string {
  const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), `hookrun-copilot-${prefix}-`)));
  dirs.push(project);
  mkdirSync(path.join(project, ".github", "hooks"), { recursive: true });
  return project;
}

/** `make()`, started once per name: the tests that read the same run share it. */
function once<T>(runs: Map<string, Promise<T>>, name: string, make: () => Promise<T>): Promise<T> {
  let p = runs.get(name);
  if (!p) {
    p = make();
    runs.set(name, p);
  }
  return p;
}

function httpHookCases(): void {
  const requests: string[] = [];
  let server: Server;
  let port = 0;
  const started = new Map<string, Promise<{ run: CopilotRun; project: string }>>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        requests.push(`${req.url} ${body}`);
        if (req.url?.startsWith("/hang/")) return; // never answers; closed with the server
        if (req.url?.startsWith("/refuse/")) return void res.writeHead(401, { "content-type": "application/json" }).end('{"error":"wrong token"}');
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: "HTTP-DENY-7: not here" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await Promise.allSettled(started.values());
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }, 60_000);

  /** One run with a preToolUse http hook to `url` (`{port}`: the server's; `{down}`: a port nothing listens on). */
  const runHttp = (name: string, url: string, env: Record<string, string>, timeoutSec = 10) =>
    once(started, name, async () => {
      const project = copilotProject(`http-${name}`);
      const resolved = url.replace("{port}", String(port)).replace("{down}", String(await freePort()));
      writeFileSync(path.join(project, ".github", "hooks", "http.json"), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "http", url: resolved, timeoutSec }] } }));
      const run = await runCopilot({ project, prompt: PROMPT, script: [TOUCH, { text: "Done." }], env, timeoutMs: 60_000 });
      return { run, project };
    });
  const LOCAL = { COPILOT_HOOK_ALLOW_LOCALHOST: "1" };

  it("without COPILOT_HOOK_ALLOW_LOCALHOST=1 in its environment, the http guard is skipped: no request is sent and the command runs", { timeout: 90_000 }, async () => {
    const { run, project } = await runHttp("skipped", "http://127.0.0.1:{port}/skipped/", {});
    expect(run.exitCode, run.stderr).toBe(0);
    expect(ran(project)).toBe(true);
    expect(requests.filter((r) => r.startsWith("/skipped/"))).toEqual([]);
  });

  it("with it, the server's deny blocks the call and the model gets the reason", { timeout: 90_000 }, async () => {
    const { run, project } = await runHttp("deny", "http://127.0.0.1:{port}/deny/", LOCAL);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(ran(project)).toBe(false);
    expect(toolResults(run)[0]).toBe("[tool] Denied by preToolUse hook: HTTP-DENY-7: not here");
    expect(requests.filter((r) => r.startsWith("/deny/"))).toHaveLength(1);
  });

  it("with it and nothing listening, the call is denied (the hook errored): Copilot fails closed", { timeout: 90_000 }, async () => {
    const { run, project } = await runHttp("down", "http://127.0.0.1:{down}/down/", LOCAL);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(ran(project)).toBe(false);
    expect(toolResults(run)[0]).toMatch(/^\[tool\] Denied by preToolUse hook from "\.github\/hooks\/http\.json" \(hook errored\)/);
  });

  it("with it and a server that answers a non-2xx status (401: a wrong token), the call is denied (the hook errored)", { timeout: 90_000 }, async () => {
    const { run, project } = await runHttp("refuse", "http://127.0.0.1:{port}/refuse/", LOCAL);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(ran(project)).toBe(false);
    expect(requests.filter((r) => r.startsWith("/refuse/"))).toHaveLength(1);
    expect(toolResults(run)[0]).toMatch(/^\[tool\] Denied by preToolUse hook from "\.github\/hooks\/http\.json" \(hook errored\)/);
  });

  it("with it and a server that does not answer within timeoutSec, the command runs: a timeout fails open", { timeout: 90_000 }, async () => {
    const { run, project } = await runHttp("hang", "http://127.0.0.1:{port}/hang/", LOCAL, 3);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(requests.filter((r) => r.startsWith("/hang/"))).toHaveLength(1);
    expect(ran(project)).toBe(true);
  });
}

const WARM_TOKEN = "copilot-warm-token-0123456789abcdef";
const WARM_GUARD = [
  "#!/bin/sh",
  // who ran this guard: the process tree above it (`hooks serve` in warm mode, `hooks run` cold)
  'p=$PPID; for i in 1 2 3 4; do tr "\\0" " " < /proc/$p/cmdline; echo; p=$(cut -d" " -f4 /proc/$p/stat); done >> .hooks-parents',
  "if grep -q forbidden; then echo 'no forbidden files (warm)' >&2; exit 2; fi",
  "",
].join("\n");

/**
 * `hooks install copilot --serve PORT` and `hooks serve --port PORT` in the project, run as Copilot's
 * user; a guard denies a call that names `forbidden` and records who ran it.
 */
function warmCases(): void {
  const started = new Map<string, Promise<{ run: CopilotRun; project: string }>>();
  afterAll(async () => {
    await Promise.allSettled(started.values());
  }, 60_000);

  const runWarm = (name: string, opts: { local: boolean; server: boolean }) =>
    once(started, name, async () => {
      const project = copilotProject(`warm-${name}`);
      mkdirSync(path.join(project, ".hooks"));
      writeFileSync(path.join(project, ".hooks", "guard.sh"), WARM_GUARD);
      chmodSync(path.join(project, ".hooks", "guard.sh"), 0o755);
      writeFileSync(path.join(project, "hooks.yaml"), "hooks:\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: ./.hooks/guard.sh\n      on_failure: block\n");
      mkdirSync(path.join(project, "node_modules", ".bin"), { recursive: true });
      symlinkSync(CLI, path.join(project, "node_modules", ".bin", "hooks"));
      const port = await freePort();
      let server: CliProcess | null = null;
      const run = await runCopilot({
        project,
        prompt: PROMPT,
        script: [bash("touch ok.txt && echo ok"), bash("touch forbidden.txt && echo made"), { text: "Done." }],
        env: { HOOKS_SERVE_TOKEN: WARM_TOKEN, ...(opts.local ? { COPILOT_HOOK_ALLOW_LOCALHOST: "1" } : {}) },
        timeoutMs: 60_000,
        async setup(env) {
          const install = await runCli(["install", "copilot", "--serve", String(port)], { cwd: project, env: userEnv(env) });
          if (install.code !== 0) throw new Error(`hooks install copilot --serve exited ${install.code}: ${install.stderr}`);
          const trust = await runCli(["trust", "--yes"], { cwd: project, env: userEnv(env) });
          if (trust.code !== 0) throw new Error(`hooks trust exited ${trust.code}: ${trust.stderr}`);
          if (!opts.server) return;
          server = spawnCli(["serve", "--port", String(port)], { cwd: project, env: { ...userEnv(env), HOOKS_SERVE_TOKEN: WARM_TOKEN } });
          await untilListening(server);
        },
      }).finally(async () => {
        const s = server as CliProcess | null;
        if (s && s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGTERM");
        await s?.exited;
      });
      return { run, project };
    });
  const parents = (project: string) => (existsSync(path.join(project, ".hooks-parents")) ? readFileSync(path.join(project, ".hooks-parents"), "utf8") : "");

  it("with COPILOT_HOOK_ALLOW_LOCALHOST=1 and the server up, the server runs the guard: an allowed call runs, a denied one does not and the model gets the reason; no `hooks run` starts", {
    timeout: 90_000,
  }, async () => {
    const { run, project } = await runWarm("up", { local: true, server: true });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(existsSync(path.join(project, "ok.txt"))).toBe(true);
    expect(existsSync(path.join(project, "forbidden.txt"))).toBe(false);
    expect(toolResults(run)[1]).toBe("[tool] Denied by preToolUse hook: no forbidden files (warm)");
    expect(parents(project)).toMatch(/hooks(\.js)? serve --port/);
    expect(parents(project)).not.toMatch(/ run pre_tool_use/);
  });

  it("without COPILOT_HOOK_ALLOW_LOCALHOST=1, Copilot skips the http entry and the command entry runs hookrun cold: the guard still holds", { timeout: 90_000 }, async () => {
    const { run, project } = await runWarm("no-local", { local: false, server: true });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(existsSync(path.join(project, "ok.txt"))).toBe(true);
    expect(existsSync(path.join(project, "forbidden.txt"))).toBe(false);
    expect(toolResults(run)[1]).toBe("[tool] Denied by preToolUse hook: no forbidden files (warm)");
    expect(parents(project)).toMatch(/ run pre_tool_use --host copilot --fail-closed --deadline \d+/);
    expect(parents(project)).not.toMatch(/ serve --port/);
  });

  it("with it and no server, every guarded call is denied (the http entry errored), none runs", { timeout: 90_000 }, async () => {
    const { run, project } = await runWarm("down", { local: true, server: false });
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(existsSync(path.join(project, "ok.txt"))).toBe(false);
    expect(existsSync(path.join(project, "forbidden.txt"))).toBe(false);
    expect(toolResults(run)[0]).toMatch(/^\[tool\] Denied by preToolUse hook from "\.github\/hooks\/hookrun\.json" \(hook errored\)/);
    expect(parents(project)).toBe("");
  });
}
