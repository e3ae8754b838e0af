import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { alive, writeProject } from "./helpers/sandbox.js";
import { freePort } from "./helpers/server.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "./helpers/cli.js";
import { makeQwenHome, type QwenHome, type QwenRun, requestText, requireQwen, runQwen } from "./helpers/qwenCli.js";
import type { ScriptTurn } from "./helpers/openaiChatModel.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * The real Qwen Code CLI (the pinned devDependency), headless (`qwen --approval-mode yolo -p`)
 * and offline against the scripted Chat Completions server, in temp HOMEs. What is checked is what
 * the model received (the server's request log) and what happened on disk, never hookrun's word.
 *
 *   B  hooks.yaml (native hooks) + `hooks install qwen` + `hooks trust`: the dispatch entries in
 *      .qwen/settings.json run the project's node_modules/.bin/hooks (a symlink to dist/bin/hooks.js).
 *   A  the hooks directly in .qwen/settings.json: ground truth for the two facts hookrun's Qwen
 *      render works around (PostToolUse `decision: block` and Stop `additionalContext` are ignored).
 *
 * Also A: Qwen's own http hooks, against a server that blocks and a port nothing listens on (why
 * hookrun installs no warm mode for Qwen). The runs start together in beforeAll (each Qwen run
 * takes ~6 s).
 */

const qwen = requireQwen();
const tmp: string[] = [];
const homes: QwenHome[] = [];

function project(files: Record<string, string>): string {
  const dir = writeProject("hookrun-qwen-proj-", files);
  tmp.push(dir);
  return dir;
}

/** B: install and trust hookrun as a user does, then run Qwen. */
async function runB(files: Record<string, string>, prompt: string, script: ScriptTurn[] | ((dir: string) => ScriptTurn[])): Promise<{ dir: string; run: QwenRun; settings: any }> {
  const dir = project(files);
  const home = makeQwenHome();
  homes.push(home);
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  const i = await runCli(["install", "qwen"], { cwd: dir, env: home.env });
  if (i.code !== 0) throw new Error(`hooks install qwen exited ${i.code}: ${i.stderr}`);
  const t = await runCli(["-C", dir, "trust", "--yes"], { cwd: dir, env: home.env });
  if (t.code !== 0) throw new Error(`hooks trust exited ${t.code}: ${t.stderr}`);
  const settings = JSON.parse(readFileSync(path.join(dir, ".qwen", "settings.json"), "utf8"));
  return { dir, run: await runQwen({ project: dir, prompt, script: typeof script === "function" ? script(dir) : script, home }), settings };
}

/**
 * B-import: A's settings.json moved to hookrun as a user does: `hooks import qwen --write`, the
 * imported hooks taken out of settings.json, `hooks install qwen`, `hooks trust`.
 */
async function runImported(settings: unknown, prompt: string, script: ScriptTurn[]): Promise<{ dir: string; run: QwenRun; yaml: string }> {
  const dir = project({ ".qwen/settings.json": JSON.stringify(settings, null, 2) });
  const home = makeQwenHome();
  homes.push(home);
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  const im = await runCli(["import", "qwen", "--write"], { cwd: dir, env: home.env });
  if (im.code !== 0) throw new Error(`hooks import qwen --write exited ${im.code}: ${im.stderr}`);
  writeFileSync(path.join(dir, ".qwen", "settings.json"), "{}\n");
  for (const args of [
    ["install", "qwen"],
    ["-C", dir, "trust", "--yes"],
  ]) {
    const r = await runCli(args, { cwd: dir, env: home.env });
    if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  }
  const yaml = readFileSync(path.join(dir, "hooks.yaml"), "utf8");
  return { dir, run: await runQwen({ project: dir, prompt, script, home }), yaml };
}

async function runA(settings: unknown, files: Record<string, string>, prompt: string, script: ScriptTurn[]): Promise<{ dir: string; run: QwenRun }> {
  const dir = project({ ...files, ".qwen/settings.json": JSON.stringify(settings, null, 2) });
  const home = makeQwenHome();
  homes.push(home);
  return { dir, run: await runQwen({ project: dir, prompt, script, home }) };
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : []);
const count = (text: string, needle: string) => text.split(needle).length - 1;
const shell = (command: string): ScriptTurn => ({ tool: "run_shell_command", input: { command } });

// One session through hookrun: context at start and prompt, a guard, post-tool feedback, a Stop that blocks once.
const MAIN_YAML = `hooks:
  session_start:
    - {name: session-ctx, command: "echo SESSION-CTX-7"}
  user_prompt_submit:
    - {name: prompt-ctx, command: "cat >> ups.jsonl; echo >> ups.jsonl; echo PROMPT-CTX-7"}
  pre_tool_use:
    - {name: guard, matcher: Bash, command: ./hooks/guard.sh}
  post_tool_use:
    - {name: post, matcher: Bash, command: "echo POST-FEEDBACK-7 >&2; exit 2"}
  stop:
    - {name: once, command: ./hooks/stop.sh}
`;
const GUARD = `#!/bin/sh
if grep -q 'rm -f'; then printf '%s' '{"decision":"block","reason":"GUARD: no rm here"}'; fi
`;
const STOP = `#!/bin/sh
echo x >> stop.log
if [ ! -f stopped ]; then touch stopped; printf '%s' '{"decision":"block","reason":"STOP-AGAIN-7: check your work"}'; fi
`;
const MAIN_SCRIPT = [shell("rm -f keep.txt"), shell("echo ok > made.txt"), { text: "First stop." }, { text: "Second stop." }];

const ASK_YAML = `hooks:
  pre_tool_use:
    - name: ask
      matcher: Bash
      command: printf '%s' '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"ASK-WHY-7"}}'
    - name: rewrite
      matcher: Write
      command: printf '%s' '{"decision":"allow","updated_input":{"file_path":"/tmp/elsewhere.txt","content":"REWRITTEN-7"}}'
`;

const HANG_YAML = `hooks:
  pre_tool_use:
    - {name: hang, matcher: Bash, command: ./hooks/hang.sh, timeout: 2s}
`;
const HANG = `#!/bin/sh
echo $$ > hang.pid
sleep 300 &
echo $! > child.pid
wait
`;

// A: Qwen's own reading of Claude-shaped answers hookrun must not rely on.
const A_SETTINGS = {
  hooks: {
    PostToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: `printf '%s' '{"decision":"block","reason":"A-POST-BLOCK-7"}'` }] }],
    Stop: [{ hooks: [{ type: "command", command: `echo x >> stop.log; printf '%s' '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"A-STOP-CTX-7"}}'` }] }],
  },
};

describe.skipIf(!qwen.path)(`Qwen Code ${qwen.version ?? `(skipped: ${qwen.reason})`}: hooks.yaml through \`hooks install qwen\` (B), and Qwen's own reading (A)`, () => {
  let main: Awaited<ReturnType<typeof runB>>;
  let ask: Awaited<ReturnType<typeof runB>>;
  let hang: Awaited<ReturnType<typeof runB>>;
  let direct: Awaited<ReturnType<typeof runA>>;
  let imported: Awaited<ReturnType<typeof runImported>>;
  /** Qwen's own http hooks (why hookrun installs no warm mode for it): a server that blocks, and a port nothing listens on. */
  let httpDenied: Awaited<ReturnType<typeof runA>>;
  let httpDown: Awaited<ReturnType<typeof runA>>;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.setHeader("content-type", "application/json").end(JSON.stringify({ decision: "block", reason: "HTTP-DENY-7: not here" })));
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const httpHook = (port: number) => ({ hooks: { PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "http", url: `http://127.0.0.1:${port}/v1/hosts/qwen/PreToolUse`, timeout: 5 }] }] } });
    const httpHooks = [httpHook((server.address() as AddressInfo).port), httpHook(await freePort())];
    [main, ask, hang, direct, imported, httpDenied, httpDown] = await Promise.all([
      runB({ "hooks.yaml": MAIN_YAML, "hooks/guard.sh": GUARD, "hooks/stop.sh": STOP, "keep.txt": "keep\n" }, "tidy up", MAIN_SCRIPT),
      runB({ "hooks.yaml": ASK_YAML }, "make two files", (dir) => [
        shell("echo asked > asked.txt"),
        { tool: "write_file", input: { file_path: path.join(dir, "w.txt"), content: "orig" } },
        { text: "Could not." },
      ]),
      runB({ "hooks.yaml": HANG_YAML, "hooks/hang.sh": HANG }, "make a file", [shell("echo after > after.txt"), { text: "Made." }]),
      runA(A_SETTINGS, {}, "make a file", [shell("echo a > a.txt"), { text: "First." }, { text: "Second." }]),
      runImported(A_SETTINGS, "make a file", [shell("echo a > a.txt"), { text: "First." }, { text: "Second." }]),
      ...httpHooks.map((settings) => runA(settings, {}, "make a file", [shell("echo a > a.txt"), { text: "Done." }])),
    ]);
  }, 120_000);

  afterAll(() => {
    server.close();
    for (const d of tmp) removeTree(d);
    for (const h of homes) h.cleanup();
  });

  const ok = (r: QwenRun) => expect(r.exitCode, `exit ${r.exitCode} in ${r.ms} ms\n${r.stderr.slice(-2000)}`).toBe(0);

  it("hooks install qwen wrote one entry per event, on $QWEN_PROJECT_DIR with exec, the tool matcher in Qwen's ids", () => {
    const h = main.settings.hooks;
    expect(Object.keys(h).sort()).toEqual(["PostToolUse", "PreToolUse", "SessionStart", "Stop", "UserPromptSubmit"]);
    expect(h.PreToolUse[0].matcher.split("|").sort()).toEqual(["Bash", "run_shell_command"]);
    expect(h.PreToolUse[0].hooks[0].command).toBe('exec "$QWEN_PROJECT_DIR"/node_modules/.bin/hooks -C "$QWEN_PROJECT_DIR" run pre_tool_use --host qwen');
    expect(h.Stop[0].hooks[0].timeout).toBeLessThan(1000);
  });

  it("a guard blocks a shell command: it does not run, and the model gets the reason as the tool result", () => {
    ok(main.run);
    expect(existsSync(path.join(main.dir, "keep.txt"))).toBe(true);
    const m = main.run.mainRequests;
    expect(m[1].body.messages.at(-1)).toMatchObject({ role: "tool" });
    expect(requestText(m[1]).split("\n").at(-1)).toContain("GUARD: no rm here");
  });

  it("context at session start and at the prompt reaches the model's first request; tool-result sends run no prompt hook", () => {
    const first = requestText(main.run.mainRequests[0]);
    expect(first).toContain("SESSION-CTX-7");
    expect(first).toContain("PROMPT-CTX-7");
    // Qwen fired UserPromptSubmit before each of the 4 sends (prompt, 2 tool results, Stop block);
    // hookrun ran the hook for the prompt and for the Stop-block send, whose prompt is the block's reason.
    const prompts = lines(path.join(main.dir, "ups.jsonl")).map((l) => JSON.parse(l).prompt);
    expect(prompts).toEqual(["tidy up", "STOP-AGAIN-7: check your work"]);
    expect(count(requestText(main.run.mainRequests[2]), "PROMPT-CTX-7")).toBe(1);
    expect(count(requestText(main.run.mainRequests[3]), "PROMPT-CTX-7")).toBe(2);
  });

  it("post-tool feedback reaches the model with the tool result (as additionalContext: Qwen ignores a PostToolUse block)", () => {
    expect(existsSync(path.join(main.dir, "made.txt"))).toBe(true);
    const after = requestText(main.run.mainRequests[2]);
    expect(after.split("[tool]").at(-1)).toContain("POST-FEEDBACK-7");
  });

  it("a stop hook blocks once: the model gets the reason and goes on, then the agent stops", () => {
    const m = main.run.mainRequests;
    expect(m).toHaveLength(4);
    expect(requestText(m[3])).toContain("STOP-AGAIN-7: check your work");
    expect(lines(path.join(main.dir, "stop.log"))).toHaveLength(2);
    expect(main.run.stdout).toContain("Second stop.");
  });

  it("ask degrades to a denial headless: the tool does not run and the model gets the reason", () => {
    ok(ask.run);
    expect(existsSync(path.join(ask.dir, "asked.txt"))).toBe(false);
    expect(requestText(ask.run.mainRequests[1]).split("[tool]").at(-1)).toContain("ASK-WHY-7");
  });

  it("updated_input, which Qwen cannot apply, denies the call: nothing is written and the model gets the rewritten input", () => {
    expect(existsSync(path.join(ask.dir, "w.txt"))).toBe(false);
    const said = requestText(ask.run.mainRequests[2]).split("[tool]").at(-1);
    expect(said).toContain("REWRITTEN-7");
    expect(said).toContain("cannot rewrite a tool call's input, so the call was not run");
  });

  it("a hook that hangs is cut off at its timeout and leaves no process; the call goes on (hookrun fails open)", () => {
    ok(hang.run);
    // The call waited for hookrun's 2 s cut (+ 2 s kill grace), not for Qwen's own timeout of the dispatch (12 s).
    const [r0, r1] = hang.run.mainRequests;
    expect(r1.at - r0.answeredAt).toBeLessThan(hang.settings.hooks.PreToolUse[0].hooks[0].timeout * 1000);
    const pids = ["hang.pid", "child.pid"].map((f) => Number(readFileSync(path.join(hang.dir, f), "utf8")));
    expect(pids.every((p) => p > 0)).toBe(true);
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(path.join(hang.dir, "after.txt"))).toBe(true);
  });

  it("A (ground truth): Qwen drops a PostToolUse block's reason and does not go on for a Stop additionalContext", () => {
    ok(direct.run);
    const all = direct.run.mainRequests.map(requestText).join("\n");
    expect(existsSync(path.join(direct.dir, "a.txt"))).toBe(true);
    expect(all).not.toContain("A-POST-BLOCK-7");
    expect(all).not.toContain("A-STOP-CTX-7");
    expect(direct.run.mainRequests).toHaveLength(2);
    expect(lines(path.join(direct.dir, "stop.log"))).toHaveLength(1);
  });

  it("why hookrun installs no warm mode for Qwen: its http hook blocks when the server says so, but with nothing listening the command runs", () => {
    ok(httpDenied.run);
    expect(existsSync(path.join(httpDenied.dir, "a.txt"))).toBe(false);
    expect(requestText(httpDenied.run.mainRequests[1]).split("[tool]").at(-1)).toContain("HTTP-DENY-7: not here");
    ok(httpDown.run);
    expect(existsSync(path.join(httpDown.dir, "a.txt"))).toBe(true);
  });

  it("B-import: A's very hooks, imported (dialect: qwen) and dispatched by hookrun, are read as Qwen reads them: the same drops as A", () => {
    ok(imported.run);
    expect(imported.yaml).toMatch(/dialect: qwen/);
    expect(imported.yaml).toMatch(/matcher: Bash/);
    const all = imported.run.mainRequests.map(requestText).join("\n");
    expect(existsSync(path.join(imported.dir, "a.txt"))).toBe(true);
    // Qwen never gives a PostToolUse block's reason to the model, and a Stop additionalContext does not continue.
    expect(all).not.toContain("A-POST-BLOCK-7");
    expect(all).not.toContain("A-STOP-CTX-7");
    expect(imported.run.mainRequests).toHaveLength(2);
    expect(lines(path.join(imported.dir, "stop.log"))).toHaveLength(1);
  });
});
