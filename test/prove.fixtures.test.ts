import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script without types
import { FIXTURE_SCHEMA_PATH, FIXTURE_VALIDATOR_PATH, generateValidatorSource } from "../scripts/generate-validator.mjs";
import { HOSTS } from "../src/hosts/adapters.js";
import { ROOT, runCli, runMain, spawnCli } from "./helpers/cli.js";
import { parseXml, type XmlElement } from "./helpers/parseXml.js";
import { sandbox, waitGone } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// `hooks test` (docs/testing-hooks.md): fixtures fired through the real hooks, as `hooks run` fires them, each
// reported pass/fail with its difference.

const CONFIG = `hooks:
  pre_tool_use:
    - name: guard
      matcher: Bash
      command: if grep -q 'rm -rf'; then echo "rm -rf refused by guard" >&2; exit 2; fi
    - name: rewrite
      matcher: Write
      command: |
        echo '{"updated_input": {"file_path": "safe.txt"}, "hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "check the path"}}'
  session_start:
    - name: hello
      command: echo "welcome to the project"
      priority: 10
    - name: ctx
      command: |
        echo '{"additional_context": "on branch main"}'
  stop:
    - name: note
      async: true
      command: echo "noted"
    - name: halt
      command: |
        echo '{"continue": false, "stop_reason": "enough for today"}'
`;

/** Every expect key, each met by the run. */
const PASSING = `fixtures:
  - name: rm -rf is blocked
    event: PreToolUse
    context: {tool_name: Bash, tool_input: {command: "rm -rf /"}}
    expect: {decision: block, reason: "rm -rf refused", hooks_ran: [guard], exit_code: 2}
  - name: reason as a pattern
    event: pre_tool_use
    context: {tool_name: Bash, tool_input: {command: "rm -rf /"}}
    expect: {reason: {pattern: "^rm -rf refused by \\\\w+$"}}
  - name: ls runs
    event: pre_tool_use
    context: {tool_name: Bash, tool_input: {command: ls}}
    expect: {decision: none, exit_code: 0, updated_input: null, continue: true}
  - name: a write is rewritten and asked about
    event: pre_tool_use
    context: {tool_name: Write, tool_input: {file_path: x.txt}}
    expect: {decision: ask, reason: check the path, updated_input: {file_path: safe.txt}, hooks_ran: [rewrite]}
  - name: session start says hello and adds context
    event: session_start
    expect:
      messages: [welcome, {pattern: "branch \\\\w+"}]
      additional_context: {pattern: "welcome to the project\\\\n\\\\non branch main"}
      hooks_ran: [hello, ctx]
  - name: stop halts
    event: stop
    env: {HOOKS_DISABLED: nothing}
    expect: {continue: false, stop_reason: enough for, exit_code: 0, hooks_ran: [halt], async_started: [note], messages: [noted]}
`;

/** The same runs, each with exactly one expectation the run does not meet. */
const FAILING: [field: string, event: string, context: string, expect: string, words: string][] = [
  ["decision", "pre_tool_use", `{tool_name: Bash, tool_input: {command: "rm -rf /"}}`, "{decision: allow}", 'decision: expected "allow", got "block"'],
  ["reason", "pre_tool_use", `{tool_name: Bash, tool_input: {command: "rm -rf /"}}`, "{reason: not this}", 'reason: expected text containing "not this", got "rm -rf refused by guard"'],
  ["reason", "pre_tool_use", `{tool_name: Bash, tool_input: {command: "rm -rf /"}}`, '{reason: {pattern: "^guard"}}', 'reason: expected text matching /^guard/, got "rm -rf refused by guard"'],
  ["messages", "session_start", "{}", "{messages: [welcome, goodbye]}", 'messages: expected a message with text containing "goodbye", got ["welcome to the project","on branch main"]'],
  ["additional_context", "session_start", "{}", "{additional_context: branch dev}", 'additional_context: expected text containing "branch dev", got "welcome to the project\\n\\non branch main"'],
  [
    "updated_input",
    "pre_tool_use",
    "{tool_name: Write, tool_input: {file_path: x.txt}}",
    "{updated_input: {file_path: other.txt}}",
    'updated_input: expected {"file_path":"other.txt"}, got {"file_path":"safe.txt"}',
  ],
  ["continue", "stop", "{}", "{continue: true}", "continue: expected true, got false"],
  ["stop_reason", "stop", "{}", "{stop_reason: tomorrow}", 'stop_reason: expected text containing "tomorrow", got "enough for today"'],
  ["stop_reason", "session_start", "{}", "{stop_reason: {pattern: .}}", "stop_reason: expected text matching /./, got null"],
  ["hooks_ran", "session_start", "{}", "{hooks_ran: [ctx, hello]}", 'hooks_ran: expected ["ctx","hello"], got ["hello","ctx"]'],
  ["async_started", "stop", "{}", "{async_started: []}", 'async_started: expected [], got ["note"]'],
  ["exit_code", "pre_tool_use", `{tool_name: Bash, tool_input: {command: "rm -rf /"}}`, "{exit_code: 0}", "exit_code: expected 0, got 2"],
];

interface Report {
  passed: number;
  failed: number;
  errors: number;
  fixtures: { name: string; status: string; line: number; error?: string; differences: { field: string; expected: unknown; actual: unknown }[] }[];
}

async function testJson(t: ReturnType<typeof sandbox>, args: string[] = [], env: Record<string, string> = {}) {
  const r = await runMain(["test", ...args, "--json"], { cwd: t.dir, env: { ...t.env, ...env } });
  return { ...r, report: JSON.parse(r.stdout) as Report };
}

describe("hooks test: expectations", () => {
  it("passes fixtures whose every expectation holds (each expect key), exit 0", async () => {
    const t = sandbox({ config: CONFIG });
    t.write("hooks.tests/all.hooktest.yaml", PASSING);
    const { code, report, stderr } = await testJson(t, ["--trust"]);
    expect(stderr).toBe("");
    expect(report.fixtures.filter((f) => f.status !== "pass")).toEqual([]);
    expect(report.passed).toBe(6);
    expect(code).toBe(0);
    const text = await runMain(["--trust", "test"], { cwd: t.dir, env: t.env });
    expect(text.stdout).toMatch(/^✓ rm -rf is blocked {2}\(hooks\.tests\/all\.hooktest\.yaml:2\) {2}\d+ms$/m);
    expect(text.stdout).toMatch(/^6 fixtures: 6 passed, 0 failed in \S+\n$/m);
    expect(text.code).toBe(0);
  });

  it.each(FAILING)("fails on %s when the run differs, saying expected and got (exit 1)", async (field, event, context, want, words) => {
    const t = sandbox({ config: CONFIG });
    t.write("one.hooktest.yaml", `name: wrong ${field}\nevent: ${event}\ncontext: ${context}\nexpect: ${want}\n`);
    const { code, report } = await testJson(t, ["--trust"]);
    expect(code).toBe(1);
    expect(report.fixtures).toHaveLength(1);
    expect(report.fixtures[0].status).toBe("fail");
    expect(report.fixtures[0].differences.map((d) => d.field)).toEqual([field]);
    const text = await runMain(["--trust", "test"], { cwd: t.dir, env: t.env });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`✗ wrong ${field}  (one.hooktest.yaml:1)`);
    expect(text.stdout).toContain(`\n    ${words}\n`);
    expect(text.stdout).toMatch(/1 fixture: 0 passed, 1 failed/);
  });

  it("reads context_file relative to the fixture file, and JSON fixture files", async () => {
    const t = sandbox({ config: CONFIG });
    t.write("hooks.tests/guard/payloads/rm.json", JSON.stringify({ tool_name: "Bash", tool_input: { command: "rm -rf ~" } }));
    t.write("hooks.tests/guard/rm.hooktest.yaml", "event: pre_tool_use\ncontext_file: payloads/rm.json\nexpect: {decision: block, exit_code: 2}\n");
    t.write("hooks.tests/guard/ls.hooktest.json", JSON.stringify({ event: "pre_tool_use", context: { tool_name: "Bash", tool_input: { command: "ls" } }, expect: { decision: "none" } }));
    const { code, report } = await testJson(t, ["--trust"]);
    // payloads/rm.json is not a fixture: only *.hooktest.* files are.
    expect(report.fixtures.map((f) => [f.name, f.status])).toEqual([
      ["ls", "pass"],
      ["rm", "pass"],
    ]);
    expect(code).toBe(0);
  });

  it("a failing fixture names the hooks that failed (a spawn error fails open: often the reason)", async () => {
    const t = sandbox({ config: "hooks:\n  pre_tool_use:\n    - name: guard\n      command: ./missing-guard.sh\n" });
    t.write("g.hooktest.yaml", "event: pre_tool_use\nexpect: {decision: block}\n");
    const r = await runMain(["--trust", "test"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\n {4}decision: expected "block", got "none"\n {4}note: hook guard spawn error: command not found \(exit 127\)/);
  });

  it("runs each fixture with real processes in the project, with the fixture's env", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: mark\n      command: echo $MARK > marked\n" });
    t.write("mark.hooktest.yaml", "event: stop\nenv: {MARK: from-fixture}\nexpect: {hooks_ran: [mark]}\n");
    expect((await testJson(t, ["--trust"])).code).toBe(0);
    expect(readFileSync(t.path("marked"), "utf8")).toBe("from-fixture\n");
  });
});

describe("hooks test: hosts", () => {
  const GUARD = "hooks:\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: if grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi\n";

  it("claude: the payload is read as Claude Code sends it and exit_code is Claude's answer's", async () => {
    const t = sandbox({ config: GUARD });
    t.write(
      "claude.hooktest.yaml",
      `fixtures:
  - event: PreToolUse
    host: claude
    context: {session_id: s1, hook_event_name: PreToolUse, tool_name: Bash, tool_input: {command: "rm -rf /"}}
    expect: {decision: block, reason: no rm -rf, hooks_ran: [guard], exit_code: 0}
  - event: PreToolUse
    host: claude
    context: {session_id: s1, hook_event_name: PreToolUse, tool_name: Bash, tool_input: {command: "rm -rf /"}}
    expect: {exit_code: 2}
`,
    );
    const { code, report } = await testJson(t, ["--trust"]);
    expect(report.fixtures.map((f) => f.status)).toEqual(["pass", "fail"]);
    // Claude Code gets a native hook's block as JSON on exit 0, not as exit 2.
    expect(report.fixtures[1].differences).toEqual([{ field: "exit_code", expected: 2, actual: 0 }]);
    expect(code).toBe(1);
  });

  it("gemini: its event and tool names (BeforeTool, run_shell_command) reach the same guard", async () => {
    const t = sandbox({ config: GUARD });
    t.write(
      "gemini.hooktest.yaml",
      `fixtures:
  - event: BeforeTool
    host: gemini
    context: {session_id: g1, hook_event_name: BeforeTool, tool_name: run_shell_command, tool_input: {command: "rm -rf /"}}
    expect: {decision: block, hooks_ran: [guard], exit_code: 0}
  - event: BeforeTool
    host: gemini
    context: {session_id: g1, hook_event_name: BeforeTool, tool_name: read_file, tool_input: {absolute_path: /a}}
    expect: {decision: none, hooks_ran: []}
`,
    );
    const { code, report } = await testJson(t, ["--trust"]);
    expect(report.fixtures.map((f) => f.status)).toEqual(["pass", "pass"]);
    expect(code).toBe(0);
  });
});

describe("hooks test: a recorded run replays", () => {
  it("hooks log --fixture ID writes a fixture that hooks test passes (an async hook started too)", async () => {
    const t = sandbox({
      config:
        "hooks:\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: if grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi\n    - name: audit\n      async: true\n      command: 'true'\n",
    });
    const payload = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" }, cwd: t.dir });
    expect((await runMain(["--trust", "run", "PreToolUse", "--host", "claude", "--record"], { cwd: t.dir, env: t.env, input: payload })).code).toBe(0);
    const runs = JSON.parse((await runMain(["log", "--json"], { cwd: t.dir, env: t.env })).stdout) as { id: string; async?: string }[];
    const id = runs.filter((r) => !r.async).at(-1)?.id ?? "";
    const fixture = await runMain(["log", "--fixture", id], { cwd: t.dir, env: t.env });
    expect(fixture.code).toBe(0);
    t.write("recorded.hooktest.yaml", fixture.stdout);
    const { code, report } = await testJson(t, ["--trust"]);
    expect(report.fixtures.map((f) => [f.status, f.differences])).toEqual([["pass", []]]);
    expect(code).toBe(0);
  });
});

describe("hooks test: fixtures that cannot be read", () => {
  it("reports schema errors at FILE:LINE:COL, a missing context_file, both context and context_file; the other fixtures still run", async () => {
    const t = sandbox({ config: CONFIG });
    t.write("good.hooktest.yaml", "event: stop\nexpect: {continue: false}\n");
    t.write("typo.hooktest.yaml", "event: stop\nexpect:\n  decison: block\n");
    t.write("nofile.hooktest.yaml", "event: stop\ncontext_file: missing.json\nexpect: {exit_code: 0}\n");
    t.write("both.hooktest.yaml", "event: stop\ncontext: {}\ncontext_file: x.json\nexpect: {exit_code: 0}\n");
    t.write("noevent.hooktest.yaml", "fixtures:\n  - expect: {decision: block}\n");
    t.write("badre.hooktest.yaml", 'event: stop\nexpect:\n  reason: {pattern: "("}\n');
    t.write("syntax.hooktest.yaml", "event: stop\nexpect: [\n");
    t.write("wrongtype.hooktest.yaml", "event: stop\nhost: claud\nexpect: {exit_code: two, messages: [1]}\n");
    const { code, report } = await testJson(t, ["--trust"]);
    expect(code).toBe(1);
    const errors = Object.fromEntries(report.fixtures.filter((f) => f.status === "error").map((f) => [f.name, f.error ?? ""]));
    expect(errors["typo.hooktest.yaml"]).toBe("typo.hooktest.yaml:3:3: error: unknown key `decison` in expect (did you mean `decision`?)");
    expect(errors["nofile.hooktest.yaml"]).toMatch(/^nofile\.hooktest\.yaml:2:15: error: context_file missing\.json: no such file \(.*missing\.json\); the path is relative to the fixture file$/);
    expect(errors["both.hooktest.yaml"]).toBe("both.hooktest.yaml:3:1: error: give `context` or `context_file`, not both");
    expect(errors["noevent.hooktest.yaml"]).toBe("noevent.hooktest.yaml:2:5: error: fixtures[0]: missing `event` (the event to fire)");
    expect(errors["badre.hooktest.yaml"]).toMatch(/^badre\.hooktest\.yaml:3:21: error: expect\.reason\.pattern is not a valid regular expression: /);
    expect(errors["syntax.hooktest.yaml"]).toMatch(/^syntax\.hooktest\.yaml:\d+:\d+: error: /);
    expect(errors["wrongtype.hooktest.yaml"].split("\n")).toEqual([
      'wrongtype.hooktest.yaml:2:7: error: host: "claud" is not one of claude, codex, gemini, copilot, qwen, cursor, droid, windsurf, cline, agent-code, qoder, crush, letta, goose, grok, kimi, pi, opencode',
      "wrongtype.hooktest.yaml:3:21: error: expect.exit_code: expected a whole number",
      "wrongtype.hooktest.yaml:3:37: error: expect.messages[0]: expected a text (a substring) or {pattern: REGEX}",
    ]);
    expect(report.fixtures.find((f) => f.name === "good")?.status).toBe("pass");
    expect(report.errors).toBe(7);
    const text = await runMain(["--trust", "test"], { cwd: t.dir, env: t.env });
    expect(text.stdout).toContain("✗ typo.hooktest.yaml: cannot be read\n    typo.hooktest.yaml:3:3: error: unknown key `decison` in expect (did you mean `decision`?)\n");
    expect(text.stdout).toMatch(/8 fixtures: 1 passed, 0 failed, 7 could not run/);
  });

  it("a fixture that checks nothing is refused, not passed: no `expect`, an empty one, or an empty messages list (a failing hook would go unseen)", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - {name: boom, command: echo boom >&2; exit 1}\n" });
    t.write("none.hooktest.yaml", "event: stop\n");
    t.write("empty.hooktest.yaml", "fixtures:\n  - event: stop\n    expect: {}\n");
    t.write("some.hooktest.yaml", "event: stop\nexpect: {exit_code: 0}\n");
    t.write("vacuous.hooktest.yaml", "event: stop\nexpect: {messages: []}\n");
    const { code, report } = await testJson(t, ["--trust"]);
    expect(code).toBe(1);
    const why = "what the run must give: a fixture that checks nothing cannot fail; `expect: {exit_code: 0}` says the run went well";
    expect(report.fixtures.map((f) => [f.name, f.status, f.error ?? f.differences.map((d) => d.field).join()])).toEqual([
      ["empty.hooktest.yaml", "error", `empty.hooktest.yaml:3:13: error: fixtures[0].expect: empty (${why})`],
      ["none.hooktest.yaml", "error", `none.hooktest.yaml:1:1: error: missing \`expect\` (${why})`],
      ["some", "fail", "exit_code"],
      ["vacuous.hooktest.yaml", "error", "vacuous.hooktest.yaml:2:20: error: expect.messages: the list is empty (it would check nothing); give at least one text"],
    ]);
  });

  it("an empty file, a list at the top, an empty fixtures list, a JSON enum error; an unknown event says hooks run's error", async () => {
    const t = sandbox({ config: CONFIG });
    t.write("empty.hooktest.yaml", "# only a comment\n");
    t.write("list.hooktest.yaml", "- event: stop\n");
    t.write("none.hooktest.yaml", "fixtures: []\n");
    t.write("j.hooktest.json", '{"event": "stop", "expect": {"decision": "blok"}}');
    t.write("ev.hooktest.yaml", "event: stpo\nexpect: {exit_code: 0}\n");
    const { code, report } = await testJson(t, ["--trust"]);
    expect(code).toBe(1);
    expect(report.fixtures.map((f) => f.error)).toEqual([
      "empty.hooktest.yaml:1:1: error: the file is empty: write one fixture (`event:` and `expect:`) or `fixtures:` with a list of them",
      "hooks: unknown event `stpo`; did you mean `stop`?",
      'j.hooktest.json:1:42: error: expect.decision: "blok" is not one of block, allow, ask, defer, none',
      "list.hooktest.yaml:1:1: error: the top level must be a map: one fixture (`event:`, `expect:`) or `fixtures:` with a list",
      "none.hooktest.yaml:1:11: error: fixtures: the list is empty; give at least one fixture",
    ]);
    // An unknown event is a usage error of the run: exit 64 is what `hooks run` gives, which a fixture may expect.
    t.write("ev.hooktest.yaml", "event: stpo\nexpect: {exit_code: 64}\n");
    expect((await testJson(t, ["--trust", "ev.hooktest.yaml"])).code).toBe(0);
  });

  it("no fixtures: exit 1, saying where it looked; a path that does not exist: usage error", async () => {
    const t = sandbox({ config: CONFIG });
    const none = await runMain(["--trust", "test"], { cwd: t.dir, env: t.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^hooks: no fixtures found \(\*\.hooktest\.yaml in \S* and hooks\.tests\/\); write one as docs\/testing-hooks\.md shows\n$/);
    const missing = await runMain(["--trust", "test", "nope/"], { cwd: t.dir, env: t.env });
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("nope/: no such file or folder");
  });

  it("--filter keeps fixtures whose name or file contains the text", async () => {
    const t = sandbox({ config: CONFIG });
    t.write("hooks.tests/all.hooktest.yaml", PASSING);
    const { report } = await testJson(t, ["--trust", "--filter", "RM -RF"]);
    expect(report.fixtures.map((f) => f.name)).toEqual(["rm -rf is blocked"]);
    const none = await runMain(["--trust", "test", "--filter", "zzz"], { cwd: t.dir, env: t.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no fixtures found matching "zzz"');
  });
});

describe("hooks test: config and trust, as hooks run", () => {
  it("untrusted project config: each fixture says hooks run's error and how to trust; exit 77; nothing ran", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: mark\n      command: touch ran\n" });
    t.write("a.hooktest.yaml", "event: stop\nexpect: {hooks_ran: [mark]}\n");
    t.write("b.hooktest.yaml", "event: Stop\nhost: claude\ncontext: {session_id: s, hook_event_name: Stop}\nexpect: {hooks_ran: [mark]}\n");
    const r = await runMain(["test"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(77);
    expect(r.stdout).toMatch(/✗ a {2}\(a\.hooktest\.yaml:1\) .*\n {4}did not run: hooks: .*hooks\.yaml is not trusted .*`hooks trust`/);
    expect(r.stdout).toMatch(/✗ b {2}\(b\.hooktest\.yaml:1, claude\) .*\n {4}did not run: hooks: .*hooks\.yaml is not trusted/);
    expect(existsSync(t.path("ran"))).toBe(false);
    // Trusted, they run.
    expect((await runMain(["trust", "--yes"], { cwd: t.dir, env: t.env })).code).toBe(0);
    expect((await runMain(["test"], { cwd: t.dir, env: t.env })).code).toBe(0);
    expect(existsSync(t.path("ran"))).toBe(true);
  });

  it("under CI the config runs as hooks run's does, and stderr says it runs untrusted", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: mark\n      command: touch ran\n" });
    t.write("a.hooktest.yaml", "event: stop\nexpect: {hooks_ran: [mark]}\n");
    const r = await runMain(["test"], { cwd: t.dir, env: { ...t.env, CI: "true" } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("hooks: CI is set, so the hooks of hooks.yaml run without `hooks trust` (as `hooks run` does under CI)\n");
    expect(existsSync(t.path("ran"))).toBe(true);
  });

  it("a fixture's env cannot choose the config or its trust: HOOKS_CONFIG + HOOKS_TRUST, a repo-made XDG_CONFIG_HOME or CI are refused, nothing runs", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: ok\n      command: 'true'\n" });
    expect((await runMain(["trust", "--yes"], { cwd: t.dir, env: t.env })).code).toBe(0);
    t.write("evil.yaml", "hooks:\n  stop:\n    - name: evil\n      command: touch pwned\n");
    t.write("xdg/hookrun/hooks.yaml", "hooks:\n  stop:\n    - name: evil-user\n      command: touch pwned\n");
    t.write(
      "a.hooktest.yaml",
      `fixtures:
  - {event: stop, env: {HOOKS_CONFIG: evil.yaml, HOOKS_TRUST: "1"}, expect: {decision: none}}
  - {event: stop, env: {XDG_CONFIG_HOME: ${t.path("xdg")}}, expect: {decision: none}}
  - {event: stop, env: {CI: "true", HOOKS_STATE_DIR: /tmp}, expect: {decision: none}}
`,
    );
    const r = await runMain(["test"], { cwd: t.dir, env: t.env });
    expect(r.code).not.toBe(0);
    for (const name of ["HOOKS_CONFIG", "HOOKS_TRUST", "XDG_CONFIG_HOME", "CI", "HOOKS_STATE_DIR"]) expect(r.stdout + r.stderr).toContain(`env.${name}: a fixture cannot set ${name}`);
    expect(existsSync(t.path("pwned"))).toBe(false);
    // Nor what makes a trusted command load other code.
    t.write("evil.cjs", "require('fs').writeFileSync('pwned', '')\n");
    t.write("a.hooktest.yaml", "fixtures:\n  - {event: stop, env: {NODE_OPTIONS: --require ./evil.cjs, PATH: bin, LD_PRELOAD: x.so, BASH_ENV: evil.sh, PYTHONPATH: .}, expect: {exit_code: 0}}\n");
    const code = await runMain(["test"], { cwd: t.dir, env: t.env });
    expect(code.code).not.toBe(0);
    for (const name of ["NODE_OPTIONS", "PATH", "LD_PRELOAD", "BASH_ENV", "PYTHONPATH"]) expect(code.stdout + code.stderr).toContain(`env.${name}: a fixture cannot set ${name}`);
    expect(existsSync(t.path("pwned"))).toBe(false);
    // bash's exported functions (a trusted `bash -c "git …"` runs the fixture's git), npm's config, any *_OPTIONS, lower case too
    t.write(
      "a.hooktest.yaml",
      'fixtures:\n  - {event: stop, env: {"BASH_FUNC_git%%": "() { touch pwned; }", npm_config_script_shell: ./evil.sh, DOTNET_OPTIONS: x, SHELLOPTS: xtrace, GCONV_PATH: ., node_extra_ca_certs: x, "a-b": x}, expect: {exit_code: 0}}\n',
    );
    const more = await runMain(["test"], { cwd: t.dir, env: t.env });
    expect(more.code).not.toBe(0);
    for (const name of ["BASH_FUNC_git%%", "npm_config_script_shell", "DOTNET_OPTIONS", "SHELLOPTS", "GCONV_PATH", "node_extra_ca_certs", "a-b"])
      expect(more.stdout + more.stderr).toContain(`env.${name}: a fixture cannot set ${name}`);
    expect(existsSync(t.path("pwned"))).toBe(false);
    // An env the hooks read is fine.
    t.write("a.hooktest.yaml", "event: stop\nenv: {GREETING: hi, HOOKS_DISABLED: ok}\nexpect: {hooks_ran: []}\n");
    expect((await runMain(["test"], { cwd: t.dir, env: t.env })).code).toBe(0);
  });

  it("invalid config: exit 78 with the config's diagnostics in each fixture; a fixture expecting exit_code 78 passes", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: x\n      comand: true\n" });
    t.write("a.hooktest.yaml", "event: stop\nexpect: {decision: none}\n");
    const r = await testJson(t, ["--trust"]);
    expect(r.code).toBe(78);
    expect(r.report.fixtures[0].error).toMatch(/hooks\.yaml:4:7: error: .*comand/);
    t.write("a.hooktest.yaml", "event: stop\nexpect: {exit_code: 78}\n");
    expect((await testJson(t, ["--trust"])).code).toBe(0);
  });
});

describe("hooks test: interrupted", () => {
  it("SIGINT mid-fixture: the fixture is an error, not a pass (its hooks were killed); exit 130; the hook is gone", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: slow\n      timeout: 60s\n      command: 'echo $$ > slow.pid; sleep 47'\n" });
    t.write("a.hooktest.yaml", "event: stop\nexpect: {decision: none}\n");
    const p = spawnCli(["--trust", "test"], { cwd: t.dir, env: t.env });
    const pid = await waitFor(() => (existsSync(t.path("slow.pid")) ? Number(readFileSync(t.path("slow.pid"), "utf8")) || null : null), { what: "the hook to start" });
    p.child.kill("SIGINT");
    const { code } = await p.closed;
    expect(code).toBe(130);
    expect(p.stdout()).toMatch(/✗ a .*\n {4}.*interrupted by SIGINT: its hooks were killed, so it was not judged/);
    expect(p.stdout()).not.toContain("1 passed");
    expect(await waitGone(pid)).toBe(true);
  });
});

describe("hooks test: reports", () => {
  it("--junit: well-formed XML, one testsuite per file, one testcase per fixture, failures with the difference", async () => {
    const t = sandbox({ config: CONFIG });
    t.write("hooks.tests/all.hooktest.yaml", PASSING);
    t.write("hooks.tests/bad.hooktest.yaml", 'name: wrong <decision> & "quotes"\nevent: stop\nexpect: {continue: true}\n');
    t.write("hooks.tests/broken.hooktest.yaml", "event: stop\nnope: 1\n");
    const r = await runMain(["--trust", "test", "--junit"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    const root = parseXml(r.stdout);
    expect(root.attrs).toMatchObject({ tests: "8", failures: "2" });
    const suites = root.children.filter((c) => c.name === "testsuite");
    expect(suites.map((s) => [s.attrs.name, s.attrs.tests, s.attrs.failures])).toEqual([
      ["hooks.tests/all.hooktest.yaml", "6", "0"],
      ["hooks.tests/bad.hooktest.yaml", "1", "1"],
      ["hooks.tests/broken.hooktest.yaml", "1", "1"],
    ]);
    const bad = suites[1].children[0];
    expect(bad.attrs.name).toBe('wrong <decision> & "quotes"');
    const failure = bad.children.find((c: XmlElement) => c.name === "failure");
    expect(failure?.attrs.message).toBe("continue: expected true, got false");
    expect(failure?.text).toBe("hooks.tests/bad.hooktest.yaml:1\ncontinue: expected true, got false");
  });

  it("--json and --junit together are a usage error", async () => {
    const t = sandbox({ config: CONFIG });
    expect((await runMain(["test", "--json", "--junit"], { cwd: t.dir, env: t.env })).code).toBe(64);
  });
});

describe("the fixture schema", () => {
  const schema = JSON.parse(readFileSync(FIXTURE_SCHEMA_PATH, "utf8"));

  it("the committed validator is generated from it", () => {
    expect(readFileSync(FIXTURE_VALIDATOR_PATH, "utf8")).toBe(generateValidatorSource(FIXTURE_SCHEMA_PATH));
  });

  it("names every host of the host table", () => {
    expect(schema.$defs.fixture.properties.host.enum).toEqual(HOSTS.map((h) => h.name));
  });

  it("describes every property, for editors", () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== "object") return;
      const n = node as Record<string, unknown>;
      if (n.properties && at !== "#/if" && !at.endsWith("/not"))
        for (const [k, v] of Object.entries(n.properties as Record<string, Record<string, unknown>>)) if (!v.description) missing.push(`${at}/properties/${k}`);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(schema, "#");
    expect(missing).toEqual([]);
  });

  it("is exported by the package", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.exports["./fixture.schema.json"]).toBe("./schema/fixture.schema.json");
  });
});

describe("the examples' fixtures pass, through the built CLI", () => {
  // Every *.hooktest.* file under examples/: one beside its example's hooks.yaml runs with `hooks
  // test` in that folder; examples/NAME.hooktest.yaml runs against examples/NAME.yaml.
  const examples = readdirSync(path.join(ROOT, "examples"), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.hooktest\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f): [string, string[]] => {
      const dir = path.join("examples", path.dirname(f));
      const name = path.basename(f);
      return /^hooks\.hooktest\./.test(name) ? [dir, ["test"]] : [dir, ["-c", name.replace(/\.hooktest\./, "."), "test", name]];
    });

  it("finds the fixtures of every example", () => {
    expect(examples.map(([dir]) => dir)).toEqual(["examples", "examples/background-analysis", "examples/claude-code", "examples/node-agent", "examples/python-agent"]);
  });

  it.each(examples)(
    "%s",
    async (dir, args) => {
      const t = sandbox();
      const r = await runCli(["--no-user-config", "--trust", ...args], { cwd: path.join(ROOT, dir), env: t.env, timeoutMs: 60_000 });
      expect(r.stderr).toBe("");
      expect(r.stdout).not.toContain("✗");
      expect(r.stdout).toMatch(/^(\d+) fixtures: \1 passed, 0 failed in /m);
      expect(r.code).toBe(0);
    },
    60_000,
  );
});
