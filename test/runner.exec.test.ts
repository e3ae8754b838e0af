import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import type { HookEndEvent, HookResult, HookStartEvent } from "../src/runner/types.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox({ survivors: true });

const statuses = (r: { hooks: { name: string; status: string }[] }): string[] => r.hooks.map((h) => `${h.name}:${h.status}`);

describe("parallel groups (docs/running-hooks.md#which-hooks-run-and-in-what-order)", () => {
  it("hooks of equal priority overlap in time; groups run in order; results keep declaration order", async () => {
    const stamp = (n: string): string => `echo "${n} start $(date +%s%N)" >> '${sb.current.dir}/t'; sleep 0.4; echo "${n} end $(date +%s%N)" >> '${sb.current.dir}/t'`;
    const cfg = config(
      sb.current.dir,
      [
        hook("p1", "post_tool_use", { command: stamp("p1"), priority: 5 }),
        hook("p2", "post_tool_use", { command: stamp("p2"), priority: 5 }),
        hook("p3", "post_tool_use", { command: stamp("p3"), priority: 5 }),
        hook("later", "post_tool_use", { command: stamp("later") }),
      ],
      { post_tool_use: { parallel: true } },
    );
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("post_tool_use", { tool_name: "Bash" });
    expect(statuses(r)).toEqual(["p1:ok", "p2:ok", "p3:ok", "later:ok"]);
    const t: Record<string, number> = {};
    for (const line of readFileSync(path.join(sb.current.dir, "t"), "utf8").trim().split("\n")) {
      const [n, what, ns] = line.split(" ");
      t[`${n}.${what}`] = Number(BigInt(ns) / 1_000_000n);
    }
    const lastStart = Math.max(t["p1.start"], t["p2.start"], t["p3.start"]);
    const firstEnd = Math.min(t["p1.end"], t["p2.end"], t["p3.end"]);
    expect(lastStart).toBeLessThan(firstEnd); // all three were running at once
    expect(t["later.start"]).toBeGreaterThanOrEqual(Math.max(t["p1.end"], t["p2.end"], t["p3.end"]));
  });

  it("maxParallel caps the group", async () => {
    const stamp = (n: string): string => `echo "${n} start $(date +%s%N)" >> '${sb.current.dir}/t'; sleep 0.3; echo "${n} end $(date +%s%N)" >> '${sb.current.dir}/t'`;
    const cfg = config(
      sb.current.dir,
      ["a", "b"].map((n) => hook(n, "post_tool_use", { command: stamp(n) })),
      { post_tool_use: { parallel: true } },
    );
    await createRunner(cfg, { runLog: false, cwd: sb.current.dir, maxParallel: 1 }).trigger("post_tool_use", {});
    const lines = readFileSync(path.join(sb.current.dir, "t"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" ").slice(0, 2).join(" "));
    expect(lines).toEqual(["a start", "a end", "b start", "b end"]);
  });

  it("without parallel: true hooks run one at a time", async () => {
    const stamp = (n: string): string => `echo "${n} start" >> '${sb.current.dir}/t'; sleep 0.2; echo "${n} end" >> '${sb.current.dir}/t'`;
    await createRunner(
      config(
        sb.current.dir,
        ["a", "b"].map((n) => hook(n, "post_tool_use", { command: stamp(n) })),
      ),
      { runLog: false, cwd: sb.current.dir },
    ).trigger("post_tool_use", {});
    expect(readFileSync(path.join(sb.current.dir, "t"), "utf8").trim().split("\n")).toEqual(["a start", "a end", "b start", "b end"]);
  });
});

describe("stops and decisions (docs/running-hooks.md#which-hooks-run-and-in-what-order, docs/running-hooks.md#what-a-hook-prints-and-decisions)", () => {
  it("exit 2 on a gate event blocks: reason from stderr, later hooks skipped, blocked_by set", async () => {
    const cfg = config(sb.current.dir, [
      hook("first", "pre_tool_use", { command: "echo fine" }),
      hook("guard", "pre_tool_use", { command: "echo '  rm -rf is not allowed  ' >&2; exit 2" }),
      hook("after", "pre_tool_use", { command: `touch '${sb.current.dir}/after'` }),
    ]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("pre_tool_use", { tool_name: "Bash" });
    expect(statuses(r)).toEqual(["first:ok", "guard:blocked", "after:skipped"]);
    expect(r).toMatchObject({ blocked: true, blocked_by: "guard", reason: "rm -rf is not allowed" });
    expect(r.hooks[1]).toMatchObject({ exit_code: 2, decision: "block" });
    const { existsSync } = await import("node:fs");
    expect(existsSync(path.join(sb.current.dir, "after"))).toBe(false);
  });

  it("exit 2 prefers the JSON reason", async () => {
    const r = await createRunner(config(sb.current.dir, [hook("g", "stop", { command: `echo '{"reason":"keep going"}'; echo err >&2; exit 2` })]), { runLog: false, cwd: sb.current.dir }).trigger(
      "stop",
      {},
    );
    expect(r).toMatchObject({ blocked: true, reason: "keep going" });
  });

  it("exit 2 on a non-gate event is a failure, not a block", async () => {
    const cfg = config(sb.current.dir, [hook("x", "session_start", { command: "echo nope >&2; exit 2" }), hook("y", "session_start", { command: "true" })]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("session_start", {});
    expect(statuses(r)).toEqual(["x:failed", "y:ok"]);
    expect(r.blocked).toBe(false);
    expect(r.hooks[0].error).toMatch(/cannot block/);
  });

  it("a block decision on a non-gate event is ignored with a warning on that hook", async () => {
    const r = await createRunner(config(sb.current.dir, [hook("x", "session_start", { command: `echo '{"decision":"block","reason":"r"}'` }), hook("y", "session_start", { command: "true" })]), {
      runLog: false,
      cwd: sb.current.dir,
    }).trigger("session_start", {});
    expect(statuses(r)).toEqual(["x:ok", "y:ok"]);
    expect(r.blocked).toBe(false);
    expect(r.hooks[0].warnings[0]).toMatch(/block decision ignored/);
  });

  it("after the tool ran, exit 2 and a JSON block are the same feedback for the model, and the run goes on", async () => {
    for (const event of ["post_tool_use", "post_tool_use_failure"]) {
      const hooks = [
        hook("x", event, { command: "echo '  run prettier on a.ts  ' >&2; exit 2" }),
        hook("y", event, { command: `printf '%s' '{"decision":"block","reason":"run prettier on a.ts"}'` }),
        hook("z", event, { command: "true" }),
      ];
      const r = await createRunner(config(sb.current.dir, hooks), { runLog: false, cwd: sb.current.dir }).trigger(event, {});
      expect(statuses(r), event).toEqual(["x:ok", "y:ok", "z:ok"]);
      expect(r.blocked).toBe(false);
      expect(r.messages).toEqual([
        { role: "system", content: "run prettier on a.ts", kind: "feedback", hook: "x" },
        { role: "system", content: "run prettier on a.ts", kind: "feedback", hook: "y" },
      ]);
      const shape = ({ name: _n, exit_code: _c, stdout: _o, stderr: _e, duration_ms: _d, messages, ...rest }: HookResult) => ({ ...rest, messages: messages.map(({ hook: _h, ...m }) => m) });
      expect(shape(r.hooks[0])).toEqual(shape(r.hooks[1]));
      expect(r.hooks[1]).toMatchObject({ decision: null, error: null, warnings: [] });
      expect(r.hooks[1]).not.toHaveProperty("reason");
    }
  });

  it("after the tool ran, a block without a reason says which hook it was; a JSON reason beats stderr", async () => {
    const hooks = [
      hook("bare", "post_tool_use", { command: "exit 2" }),
      hook("said", "post_tool_use", { command: `printf '%s' '{"decision":"block"}'` }),
      hook("both", "post_tool_use", { command: `printf '%s' '{"reason":"from json"}'; echo 'from stderr' >&2; exit 2` }),
    ];
    const r = await createRunner(config(sb.current.dir, hooks), { runLog: false, cwd: sb.current.dir }).trigger("post_tool_use", {});
    expect(r.messages.map((m) => [m.hook, m.content, m.kind])).toEqual([
      ["bare", "hook bare exited with code 2", "feedback"],
      ["said", "feedback from hook said", "feedback"],
      ["both", "from json", "feedback"],
    ]);
  });

  it("a custom event blocks only when declared with gate: true", async () => {
    const hooks = [hook("c", "deploy", { command: "exit 2" })];
    const gated = await createRunner(config(sb.current.dir, hooks, { deploy: { custom: true, gate: true } }), { runLog: false, cwd: sb.current.dir }).trigger("deploy", {});
    expect(gated.blocked).toBe(true);
    const open = await createRunner(config(sb.current.dir, hooks, { deploy: { custom: true, gate: false } }), { runLog: false, cwd: sb.current.dir }).trigger("deploy", {});
    expect(statuses(open)).toEqual(["c:failed"]);
  });

  it("stop_propagation ends the run without blocking", async () => {
    const cfg = config(sb.current.dir, [hook("a", "stop", { command: `echo '{"stop_propagation":true,"content":"enough"}'` }), hook("b", "stop", { command: "true" })]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("stop", {});
    expect(statuses(r)).toEqual(["a:ok", "b:skipped"]);
    expect(r.blocked).toBe(false);
    expect(r.messages).toEqual([{ role: "system", content: "enough", hook: "a" }]);
  });

  it("in a parallel group a block lets the group finish and skips later groups", async () => {
    const cfg = config(
      sb.current.dir,
      [
        hook("g1", "user_prompt_submit", { command: "exit 2", priority: 1 }),
        hook("g2", "user_prompt_submit", { command: "sleep 0.2; echo done", priority: 1 }),
        hook("later", "user_prompt_submit", { command: "true" }),
      ],
      { user_prompt_submit: { parallel: true } },
    );
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("user_prompt_submit", {});
    expect(statuses(r)).toEqual(["g1:blocked", "g2:ok", "later:skipped"]);
  });

  it("continue: false is reported at the top level; the run goes on", async () => {
    const cfg = config(sb.current.dir, [hook("a", "stop", { command: `echo '{"continue":false,"stopReason":"budget spent"}'` }), hook("b", "stop", { command: "true" })]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("stop", {});
    expect(r).toMatchObject({ continue: false, stop_reason: "budget spent", stopped_by: "a", blocked: false });
    expect(statuses(r)).toEqual(["a:ok", "b:ok"]);
  });

  it("transform events chain updated_input through the hooks; the last one wins", async () => {
    const cfg = config(sb.current.dir, [
      hook("upper", "tool_transform", {
        command: `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s);console.log(JSON.stringify({updated_input:{command:c.tool_input.command.toUpperCase()}}))})'`,
        priority: 2,
      }),
      hook("suffix", "tool_transform", {
        command: `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s);console.log(JSON.stringify({hookSpecificOutput:{updatedInput:{command:c.tool_input.command+" --dry"}}}))})'`,
        priority: 1,
      }),
    ]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("tool_transform", { tool_name: "Bash", tool_input: { command: "ls" } });
    expect(r.hooks.map((h) => h.updated_input)).toEqual([{ command: "LS" }, { command: "LS --dry" }]);
    expect(r.updated_input).toEqual({ command: "LS --dry" });
  });

  it("message_transform chains `message`", async () => {
    const cfg = config(sb.current.dir, [
      hook("a", "message_transform", { command: `echo '{"updated_input":"second"}'` }),
      hook("b", "message_transform", { command: `cat > '${sb.current.dir}/seen'; echo '{"updated_input":"third"}'` }),
    ]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("message_transform", { message: "first" });
    expect(JSON.parse(readFileSync(path.join(sb.current.dir, "seen"), "utf8")).message).toBe("second");
    expect(r.updated_input).toBe("third");
  });

  it("on_failure: block on a gate event turns a failure (spawn error included) into a block; the status stays", async () => {
    const cfg = config(sb.current.dir, [hook("guard", "pre_tool_use", { command: "definitely-not-a-command-xyz", onFailure: "block" }), hook("next", "pre_tool_use", { command: "true" })]);
    const r = await createRunner(cfg, { runLog: false, cwd: sb.current.dir }).trigger("pre_tool_use", {});
    expect(statuses(r)).toEqual(["guard:spawn_error", "next:skipped"]);
    expect(r.blocked).toBe(true);
    expect(r.blocked_by).toBe("guard");
    expect(r.reason).toMatch(/on_failure: block/);
    const open = await createRunner(config(sb.current.dir, [hook("guard", "pre_tool_use", { command: "exit 1", onFailure: "continue" })]), { runLog: false, cwd: sb.current.dir }).trigger(
      "pre_tool_use",
      {},
    );
    expect(open.blocked).toBe(false);
  });

  it("emits hook:start and hook:end", async () => {
    const runner = createRunner(config(sb.current.dir, [hook("a", "stop", { command: "true" })]), { runLog: false, cwd: sb.current.dir });
    const seen: string[] = [];
    runner.on("hook:start", (e: HookStartEvent) => seen.push(`start ${e.name}`)).on("hook:end", (e: HookEndEvent) => seen.push(`end ${e.name} ${e.result.status}`));
    await runner.trigger("stop", {});
    expect(seen).toEqual(["start a", "end a ok"]);
  });
});

describe("the run log (docs/cli.md#hooks-log)", () => {
  it("appends one line per trigger that ran something, without output, and rotates at 10 MiB", async () => {
    const state = path.join(sb.current.dir, "state");
    const runner = createRunner(config(sb.current.dir, [hook("a", "stop", { command: "echo secret-output" })]), { cwd: sb.current.dir, stateDir: state });
    await runner.trigger("stop", { session_id: "s1" });
    await runner.trigger("session_start", { session_id: "s1" });
    const lines = readFileSync(path.join(state, "runs.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    const rec = JSON.parse(lines[0]);
    expect(rec).toMatchObject({ project_dir: sb.current.dir, event: "stop", session_id: "s1", hooks: [{ name: "a", status: "ok", exit_code: 0 }] });
    expect(typeof rec.time).toBe("string");
    expect(lines[0]).not.toContain("secret-output");
    const { writeFileSync, existsSync } = await import("node:fs");
    writeFileSync(path.join(state, "runs.jsonl"), "x".repeat(10 * 1024 * 1024));
    await runner.trigger("stop", { session_id: "s2" });
    expect(existsSync(path.join(state, "runs.jsonl.1"))).toBe(true);
    expect(readFileSync(path.join(state, "runs.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("runLog: false writes nothing", async () => {
    const state = path.join(sb.current.dir, "state");
    await createRunner(config(sb.current.dir, [hook("a", "stop", { command: "true" })]), { cwd: sb.current.dir, stateDir: state, runLog: false }).trigger("stop", {});
    const { existsSync } = await import("node:fs");
    expect(existsSync(state)).toBe(false);
  });
});
