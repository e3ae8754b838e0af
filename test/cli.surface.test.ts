import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/cli/commands.js";
import { useColor } from "../src/cli/context.js";
import { EXIT_CODES } from "../src/cli/exitCodes.js";
import { main } from "../src/cli/main.js";
import { ENV_VARS } from "../src/env.js";
import { runCli } from "./helpers/cli.js";
import { sandbox, type Sandbox } from "./helpers/sandbox.js";

// The CLI's surface: help, colour, one error prefix, one JSON shape (docs/cli.md#global-flags,
// docs/cli.md#exit-codes, docs/cli.md#json-shapes).
// In process through main(argv, io), as an embedder or the bin calls it.

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function hooks(argv: string[], opts: { cwd: string; env?: Record<string, string>; tty?: boolean; input?: string } = { cwd: process.cwd() }): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: { isTTY: opts.tty ?? false, write: (s) => ((stdout += String(s)), true) },
    stderr: { isTTY: false, write: (s) => ((stderr += String(s)), true) },
    stdin: Readable.from(opts.input === undefined ? [] : [opts.input]),
    env: { HOME: opts.cwd, ...opts.env },
    cwd: opts.cwd,
  });
  return { code, stdout, stderr };
}

const y = (...lines: string[]) => `${lines.join("\n")}\n`;

function project(): Sandbox {
  const t = sandbox();
  t.write("hooks.yaml", y("hooks:", "  stop:", "    - name: lint", "      command: echo linted"));
  return t;
}

describe("help", () => {
  it("hooks --help lists every exit code, every environment variable and an example per command", async () => {
    const r = await hooks(["--help"], { cwd: process.cwd() });
    expect(r.code).toBe(0);
    const section = (title: string) => r.stdout.slice(r.stdout.indexOf(`${title}:\n`)).split("\n\n")[0];
    for (const { code, meaning } of EXIT_CODES) expect(section("Exit codes")).toMatch(new RegExp(`^  ${code}\\s+${meaning.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"));
    for (const v of ENV_VARS) expect(section("Environment variables")).toMatch(new RegExp(`^  ${v.name}\\s+\\S`, "m"));
    const leaves = COMMANDS.filter((c) => !c.hidden);
    expect(leaves.length).toBeGreaterThan(10);
    for (const c of leaves) expect(section("Examples").split("\n")).toContain(`  ${c.example}`);
    expect(r.stdout).toMatch(/--color <when>/);
  });

  it("a command's help (hooks help CMD, CMD --help) shows its example", async () => {
    for (const argv of [
      ["help", "list"],
      ["list", "--help"],
    ]) {
      const r = await hooks(argv, { cwd: process.cwd() });
      expect(r.code, argv.join(" ")).toBe(0);
      expect(r.stdout).toContain("Example:\n  hooks list --event pre_tool_use\n");
    }
  });
});

describe("colour: --color, NO_COLOR, FORCE_COLOR, then the terminal", () => {
  it("the flag wins, then NO_COLOR, then FORCE_COLOR (0/false: none), then isTTY", () => {
    expect(useColor(undefined, {}, true)).toBe(true);
    expect(useColor(undefined, {}, false)).toBe(false);
    expect(useColor("auto", {}, false)).toBe(false);
    expect(useColor("always", { NO_COLOR: "1" }, false)).toBe(true);
    expect(useColor("never", { FORCE_COLOR: "1" }, true)).toBe(false);
    expect(useColor(false, { FORCE_COLOR: "1" }, true)).toBe(false);
    expect(useColor(undefined, { NO_COLOR: "1", FORCE_COLOR: "1" }, true)).toBe(false);
    expect(useColor(undefined, { FORCE_COLOR: "1" }, false)).toBe(true);
    expect(useColor(undefined, { FORCE_COLOR: "3" }, false)).toBe(true);
    expect(useColor(undefined, { FORCE_COLOR: "0" }, true)).toBe(false);
    expect(useColor(undefined, { FORCE_COLOR: "false" }, true)).toBe(false);
    expect(useColor(undefined, { FORCE_COLOR: "" }, true)).toBe(true);
    expect(useColor(undefined, { NO_COLOR: "" }, true)).toBe(true);
  });

  it("hooks run paints its report by --color=always|never, --no-color and FORCE_COLOR", async () => {
    const t = project();
    const env = { ...t.env, HOOKS_TRUST: "1" };
    const painted = async (argv: string[], extra: Record<string, string> = {}, tty = false) =>
      (await hooks([...argv, "run", "stop"], { cwd: t.dir, env: { ...env, ...extra }, tty })).stdout.includes("\x1b[32m✓");
    expect(await painted([])).toBe(false);
    expect(await painted(["--color=always"])).toBe(true);
    expect(await painted(["--color", "always"])).toBe(true);
    expect(await painted(["--color=always"], { NO_COLOR: "1" })).toBe(true);
    expect(await painted([], { FORCE_COLOR: "1" })).toBe(true);
    expect(await painted([], { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(false);
    expect(await painted(["--color=never"], { FORCE_COLOR: "1" })).toBe(false);
    expect(await painted(["--no-color"], { FORCE_COLOR: "1" })).toBe(false);
    expect(await painted(["--color=auto"], { FORCE_COLOR: "1" })).toBe(true);
  });

  it("an unknown --color value is a usage error", async () => {
    const r = await hooks(["--color=blue", "events"], { cwd: process.cwd() });
    expect(r.code).toBe(64);
    expect(r.stderr).toBe("hooks: option '--color <when>' argument 'blue' is invalid. Allowed choices are auto, always, never.\n");
  });
});

describe("one error prefix", () => {
  it("commander's errors start with `hooks: ` as hookrun's own do, suggestions on the same line", async () => {
    const cwd = process.cwd();
    expect((await hooks(["valdate"], { cwd })).stderr).toBe("hooks: unknown command 'valdate'; did you mean validate?\n");
    expect((await hooks(["list", "--jsn"], { cwd })).stderr).toBe("hooks: unknown option '--jsn'; did you mean --json?\n");
    expect((await hooks(["run"], { cwd })).stderr).toBe("hooks: missing required argument 'event'\n");
    expect((await hooks(["list", "extra"], { cwd })).stderr).toMatch(/^hooks: too many arguments for 'list'/);
    for (const argv of [["valdate"], ["list", "--jsn"], ["run"], ["--color=x", "list"]]) {
      const r = await hooks(argv, { cwd });
      expect(r.code, argv.join(" ")).toBe(64);
      expect(
        r.stderr
          .split("\n")
          .filter(Boolean)
          .every((l) => l.startsWith("hooks: ")),
        r.stderr,
      ).toBe(true);
    }
  });

  it("the built CLI prints the same (the prefix does not depend on the door)", async () => {
    const r = await runCli(["list", "--jsn"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe("hooks: unknown option '--jsn'; did you mean --json?\n");
  });
});

describe("--json: one shape per concept, errors as JSON on stdout", () => {
  it("config, usage, context and unknown-hook errors are {error: {code, message, …}} on stdout, with the same exit codes", async () => {
    const t = project();
    const env = { ...t.env, HOOKS_TRUST: "1" };
    const usage = await hooks(["list", "--jsn", "--json"], { cwd: t.dir, env });
    expect(usage).toMatchObject({ code: 64, stderr: "" });
    expect(JSON.parse(usage.stdout)).toEqual({ error: { code: "usage", message: "unknown option '--jsn'; did you mean --json?" } });

    const event = await hooks(["run", "stpo", "--json"], { cwd: t.dir, env });
    expect(event).toMatchObject({ code: 64, stderr: "" });
    expect(JSON.parse(event.stdout).error).toMatchObject({ code: "usage", message: expect.stringMatching(/unknown event `stpo`/), suggestions: ["stop"] });

    const context = await hooks(["run", "stop", "--output", "json"], { cwd: t.dir, env, input: "[1]" });
    expect(context).toMatchObject({ code: 65, stderr: "" });
    expect(JSON.parse(context.stdout)).toEqual({ error: { code: "context", message: "the context from stdin is an array, not a JSON object; pass one JSON object" } });

    const only = await hooks(["run", "stop", "--json", "--only", "lnt"], { cwd: t.dir, env });
    expect(only).toMatchObject({ code: 1, stderr: "" });
    expect(JSON.parse(only.stdout)).toEqual({ error: { code: "unknown-hook", message: "--only: no hook named lnt; did you mean lint?", names: ["lnt"] } });

    t.write("hooks.yaml", y("hooks:", "  stpo: []"));
    const config = await hooks(["list", "--json"], { cwd: t.dir, env });
    expect(config).toMatchObject({ code: 78, stderr: "" });
    expect(JSON.parse(config.stdout)).toEqual({
      error: {
        code: "config",
        message: "config is invalid: 1 error in hooks.yaml; fix it and run `hooks validate` again",
        diagnostics: [expect.objectContaining({ file: "hooks.yaml", line: 2, col: 3, severity: "error", message: expect.stringMatching(/unknown event `stpo`/) })],
      },
    });
  });

  it("an untrusted config is a trust error in JSON (exit 77)", async () => {
    const t = project();
    const r = await hooks(["run", "stop", "--json"], { cwd: t.dir, env: t.env });
    expect(r).toMatchObject({ code: 77, stderr: "" });
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "trust", files: ["hooks.yaml"] });
  });

  it("without --json the same errors stay one `hooks: ` sentence on stderr", async () => {
    const t = project();
    const r = await hooks(["run", "stop", "--only", "lnt"], { cwd: t.dir, env: { ...t.env, HOOKS_TRUST: "1" } });
    expect(r).toEqual({ code: 1, stdout: "", stderr: "hooks: --only: no hook named lnt; did you mean lint?\n" });
  });

  it("validate --json has one shape, valid or not, with paths relative to the working directory", async () => {
    const t = project();
    const keys = ["valid", "message", "hooks", "files", "errors", "warnings"];
    const good = JSON.parse((await hooks(["validate", "--json"], { cwd: t.dir, env: t.env })).stdout);
    t.write("hooks.yaml", y("hooks:", "  stpo: []"));
    const bad = await hooks(["validate", "--json"], { cwd: t.dir, env: t.env });
    expect(bad.code).toBe(78);
    expect(Object.keys(good)).toEqual(keys);
    expect(Object.keys(JSON.parse(bad.stdout))).toEqual(keys);
    expect(JSON.parse(bad.stdout).errors[0]).toMatchObject({ file: "hooks.yaml", line: 2, col: 3 });
    const empty = sandbox();
    const missing = await hooks(["validate", "--json"], { cwd: empty.dir, env: empty.env });
    expect(missing.code).toBe(78);
    expect(JSON.parse(missing.stdout)).toMatchObject({ valid: false, message: expect.stringMatching(/^no config found/), hooks: 0, files: [], errors: [] });
  });

  it("run --dry-run --json lists the hooks in the shape of list --json", async () => {
    const t = project();
    const env = { ...t.env, HOOKS_TRUST: "1" };
    const listed = JSON.parse((await hooks(["list", "--json"], { cwd: t.dir, env })).stdout);
    const plan = JSON.parse((await hooks(["run", "stop", "--dry-run", "--json"], { cwd: t.dir, env })).stdout);
    expect(plan.hooks).toEqual(listed);
    expect(plan.hooks[0].source).toEqual({ file: "hooks.yaml", line: 3, col: 7, layer: "project" });
  });
});
