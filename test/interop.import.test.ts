import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { hookNameFromCommand, HOOK_NAME_PATTERN } from "../src/interop/hookNames.js";
import { importClaudeSettings } from "../src/interop/importClaudeSettings.js";
import { mergeImport } from "../src/interop/mergeImport.js";
import { runCli, runMain, ROOT } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const FIXTURE = path.join(ROOT, "test/fixtures/claude");
const SETTINGS = JSON.parse(readFileSync(path.join(FIXTURE, ".claude/settings.json"), "utf8")) as unknown;
function project(fixture?: string) {
  const p = sandbox({ fixture: fixture });
  return p;
}

describe("generated hook names", () => {
  it.each([
    ["./scripts/guard-bash.sh", "guard-bash"],
    ["npx eslint --fix", "eslint"],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard-bash.sh', "guard-bash"],
    ["python3 -u .claude/hooks/protect_files.py", "protect-files"],
    ["npm run lint", "lint"],
    ["cd web && npx prettier --write .", "prettier"],
    ["FOO=1 node hooks/log.mjs", "log"],
    ["pnpm dlx @biomejs/biome check", "biome"],
    ["echo 'hello'", ""],
    ["npm test", "npm-test"],
    ["cargo clippy -- -D warnings", "cargo-clippy"],
  ])("%s → %s", (command, name) => {
    expect(hookNameFromCommand(command)).toBe(name);
  });

  it("are valid and unique across the whole import", () => {
    const imp = importClaudeSettings({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "./lint.sh a" },
              { type: "command", command: "./lint.sh b" },
            ],
          },
        ],
        Stop: [
          {
            hooks: [
              { type: "command", command: "./lint.sh c" },
              { type: "command", command: "echo Done!" },
            ],
          },
        ],
      },
    });
    const names = imp.hooks.map((h) => h.hook.name);
    expect(names).toEqual(["lint", "lint-2", "lint-3", "stop-hook"]);
    for (const n of names) expect(n).toMatch(HOOK_NAME_PATTERN);
  });
});

describe("importClaudeSettings", () => {
  const imp = importClaudeSettings(SETTINGS);
  const byName = Object.fromEntries(imp.hooks.map((h) => [h.hook.name, h]));

  it("maps every command hook of every matcher group to its canonical event, in order", () => {
    expect(imp.hooks.map((h) => [h.event, h.hook.name])).toEqual([
      ["pre_tool_use", "guard-bash"],
      ["pre_tool_use", "protect-files"],
      ["pre_tool_use", "deny-env"],
      ["post_tool_use", "log-tool"],
      ["user_prompt_submit", "add-context"],
      ["stop", "check-done"],
      ["session_start", "session-start-startup-resume"],
      ["notification", "notification-hook"],
      ["teammate_idle", "idle"],
    ]);
  });

  it("keeps matcher, command, timeout (seconds) and async as written, in the claude dialect", () => {
    expect(byName["guard-bash"].hook).toEqual({ name: "guard-bash", matcher: "Bash", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard-bash.sh', timeout: 10, dialect: "claude" });
    expect(byName["log-tool"].hook).toMatchObject({ matcher: "Edit|Write", timeout: 30, async: true });
    expect(byName["session-start-startup-resume"].hook.matcher).toBe("startup|resume");
    for (const h of imp.hooks) expect(h.hook.dialect).toBe("claude");
  });

  it("drops match-all matchers and matchers on events with no match field", () => {
    expect(byName["check-done"].hook.matcher).toBeUndefined();
    expect(byName["notification-hook"].hook.matcher).toBeUndefined();
  });

  it("reports prompt/agent hooks as skipped and an unknown event as a custom event, never silently", () => {
    expect(imp.notes.join("\n")).toMatch(/PreToolUse\[2\]\.hooks\[0\]: skipped a hook of type `prompt`/);
    expect(imp.notes.join("\n")).toMatch(/Stop\[0\]\.hooks\[1\]: skipped a hook of type `agent`/);
    expect(imp.customEvents).toEqual({});
    const unknown = importClaudeSettings({ hooks: { WorktreeCreate: [{ hooks: [{ type: "command", command: "./make-worktree.sh" }] }] } });
    expect(unknown.notes.join("\n")).toMatch(/no event `WorktreeCreate`.*custom event `worktree_create`/);
    expect(unknown.customEvents.worktree_create).toMatchObject({ custom: true });
  });

  it("skips a command an existing hook of the same event already runs, and does not reuse its name", () => {
    const again = importClaudeSettings(SETTINGS, [
      { event: "stop", name: "check-done", command: ".claude/hooks/check-done.sh" },
      { event: "stop", name: "guard-bash", command: "other" },
    ]);
    expect(again.hooks.find((h) => h.event === "stop")).toBeUndefined();
    expect(again.notes.join("\n")).toMatch(/already a stop hook \(`check-done`\); skipped/);
    expect(again.hooks[0].hook.name).toBe("guard-bash-2");
  });

  it("rejects settings that are not an object", () => {
    expect(() => importClaudeSettings([1, 2])).toThrow(/must be a JSON object/);
  });
});

describe("mergeImport", () => {
  const original = [
    "# team hooks: keep this comment",
    "version: 1",
    "defaults:",
    "  timeout: 30     # aligned comment",
    "hooks:",
    "  Stop:   # spelled the Claude way",
    "  - name: notify",
    "    command: 'echo done'   # single quotes kept",
    "",
    "  pre_tool_use: &guards",
    "  - name: guard",
    "    command: ./guard.sh",
    "",
    "# trailing comment",
    "",
  ].join("\n");
  const imp = importClaudeSettings({
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "./check.sh" }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "./ctx.sh" }] }],
      FancyNewEvent: [{ hooks: [{ type: "command", command: "./fancy.sh" }] }],
    },
  });
  const merged = mergeImport(original, "yaml", imp);

  it("keeps every original line byte for byte, in order", () => {
    const lines = merged.split("\n");
    let at = 0;
    for (const line of original.split("\n")) {
      const found = lines.indexOf(line, at);
      expect(found, `line ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
  });

  it("adds the hooks under the existing spelling of their event, and new events in the file's style", () => {
    const spec = parse(merged) as { hooks: Record<string, { name: string }[]>; events: Record<string, unknown> };
    expect(spec.hooks.Stop.map((h) => h.name)).toEqual(["notify", "check"]);
    expect(spec.hooks.user_prompt_submit.map((h) => h.name)).toEqual(["ctx"]);
    expect(spec.hooks.fancy_new_event.map((h) => h.name)).toEqual(["fancy"]);
    expect(spec.events.fancy_new_event).toMatchObject({ custom: true });
    expect(merged).toContain("  user_prompt_submit:\n  - name: ctx\n");
  });

  it("merges into JSON keeping its indentation", () => {
    const json = JSON.stringify({ hooks: { stop: [{ name: "a", command: "true" }] } }, null, 4);
    const out = mergeImport(json, "json", imp);
    expect(out).toMatch(/^ {4}"hooks"/m);
    expect((JSON.parse(out) as { hooks: Record<string, unknown[]> }).hooks.stop).toHaveLength(2);
  });
});

describe("hooks import claude (CLI)", () => {
  it("prints the equivalent hooks.yaml and reports what it skipped on stderr", async () => {
    const p = project(FIXTURE);
    const r = await runMain(["import", "claude"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    const spec = parse(r.stdout) as { hooks: Record<string, { name: string; command: string }[]> };
    expect(Object.keys(spec.hooks)).toEqual(["pre_tool_use", "post_tool_use", "user_prompt_submit", "stop", "session_start", "notification", "teammate_idle"]);
    expect(r.stderr).toContain("skipped a hook of type `prompt`");
  });

  it("a note quoting the file's own text prints its escape sequences escaped, never raw to the terminal", async () => {
    const esc = "\u001b[31mRED\u001b]0;title\u0007";
    const p = sandbox();
    p.write(
      ".claude/settings.json",
      JSON.stringify({
        hooks: {
          [`Bogus${esc}`]: [{ hooks: [{ type: "command", command: "true" }] }],
          Stop: [
            {
              hooks: [
                { type: "prompt", prompt: esc },
                { type: "command", command: `hooks run stop; echo ${esc}` },
              ],
            },
          ],
        },
      }),
    );
    const r = await runMain(["import", "claude"], { cwd: p.dir, env: p.env });
    expect(r.stderr).toMatch(/hooks run stop/);
    expect(r.stderr).toMatch(/Bogus/);
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
  });

  it("--json prints the same config as JSON", async () => {
    const p = project(FIXTURE);
    const yaml = await runMain(["import", "claude"], { cwd: p.dir, env: p.env });
    const json = await runMain(["import", "claude", "--json"], { cwd: p.dir, env: p.env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(parse(yaml.stdout));
  });

  it("finds .claude/settings.json from a subdirectory", async () => {
    const p = project(FIXTURE);
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.join(p.dir, "src/deep"), { recursive: true });
    const r = await runMain(["import", "claude"], { cwd: path.join(p.dir, "src/deep"), env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("# Imported from ../../.claude/settings.json");
  });

  it("a dangling .claude/settings.json symlink is an error, not skipped for a parent directory's settings", async () => {
    const p = project(FIXTURE);
    const { mkdirSync, symlinkSync } = await import("node:fs");
    mkdirSync(path.join(p.dir, "sub/.claude"), { recursive: true });
    symlinkSync("gone.json", path.join(p.dir, "sub/.claude/settings.json"));
    const r = await runMain(["import", "claude"], { cwd: path.join(p.dir, "sub"), env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join("sub", ".claude", "settings.json"));
    expect(r.stdout).toBe("");
  });

  it("says where it looked when there are no Claude Code settings", async () => {
    const p = project();
    const r = await runMain(["import", "claude"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`looked for .claude/settings.json in ${p.dir} and every parent`);
    expect(r.stderr).toContain("~/.claude/settings.json");
    expect(r.stdout).toBe("");
  });

  it("imports a file named by path, ~ expanded", async () => {
    const p = project();
    const home = p.env.HOME;
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.join(home, ".claude"), { recursive: true });
    writeFileSync(path.join(home, ".claude/settings.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } }));
    const r = await runMain(["import", "claude", "~/.claude/settings.json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(parse(r.stdout)).toMatchObject({ hooks: { stop: [{ name: "say", command: "say done" }] } });
  });

  it("reports invalid JSON with the file name and exits 1", async () => {
    const p = project();
    writeFileSync(path.join(p.dir, "bad.json"), "{ hooks: ");
    const r = await runMain(["import", "claude", "bad.json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read .*bad\.json/);
  });

  it("--write merges into the project hooks.yaml once (a second import adds nothing)", async () => {
    const p = project(FIXTURE);
    const file = path.join(p.dir, "hooks.yaml");
    writeFileSync(file, "# mine\nhooks:\n  stop:\n    - name: notify   # keep\n      command: echo done\n");
    const first = await runMain(["import", "claude", "--write"], { cwd: p.dir, env: p.env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/added 9 hooks to hooks\.yaml/);
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("# mine\nhooks:\n  stop:\n    - name: notify   # keep\n      command: echo done\n")).toBe(true);
    const second = await runMain(["import", "claude", "--write"], { cwd: p.dir, env: p.env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("nothing to add");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("--write --dispatch imports, then prints the settings entries that hand each event to hookrun, each timeout covering the event's hooks", async () => {
    const p = project();
    p.write(
      ".claude/settings.json",
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "./guard.sh", timeout: 30 },
                { type: "command", command: "./audit.sh", timeout: 5 },
              ],
            },
          ],
          Stop: [{ hooks: [{ type: "command", command: "npm test", timeout: 120 }] }],
        },
      }),
    );
    p.write("hooks.yaml", "hooks:\n  stop:\n    - {name: lint, command: npm run lint, timeout: 40}\n");
    const r = await runMain(["import", "claude", "--write", "--dispatch"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("added 3 hooks to hooks.yaml: pre_tool_use/guard, pre_tool_use/audit, stop/npm-test");
    const entry = (event: string, timeout: number, matcher?: string) => [
      { ...(matcher && { matcher }), hooks: [{ type: "command", command: `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks -C "$CLAUDE_PROJECT_DIR" run ${event} --host claude`, timeout }] },
    ];
    // pre_tool_use: the two claude hooks run as one group (30 s), only for Bash (what their matchers
    // select; Shell is Cursor's name for it, which runs these entries too); stop: the native lint (40 s), then npm test (120 s); +10 s each.
    expect(JSON.parse(r.stdout)).toEqual({ hooks: { PreToolUse: entry("pre_tool_use", 40, "Bash|Shell"), PreSkillShellCommand: entry("pre_tool_use", 40, "Bash"), Stop: entry("stop", 170) } });
    // Alone, --dispatch reads the project config as it is.
    expect(JSON.parse((await runMain(["import", "claude", "--dispatch"], { cwd: p.dir, env: p.env })).stdout)).toEqual(JSON.parse(r.stdout));
  });

  it("prints a config that validates as it is", async () => {
    const p = project(FIXTURE);
    const r = await runMain(["import", "claude"], { cwd: p.dir, env: p.env });
    writeFileSync(path.join(p.dir, "imported.yaml"), r.stdout);
    const v = await runMain(["--config", "imported.yaml", "validate"], { cwd: p.dir, env: p.env });
    expect(v.stdout + v.stderr).toMatch(/^valid: 9 hooks in imported\.yaml/);
    expect(v.code).toBe(0);
  });

  it("--write refuses one hook hookrun's config refuses, alone, and adds the rest", async () => {
    const p = project(FIXTURE);
    const file = path.join(p.dir, "hooks.yaml");
    writeFileSync(file, "hooks:\n  stop:\n    - name: notify\n      command: echo done\n");
    const bad = { matcher: "Bash(", hooks: [{ type: "command", command: "./g.sh" }] };
    writeFileSync(path.join(p.dir, "bad.json"), JSON.stringify({ hooks: { PreToolUse: [bad], Stop: [{ hooks: [{ type: "command", command: "./lint.sh" }] }] } }));
    const r = await runCli(["import", "claude", "bad.json", "--write"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    const refused = r.stderr.split("\n").filter((l) => l.includes("not imported"));
    expect(refused).toEqual([expect.stringMatching(/^hooks import: bad\.json: hooks\.PreToolUse\[0\]\.hooks\[0\] \(`\.\/g\.sh`\): not imported: hookrun's config refuses it: .*regex/i)]);
    expect(r.stdout).toContain("added 1 hook to hooks.yaml: stop/lint");
    const spec = parse(readFileSync(file, "utf8")) as { hooks: Record<string, { name: string }[]> };
    expect(spec.hooks.stop.map((h) => h.name)).toEqual(["notify", "lint"]);
    expect(spec.hooks.pre_tool_use).toBeUndefined();
  });

  it("--write refuses (exit 78, file untouched) when the project config is already invalid", async () => {
    const p = project(FIXTURE);
    const file = path.join(p.dir, "hooks.yaml");
    const before = "hooks:\n  stop:\n    - name: notify\n      command: echo done\n      timeout: soon\n";
    writeFileSync(file, before);
    const r = await runCli(["import", "claude", "--write"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(/timeout/);
    expect(r.stderr).not.toContain("not imported: hookrun's config refuses it");
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(readdirSync(p.dir).filter((f) => f.endsWith(".tmp.yaml"))).toEqual([]);
  });

  it("--write creates hooks.yaml when the project has none", async () => {
    const p = project(FIXTURE);
    const r = await runMain(["import", "claude", "--write"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    const spec = parse(readFileSync(path.join(p.dir, "hooks.yaml"), "utf8")) as { hooks: Record<string, unknown[]> };
    expect(spec.hooks.pre_tool_use).toHaveLength(3);
  });
});

describe("hooks import HOST never refuses a whole file for one unknown event, key or hook (CLI process)", () => {
  const notes = (stderr: string) => stderr.split("\n").filter(Boolean);

  it("cursor: an event named like a built-in one goes to a custom event of the host's name; a non-list key and a refused hook are named, the rest imported", async () => {
    const p = project();
    p.write(
      ".cursor/hooks.json",
      JSON.stringify({
        version: 1,
        hooks: {
          beforeShellExecution: [{ command: "./guard.sh" }],
          permissionRequest: [{ command: "./ask.sh" }],
          notification: [{ command: "./notify.sh" }],
          futureSetting: { on: true },
          preToolUse: [{ command: "./regex.sh", matcher: "((" }],
        },
      }),
    );
    const r = await runCli(["import", "cursor", "--write"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    const lines = notes(r.stderr);
    for (const l of lines) expect(l).toMatch(/^hooks import: \.cursor\/hooks\.json: /);
    expect(lines).toContain(
      "hooks import: .cursor/hooks.json: hooks.permissionRequest: hookrun has no event for Cursor's `permissionRequest`; its hooks are imported under the custom event `cursor_permission_request`",
    );
    expect(lines).toContain("hooks import: .cursor/hooks.json: hooks.futureSetting: not a list of hooks; skipped");
    expect(lines.filter((l) => l.includes("not imported"))).toEqual([
      expect.stringMatching(/^hooks import: \.cursor\/hooks\.json: hooks\.preToolUse\[0\] \(`\.\/regex\.sh`\): not imported: hookrun's config refuses it: invalid regex in `matcher`/),
    ]);
    expect(r.stdout).toContain("added 3 hooks to hooks.yaml: pre_tool_use/guard, cursor_permission_request/ask, cursor_notification/notify");
    const spec = parse(readFileSync(p.path("hooks.yaml"), "utf8")) as { events: Record<string, unknown> };
    expect(Object.keys(spec.events)).toEqual(["cursor_permission_request", "cursor_notification"]);
    const v = await runCli(["validate"], { cwd: p.dir, env: p.env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("printing drops the same hooks --write would refuse, so what is printed validates", async () => {
    const p = project();
    p.write(".cursor/hooks.json", JSON.stringify({ hooks: { stop: [{ command: "./s.sh" }], preToolUse: [{ command: "./regex.sh", matcher: "((" }] } }));
    const r = await runCli(["import", "cursor"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/hooks\.preToolUse\[0\] \(`\.\/regex\.sh`\): not imported: hookrun's config refuses it: invalid regex/);
    expect(r.stdout).not.toContain("regex.sh");
    expect(readdirSync(p.dir).filter((f) => f.startsWith(".hooks-import-"))).toEqual([]);
    writeFileSync(p.path("imported.yaml"), r.stdout);
    const v = await runCli(["--config", "imported.yaml", "validate"], { cwd: p.dir, env: p.env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it("droid: a standalone hooks.json's keys that are not events are named and skipped, declaring nothing", async () => {
    const p = project();
    p.write(".factory/hooks.json", JSON.stringify({ $schema: "https://example.invalid/s.json", version: 1, PreToolUse: [{ matcher: "Execute", hooks: [{ type: "command", command: "./a.sh" }] }] }));
    const r = await runCli(["import", "droid", ".factory/hooks.json", "--json"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(notes(r.stderr)).toEqual(
      expect.arrayContaining([
        "hooks import: .factory/hooks.json: $schema: not an event of Droid (Droid ignores it); not imported",
        "hooks import: .factory/hooks.json: version: not an event of Droid (Droid ignores it); not imported",
      ]),
    );
    expect(JSON.parse(r.stdout)).toEqual({ hooks: { pre_tool_use: [{ name: "a", matcher: "Bash", command: "./a.sh", dialect: "droid" }] } });
  });

  it("claude: a matcher group's key Claude Code does not know is named, with the file, and the group's hooks imported", async () => {
    const p = project();
    p.write("s.json", JSON.stringify({ hooks: { Stop: [{ description: "checks", hooks: [{ type: "command", command: "./check.sh" }] }] } }));
    const r = await runCli(["import", "claude", "s.json", "--json"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(notes(r.stderr)).toEqual(["hooks import: s.json: hooks.Stop[0]: `description` is not a field of Claude Code's matcher groups (it ignores it); not carried"]);
    expect(JSON.parse(r.stdout)).toEqual({ hooks: { stop: [{ name: "check", command: "./check.sh", dialect: "claude" }] } });
  });

  it("gemini and claude: an event named `__proto__` or after a built-in is a key like any other, imported under a custom event", async () => {
    const p = project();
    p.write(
      "gemini.json",
      JSON.stringify({ hooks: { PermissionRequest: [{ hooks: [{ type: "command", command: "./ask.sh" }] }], constructor: [{ hooks: [{ type: "command", command: "./c.sh" }] }] } }),
    );
    const g = await runCli(["import", "gemini", "gemini.json", "--json"], { cwd: p.dir, env: p.env });
    expect(g.code, g.stderr).toBe(0);
    expect(Object.keys((JSON.parse(g.stdout) as { hooks: object }).hooks)).toEqual(["gemini_permission_request", "constructor"]);
    expect(g.stderr).toContain("hooks.constructor: hookrun has no event for it (Gemini CLI 0.61 has no such event)");
    p.write("claude.json", '{"hooks":{"__proto__":[{"hooks":[{"type":"command","command":"./p.sh"}]}]}}');
    const c = await runCli(["import", "claude", "claude.json", "--json"], { cwd: p.dir, env: p.env });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toContain("hooks.__proto__: hookrun has no event `__proto__`; its hooks are imported under the custom event `proto`");
    expect((JSON.parse(c.stdout) as { hooks: Record<string, unknown> }).hooks.proto).toEqual([{ name: "p", command: "./p.sh", dialect: "claude" }]);
  });
});

describe("hooks import: an event named like an object's own machinery is data under every flat host", () => {
  for (const host of ["cursor", "windsurf"] as const) {
    it(`${host}: an event \`__proto__\` and \`constructor\` give no matcher out of the prototype`, async () => {
      const p = project();
      p.write("h.json", `{"version":1,"hooks":{"__proto__":[{"command":"./a.sh"}],"constructor":[{"command":"./b.sh"}]}}`);
      const r = await runCli(["import", host, "h.json", "--json"], { cwd: p.dir, env: p.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(/not a map|\[object Object\]|function Object/);
    });
  }
});
