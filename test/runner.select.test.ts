import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { matcherIsRegex } from "../src/config/matcher.js";
import { createRunner } from "../src/runner/createRunner.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox({ survivors: true });

const ran = (r: { hooks: { name: string; status: string }[] }): string[] => r.hooks.filter((h) => h.status !== "skipped").map((h) => h.name);

describe("order: priority descending, then declaration order across layers (docs/running-hooks.md#which-hooks-run-and-in-what-order)", () => {
  it("runs user, project and local hooks from real files in that order", async () => {
    const xdg = path.join(sb.current.dir, "xdg");
    const project = path.join(sb.current.dir, "repo");
    mkdirSync(path.join(xdg, "hookrun"), { recursive: true });
    mkdirSync(project);
    const log = path.join(sb.current.dir, "order.log");
    const cmd = (n: string): string => `echo ${n} >> '${log}'`;
    writeFileSync(path.join(xdg, "hookrun", "hooks.yaml"), `hooks:\n  stop:\n    - {name: u-low, command: "${cmd("u-low")}", priority: -5}\n    - {name: u-zero, command: "${cmd("u-zero")}"}\n`);
    writeFileSync(
      path.join(project, "hooks.yaml"),
      `hooks:\n  stop:\n    - {name: p-zero, command: "${cmd("p-zero")}"}\n    - {name: p-high, command: "${cmd("p-high")}", priority: 10}\n    - {name: p-zero2, command: "${cmd("p-zero2")}"}\n`,
    );
    writeFileSync(path.join(project, "hooks.local.yaml"), `hooks:\n  stop:\n    - {name: l-zero, command: "${cmd("l-zero")}"}\n    - {name: l-high, command: "${cmd("l-high")}", priority: 10}\n`);
    const cfg = await loadConfig({ cwd: project, env: { XDG_CONFIG_HOME: xdg } });
    const result = await createRunner(cfg, { runLog: false, cwd: project, trust: "all" }).trigger("stop", {});
    const expected = ["p-high", "l-high", "u-zero", "p-zero", "p-zero2", "l-zero", "u-low"];
    expect(result.hooks.map((h) => h.name)).toEqual(expected);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(expected);
  });
});

describe("selection (docs/configuration.md#matchers-and-paths, docs/running-hooks.md#which-hooks-run-and-in-what-order)", () => {
  const tools = ["Bash", "Edit", "MultiEdit", "Read", "mcp__fs__write"];
  async function matching(matcher: string | undefined): Promise<string[]> {
    const runner = createRunner(config(sb.current.dir, [hook("m", "pre_tool_use", { command: "true", matcher })]), { runLog: false, cwd: sb.current.dir });
    const out: string[] = [];
    for (const t of tools) if ((await runner.trigger("pre_tool_use", { tool_name: t })).hooks.length) out.push(t);
    return out;
  }

  it("matcher: an exact, case-sensitive list split on | and ,", async () => {
    expect(await matching("Bash|Edit")).toEqual(["Bash", "Edit"]);
    expect(await matching("Edit, Read")).toEqual(["Edit", "Read"]);
    expect(await matching("bash")).toEqual([]);
  });
  it("matcher: anything else is an unanchored regex", async () => {
    expect(await matching("Edit|Write.*")).toEqual(["Edit", "MultiEdit"]);
    expect(await matching("^mcp__")).toEqual(["mcp__fs__write"]);
  });
  it("matcher: the loader and the runner read it by one rule, trimmed (a YAML block scalar's newline, a tab)", async () => {
    // Both used to differ here: the loader called "Bash|Edit\n" a regex, the runner a list.
    for (const m of ["Bash|Edit\n", "\tBash , Edit "]) {
      expect(matcherIsRegex(m)).toBe(false);
      expect(await matching(m)).toEqual(["Bash", "Edit"]);
    }
    expect(matcherIsRegex(" * ")).toBe(false);
    expect(await matching(" * ")).toEqual(tools);
    const file = path.join(sb.current.dir, "hooks.yaml");
    writeFileSync(file, "hooks:\n  pre_tool_use:\n    - name: m\n      command: 'true'\n      matcher: |\n        Bash|Edit\n");
    const cfg = await loadConfig({ cwd: sb.current.dir, env: {} });
    expect(cfg.hooks[0]?.matcher).toBe("Bash|Edit\n");
    expect(matcherIsRegex(cfg.hooks[0]!.matcher!)).toBe(false);
  });
  it("matcher: omitted, empty or * match everything", async () => {
    expect(await matching(undefined)).toEqual(tools);
    expect(await matching("")).toEqual(tools);
    expect(await matching("*")).toEqual(tools);
  });

  it("paths: globs relative to the project dir; a relative path resolves against the context cwd; no path, no run", async () => {
    const runner = createRunner(config(sb.current.dir, [hook("ts", "file_post_save", { command: "true", paths: ["src/**/*.ts"] })]), { runLog: false, cwd: sb.current.dir });
    const fire = async (ctx: Record<string, unknown>): Promise<boolean> => (await runner.trigger("file_post_save", ctx)).hooks.length === 1;
    expect(await fire({ path: "src/a/b.ts" })).toBe(true);
    expect(await fire({ path: path.join(sb.current.dir, "src/x.ts") })).toBe(true);
    expect(await fire({ path: "b.ts", cwd: path.join(sb.current.dir, "src") })).toBe(true);
    expect(await fire({ path: "src/a/b.js" })).toBe(false);
    expect(await fire({ path: "/elsewhere/src/a.ts" })).toBe(false);
    expect(await fire({})).toBe(false);
  });

  it("enabled:false, HOOKS_DISABLED, HOOKS=0/false/off, --only and --skip", async () => {
    const hooks = [hook("a", "stop", { command: "true" }), hook("b", "stop", { command: "true" }), hook("off", "stop", { command: "true", enabled: false })];
    const run = async (env: NodeJS.ProcessEnv, opts = {}): Promise<string[]> =>
      ran(await createRunner(config(sb.current.dir, hooks), { runLog: false, cwd: sb.current.dir, env: { PATH: process.env.PATH, ...env } }).trigger("stop", {}, opts));
    expect(await run({})).toEqual(["a", "b"]);
    expect(await run({ HOOKS_DISABLED: "b, x" })).toEqual(["a"]);
    for (const v of ["0", "false", "OFF"]) expect(await run({ HOOKS: v })).toEqual([]);
    expect(await run({ HOOKS: "1" })).toEqual(["a", "b"]);
    expect(await run({}, { only: ["b"] })).toEqual(["b"]);
    expect(await run({}, { skip: ["a"] })).toEqual(["b"]);
  });

  it("resolves aliases and any spelling of the event", async () => {
    const runner = createRunner(config(sb.current.dir, [hook("pre", "pre_tool_use", { command: "true" })]), { runLog: false, cwd: sb.current.dir });
    for (const name of ["pre_tool_use", "PreToolUse", "tool.execute.pre", "tool_pre_execute", "pre-tool-use"]) {
      expect((await runner.trigger(name, {})).hooks.map((h) => h.name)).toEqual(["pre"]);
    }
    await expect(runner.trigger("pre_tool_usee", {})).rejects.toThrow(/did you mean `pre_tool_use`/);
  });

  it("an event with no matching hook returns an empty result without spawning or touching the disk", async () => {
    const state = path.join(sb.current.dir, "state");
    const runner = createRunner(config(sb.current.dir, [hook("a", "stop", { command: "true" })]), { cwd: sb.current.dir, stateDir: state });
    const r = await runner.trigger("session_start", { session_id: "x" });
    expect(r).toMatchObject({ event: "session_start", session_id: "x", hooks: [], messages: [], blocked: false, continue: true });
    const { existsSync } = await import("node:fs");
    expect(existsSync(state)).toBe(false);
  });

  it("async hooks are not run as sync: they start in the background (docs/async.md)", async () => {
    const marker = path.join(sb.current.dir, "ran");
    const runner = createRunner(config(sb.current.dir, [hook("bg", "stop", { command: `touch '${marker}'`, async: true }), hook("fg", "stop", { command: "true" })]), {
      runLog: false,
      cwd: sb.current.dir,
    });
    const r = await runner.trigger("stop", {});
    expect(r.hooks.map((h) => h.name)).toEqual(["fg"]);
    expect(r.async_started).toEqual(["bg"]);
    expect(r.warnings).toEqual([]);
    await runner.drain();
    const { existsSync } = await import("node:fs");
    expect(existsSync(marker)).toBe(true);
  });
});
