import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cursor } from "../src/hosts/cursor.js";
import { createRunner } from "../src/runner/createRunner.js";
import { runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/configuration.md#loop_limit: a stop hook that keeps the agent going is honoured at most
// `loop_limit` stops in a row per session; the count lives in the state dir, so it holds across
// `hooks run` processes and whichever host fires the stop.
const sb = useSandbox();

/** One stop hook; `answer` is its shell command, `extra` more YAML lines under it. */
function configure(answer: string, extra = "      loop_limit: 2\n", dialect = "native", event = "stop"): void {
  sb.current.write("hooks.yaml", `hooks:\n  ${event}:\n    - name: verify\n      dialect: ${dialect}\n      command: ${JSON.stringify(answer)}\n${extra}`);
}

async function stop(session = "s", event = "stop") {
  const config = await sb.current.load();
  const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.current.dir, env: sb.current.processEnv, stateDir: sb.current.env.HOOKS_STATE_DIR });
  try {
    return await runner.trigger(event, { session_id: session });
  } finally {
    await runner.close();
  }
}

/** `hooks run stop --host claude` with Claude Code's Stop payload: what Claude Code reads. */
async function claudeStop(session = "s") {
  const payload = { session_id: session, hook_event_name: "Stop", stop_hook_active: false, cwd: sb.current.dir, transcript_path: "" };
  const r = await runMain(["--trust", "run", "stop", "--host", "claude"], { cwd: sb.current.dir, env: sb.current.env, input: JSON.stringify(payload) });
  return { code: r.code, out: r.stdout.trim() === "" ? {} : (JSON.parse(r.stdout) as Record<string, unknown>), stderr: r.stderr };
}

describe("loop_limit", () => {
  it("honours an exit-2 block `loop_limit` times in a row, then lets the stop through with a notice; a passing stop restarts the count", async () => {
    // The hook blocks while the file `pass` is absent.
    configure("test -f pass || { echo 'tests still fail' >&2; exit 2; }");
    for (let i = 0; i < 2; i++) {
      const r = await stop();
      expect(r.blocked).toBe(true);
      expect(r.reason).toBe("tests still fail");
    }
    const third = await stop();
    expect(third.blocked).toBe(false);
    expect(third.hooks[0]).toMatchObject({ status: "ok", decision: null });
    expect(third.messages).toEqual([expect.objectContaining({ kind: "notice", hook: "verify", content: expect.stringContaining("reached its loop_limit (2 continuations in a row)") })]);
    // The refused continuation let the stop through: the next stop starts again from 0.
    expect((await stop()).blocked).toBe(true);
    // A stop the hook lets pass restarts the count too.
    sb.current.write("pass", "");
    expect((await stop()).blocked).toBe(false);
    rmSync(path.join(sb.current.dir, "pass"));
    expect((await stop()).blocked).toBe(true);
    expect((await stop()).blocked).toBe(true);
    expect((await stop()).blocked).toBe(false);
    // Another session has its own count.
    expect((await stop("other")).blocked).toBe(true);
  });

  it("bounds a follow-up (cursor dialect) the same way, with Cursor's default 5 when the hook sets none, and null lifts it", async () => {
    configure(`printf '%s' '{"followup_message":"keep going"}'`, "", "cursor");
    const followups = async () => (await stop()).messages.filter((m) => m.kind === "followup").length;
    for (let i = 0; i < 5; i++) expect(await followups()).toBe(1);
    const sixth = await stop();
    expect(sixth.messages).toEqual([expect.objectContaining({ kind: "notice", content: expect.stringContaining("loop_limit (5 continuations in a row)") })]);
    configure(`printf '%s' '{"followup_message":"keep going"}'`, "      loop_limit: null\n", "cursor");
    for (let i = 0; i < 7; i++) expect(await followups()).toBe(1);
    // A native hook without loop_limit has no limit.
    configure("echo again >&2; exit 2", "");
    for (let i = 0; i < 7; i++) expect((await stop("n")).blocked).toBe(true);
  });

  it("a cursor-dialect hook fired by another host gets its own count as `loop_count`", async () => {
    configure(`cat > "$HOOKS_TEST_OUT"; printf '%s' '{"followup_message":"again"}'`, "      loop_limit: 3\n", "cursor");
    const out = path.join(sb.current.dir, "stdin.json");
    const seen: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const config = await sb.current.load();
      const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.current.dir, env: { ...sb.current.processEnv, HOOKS_TEST_OUT: out }, stateDir: sb.current.env.HOOKS_STATE_DIR });
      await runner.trigger("stop", { session_id: "c" });
      await runner.close();
      seen.push((JSON.parse(readFileSync(out, "utf8")) as { loop_count: unknown }).loop_count);
    }
    // The fourth was refused (limit 3), so the count restarted: the next stop sees 0.
    expect(seen).toEqual([0, 1, 2, 3]);
    const config = await sb.current.load();
    const runner = createRunner(config, { trust: "all", runLog: false, cwd: sb.current.dir, env: { ...sb.current.processEnv, HOOKS_TEST_OUT: out }, stateDir: sb.current.env.HOOKS_STATE_DIR });
    await runner.trigger("stop", { session_id: "c" });
    await runner.close();
    expect((JSON.parse(readFileSync(out, "utf8")) as { loop_count: unknown }).loop_count).toBe(0);
  });

  it("applies on subagent_stop", async () => {
    configure("exit 2", "      loop_limit: 1\n", "native", "subagent_stop");
    expect((await stop("s", "subagent_stop")).blocked).toBe(true);
    expect((await stop("s", "subagent_stop")).blocked).toBe(false);
  });

  it("holds across `hooks run stop --host claude` processes: the N+1-th stop is not continued", async () => {
    configure("echo 'not done' >&2; exit 2");
    for (let i = 0; i < 2; i++) expect((await claudeStop()).out).toMatchObject({ decision: "block", reason: "not done" });
    const third = await claudeStop();
    expect(third.code).toBe(0);
    expect(third.out.decision).toBeUndefined();
    expect(JSON.stringify(third.out)).toContain("reached its loop_limit");
    expect((await claudeStop()).out).toMatchObject({ decision: "block" });
  });

  it("a corrupt or foreign count file is read as no continuation yet, with a warning, and is replaced", async () => {
    configure("exit 2", "      loop_limit: 1\n");
    expect((await stop()).blocked).toBe(true);
    const loops = path.join(sb.current.env.HOOKS_STATE_DIR as string, "loops");
    const [project] = readdirSync(loops);
    const file = path.join(loops, project, "s.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ "stop/verify": 1 });
    for (const junk of ["{not json", "[1,2]", '{"stop/verify":"x"}']) {
      writeFileSync(file, junk);
      const r = await stop();
      expect(r.blocked).toBe(true);
      if (junk !== '{"stop/verify":"x"}') expect(r.warnings.join("\n")).toContain("counting again from 0");
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ "stop/verify": 1 });
    }
  });

  it('rejects 0, -1, "x" and 1.5, and loop_limit on an event that cannot continue the turn', async () => {
    for (const [value, want] of [
      ["0", "`loop_limit` in hook `verify` must be at least 1 (or null for no limit), not number 0"],
      ["-1", "`loop_limit` in hook `verify` must be at least 1 (or null for no limit), not number -1"],
      ['"x"', '`loop_limit` in hook `verify` must be a whole number, not the string "x"'],
      ["1.5", "`loop_limit` in hook `verify` must be a whole number, not number 1.5"],
    ]) {
      configure("exit 2", `      loop_limit: ${value}\n`);
      const r = await runMain(["validate"], { cwd: sb.current.dir, env: sb.current.env });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(want);
      await expect(sb.current.load()).rejects.toThrow("config is invalid");
    }
    configure("exit 2", "      loop_limit: 3\n", "native", "pre_tool_use");
    await expect(sb.current.load()).rejects.toThrow("config is invalid");
    const r = await runMain(["validate"], { cwd: sb.current.dir, env: sb.current.env });
    expect(r.stderr).toContain("hook `verify` has `loop_limit` on `pre_tool_use`: it bounds how many stops in a row a hook keeps the agent going, so only stop and subagent_stop take it");
    // null (no limit) is accepted anywhere it would be meaningless.
    configure("exit 0", "      loop_limit: null\n", "native", "pre_tool_use");
    expect((await runMain(["validate"], { cwd: sb.current.dir, env: sb.current.env })).code).toBe(0);
  });

  it("`hooks import cursor` carries loop_limit (a number or null) and notes a bad one", () => {
    const imp = cursor.import?.(
      {
        version: 1,
        hooks: {
          stop: [{ command: "./a.sh", loop_limit: 3 }, { command: "./b.sh", loop_limit: null }, { command: "./c.sh" }, { command: "./d.sh", loop_limit: 0 }],
          subagentStop: [{ command: "./e.sh", loop_limit: 2 }],
        },
      },
      [],
    );
    if (!imp) throw new Error("no import");
    expect(imp.hooks.map((h) => h.hook)).toEqual([
      { name: "a", command: "./a.sh", loop_limit: 3, dialect: "cursor" },
      { name: "b", command: "./b.sh", loop_limit: null, dialect: "cursor" },
      { name: "c", command: "./c.sh", dialect: "cursor" },
      { name: "d", command: "./d.sh", dialect: "cursor" },
      { name: "e", command: "./e.sh", loop_limit: 2, dialect: "cursor" },
    ]);
    expect(imp.notes.join("\n")).toContain("hooks.stop[3] (`d`): loop_limit 0 is not a positive integer or null; not carried (the cursor dialect's default, 5, applies)");
  });
});
