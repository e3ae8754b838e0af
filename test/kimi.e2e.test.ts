import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive } from "./helpers/agentProcess.js";
import { CLI, runCli } from "./helpers/cli.js";
import { type KimiHome, type KimiRun, killKimiRuns, makeKimiHome, modelConfig, requireKimi, runKimi } from "./helpers/kimiCli.js";
import type { ScriptTurn } from "./helpers/openaiChatModel.js";
import { removeTree } from "./helpers/removeTree.js";
import { writeProject } from "./helpers/sandbox.js";

/**
 * The real Kimi Code CLI (`kimi -p`, installed and named in HOOKRUN_KIMI_CODE by .ci/run's Node 22
 * pass), headless and offline against the scripted Chat Completions server, in temp HOMEs. What
 * is checked is what the model received (the server's request log) and what happened on disk.
 * Each case runs twice:
 *   A  the hook as a `[[hooks]]` table written by hand in ~/.kimi-code/config.toml (the control:
 *      what Kimi Code itself does);
 *   B  the same hook in hooks.yaml, `hooks install kimi --user` + `hooks trust`: the tables hookrun
 *      appends run this build's CLI (dist/bin/hooks.js) by its absolute path.
 */

const kimi = requireKimi();
if (!kimi.path) console.log(`test/kimi.e2e.test.ts skipped: ${kimi.reason}`);
const tmp: string[] = [];
const homes: KimiHome[] = [];

function project(files: Record<string, string>): string {
  const dir = writeProject("hookrun-kimi-proj-", files);
  tmp.push(dir);
  return dir;
}

interface Case {
  dir: string;
  run: KimiRun;
  /** ~/.kimi-code/config.toml as Kimi Code read it. */
  config: string;
  /** hookrun's run log: `event: hook=status` per dispatch (B only; empty when hookrun ran nothing). */
  hookrunLog: string[];
}

function readRunLog(home: KimiHome): string[] {
  const file = path.join(home.env.XDG_STATE_HOME!, "hookrun", "runs.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const r = JSON.parse(line) as { event: string; hooks: { name: string; status: string }[] };
      return `${r.event}: ${r.hooks.map((h) => `${h.name}=${h.status}`).join(" ")}`;
    });
}

async function run(dir: string, prompt: string, script: ScriptTurn[], hooks: (home: KimiHome) => void | Promise<void>): Promise<Case> {
  const home = makeKimiHome();
  homes.push(home);
  const r = await runKimi({ project: dir, prompt, script, home, hooks });
  return { dir, run: r, config: readFileSync(home.config, "utf8"), hookrunLog: readRunLog(home) };
}

/** A: `[[hooks]]` tables appended by hand. */
const runA = (tables: string, files: Record<string, string>, prompt: string, script: ScriptTurn[]) =>
  run(project(files), prompt, script, (home) => writeFileSync(home.config, `${readFileSync(home.config, "utf8")}\n${tables}`));

/** B: hooks.yaml, `hooks install kimi --user`, `hooks trust`. */
function runB(yaml: string, files: Record<string, string>, prompt: string, script: ScriptTurn[]): Promise<Case> {
  const dir = project({ ...files, "hooks.yaml": yaml });
  return run(dir, prompt, script, async (home) => {
    for (const args of [
      ["install", "kimi", "--user"],
      ["-C", dir, "trust", "--yes"],
    ]) {
      const r = await runCli(args, { cwd: dir, env: home.env });
      if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
    }
  });
}

const bash = (command: string): ScriptTurn => ({ tool: "Bash", input: { command } });

/** The messages of a request, as role and text. */
function messages(c: Case, request: number): { role: string; text: string }[] {
  const list: any[] = c.run.requests[request]?.body?.messages ?? [];
  return list.map((m) => ({ role: m.role, text: typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p: any) => p?.text ?? "").join("") : "" }));
}
const lastTool = (c: Case, request: number): string =>
  messages(c, request)
    .filter((m) => m.role === "tool")
    .at(-1)?.text ?? "";
const everything = (c: Case): string =>
  c.run.requests
    .map((_, i) =>
      messages(c, i)
        .map((m) => m.text)
        .join("\n"),
    )
    .join("\n");

const GUARD_A = `[[hooks]]
event = "PreToolUse"
matcher = "^Bash$"
command = "echo 'GUARD-A: no touching here' >&2; exit 2"
`;
const GUARD_YAML = `hooks:
  pre_tool_use:
    - {name: guard, matcher: Bash, command: "echo 'GUARD-B: no touching here' >&2; exit 2"}
`;
const GUARD_SCRIPT = [bash("touch ran.txt"), { text: "Could not." }];

// Context on a submitted prompt reaches the model; Kimi Code reads no answer from SessionStart.
const CONTEXT_A = `[[hooks]]
event = "SessionStart"
command = "echo START-CTX-A"

[[hooks]]
event = "UserPromptSubmit"
command = "echo PROMPT-CTX-A"
`;
// The prompt hook answers only when hookrun's payload has the prompt as its text (Kimi Code sends its content parts).
const CONTEXT_YAML = `hooks:
  session_start:
    - {name: start-ctx, command: "echo START-CTX-B"}
  user_prompt_submit:
    - {name: prompt-ctx, command: "grep -q '\\"prompt\\":\\"hello kimi\\"' && echo PROMPT-CTX-B"}
`;
const CONTEXT_SCRIPT = [{ text: "Hello." }];

// A hook that hangs (its child too), cut off at 2 s; the call then goes on.
const HANG = `#!/bin/sh
echo $$ > hang.pid
sleep 300 &
echo $! > child.pid
wait
`;
const HANG_A = `[[hooks]]
event = "PreToolUse"
matcher = "^Bash$"
command = "./hang.sh"
timeout = 2
`;
const HANG_YAML = `hooks:
  pre_tool_use:
    - {name: hang, matcher: Bash, command: ./hang.sh, timeout: 2s}
`;
const HANG_SCRIPT = [bash("echo after > after.txt && echo AFTER-7"), { text: "Made." }];

const pidsOf = (dir: string): number[] => ["hang.pid", "child.pid"].filter((f) => existsSync(path.join(dir, f))).map((f) => Number(readFileSync(path.join(dir, f), "utf8")));

describe.skipIf(!kimi.path)(
  `Kimi Code ${kimi.version ?? `(skipped: ${kimi.reason})`} (real, \`kimi -p\`, scripted model): [[hooks]] by hand (A) against hooks.yaml through \`hooks install kimi --user\` (B)`,
  () => {
    let guardA: Case;
    let guardB: Case;
    let contextA: Case;
    let contextB: Case;
    let hangA: Case;
    let hangB: Case;

    beforeAll(async () => {
      // Two at a time: each run is a 22 MB bundle starting up.
      [guardA, guardB] = await Promise.all([runA(GUARD_A, {}, "touch the file", GUARD_SCRIPT), runB(GUARD_YAML, {}, "touch the file", GUARD_SCRIPT)]);
      [contextA, contextB] = await Promise.all([runA(CONTEXT_A, {}, "hello kimi", CONTEXT_SCRIPT), runB(CONTEXT_YAML, {}, "hello kimi", CONTEXT_SCRIPT)]);
      [hangA, hangB] = await Promise.all([runA(HANG_A, { "hang.sh": HANG }, "make a file", HANG_SCRIPT), runB(HANG_YAML, { "hang.sh": HANG }, "make a file", HANG_SCRIPT)]);
    }, 400_000);

    afterAll(() => {
      killKimiRuns();
      for (const c of [hangA, hangB]) for (const pid of c ? pidsOf(c.dir) : []) if (alive(pid)) process.kill(pid, "SIGKILL");
      for (const d of tmp) removeTree(d);
      for (const h of homes) h.cleanup();
    });

    const ok = (c: Case) => {
      expect(c.run.timedOut, c.run.stderr.slice(-2000)).toBe(false);
      expect(c.run.exitCode, `exit ${c.run.exitCode}\n${c.run.stderr.slice(-2000)}`).toBe(0);
    };

    it("hooks install kimi --user appends flat [[hooks]] tables after the user's own config, which Kimi Code loads", () => {
      const baseUrl = /base_url = "([^"]+)"/.exec(guardB.config)?.[1] ?? "";
      expect(guardB.config.startsWith(modelConfig(baseUrl))).toBe(true);
      const tables = (parse(guardB.config) as { hooks: Record<string, unknown>[] }).hooks;
      expect(tables).toEqual([{ event: "PreToolUse", matcher: "^(Bash)$", command: `${CLI} run pre_tool_use --host kimi`, timeout: expect.any(Number) }]);
      // Kimi Code loaded that config: it talked to the model it names.
      expect(guardB.run.requests.length).toBeGreaterThan(0);
    });

    it("a PreToolUse guard blocks the shell call, which does not run, and the model gets the reason as the tool's result (A: by hand, B: through hookrun)", () => {
      for (const [c, reason] of [
        [guardA, "GUARD-A: no touching here"],
        [guardB, "GUARD-B: no touching here"],
      ] as const) {
        ok(c);
        expect(c.run.requests).toHaveLength(2);
        expect(existsSync(path.join(c.dir, "ran.txt"))).toBe(false);
        expect(lastTool(c, 1)).toContain("Tool execution failed");
        expect(lastTool(c, 1)).toMatch(new RegExp(`\\n${reason}$`));
      }
      expect(guardB.hookrunLog).toEqual(["pre_tool_use: guard=blocked"]);
    });

    it("a submitted prompt's context reaches the model before the prompt; session-start context reaches it on neither side", () => {
      for (const [c, letter] of [
        [contextA, "A"],
        [contextB, "B"],
      ] as const) {
        ok(c);
        expect(c.run.requests).toHaveLength(1);
        const user = messages(c, 0).filter((m) => m.role === "user");
        expect(user.slice(0, 2)).toEqual([
          { role: "user", text: `<hook_result hook_event="UserPromptSubmit">\nPROMPT-CTX-${letter}\n</hook_result>` },
          { role: "user", text: "hello kimi" },
        ]);
        expect(everything(c)).not.toContain("START-CTX");
      }
      // hookrun ran both of B's hooks: the session-start context went to stderr, which Kimi Code ignores.
      expect(contextB.hookrunLog.sort()).toEqual(["session_start: start-ctx=ok", "user_prompt_submit: prompt-ctx=ok"]);
    });

    it("a hanging hook is cut at its timeout, nothing of it left running, and the call goes on (A: Kimi Code's timeout, B: hookrun's)", () => {
      for (const c of [hangA, hangB]) {
        ok(c);
        expect(pidsOf(c.dir)).toHaveLength(2);
        for (const pid of pidsOf(c.dir)) expect(alive(pid), `pid ${pid}`).toBe(false);
        expect(readFileSync(path.join(c.dir, "after.txt"), "utf8")).toBe("after\n");
        expect(lastTool(c, 1)).toContain("AFTER-7");
      }
      // B: hookrun cut its hook at the 2 s of hooks.yaml (the table's own timeout is longer) and answered.
      expect(hangB.hookrunLog).toEqual(["pre_tool_use: hang=timed_out"]);
      expect((parse(hangB.config) as { hooks: { timeout: number }[] }).hooks[0]!.timeout).toBeGreaterThan(2);
    });
  },
);
