import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { createRunner } from "../src/runner/createRunner.js";
import type { Runner } from "../src/runner/types.js";
import { CLI } from "./helpers/cli.js";
import { expectNoSurvivors, markProcesses, readPid, sandbox, waitGone, type Sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// Suite-level: no hook or worker process started by this file outlives it.
const survivors = markProcesses();
afterAll(() => expectNoSurvivors(survivors));

let project: Sandbox | undefined;
let runner: Runner | undefined;
afterEach(async () => {
  await runner?.close({ graceMs: 0 });
  runner = undefined;
  project?.cleanup();
  project = undefined;
});

async function setup(yaml: string): Promise<{ runner: Runner; project: Sandbox }> {
  project = sandbox({ config: yaml });
  const config = await loadConfig({ cwd: project.dir, userConfig: false, env: project.processEnv });
  runner = createRunner(config, { trust: "all", env: project.processEnv, cwd: project.dir, stateDir: project.env.HOOKS_STATE_DIR, runLog: false });
  return { runner, project };
}

describe("library: async hooks run in the background and are delivered to the same session", () => {
  it("returns before a `sleep 2` async hook ends, and delivers it on the next trigger of that session only", async () => {
    const { runner, project } = await setup(`
hooks:
  stop:
    - name: bg
      async: true
      command: sleep 2; touch done; echo finished-in-background
    - name: fg
      command: echo sync-says-hi
`);
    const first = await runner.trigger("stop", { session_id: "A" });
    expect(fs.existsSync(project.path("done"))).toBe(false);
    expect(first.async_started).toEqual(["bg"]);
    expect(first.hooks.map((h) => h.name)).toEqual(["fg"]);
    expect(first.async_delivered).toEqual([]);
    expect(runner.pending("A")).toMatchObject([{ name: "bg", event: "stop", session_id: "A", state: "running" }]);
    expect(runner.pending("B")).toEqual([]);

    await runner.drain();
    expect(fs.existsSync(project.path("done"))).toBe(true);
    expect(runner.pending("A")).toMatchObject([{ name: "bg", state: "finished" }]);

    const other = await runner.trigger("session_start", { session_id: "B" });
    expect(other.async_delivered).toEqual([]);
    expect(other.messages).toEqual([]);

    const next = await runner.trigger("pre_turn", { session_id: "A" });
    expect(next.async_delivered).toHaveLength(1);
    expect(next.async_delivered[0]).toMatchObject({ name: "bg", event: "stop", session_id: "A", status: "ok", exit_code: 0 });
    expect(next.messages[0]).toEqual({ role: "system", content: "finished-in-background", hook: "bg", async: true });
    expect(runner.pending("A")).toEqual([]);

    const again = await runner.trigger("pre_turn", { session_id: "A" });
    expect(again.async_delivered).toEqual([]);
    // the library keeps results in memory: nothing under the state dir
    expect(fs.existsSync(path.join(project.env.HOOKS_STATE_DIR, "async"))).toBe(false);
  });

  it("puts delivered async messages before the sync hooks' messages", async () => {
    const { runner } = await setup(`
hooks:
  stop:
    - { name: bg, async: true, command: echo from-async }
    - { name: fg, command: echo from-sync }
`);
    await runner.trigger("stop", { session_id: "S" });
    await runner.drain();
    const r = await runner.trigger("stop", { session_id: "S" });
    expect(r.messages.map((m) => [m.hook, m.content, m.async ?? false])).toEqual([
      ["bg", "from-async", true],
      ["fg", "from-sync", false],
    ]);
  });

  it("delivers results in the order their hooks started, not the order they finished", async () => {
    const { runner } = await setup(`
hooks:
  post_tool_use:
    - { name: analyze, async: true, command: 'if [ "$HOOK_TOOL_NAME" = Write ]; then sleep 0.8; fi; echo "done $HOOK_TOOL_NAME"' }
  stop:
    - { name: slow, async: true, command: sleep 0.8; echo slow }
    - { name: fast, async: true, command: echo fast }
`);
    // Across triggers: the first call's hook is the slower one.
    await runner.trigger("post_tool_use", { session_id: "S", tool_name: "Write" });
    await runner.trigger("post_tool_use", { session_id: "S", tool_name: "Edit" });
    // Within one trigger: declaration order.
    await runner.trigger("stop", { session_id: "T" });
    await runner.drain();
    expect((await runner.trigger("pre_tool_use", { session_id: "S" })).messages.map((m) => m.content)).toEqual(["done Write", "done Edit"]);
    expect((await runner.trigger("pre_tool_use", { session_id: "T" })).messages.map((m) => m.content)).toEqual(["slow", "fast"]);
  });

  it("delivers a failing and a timed-out async hook with their status", async () => {
    const { runner } = await setup(`
hooks:
  post_tool_use:
    - { name: fails, async: true, command: "echo oops >&2; exit 3" }
    - { name: slow, async: true, timeout: 300ms, command: "echo $$ > slow.pid; sleep 30" }
`);
    const r = await runner.trigger("post_tool_use", { session_id: "S", tool_name: "Bash" });
    expect(r.async_started.sort()).toEqual(["fails", "slow"]);
    await runner.drain();
    const next = await runner.trigger("stop", { session_id: "S" });
    const byName = Object.fromEntries(next.async_delivered.map((d) => [d.name, d]));
    expect(byName.fails).toMatchObject({ status: "failed", exit_code: 3 });
    expect(byName.fails.stderr).toContain("oops");
    expect(byName.slow.status).toBe("timed_out");
    expect(await waitGone(readPid(project!.path("slow.pid")))).toBe(true);
  });

  it("ignores an async hook's block decision, with a warning on its result", async () => {
    const { runner } = await setup(`
hooks:
  pre_tool_use:
    - name: wants-to-block
      async: true
      command: echo '{"decision":"block","reason":"nope","stop_propagation":true,"continue":false,"updated_input":{"x":1}}'
    - { name: exits-2, async: true, command: "echo why >&2; exit 2" }
    - { name: sync-after, command: echo ran }
`);
    const r = await runner.trigger("pre_tool_use", { session_id: "S", tool_name: "Bash" }, { wait: true });
    expect(r.blocked).toBe(false);
    expect(r.hooks.map((h) => [h.name, h.status])).toEqual([["sync-after", "ok"]]);
    expect(r.async_delivered.map((x) => x.name)).toEqual(["wants-to-block", "exits-2"]);
    const e2 = r.async_delivered[1];
    expect([e2.status, e2.decision, e2.exit_code]).toEqual(["ok", null, 2]);
    expect(e2.warnings.join("\n")).toMatch(/cannot block: the block decision \("why"\) was ignored/);
    const d = r.async_delivered[0];
    expect(d.decision).toBeNull();
    expect(d.status).toBe("ok");
    expect(d.warnings.join("\n")).toMatch(/cannot block/);
    expect(d.warnings.join("\n")).toMatch(/stop_propagation was ignored/);
    expect(d.warnings.join("\n")).toMatch(/continue=false was ignored/);
    expect(d.warnings.join("\n")).toMatch(/updated_input was ignored/);
    expect(r.continue).toBe(true);
    expect(r.updated_input).toBeNull();
  });

  it("wait: true reports the async hooks in the same trigger and queues nothing", async () => {
    const { runner } = await setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "sleep 0.3; echo waited" }
`);
    const seen: string[] = [];
    runner.on("hook:start", (e) => seen.push(`start ${e.name} async=${e.async}`));
    runner.on("hook:end", (e) => seen.push(`end ${e.name} async=${e.async} ${e.result.status}`));
    const r = await runner.trigger("stop", { session_id: "S" }, { wait: true });
    expect(seen).toEqual(["start bg async=true", "end bg async=true ok"]);
    expect(r.async_started).toEqual(["bg"]);
    expect(r.async_delivered.map((d) => [d.name, d.status])).toEqual([["bg", "ok"]]);
    expect(r.messages).toEqual([{ role: "system", content: "waited", hook: "bg", async: true }]);
    expect(runner.pending()).toEqual([]);
    expect((await runner.trigger("stop", { session_id: "S" }, { only: ["none"] })).async_delivered).toEqual([]);
  });
});

describe("library: expiry", () => {
  it("drops a result not delivered within 24 h, with a warning", async () => {
    const { runner } = await setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "echo late" }
`);
    await runner.trigger("stop", { session_id: "S" });
    await runner.drain();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 25 * 3600_000 });
    try {
      const r = await runner.trigger("pre_turn", { session_id: "S" });
      expect(r.async_delivered).toEqual([]);
      expect(r.messages).toEqual([]);
      expect(r.warnings.join("\n")).toMatch(/"bg".*expired/);
      expect(runner.pending()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("library: drain and close", () => {
  it("drain waits for every async hook of every session", async () => {
    const { runner, project } = await setup(`
hooks:
  stop:
    - { name: bg, async: true, command: "sleep 0.5; touch done-$HOOK_SESSION_ID" }
`);
    await runner.trigger("stop", { session_id: "one" });
    await runner.trigger("stop", { session_id: "two" });
    expect(runner.pending().filter((p) => p.state === "running")).toHaveLength(2);
    await runner.drain();
    expect(fs.existsSync(project.path("done-one")) && fs.existsSync(project.path("done-two"))).toBe(true);
    expect(runner.pending().map((p) => p.state)).toEqual(["finished", "finished"]);
  });

  it("close lets hooks finish within the grace, then kills the rest (no survivor)", async () => {
    const { runner, project } = await setup(`
hooks:
  stop:
    - { name: quick, async: true, command: "sleep 0.2; touch quick-done" }
    - { name: stuck, async: true, command: "echo $$ > stuck.pid; sh -c 'echo $$ > child.pid; trap \\"\\" TERM; sleep 60' & wait" }
`);
    await runner.trigger("stop", { session_id: "S" });
    await waitFor(() => fs.existsSync(project.path("child.pid")));
    await runner.close({ graceMs: 1000 });
    expect(fs.existsSync(project.path("quick-done"))).toBe(true);
    expect(await waitGone(readPid(project.path("stuck.pid")))).toBe(true);
    expect(await waitGone(readPid(project.path("child.pid")))).toBe(true);
    expect(runner.pending().filter((p) => p.state === "running")).toEqual([]);
    await expect(runner.trigger("stop", { session_id: "S" })).rejects.toThrow();
  });
});

describe("library: detached mode (what the CLI uses), from one process", () => {
  it("pending reads the state dir, drain waits for the workers, the next trigger delivers", async () => {
    project = sandbox({
      config: `
hooks:
  stop:
    - { name: bg, async: true, command: "sleep 0.5; echo detached-result" }
`,
    });
    const config = await loadConfig({ cwd: project.dir, userConfig: false, env: project.processEnv });
    runner = createRunner(config, {
      trust: "all",
      env: project.processEnv,
      cwd: project.dir,
      stateDir: project.env.HOOKS_STATE_DIR,
      runLog: false,
      asyncMode: "detached",
      asyncWorker: [process.execPath, CLI, "__async-worker"],
    });
    const r = await runner.trigger("stop", { session_id: "D" });
    expect(r.async_started).toEqual(["bg"]);
    expect(runner.pending("D")).toMatchObject([{ name: "bg", session_id: "D", state: "running" }]);
    await runner.drain();
    expect(runner.pending()).toMatchObject([{ name: "bg", state: "finished" }]);
    const next = await runner.trigger("pre_turn", { session_id: "D" });
    expect(next.messages).toEqual([{ role: "system", content: "detached-result", hook: "bg", async: true }]);
    expect(runner.pending()).toEqual([]);
    // drain waits for the result, not for the worker's exit (it writes its code cache as it exits)
    await waitFor(() => survivors().length === 0, { timeoutMs: 5000, what: "the detached worker to exit" });
  });
});
