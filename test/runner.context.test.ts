import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRunner } from "../src/runner/createRunner.js";
import { lastAssistantText } from "../src/runner/context.js";
import { config, hook } from "./helpers/runnerConfig.js";
import { useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox({ survivors: true });

describe("the context a hook receives on stdin (docs/running-hooks.md#what-a-hook-receives)", () => {
  it("carries every fixed field, the event fields, stop_hook_active=false and other fields untouched", async () => {
    const out = path.join(sb.current.dir, "stdin.json");
    const runner = createRunner(config(sb.current.dir, [hook("capture", "stop", { command: `cat > '${out}'` })]), { runLog: false, cwd: sb.current.dir, env: {} });
    const result = await runner.trigger("Stop", { session_id: "abc", turn_count: 3, last_assistant_message: "Done: tests pass.", extra: { deep: [1, 2] } });
    expect(result.hooks[0].status).toBe("ok");
    const raw = readFileSync(out, "utf8");
    expect(raw.endsWith("}\n")).toBe(true);
    expect(JSON.parse(raw)).toEqual({
      event: "stop",
      hook_event_name: "Stop",
      session_id: "abc",
      turn_count: 3,
      last_assistant_message: "Done: tests pass.",
      cwd: sb.current.dir,
      stop_hook_active: false,
      extra: { deep: [1, 2] },
      hook: { name: "capture", project_dir: sb.current.dir },
    });
  });

  it("defaults session_id, turn_count and last_assistant_message; keeps the caller's cwd and event fields", async () => {
    const out = path.join(sb.current.dir, "stdin.json");
    const runner = createRunner(config(sb.current.dir, [hook("capture", "pre_tool_use", { command: `cat > '${out}'` })]), {
      runLog: false,
      cwd: sb.current.dir,
      env: { HOOKS_SESSION_ID: "from-env", PATH: process.env.PATH },
    });
    const result = await runner.trigger("PreToolUse", { cwd: "/somewhere", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" });
    expect(result.session_id).toBe("from-env");
    const ctx = JSON.parse(readFileSync(out, "utf8"));
    expect(ctx).toMatchObject({
      event: "pre_tool_use",
      hook_event_name: "PreToolUse",
      session_id: "from-env",
      turn_count: 0,
      last_assistant_message: null,
      cwd: "/somewhere",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "t1",
    });
    expect(ctx).not.toHaveProperty("stop_hook_active");
  });

  it("never puts context values on the command line", async () => {
    const out = path.join(sb.current.dir, "args");
    const runner = createRunner(config(sb.current.dir, [hook("argv", "user_prompt_submit", { command: `echo "$0 $*" > '${out}'; ps -o args= -p $$ >> '${out}'` })]), {
      runLog: false,
      cwd: sb.current.dir,
    });
    await runner.trigger("user_prompt_submit", { prompt: "$(touch pwned) secret-value" });
    const text = readFileSync(out, "utf8");
    expect(text).toContain("sh -c"); // the probe really ran
    expect(text).not.toContain("secret-value");
    const { existsSync } = await import("node:fs");
    expect(existsSync(path.join(sb.current.dir, "pwned"))).toBe(false);
  });
});

describe("the environment of a hook (docs/running-hooks.md#what-a-hook-receives)", () => {
  it("is the runner env plus defaults.env/hook env plus HOOKRUN and HOOK_*", async () => {
    const out = path.join(sb.current.dir, "env");
    const h = hook("envdump", "file_post_save", { command: `env > '${out}'`, env: { LOG_LEVEL: "info", MINE: "1" } });
    const runner = createRunner(config(sb.current.dir, [h]), { runLog: false, cwd: sb.current.dir, env: { PATH: process.env.PATH, FROM_RUNNER: "yes", HOOK_TOOL_NAME: "stale" } });
    await runner.trigger("file.save.post", { session_id: "s9", turn_count: 7, path: "src/a.ts" });
    const env = Object.fromEntries(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    expect(env).toMatchObject({
      FROM_RUNNER: "yes",
      LOG_LEVEL: "info",
      MINE: "1",
      HOOKRUN: "1",
      HOOK_EVENT: "file_post_save",
      HOOK_NAME: "envdump",
      HOOK_SESSION_ID: "s9",
      HOOK_TURN_COUNT: "7",
      HOOK_PROJECT_DIR: sb.current.dir,
      HOOK_FILE_PATH: "src/a.ts",
    });
    expect(env).not.toHaveProperty("HOOK_TOOL_NAME");
  });

  it("sets HOOK_TOOL_NAME for tool events", async () => {
    const out = path.join(sb.current.dir, "tool");
    const runner = createRunner(config(sb.current.dir, [hook("t", "post_tool_use", { command: `printf %s "$HOOK_TOOL_NAME" > '${out}'` })]), { runLog: false, cwd: sb.current.dir });
    await runner.trigger("post_tool_use", { tool_name: "Edit" });
    expect(readFileSync(out, "utf8")).toBe("Edit");
  });
});

describe("the working directory of a hook", () => {
  it("is the hook's cwd relative to its file's dir, else that dir, else (user layer) the caller's cwd", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.join(sb.current.dir, "pkg"));
    const runner = createRunner(
      config(sb.current.dir, [hook("rel", "stop", { command: "pwd", cwd: "pkg" }), hook("filedir", "stop", { command: "pwd" }), hook("user", "stop", { command: "pwd", dir: null })]),
      { runLog: false, cwd: sb.current.dir },
    );
    // the helper fills dir with projectDir when null; make the user hook's dir null explicitly
    runner.config.hooks[2].dir = null;
    runner.setConfig(runner.config);
    const r = await runner.trigger("stop", { cwd: "/" });
    expect(r.hooks.map((h) => h.stdout.trim())).toEqual([path.join(sb.current.dir, "pkg"), sb.current.dir, "/"]);
  });
});

describe("lastAssistantText (docs/running-hooks.md#what-a-hook-receives)", () => {
  it("skips tool-call-only assistant turns and joins the text blocks of the latest one with text", () => {
    expect(
      lastAssistantText([
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Part one." },
            { type: "tool_use", id: "1" },
            { type: "text", text: "Part two." },
          ],
        },
        { role: "user", content: [{ type: "tool_result", content: "ok" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "2" }] },
        { role: "assistant", content: null, tool_calls: [{}] },
      ]),
    ).toBe("Part one.Part two.");
  });
  it("reads plain strings and Claude Code transcript lines; null when there is no text", () => {
    expect(
      lastAssistantText([
        { role: "assistant", content: "Done." },
        { role: "user", content: "thanks" },
      ]),
    ).toBe("Done.");
    expect(lastAssistantText([{ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "T" }] } }])).toBe("T");
    expect(
      lastAssistantText([
        { role: "user", content: "x" },
        { role: "assistant", content: [{ type: "tool_use" }] },
      ]),
    ).toBeNull();
    expect(lastAssistantText([])).toBeNull();
  });
});
