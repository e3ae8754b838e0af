import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { alive, useSandbox, waitGone } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

const sb = useSandbox({ survivors: true });
const escaped: number[] = [];
afterEach(() => {
  for (const pid of escaped.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

function waitForFile(file: string, ms = 5000): Promise<string> {
  return waitFor(() => (existsSync(file) && readFileSync(file, "utf8").trim()) || null, { timeoutMs: ms, intervalMs: 20, what: `${file} to appear` });
}

const runnerFor = (...hooks: ReturnType<typeof hook>[]) => createRunner(config(sb.current.dir, hooks), { runLog: false, cwd: sb.current.dir });

describe("stdin (docs/running-hooks.md#what-a-hook-receives): a hook that never reads a large context works", () => {
  it("10 MiB context, hook exits at once or after a while without reading", async () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const r = await runnerFor(hook("quick", "stop", { command: "exit 0" }), hook("slow", "stop", { command: "sleep 0.3; echo done" })).trigger("stop", { blob: big });
    expect(r.hooks.map((h) => h.status)).toEqual(["ok", "ok"]);
    expect(r.messages.map((m) => m.content)).toEqual(["done"]);
  });
});

describe("output capture (docs/running-hooks.md#output-caps)", () => {
  it("a hook printing 200 MB: result truncated at max_output, memory stays bounded", async () => {
    const maxOutput = 1024 * 1024;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const r = await runnerFor(hook("flood", "post_tool_use", { command: "head -c 200000000 /dev/zero | tr '\\0' a; echo tail >&2", maxOutput })).trigger("post_tool_use", {});
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const h = r.hooks[0];
    expect(h.status).toBe("ok");
    expect(h.truncated).toBe(true);
    expect(h.stdout.length).toBe(maxOutput);
    expect(h.stderr).toBe("tail\n");
    // 200 MB went through; past the cap a `cat` drains the pipe outside this process, so the
    // process grew by little (reading and dropping here grew it by 50-64 MiB).
    expect(peak - before).toBeLessThan(32 * 1024 * 1024);
    expect(await drainersGone(process.pid)).toEqual([]);
  });

  it("a hook flooding both streams forever times out; its drainers do not outlive the result", async () => {
    const r = await runnerFor(hook("forever", "stop", { command: "yes err >&2 & yes out", maxOutput: 64 * 1024, timeoutMs: 800 })).trigger("stop", {});
    const h = r.hooks[0];
    expect(h.status).toBe("timed_out");
    expect(h.truncated).toBe(true);
    expect(h.stdout.length).toBe(64 * 1024);
    expect(h.stdout.startsWith("out\nout\n")).toBe(true);
    expect(h.stderr.length).toBe(64 * 1024);
    expect(h.stderr.startsWith("err\nerr\n")).toBe(true);
    expect(await drainersGone(process.pid)).toEqual([]);
  });
});

describe("output capture: the hand-off when the cap is met exactly", () => {
  it("a stream that filled its cap to the byte is handed off on its next bytes", async () => {
    const cap = 64 * 1024;
    // session_end cannot block: on a gate event output cut at the cap fails the hook (test/failClosed.test.ts).
    const runner = runnerFor(hook("exact", "session_end", { command: `head -c ${cap} /dev/zero; sleep 0.3; echo more; sleep 1.5`, maxOutput: cap }));
    const pending = runner.trigger("session_end", {});
    const seen = await waitFor(() => (drainersOf(process.pid).length > 0 ? drainersOf(process.pid) : null), { timeoutMs: 1500, intervalMs: 25, what: "the drainer" }).catch(() => []);
    expect(seen.length).toBe(1);
    const h = (await pending).hooks[0];
    expect(h.status).toBe("ok");
    expect(h.truncated).toBe(true);
    expect(h.stdout.length).toBe(cap);
    expect(await drainersGone(process.pid)).toEqual([]);
  });
});

/** Drainers are SIGKILLed when the result is built; give the kernel a moment to finish them. */
async function drainersGone(ppid: number, ms = 2000): Promise<number[]> {
  await waitFor(() => drainersOf(ppid).length === 0, { timeoutMs: ms, intervalMs: 20, what: "the drainers to be gone" }).catch(() => {});
  return drainersOf(ppid);
}

/** Live `cat` processes whose parent is `ppid` (read from /proc). */
function drainersOf(ppid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      const fields = rest?.split(" ") ?? [];
      if (comm === "cat" && Number(fields[1]) === ppid && fields[0] !== "Z") found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe("timeouts and process groups (docs/running-hooks.md#timeouts-and-process-groups)", () => {
  it("timeout: the whole group gets SIGTERM, a grandchild ignoring it is SIGKILLed; no survivor", async () => {
    const pidFile = path.join(sb.current.dir, "gc.pid");
    const cmd = `sh -c 'trap "" TERM; echo $$ > "${pidFile}"; while :; do sleep 0.05; done' & wait`;
    const runner = runnerFor(hook("stubborn", "stop", { command: cmd, timeoutMs: 500 }));
    const started = Date.now();
    const pending = runner.trigger("stop", {});
    const gc = Number(await waitForFile(pidFile));
    const r = await pending;
    const took = Date.now() - started;
    expect(r.hooks[0]).toMatchObject({ status: "timed_out", error: "timed out after 500ms" });
    expect(took).toBeLessThan(500 + 2500 + 3000); // timeout + kill grace + generous slack
    expect(took).toBeGreaterThanOrEqual(500);
    expect(await waitGone(gc, 3000)).toBe(true);
  });

  it("a descendant that escaped with setsid and holds the pipes does not hold up the result", async () => {
    const pidFile = path.join(sb.current.dir, "escaped.pid");
    const cmd = `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 60' & while [ ! -s "${pidFile}" ]; do sleep 0.02; done; echo started`;
    const started = Date.now();
    const r = await runnerFor(hook("escape", "stop", { command: cmd })).trigger("stop", {});
    const pid = Number(readFileSync(pidFile, "utf8"));
    escaped.push(pid);
    expect(alive(pid)).toBe(true); // it really escaped and was still holding the pipe
    expect(r.hooks[0]).toMatchObject({ status: "ok", stdout: "started\n" });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("same on timeout: timed_out returns even though the escaped process keeps the pipes", async () => {
    const pidFile = path.join(sb.current.dir, "escaped.pid");
    const cmd = `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 60' & sleep 60`;
    const started = Date.now();
    const r = await runnerFor(hook("escape", "stop", { command: cmd, timeoutMs: 300 })).trigger("stop", {});
    escaped.push(Number(await waitForFile(pidFile)));
    expect(r.hooks[0].status).toBe("timed_out");
    expect(Date.now() - started).toBeLessThan(300 + 2500 + 3000);
  });

  it("leftover members of a hook's group are terminated after it exits (a sync hook does not outlive the run)", async () => {
    const pidFile = path.join(sb.current.dir, "bg.pid");
    const runner = runnerFor(hook("bg", "stop", { command: `sleep 60 >/dev/null 2>&1 & echo $! > "${pidFile}"; echo left` }));
    const r = await runner.trigger("stop", {});
    expect(r.hooks[0].status).toBe("ok");
    await runner.drain();
    expect(await waitGone(Number(readFileSync(pidFile, "utf8")), 3000)).toBe(true);
  });

  it("close() kills every running group: running hooks end cancelled, later ones too, new triggers reject", async () => {
    const pidFile = path.join(sb.current.dir, "long.pid");
    const runner = runnerFor(hook("long", "stop", { command: `sleep 60 & echo $! > "${pidFile}"; wait` }), hook("next", "stop", { command: "true", priority: -1 }));
    const pending = runner.trigger("stop", {});
    const pid = Number(await waitForFile(pidFile));
    await runner.close();
    const r = await pending;
    expect(r.hooks.map((h) => h.status)).toEqual(["cancelled", "cancelled"]);
    expect(await waitGone(pid, 3000)).toBe(true);
    await expect(runner.trigger("stop", {})).rejects.toThrow(/closed/);
  });

  it("an abort signal cancels the trigger's hooks", async () => {
    const runner = runnerFor(hook("long", "stop", { command: "sleep 60" }));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await runner.trigger("stop", {}, { signal: ac.signal });
    expect(r.hooks[0].status).toBe("cancelled");
  });
});

describe("spawn errors are never decisions (docs/running-hooks.md#when-a-hook-fails)", () => {
  it("a missing command (shell exit 127) on a gate event is spawn_error, not a block", async () => {
    const r = await runnerFor(hook("missing", "pre_tool_use", { command: "no-such-command-hookrun-xyz --flag" }), hook("after", "pre_tool_use", { command: "true" })).trigger("pre_tool_use", {});
    expect(r.hooks[0]).toMatchObject({ status: "spawn_error", exit_code: 127, decision: null });
    expect(r.hooks[0].error).toMatch(/command not found \(exit 127\)/);
    expect(r.blocked).toBe(false);
    expect(r.hooks[1].status).toBe("ok");
  });

  it("a script without the execute bit (exit 126) is spawn_error", async () => {
    writeFileSync(path.join(sb.current.dir, "script.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(path.join(sb.current.dir, "script.sh"), 0o644);
    const r = await runnerFor(hook("noexec", "stop", { command: "./script.sh" })).trigger("stop", {});
    expect(r.hooks[0]).toMatchObject({ status: "spawn_error", exit_code: 126 });
  });

  it("args (exec form) with a missing program, a missing shell, a bad cwd: spawn_error naming the cause", async () => {
    const r = await runnerFor(
      hook("noprog", "stop", { args: ["/nonexistent/prog", "--x"] }),
      hook("noshell", "stop", { command: "true", shell: "/nonexistent/shell" }),
      hook("badcwd", "stop", { command: "true", cwd: "no/such/dir" }),
    ).trigger("stop", {});
    expect(r.hooks.map((h) => h.status)).toEqual(["spawn_error", "spawn_error", "spawn_error"]);
    expect(r.hooks[0].error).toMatch(/\/nonexistent\/prog.*not found/);
    expect(r.hooks[1].error).toMatch(/shell `\/nonexistent\/shell` not found/);
    expect(r.hooks[2].error).toMatch(/working directory .*no\/such\/dir does not exist/);
    expect(r.blocked).toBe(false);
  });

  it("args run with no shell: metacharacters stay literal", async () => {
    const r = await runnerFor(hook("exec", "stop", { args: ["printf", "%s|%s", "$HOME", "a;b"] })).trigger("stop", {});
    expect(r.hooks[0].stdout).toBe("$HOME|a;b");
  });

  it("bash as the shell", async () => {
    const r = await runnerFor(hook("b", "stop", { command: 'echo "${BASH_VERSION:+bash}"', shell: "bash" })).trigger("stop", {});
    expect(r.hooks[0].stdout).toBe("bash\n");
  });
});
