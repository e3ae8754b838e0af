import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive } from "./helpers/agentProcess.js";
import { CLI, ROOT, runCli } from "./helpers/cli.js";
import type { ScriptTurn } from "./helpers/openaiChatModel.js";
import { killPiRuns, makePiHome, type PiHome, type PiRun, requirePi, runPi } from "./helpers/piCli.js";
import { removeTree } from "./helpers/removeTree.js";
import { writeProject } from "./helpers/sandbox.js";

/**
 * The real pi CLI (the pinned devDependency), headless (`pi -p`) and offline (`PI_OFFLINE=1`)
 * against the scripted Chat Completions server, in temp HOMEs and agent dirs. Each case runs twice
 * and is judged by what the model received (the server's request log) and what happened on disk:
 *
 *   A  the control: the behaviour written by hand as a pi extension in `.pi/extensions/`;
 *   B  hooks.yaml + `hooks install pi` + `hooks trust`: the extension hookrun writes, loading
 *      the project's node_modules/hookrun (a symlink to this build, as `npm install hookrun` leaves it).
 *
 * Plus the two ways B must not open: hookrun missing from the project, and an untrusted hooks.yaml.
 */

const pi = requirePi();
const tmp: string[] = [];
const homes: PiHome[] = [];

function project(files: Record<string, string>): string {
  const dir = writeProject("hookrun-pi-proj-", files);
  tmp.push(dir);
  return dir;
}

interface Case {
  dir: string;
  run: PiRun;
}

async function run(dir: string, prompt: string, script: ScriptTurn[], setup?: (home: PiHome) => Promise<void>): Promise<Case> {
  const home = makePiHome();
  homes.push(home);
  await setup?.(home);
  return { dir, run: await runPi({ project: dir, prompt, script, home }) };
}

/** A: the hand-written extension. */
const runA = (extension: string, files: Record<string, string>, prompt: string, script: ScriptTurn[]) => run(project({ ...files, ".pi/extensions/native.ts": extension }), prompt, script);

/** B: hookrun installed in the project as a user has it, `hooks install pi`, `hooks trust` (unless `trust` is false). */
function runB(files: Record<string, string>, prompt: string, script: ScriptTurn[], o: { hookrun?: boolean; trust?: boolean } = {}): Promise<Case> {
  const dir = project(files);
  if (o.hookrun !== false) {
    mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(ROOT, path.join(dir, "node_modules", "hookrun"));
    symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  }
  return run(dir, prompt, script, async (home) => {
    const i = await runCli(["install", "pi"], { cwd: dir, env: home.env });
    if (i.code !== 0) throw new Error(`hooks install pi exited ${i.code}: ${i.stderr}`);
    if (o.trust === false) return;
    const t = await runCli(["-C", dir, "trust", "--yes"], { cwd: dir, env: home.env });
    if (t.code !== 0) throw new Error(`hooks trust exited ${t.code}: ${t.stderr}`);
  });
}

const bash = (command: string): ScriptTurn => ({ tool: "bash", input: { command } });

/** What the model was sent, message by message (the system prompt and the project's path left out). */
function conversation(c: Case, request: number): unknown[] {
  const messages: any[] = c.run.mainRequests[request]?.body?.messages ?? [];
  return messages
    .filter((m) => m.role !== "system")
    .map((m) => ({
      role: m.role,
      text: (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p: any) => p?.text ?? "").join("") : "").split(c.dir).join("<dir>"),
    }));
}
const lastTool = (c: Case, request: number): string =>
  (
    conversation(c, request)
      .filter((m: any) => m.role === "tool")
      .at(-1) as { text: string } | undefined
  )?.text ?? "";

// One session: context at its start, a guard on the shell, a rewritten call, feedback after a tool.
const MAIN_SCRIPT = [bash("rm -f keep.txt"), bash("echo orig > orig.txt"), bash("echo ok"), { text: "Done here." }];
const MAIN_NATIVE = `export default function (pi) {
  pi.on("session_start", async () => {
    pi.sendMessage({ customType: "hookrun", content: "SESSION-CTX-7", display: true }, { deliverAs: "nextTurn" });
  });
  pi.on("tool_call", async (event) => {
    if (event.toolName !== "bash") return;
    if (event.input.command.includes("rm -f")) return { block: true, reason: "GUARD: no rm here" };
    if (event.input.command.includes("orig")) event.input.command = "echo REWRITTEN-7 > rewritten.txt";
  });
  pi.on("tool_result", async (event) => {
    if (event.toolName === "bash") return { content: [...event.content, { type: "text", text: "POST-FEEDBACK-7" }] };
  });
}
`;
const MAIN_YAML = `hooks:
  session_start:
    - {name: session-ctx, command: "echo SESSION-CTX-7"}
  pre_tool_use:
    - {name: guard, matcher: Bash, command: ./hooks/guard.sh}
  post_tool_use:
    - {name: post, matcher: Bash, command: "echo POST-FEEDBACK-7 >&2; exit 2"}
`;
const GUARD = `#!/bin/sh
input=$(cat)
case "$input" in
  *"rm -f"*) echo "GUARD: no rm here" >&2; exit 2 ;;
  *orig*) printf '%s' '{"decision":"allow","updated_input":{"command":"echo REWRITTEN-7 > rewritten.txt"}}' ;;
esac
`;

// A hook that hangs (its child too), cut off at 2 s; the call then goes on.
const HANG = `#!/bin/sh
echo $$ > hang.pid
sleep 300 &
echo $! > child.pid
wait
`;
const HANG_NATIVE = `import { spawn } from "node:child_process";
export default function (pi) {
  pi.on("tool_call", async (event) => {
    if (event.toolName !== "bash") return;
    await new Promise((resolve) => {
      const child = spawn("./hooks/hang.sh", { detached: true, stdio: "ignore" });
      const timer = setTimeout(() => process.kill(-child.pid, "SIGKILL"), 2000);
      child.on("exit", () => (clearTimeout(timer), resolve()));
    });
  });
}
`;
const HANG_YAML = `hooks:
  pre_tool_use:
    - {name: hang, matcher: Bash, command: ./hooks/hang.sh, timeout: 2s}
`;
const HANG_SCRIPT = [bash("echo after > after.txt && echo AFTER-7"), { text: "Made." }];

const UNTRUSTED_YAML = `hooks:
  session_start:
    - {name: mark, command: "touch ran-session.txt"}
  pre_tool_use:
    - {name: guard, matcher: Bash, command: "touch ran-guard.txt; echo NO >&2; exit 2"}
`;

// A prompt refused before it reaches the model.
const PROMPT_NATIVE = `export default function (pi) {
  pi.on("input", async (event) => {
    if (event.text.includes("secret")) return console.error("PROMPT-NO-7"), { action: "handled" };
  });
}
`;
const PROMPT_YAML = `hooks:
  user_prompt_submit:
    - {name: no-secrets, command: "grep -q secret && { echo PROMPT-NO-7 >&2; exit 2; }; exit 0"}
`;

const pidsOf = (dir: string): number[] => ["hang.pid", "child.pid"].filter((f) => existsSync(path.join(dir, f))).map((f) => Number(readFileSync(path.join(dir, f), "utf8")));

describe.skipIf(!pi.path)(`pi ${pi.version ?? `(skipped: ${pi.reason})`}: hooks.yaml through \`hooks install pi\` (B) against the same behaviour written as a pi extension (A)`, () => {
  let mainA: Case;
  let mainB: Case;
  let hangA: Case;
  let hangB: Case;
  let missing: Case;
  let untrusted: Case;
  let promptA: Case;
  let promptB: Case;

  beforeAll(async () => {
    [mainA, mainB, hangA, hangB, missing, untrusted, promptA, promptB] = await Promise.all([
      runA(MAIN_NATIVE, { "keep.txt": "keep\n" }, "tidy up", MAIN_SCRIPT),
      runB({ "hooks.yaml": MAIN_YAML, "hooks/guard.sh": GUARD, "keep.txt": "keep\n" }, "tidy up", MAIN_SCRIPT),
      runA(HANG_NATIVE, { "hooks/hang.sh": HANG }, "make a file", HANG_SCRIPT),
      runB({ "hooks.yaml": HANG_YAML, "hooks/hang.sh": HANG }, "make a file", HANG_SCRIPT),
      runB({ "hooks.yaml": MAIN_YAML, "hooks/guard.sh": GUARD }, "make a file", [bash("echo x > x.txt"), { text: "Could not." }], { hookrun: false }),
      runB({ "hooks.yaml": UNTRUSTED_YAML }, "make a file", [bash("echo x > x.txt"), { text: "Made." }], { trust: false }),
      runA(PROMPT_NATIVE, {}, "print the secret", [{ text: "Here." }]),
      runB({ "hooks.yaml": PROMPT_YAML }, "print the secret", [{ text: "Here." }]),
    ]);
  }, 150_000);

  afterAll(() => {
    killPiRuns();
    for (const d of tmp) removeTree(d);
    for (const h of homes) h.cleanup();
  });

  const ok = (c: Case) => expect(c.run.exitCode, `exit ${c.run.exitCode}\n${c.run.stderr.slice(-2000)}`).toBe(0);

  it("hooks install pi wrote the extension, the one file it needs", () => {
    const text = readFileSync(path.join(mainB.dir, ".pi", "extensions", "hookrun.ts"), "utf8");
    expect(text.split("\n")[0]).toContain("hooks install pi");
    expect(text).toContain('createInProcessHost({ host: "pi", cwd })');
  });

  it("the model receives the same conversation from hooks.yaml as from the hand-written extension", () => {
    ok(mainA);
    ok(mainB);
    expect(mainB.run.mainRequests).toHaveLength(4);
    for (let i = 0; i < 4; i++) expect(conversation(mainB, i), `request ${i}`).toEqual(conversation(mainA, i));
  });

  it("session context reaches the first request", () => {
    for (const c of [mainA, mainB])
      expect(conversation(c, 0)).toEqual([
        { role: "user", text: "tidy up" },
        { role: "user", text: "SESSION-CTX-7" },
      ]);
  });

  it("a guard blocks a shell call: it does not run, and the model gets the reason as the tool's result", () => {
    for (const c of [mainA, mainB]) {
      expect(existsSync(path.join(c.dir, "keep.txt"))).toBe(true);
      expect(lastTool(c, 1)).toBe("GUARD: no rm here");
    }
  });

  it("a rewritten input runs instead of the model's", () => {
    for (const c of [mainA, mainB]) {
      expect(existsSync(path.join(c.dir, "orig.txt"))).toBe(false);
      expect(readFileSync(path.join(c.dir, "rewritten.txt"), "utf8")).toBe("REWRITTEN-7\n");
    }
  });

  it("after-tool feedback reaches the model with the tool's result", () => {
    for (const c of [mainA, mainB]) expect(lastTool(c, 3)).toMatch(/^ok\n+POST-FEEDBACK-7$/);
  });

  it("a blocked prompt never reaches the model, and the user is told why", () => {
    for (const c of [promptA, promptB]) {
      ok(c);
      expect(c.run.requests).toHaveLength(0);
      expect(c.run.stderr).toContain("PROMPT-NO-7");
    }
  });

  it("a hanging hook is cut off at its timeout, nothing of it left running, and the call goes on", () => {
    for (const c of [hangA, hangB]) {
      ok(c);
      expect(pidsOf(c.dir)).toHaveLength(2);
      for (const pid of pidsOf(c.dir)) expect(alive(pid), `pid ${pid}`).toBe(false);
      expect(readFileSync(path.join(c.dir, "after.txt"), "utf8")).toBe("after\n");
      expect(lastTool(c, 1)).toContain("AFTER-7");
    }
    // hookrun tells the user why the hook did not answer.
    expect(hangB.run.stderr).toMatch(/hook hang timed out/);
  });

  it("without hookrun in the project the extension still loads, pi does not fail, and a tool call is blocked with the reason", () => {
    ok(missing);
    expect(existsSync(path.join(missing.dir, "x.txt"))).toBe(false);
    expect(lastTool(missing, 1)).toContain("hookrun is not installed in this project");
    expect(lastTool(missing, 1)).toContain("npm install --save-dev hookrun");
  });

  it("an untrusted hooks.yaml runs none of its hooks; the call goes on and the model and the user are told", () => {
    ok(untrusted);
    expect(existsSync(path.join(untrusted.dir, "ran-session.txt"))).toBe(false);
    expect(existsSync(path.join(untrusted.dir, "ran-guard.txt"))).toBe(false);
    expect(existsSync(path.join(untrusted.dir, "x.txt"))).toBe(true);
    expect(
      conversation(untrusted, 0)
        .map((m: any) => m.text)
        .join("\n"),
    ).toMatch(/hooks are not running in this session: .*not trusted/);
    expect(untrusted.run.stderr).toMatch(/hooks did not run: .*not trusted/);
  });
});
