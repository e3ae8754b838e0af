import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { fastRun } from "../src/cli/fastRun.js";
import { commanderReading } from "../src/cli/main.js";
import { GLOBAL_OPTIONS, RUN_OPTIONS } from "../src/cli/options.js";
import { type ParsedRun, parseRunArgv } from "../src/cli/parseRunArgv.js";
import { CLI, cliEnv, runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

/**
 * The fast `hooks run` parser (docs/performance.md#what-each-start-up-measure-buys) reads every
 * command line it takes exactly as commander does, and hands everything else to commander.
 */

// What hooks install writes (src/hosts/dispatch.ts), and what people type.
const TAKEN: string[][] = [
  ["run", "stop"],
  ["run", "PreToolUse", "--host", "claude"],
  ["-C", "/srv/project", "run", "pre_tool_use", "--host", "claude", "--fail-closed", "--deadline", "60"],
  ["-C", "/p", "run", "stop", "--host", "claude", "--skip-rewake"],
  ["-C", "/p", "run", "post_tool_use", "--host", "claude", "--rewake", "lint,test", "--rewake", "types"],
  ["run", "BeforeTool", "--host", "gemini", "--fail-closed"],
  ["--no-user-config", "--trust", "run", "stop"],
  ["run", "stop", "--json"],
  ["run", "stop", "--output", "json"],
  ["run", "stop", "--output=junit"],
  ["--color", "always", "run", "stop"],
  ["run", "stop", "--color=never"],
  ["--no-color", "run", "stop", "-v"],
  ["run", "stop", "--verbose", "--trust", "-c", "ci/hooks.yaml"],
  ["--config", "x.yaml", "run", "stop", "--cwd", "sub"],
  ["run", "stop", "--context", "ctx.json", "--session-id", "s1", "--turn-count", "3", "--last-message", "done."],
  ["run", "stop", "--set", "a.b=1", "--set", "c=two", "--set=d=x"],
  ["run", "stop", "--only", "a, b,,c", "--only", "d", "--skip", "e"],
  ["run", "stop", "--wait"],
  ["run", "stop", "--no-wait"],
  ["run", "stop", "--wait", "--no-wait"],
  ["run", "stop", "--no-wait", "--wait"],
  ["run", "stop", "--dry-run", "--record", "--max-parallel", "4"],
  ["run", "stop", "--host", ""],
  ["run", "stop", "--last-message", "x", "--last-message", "y"],
  ["--trust", "run", "--host", "codex", "PreToolUse"],
  ["run", "stop", "--no-user-config"],
];

// Left to commander: help, typos, forms the fast parser does not take, and usage errors.
const LEFT: string[][] = [
  [],
  ["run"],
  ["stop"],
  ["list"],
  ["run", "stop", "--help"],
  ["run", "-h"],
  ["--version"],
  ["run", "stop", "--bogus"],
  ["--host", "claude", "run", "stop"],
  ["run", "stop", "extra"],
  ["run", "stop", "--host"],
  ["run", "stop", "--turn-count", "-1"],
  ["run", "stop", "--last-message", "-v"],
  ["run", "stop", "--", "x"],
  ["-vC", "dir", "run", "stop"],
  ["-cfile.yaml", "run", "stop"],
  ["run", "stop", "--trust=yes"],
  ["--color", "sometimes", "run", "stop"],
  ["run", "-", "stop"],
  ["help", "run"],
];

describe("the fast hooks run parser", () => {
  it.each(TAKEN.map((argv) => [argv.join(" "), argv]))("reads `%s` as commander does", async (_, argv) => {
    const fast = parseRunArgv(argv);
    expect(fast, "the fast parser takes it").not.toBeNull();
    const reading = await commanderReading([...argv]);
    expect(reading).not.toBeNull();
    expect({ command: "run", globals: fast?.globals, args: [fast?.event], opts: fast?.opts }).toEqual(reading);
  });

  it.each(LEFT.map((argv) => [argv.join(" ") || "(nothing)", argv]))("leaves `%s` to commander", (_, argv) => {
    expect(parseRunArgv(argv)).toBeNull();
  });

  it("takes every global and run option row in its plain form (a row it could not read would silently fall back)", async () => {
    for (const spec of [...GLOBAL_OPTIONS, ...RUN_OPTIONS]) {
      const long = /--[a-z-]+/.exec(spec.flags)?.[0] as string;
      const argv = ["run", "stop", long, ...(spec.flags.includes("<") ? [spec.choices?.[0] ?? "v"] : [])];
      const fast = parseRunArgv(argv);
      expect(fast, spec.flags).not.toBeNull();
      expect({ command: "run", globals: fast?.globals, args: [fast?.event], opts: fast?.opts }, spec.flags).toEqual(await commanderReading(argv));
    }
  });
});

describe("a fast hooks run ends as main() does", () => {
  // Each command line once through main() (commander) and once through fastRun, in one sandbox:
  // the same exit code and the same output, errors included.
  const GUARD = "hooks:\n  pre_tool_use:\n    - name: guard\n      command: 'echo \"no rm\" >&2; exit 2'\n";
  const CALL = JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf x" } });
  const cases: { name: string; argv: string[]; config?: string; input?: string; shows: string }[] = [
    {
      name: "a guard's block in Claude Code's contract",
      argv: ["--trust", "run", "PreToolUse", "--host", "claude"],
      config: GUARD,
      input: CALL,
      shows: '"permissionDecision":"deny","permissionDecisionReason":"no rm"',
    },
    { name: "an untrusted config (exit 77)", argv: ["run", "PreToolUse", "--host", "claude"], config: GUARD, input: CALL, shows: "not trusted" },
    { name: "an untrusted config, failing closed", argv: ["run", "PreToolUse", "--host", "claude", "--fail-closed"], config: GUARD, input: CALL, shows: "deny" },
    { name: "a -C that is no directory", argv: ["-C", "no/such/dir", "run", "stop"], shows: "is not a directory" },
    { name: "a -C that is no directory, as JSON", argv: ["-C", "no/such/dir", "run", "stop", "--json"], shows: '"code": "usage"' },
    { name: "an invalid config", argv: ["--trust", "run", "stop"], config: "hooks:\n  stop: 3\n", shows: "hooks.yaml" },
    { name: "an invalid config, failing closed", argv: ["--trust", "run", "PreToolUse", "--host", "claude", "--fail-closed"], config: "hooks: [\n", input: CALL, shows: "deny" },
    { name: "a context that is not JSON", argv: ["--trust", "run", "stop", "--json"], config: GUARD, input: "{nope", shows: '"error"' },
  ];
  it.each(cases.map((c) => [c.name, c]))("%s", async (_, c) => {
    const p = sandbox(c.config ? { config: c.config } : {});
    const viaMain = await runMain(c.argv, { cwd: p.dir, env: p.env, input: c.input });
    const parsed = parseRunArgv(c.argv);
    expect(parsed).not.toBeNull();
    let stdout = "";
    let stderr = "";
    const code = await fastRun(parsed as ParsedRun, c.argv, {
      stdout: { isTTY: false, write: (s) => ((stdout += String(s)), true) },
      stderr: { isTTY: false, write: (s) => ((stderr += String(s)), true) },
      stdin: Readable.from(c.input ? [Buffer.from(c.input)] : []),
      env: cliEnv(p.env),
      cwd: p.dir,
      entry: CLI,
    });
    expect({ code, stdout, stderr }).toEqual({ code: viaMain.code, stdout: viaMain.stdout, stderr: viaMain.stderr });
    expect(stdout + stderr).toContain(c.shows);
  });
});
