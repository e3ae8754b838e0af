import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STARTER_CONFIG } from "../src/config/starterConfig.js";
import { runCli, runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const y = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("hooks validate", () => {
  it("prints `valid: N hooks in FILES` and exits 0; warnings go to stderr and do not fail", async () => {
    const t = sandbox();
    t.write("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "      command: echo", "      matcher: Bash", "    - name: b", "      command: echo"));
    t.write("hooks.local.yaml", y("hooks:", "  stop:", "    - name: b", "      enabled: false"));
    const r = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("valid: 2 hooks in hooks.yaml, hooks.local.yaml (1 warning)\n");
    expect(r.stderr).toMatch(/^hooks\.yaml:5:16: warning: `matcher` has no effect on `stop`/);
  });

  it("--json reports valid, files, errors and warnings; exit 78 when invalid", async () => {
    const t = sandbox();
    t.write("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "      command: echo", "      timeout: forever"));
    const bad = await runMain(["validate", "--json"], { cwd: t.dir, env: t.env });
    expect(bad.code).toBe(78);
    const report = JSON.parse(bad.stdout);
    // One shape whether valid or not; paths relative to the working directory, as in the text output.
    expect(report).toEqual({
      valid: false,
      message: "config is invalid: 1 error in hooks.yaml; fix it and run `hooks validate` again",
      hooks: 0,
      files: [],
      errors: [{ file: "hooks.yaml", line: 5, col: 16, severity: "error", message: expect.stringMatching(/bad duration "forever"/) }],
      warnings: [],
    });
    t.write("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "      command: echo"));
    const good = await runMain(["validate", "--json"], { cwd: t.dir, env: t.env });
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual({ valid: true, message: "valid: 1 hook in hooks.yaml", hooks: 1, files: [{ path: "hooks.yaml", layer: "project" }], errors: [], warnings: [] });
  });

  it("--config and -C pick the file; errors never show a stack trace unless --verbose", async () => {
    const t = sandbox();
    t.write("sub/custom.yaml", y("hooks:", "  stop: nope"));
    const r = await runMain(["-C", "sub", "--config", "custom.yaml", "validate"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/^custom\.yaml:2:9: error: the hooks of `stop` must be a list/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("hooks list", () => {
  it("shows each hook with event, priority, async, timeout, state, FILE:LINE and the file that decided its state, in run order", async () => {
    const t = sandbox();
    t.write(
      "hooks.yaml",
      y(
        "hooks:",
        "  stop:",
        "    - name: low",
        "      command: echo low",
        "    - name: high",
        "      command: echo high",
        "      priority: 10",
        "      async: true",
        "      timeout: 2m",
        "  session_start:",
        "    - name: hello",
        "      args: [echo, hi]",
      ),
    );
    t.write("hooks.local.yaml", y("hooks:", "  stop:", "    - name: low", "      enabled: false"));
    const r = await runMain(["list"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(/\s{2,}/));
    expect(rows[0]).toEqual(["EVENT", "NAME", "PRIO", "ASYNC", "TIMEOUT", "STATE", "SOURCE", "STATE FROM", "COMMAND"]);
    expect(rows.slice(1)).toEqual([
      ["session_start", "hello", "0", "no", "1m", "enabled", "hooks.yaml:11", "-", '["echo","hi"]'],
      ["stop", "high", "10", "yes", "2m", "enabled", "hooks.yaml:5", "-", "echo high"],
      ["stop", "low", "0", "no", "1m", "disabled", "hooks.yaml:3", "hooks.local.yaml:4", "echo low"],
    ]);
  });

  it("--json gives the same data, each place as {file, line, col, layer}", async () => {
    const t = sandbox();
    t.write("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "      command: echo", "      enabled: false"));
    const r = await runMain(["list", "--json"], { cwd: t.dir, env: t.env });
    expect(JSON.parse(r.stdout)).toEqual([
      {
        event: "stop",
        name: "a",
        description: null,
        command: "echo",
        args: null,
        priority: 0,
        async: false,
        timeout_ms: 60000,
        enabled: false,
        disabled_by_env: null,
        matcher: null,
        if: null,
        paths: null,
        on_failure: "continue",
        dialect: "native",
        source: { file: "hooks.yaml", line: 3, col: 7, layer: "project" },
        enabled_source: { file: "hooks.yaml", line: 5, col: 7, layer: "project" },
        overridden_by: [],
      },
    ]);
  });

  it("shows hooks the environment turns off (HOOKS_DISABLED, HOOKS=0) as a run would see them", async () => {
    const t = sandbox();
    t.write("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "      command: echo a", "    - name: b", "      command: echo b", "    - name: c", "      command: echo c", "      enabled: false"));
    const rows = async (env: Record<string, string>) =>
      (await runMain(["list"], { cwd: t.dir, env: { ...t.env, ...env } })).stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s{2,}/).slice(1, 8));
    expect(await rows({ HOOKS_DISABLED: "b, c" })).toEqual([
      ["a", "0", "no", "1m", "enabled", "hooks.yaml:3", "-"],
      ["b", "0", "no", "1m", "disabled", "hooks.yaml:5", "HOOKS_DISABLED"],
      ["c", "0", "no", "1m", "disabled", "hooks.yaml:7", "hooks.yaml:9"],
    ]);
    expect((await rows({ HOOKS: "0" })).map((r) => [r[0], r[4], r[6]])).toEqual([
      ["a", "disabled", "HOOKS=0"],
      ["b", "disabled", "HOOKS=0"],
      ["c", "disabled", "hooks.yaml:9"],
    ]);
    const json = JSON.parse((await runMain(["list", "--json"], { cwd: t.dir, env: { ...t.env, HOOKS_DISABLED: "b" } })).stdout) as { name: string; enabled: boolean; disabled_by_env: string | null }[];
    expect(json.map((h) => [h.name, h.enabled, h.disabled_by_env])).toEqual([
      ["a", true, null],
      ["b", false, "HOOKS_DISABLED"],
      ["c", false, null],
    ]);
  });

  it("an invalid config exits 78 with its diagnostics", async () => {
    const t = sandbox();
    t.write("hooks.yaml", y("hooks:", "  stpo: []"));
    const r = await runMain(["list"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/^hooks\.yaml:2:3: error: unknown event `stpo`/);
  });
});

describe("hooks init", () => {
  it("writes the commented starter with a schema modeline, git-ignores hooks.local.yaml, and the result validates", async () => {
    const t = sandbox();
    t.write(".gitignore", "node_modules/");
    const r = await runMain(["init"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote hooks\.yaml, added hooks\.local\.yaml to \.gitignore/);
    const text = readFileSync(t.path("hooks.yaml"), "utf8");
    expect(text).toBe(STARTER_CONFIG);
    expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=./node_modules/hookrun/schema/hooks.schema.json");
    expect(readFileSync(t.path(".gitignore"), "utf8")).toBe("node_modules/\n# hookrun: personal overrides\nhooks.local.yaml\nhooks.local.yml\nhooks.local.json\n");
    const v = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(v.code).toBe(0);
    expect(v.stderr).toBe("");
    const list = JSON.parse((await runMain(["list", "--json"], { cwd: t.dir, env: t.env })).stdout) as { event: string }[];
    expect(new Set(list.map((h) => h.event))).toEqual(new Set(["session_start", "pre_tool_use", "post_tool_use", "file_post_save", "stop"]));
  });

  it("a .gitignore that is a FIFO is left alone, not waited on (docs/limits.md)", async () => {
    const t = sandbox();
    execFileSync("mkfifo", [t.path(".gitignore")]);
    const r = await runCli(["init"], { cwd: t.dir, env: t.env, timeoutMs: 10_000 });
    expect(r.signal).toBe(null);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/could not read \.gitignore: add hooks\.local\.yaml to it yourself/);
  });

  it("keeps an existing file (exit 1) unless --force, and does not repeat .gitignore lines", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks: {}\n");
    const r = await runMain(["init"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("hooks: hooks.yaml already exists: keep it, or run `hooks init --force` to overwrite it\n");
    expect(readFileSync(t.path("hooks.yaml"), "utf8")).toBe("hooks: {}\n");
    expect(existsSync(t.path(".gitignore"))).toBe(false);
    expect((await runMain(["init", "--force"], { cwd: t.dir, env: t.env })).code).toBe(0);
    expect((await runMain(["init", "--force"], { cwd: t.dir, env: t.env })).code).toBe(0);
    expect(readFileSync(t.path("hooks.yaml"), "utf8")).toBe(STARTER_CONFIG);
    expect(readFileSync(t.path(".gitignore"), "utf8").match(/hooks\.local\.yaml/g)).toHaveLength(1);
  });

  it("refuses --force when another candidate (hooks.json) exists, since two files would be an error", async () => {
    const t = sandbox();
    t.write("hooks.json", "{}");
    const r = await runMain(["init", "--force"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hooks\.json already exists.*delete it first/);
    expect(existsSync(t.path("hooks.yaml"))).toBe(false);
  });
});
