import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "./helpers/cli.js";
import { killAllQoder, makeQoderHome, type QoderHome, type QoderRun, type QoderTurn, requireQoder, runQoder } from "./helpers/qoderCli.js";
import { removeTree } from "./helpers/removeTree.js";
import { alive, writeProject } from "./helpers/sandbox.js";

/**
 * The real Qoder CLI (the pinned devDependency), headless in its Agent Client Protocol mode with
 * scripted model turns (`--fake-responses`), offline, in temp HOMEs. What is checked is what the
 * model would have received (the request Qoder records when the script runs out) and what
 * happened on disk, never hookrun's word. Each case runs twice:
 *   A  the hook directly in .qoder/settings.json (ground truth for Qoder's own contract);
 *   B  the same hook in hooks.yaml, `hooks install qoder` + `hooks trust`: the dispatch entries in
 *      .qoder/settings.json run the project's node_modules/.bin/hooks (a symlink to dist/bin/hooks.js).
 */

const qoder = requireQoder();
const tmp: string[] = [];
const homes: QoderHome[] = [];

function project(files: Record<string, string>): string {
  const dir = writeProject("hookrun-qoder-proj-", files);
  tmp.push(dir);
  return dir;
}

function home(): QoderHome {
  const h = makeQoderHome();
  homes.push(h);
  return h;
}

async function runA(settings: unknown, files: Record<string, string>, prompt: string, turns: QoderTurn[]): Promise<{ dir: string; run: QoderRun }> {
  const dir = project({ ...files, ".qoder/settings.json": JSON.stringify(settings, null, 2) });
  return { dir, run: await runQoder({ project: dir, home: home(), prompt, turns }) };
}

async function runB(yaml: string, files: Record<string, string>, prompt: string, turns: QoderTurn[]): Promise<{ dir: string; run: QoderRun; settings: any }> {
  const dir = project({ ...files, "hooks.yaml": yaml });
  const h = home();
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  for (const args of [
    ["install", "qoder"],
    ["-C", dir, "trust", "--yes"],
  ]) {
    const r = await runCli(args, { cwd: dir, env: h.env });
    if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  }
  const settings = JSON.parse(readFileSync(path.join(dir, ".qoder", "settings.json"), "utf8"));
  return { dir, run: await runQoder({ project: dir, home: h, prompt, turns }), settings };
}

const bash = (command: string): QoderTurn => ({ calls: [{ name: "Bash", args: { command, description: "run it" } }] });
const command = (cmd: string, timeout?: number) => ({ type: "command", command: cmd, ...(timeout !== undefined && { timeout }) });

const GUARD_A = `#!/bin/sh
echo "GUARD-A: no touching here" >&2
exit 2
`;
const GUARD_YAML = `hooks:
  pre_tool_use:
    - {name: guard, matcher: Bash, command: "echo 'GUARD-B: no touching here' >&2; exit 2"}
`;
const CONTEXT_YAML = `hooks:
  session_start:
    - {name: start-ctx, command: "echo START-CTX-B"}
  user_prompt_submit:
    - {name: prompt-ctx, command: "echo PROMPT-CTX-B"}
`;
const HANG = `#!/bin/sh
echo $$ > hang.pid
exec sleep 300
`;
const HANG_YAML = `hooks:
  pre_tool_use:
    - {name: hang, matcher: Bash, command: ./hang.sh, timeout: 2s}
`;

let guardA: { dir: string; run: QoderRun };
let guardB: { dir: string; run: QoderRun; settings: any };
let contextA: { dir: string; run: QoderRun };
let contextB: { dir: string; run: QoderRun; settings: any };
/** The context runs whose first request lacked a context, with Qoder's session log. */
const contextMisses: { side: "A" | "B"; attempt: number; missing: string[]; log: string[] }[] = [];

/**
 * No project hook (hookrun's dispatch, on B) that Qoder's log shows finished did so without
 * success. A dispatch still running when the run ended is not counted against it: a hang would
 * miss in every run, and the case then fails on delivery.
 */
function dispatchesSucceeded(log: string[]): boolean {
  return log.filter((l) => / hook\.finished /.test(l) && / source=project /.test(l)).every((l) => / success=true exit=0 /.test(l));
}
let hangA: { dir: string; run: QoderRun };
let hangB: { dir: string; run: QoderRun; settings: any };
/** Qoder's own http hooks (why hookrun installs no warm mode for it): a server that denies, and no server. */
let httpDenied: { dir: string; run: QoderRun };
let httpDown: { dir: string; run: QoderRun };

describe.skipIf(!qoder.path)(`Qoder CLI ${qoder.version ?? ""} (real, ACP mode, scripted model): hooks direct vs through hookrun`, () => {
  beforeAll(async () => {
    // Two at a time: each run is a ~35 MB bundle starting up.
    [guardA, guardB] = await Promise.all([
      runA({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(`"$QODER_PROJECT_DIR"/guard.sh`)] }] } }, { "guard.sh": GUARD_A }, "touch the file", [bash("touch ran.txt")]),
      runB(GUARD_YAML, {}, "touch the file", [bash("touch ran.txt")]),
    ]);
    // One after the other, each hook with a 30 s timeout. Under the loaded CI machine the real
    // Qoder has sent its first request before its own SessionStart or UserPromptSubmit context
    // was in, with Qoder's own hooks (A) as with hookrun's (B): Qoder's behaviour, not the
    // hook's. So each side gets up to three runs, every missed run is kept with Qoder's session
    // log (printed), and hookrun's side must deliver in one of them. A run of B whose log shows a
    // hookrun dispatch that did not succeed is never retried away (see contextMisses).
    const control = () =>
      runA(
        {
          hooks: {
            SessionStart: [{ hooks: [command(`printf '%s' '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"START-CTX-A"}}'`, 30)] }],
            UserPromptSubmit: [{ hooks: [command(`printf '%s' '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"PROMPT-CTX-A"}}'`, 30)] }],
          },
        },
        {},
        "hello",
        [],
      );
    for (const [side, marks, run] of [
      ["A", ["START-CTX-A", "PROMPT-CTX-A"], control],
      ["B", ["START-CTX-B", "PROMPT-CTX-B"], () => runB(CONTEXT_YAML, {}, "hello", [])],
    ] as const) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const c = await run();
        if (side === "A") contextA = c;
        else contextB = c as typeof contextB;
        const missing = marks.filter((t) => !(c.run.unansweredText ?? "").includes(t));
        if (!missing.length) break;
        contextMisses.push({ side, attempt, missing, log: c.run.log });
        if (side === "B" && !dispatchesSucceeded(c.run.log)) break;
      }
    }
    for (const m of contextMisses) console.log(`Qoder ${m.side} run ${m.attempt}: ${m.missing.join(", ")} not in its first request. Qoder's log:\n${m.log.join("\n")}`);
    [hangA, hangB] = await Promise.all([
      runA({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [command(`"$QODER_PROJECT_DIR"/hang.sh`, 3)] }] } }, { "hang.sh": HANG }, "touch the file", [bash("touch ran.txt")]),
      runB(HANG_YAML, { "hang.sh": HANG }, "touch the file", [bash("touch ran.txt")]),
    ]);
    // An http entry on PreToolUse, `onFailure: "block"` as hookrun writes Claude Code's: first
    // against a server that answers a deny, then with nothing listening on its port.
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () =>
        res
          .setHeader("content-type", "application/json")
          .end(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "HTTP-DENY: no touching here" } })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/hosts/qoder/PreToolUse`;
    const httpHook = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url, timeout: 5, onFailure: "block" }] }] } };
    try {
      httpDenied = await runA(httpHook, {}, "touch the file", [bash("touch ran.txt")]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    httpDown = await runA(httpHook, {}, "touch the file", [bash("touch ran.txt")]);
  }, 400_000);

  afterAll(() => {
    killAllQoder();
    for (const h of homes) h.cleanup();
    for (const d of tmp) removeTree(d);
  });

  it("install writes Qoder's entries: Claude's shape in .qoder/settings.json, the root from $QODER_PROJECT_DIR, no onFailure", () => {
    const entry = guardB.settings.hooks.PreToolUse[0];
    expect(entry.matcher).toBe("Bash");
    expect(entry.hooks[0].command).toContain('"$QODER_PROJECT_DIR"');
    expect(entry.hooks[0].command).toContain("run pre_tool_use --host qoder");
    expect(entry.hooks[0].onFailure).toBeUndefined();
    expect(hangB.settings.hooks.PreToolUse[0].hooks[0].timeout).toBe(12);
  });

  it("a guard blocks the shell call and its reason reaches the model (A: direct, B: through hookrun)", () => {
    for (const [c, reason] of [
      [guardA, "GUARD-A: no touching here"],
      [guardB, "GUARD-B: no touching here"],
    ] as const) {
      expect(c.run.timedOut).toBe(false);
      expect(c.run.unanswered, c.run.stderr).not.toBeNull();
      expect(c.run.unansweredText).toContain(reason);
      expect(existsSync(path.join(c.dir, "ran.txt"))).toBe(false);
      const failed = c.run.updates.find((u) => u?.sessionUpdate === "tool_call_update" && u.status === "failed");
      expect(JSON.stringify(failed)).toContain(reason);
    }
  });

  it("session-start and prompt context reach the model through hookrun (B); Qoder's own hooks (A) as the control", () => {
    // hookrun's side: both contexts in the model's first request, in one of up to three runs; a
    // run that missed one shows, in Qoder's own log, every hookrun dispatch finished with exit 0
    // (hookrun answered; Qoder went on without the answer).
    for (const m of contextMisses.filter((x) => x.side === "B")) expect(dispatchesSucceeded(m.log), m.log.join("\n")).toBe(true);
    expect(contextB.run.unanswered, contextB.run.stderr).not.toBeNull();
    for (const t of ["START-CTX-B", "PROMPT-CTX-B", "hello"]) expect(contextB.run.unansweredText, contextB.run.log.join("\n")).toContain(t);
    // The control ran and reached the model; its delivery is printed (above), not required.
    expect(contextA.run.unanswered, contextA.run.stderr).not.toBeNull();
    expect(contextA.run.unansweredText).toContain("hello");
  });

  it("why hookrun installs no warm mode for Qoder: its http hook blocks on a deny, but with nothing listening the tool runs, onFailure: block or not", () => {
    expect(httpDenied.run.unansweredText).toContain("HTTP-DENY: no touching here");
    expect(existsSync(path.join(httpDenied.dir, "ran.txt"))).toBe(false);
    // the same entry, its server gone: Qoder logs the failure and runs the tool
    expect(httpDown.run.log.join("\n")).toMatch(/hook\.finished PreToolUse source=project success=false .*HTTP hook request failed/);
    expect(existsSync(path.join(httpDown.dir, "ran.txt"))).toBe(true);
  });

  it("a hanging hook is cut at its timeout and the turn goes on (A: Qoder's timeout, B: hookrun's)", () => {
    for (const c of [hangA, hangB]) {
      expect(c.run.timedOut).toBe(false);
      expect(c.run.unanswered, c.run.stderr).not.toBeNull();
      const pid = Number(readFileSync(path.join(c.dir, "hang.pid"), "utf8"));
      expect(alive(pid)).toBe(false);
    }
    // Qoder lets the call go on after its own timeout; hookrun's dispatch does too (the hook fails open, the user is told).
    expect(existsSync(path.join(hangA.dir, "ran.txt"))).toBe(true);
    expect(existsSync(path.join(hangB.dir, "ran.txt"))).toBe(true);
  });
});
