import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, readlinkSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeHost } from "../src/hosts/claude.js";
import { dispatchTimeoutMs, matchedValues, ownsEntry } from "../src/hosts/install.js";
import { dispatchCommand, isDispatchCommand, walkUpDispatchCommand } from "../src/hosts/dispatch.js";
import { resolveHost } from "../src/hosts/adapters.js";
import { importClaudeSettings } from "../src/interop/importClaudeSettings.js";
import type { HostAdapter } from "../src/hosts/types.js";
import { CLI, runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";
import { installable, wantedFor } from "../src/hosts/installTargets.js";
import { editorOf } from "./helpers/hostSetup.js";

const claudeEditor = editorOf(claudeHost);

const GUARD = "hooks:\n  pre_tool_use:\n    - {name: guard, command: ./guard.sh, matcher: Bash|Write, timeout: 5s}\n  stop:\n    - {name: tests, command: npm test, timeout: 2m}\n";
const entry = (event: string) => `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks -C "$CLAUDE_PROJECT_DIR" run ${event} --host claude`;
const wanted = { Stop: [{ hooks: [{ type: "command", command: entry("stop"), timeout: 130 }] }] };

describe("the install engine: hookrun's entries in a host's JSON file", () => {
  it("appends to the user's lists in their own layout and removes exactly what it added", () => {
    const layouts = [
      '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {\n        "Stop": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]\n    }\n}\n',
      '{"model":"x"}\n',
      '{\n\t"model": "x",\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{"hooks": [{"type": "command", "command": "./mine.sh"}]}\n\t\t]\n\t}\n}\n',
      '{\r\n  "hooks": {\r\n    "PreToolUse": []\r\n  }\r\n}\r\n',
      '// Gemini allows comments\n{\n  "a": 1, // kept\n}\n',
    ];
    for (const before of layouts) {
      const after = claudeEditor.merge(before, "s.json", wanted);
      expect(after).not.toBe(before);
      expect(claudeEditor.installed(after, "s.json")).toEqual(wanted);
      // Only insertions: every line of the original is still there, in order.
      expect(after.split(/\r?\n/).filter((l) => before.includes(l)).length).toBeGreaterThanOrEqual(before.split(/\r?\n/).length - 2);
      expect(claudeEditor.merge(after, "s.json", wanted)).toBe(after);
      expect(claudeEditor.uninstall(after, "s.json")).toBe(before.replace('"PreToolUse": []', '"PreToolUse": []'));
    }
  });

  it("keeps the user's entries of the same event, and replaces only its own stale ones", () => {
    const user = { hooks: [{ type: "command", command: "./mine.sh" }] };
    const text = `${JSON.stringify({ hooks: { Stop: [user, { hooks: [{ type: "command", command: entry("stop"), timeout: 70 }] }] } }, null, 2)}\n`;
    const after = claudeEditor.merge(text, "s.json", wanted);
    expect(JSON.parse(after).hooks.Stop).toEqual([user, ...wanted.Stop]);
    // Uninstall leaves the user's entry; the file stays.
    expect(JSON.parse(claudeEditor.uninstall(after, "s.json")!).hooks.Stop).toEqual([user]);
  });

  it("creates a new file, and removing its entries leaves nothing of hookrun's (null: delete the file)", () => {
    const made = claudeEditor.merge(null, "s.json", wanted);
    expect(JSON.parse(made)).toEqual({ hooks: wanted });
    expect(claudeEditor.uninstall(made, "s.json")).toBeNull();
  });

  it("owns only entries whose every command dispatches to hookrun (older --output claude ones too)", () => {
    expect(ownsEntry({ hooks: [{ type: "command", command: entry("stop") }] })).toBe(true);
    expect(ownsEntry({ hooks: [{ command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks -C "$CLAUDE_PROJECT_DIR" run stop --output claude' }] })).toBe(true);
    expect(ownsEntry({ command: "exec $GEMINI_PROJECT_DIR/node_modules/.bin/hooks -C $GEMINI_PROJECT_DIR run stop --host gemini" })).toBe(true);
    expect(ownsEntry({ bash: "'/opt/hookrun/dist/bin/hooks.js' run stop --host copilot" })).toBe(true);
    expect(ownsEntry({ hooks: [{ command: entry("stop") }, { command: "./mine.sh" }] })).toBe(false);
    expect(ownsEntry({ hooks: [{ command: "./hooks run-all.sh" }] })).toBe(false);
    expect(ownsEntry({ matcher: "Bash" })).toBe(false);
  });

  it("every entry `hooks install` writes, for every host, project and --user (a path with a space and an apostrophe), is hookrun's", async () => {
    const p = sandbox({ config: GUARD });
    const config = await p.load();
    const hosts = installable().filter((h) => h.name !== "cline" && !h.setup.inProcess);
    expect(hosts.length).toBeGreaterThan(8);
    for (const host of hosts)
      for (const target of [
        { root: host.setup.root ?? null, bin: null, exec: host.setup.exec },
        { root: null, bin: "/home/o'b/my tools/hookrun/dist/bin/hooks.js", exec: host.setup.exec },
      ]) {
        const entries = Object.values(wantedFor(host, config, target)).flat();
        expect(entries.length, host.name).toBeGreaterThan(0);
        for (const e of entries) expect(ownsEntry(e), `${host.name}: ${JSON.stringify(e)}`).toBe(true);
      }
  });

  /** An entry of the user's running `command`: not hookrun's, kept by install beside hookrun's and by uninstall byte for byte. */
  const staysTheUsers = (command: string) => {
    const user = { hooks: [{ type: "command", command }] };
    expect(ownsEntry(user), command).toBe(false);
    const text = `${JSON.stringify({ hooks: { Stop: [user] } }, null, 2)}\n`;
    const after = claudeEditor.merge(text, "s.json", wanted);
    expect(JSON.parse(after).hooks.Stop, command).toEqual([user, ...wanted.Stop]);
    expect(claudeEditor.uninstall(after, "s.json"), command).toBe(text);
    return user;
  };

  it("a command with shell syntax around a dispatch is the user's: install and uninstall leave it, import says why it skips it", () => {
    const lookAlikes = [
      `touch pwned; ${entry("stop")}`,
      `${entry("stop")} && ./notify.sh`,
      `${entry("stop")} | tee -a log`,
      `${entry("stop")}\n./notify.sh`,
      `"$(./fetch-root.sh)"/node_modules/.bin/hooks run stop --host claude`,
      "`./root.sh`/node_modules/.bin/hooks run stop --host claude",
      `bash -c '${entry("stop")}'`,
      // sh reads \" as a quote of its own: the middle runs unquoted.
      `${entry("stop")} "\\" ";./fetch.sh|sh;" "\\"`,
      // Only space and tab separate words: this runs a relative `exec<NBSP>node_modules/.bin/hooks`.
      "exec\u00a0node_modules/.bin/hooks run stop --host claude",
      // npx's flags load other code.
      "npx --package=./tools hooks run stop",
      // Expansions that assign or evaluate.
      '"${y:=x}${y@P}"/node_modules/.bin/hooks run stop --host claude',
      `${entry("stop")}\r`,
    ];
    for (const command of lookAlikes) {
      const user = staysTheUsers(command);
      // Imported, it would run hookrun from its own hook: left out, with the reason.
      const imported = importClaudeSettings({ hooks: { Stop: [user] } });
      expect(imported.hooks, command).toEqual([]);
      expect(imported.notes.join("\n"), command).toMatch(/runs hookrun among other commands; skipped/);
    }
    expect(importClaudeSettings({ hooks: { Stop: wanted.Stop } }).notes.join("\n")).toMatch(/already hands this event to hookrun; skipped/);
    // The walk-up form Codex and agent-code get is hookrun's; with more after it, it is not.
    expect(isDispatchCommand(walkUpDispatchCommand("codex", "pre_tool_use"))).toBe(true);
    expect(isDispatchCommand(`${walkUpDispatchCommand("codex", "pre_tool_use")}; ./mine.sh`)).toBe(false);
    expect(isDispatchCommand("npx hooks run stop")).toBe(true);
    expect(isDispatchCommand("node /opt/hookrun/dist/bin/hooks.js -C /p run pre_tool_use --host claude")).toBe(true);
    expect(isDispatchCommand("'/home/a b/bin/hooks' run stop --host claude")).toBe(true);
    // `hooks install --user` quotes a path with an apostrophe as shellQuote does.
    expect(isDispatchCommand(dispatchCommand("claude", "stop", { root: null, bin: "/home/o'b/.bin/hooks" }))).toBe(true);
    expect(isDispatchCommand("hooks list")).toBe(false);
  });

  it("hookrun owns only the entries it writes, by their binary: a user's own script named hooks is never replaced or removed", () => {
    for (const command of [
      "./scripts/hooks run check",
      "scripts/hooks run check",
      "tools/hookrun run stop",
      "hooks run stop --host claude",
      "node_modules/.bin/hooks-wrapper run stop",
      "$HOME/bin/hooks run stop",
      "node ./hooks.js run stop",
    ]) {
      staysTheUsers(command);
    }
    // import still leaves out a command that runs hookrun, installed by hookrun or not
    expect(importClaudeSettings({ hooks: { Stop: [{ hooks: [{ type: "command", command: "hooks run stop --host claude" }] }] } }).notes.join("\n")).toMatch(
      /already hands this event to hookrun; skipped/,
    );
  });

  it("refuses a file that is not JSON, saying where, and writes nothing", () => {
    expect(() => claudeEditor.merge('{"hooks": {', "/p/.claude/settings.json", wanted)).toThrow(/\/p\/\.claude\/settings\.json:1: .*nothing was written/);
    expect(() => claudeEditor.merge("[1, 2]", "s.json", wanted)).toThrow(/not a JSON object/);
  });

  it("narrows matchers to the names hooks.yaml's matchers select, spelled as the host spells them", async () => {
    const p = sandbox({ config: GUARD });
    const config = await p.load();
    expect(matchedValues(config, "pre_tool_use", claudeHost)).toEqual(["Bash", "Write"]);
    const gemini = { tools: { run_shell_command: "Bash", write_file: "Write" } } as unknown as HostAdapter;
    expect(matchedValues(config, "pre_tool_use", gemini)).toEqual(["Bash", "run_shell_command", "Write", "write_file"]);
    // A hook without a matcher, or with a regex, takes every tool: no narrowing.
    p.write("hooks.yaml", `${GUARD}    - {name: any, command: "true", event: pre_tool_use}\n`);
    const regex = sandbox({ config: "hooks:\n  pre_tool_use:\n    - {name: g, command: x, matcher: 'mcp__.*'}\n" });
    expect(matchedValues(await regex.load(), "pre_tool_use", claudeHost)).toBeNull();
    expect(matchedValues(config, "stop", claudeHost)).toBeNull();
    // The dispatch's timeout covers the event's hooks plus a margin for hookrun itself.
    expect(dispatchTimeoutMs(config, "stop")).toBe(130_000);
  });

  it("spells the dispatch command for the project's install, or an absolute path, with exec when asked", () => {
    expect(dispatchCommand("claude", "stop", { root: '"$CLAUDE_PROJECT_DIR"', bin: null })).toBe(entry("stop").replace("--host claude", "--host claude"));
    expect(dispatchCommand("cursor", "stop", { root: null, bin: null })).toBe("node_modules/.bin/hooks run stop --host cursor");
    expect(dispatchCommand("gemini", "stop", { root: "$GEMINI_PROJECT_DIR", bin: null, exec: true })).toBe(
      "exec $GEMINI_PROJECT_DIR/node_modules/.bin/hooks -C $GEMINI_PROJECT_DIR run stop --host gemini",
    );
    expect(dispatchCommand("codex", "stop", { root: null, bin: "/home/me/my tools/hooks.js" })).toBe("'/home/me/my tools/hooks.js' run stop --host codex");
  });
});

describe("hooks install / uninstall / --check (CLI)", () => {
  it("installs into the hosts whose folder the project has, is idempotent, and uninstall restores the file byte for byte", async () => {
    const p = sandbox({ config: GUARD });
    const original = '{\n  "permissions": {"allow": ["Bash(ls)"]}\n}\n';
    p.write(".claude/settings.json", original);
    const first = await runMain(["install"], { cwd: p.dir, env: p.env });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/found Claude Code in/);
    expect(first.stderr).toMatch(/node_modules\/\.bin\/hooks is missing/);
    const installed = JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8"));
    // Cursor also runs .claude/settings.json's entries, naming the shell tool Shell.
    expect(installed.hooks.PreToolUse).toEqual([{ matcher: "Bash|Shell|Write", hooks: [{ type: "command", command: entry("pre_tool_use"), timeout: 15 }] }]);
    // The shell commands a skill embeds (Claude Code's PreSkillShellCommand) reach the same guard: its shell tool only.
    expect(installed.hooks.PreSkillShellCommand).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: entry("pre_tool_use"), timeout: 15 }] }]);
    expect(installed.hooks.Stop[0].hooks[0].timeout).toBe(130);
    expect((await runMain(["install", "claude"], { cwd: p.dir, env: p.env })).stdout).toMatch(/up to date/);
    expect((await runMain(["install", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);

    // hooks.yaml changes: validate warns, --check fails until install runs again.
    p.write("hooks.yaml", GUARD.replace("timeout: 5s", "timeout: 50s"));
    const validate = await runMain(["validate"], { cwd: p.dir, env: p.env, input: "" });
    expect(validate.code).toBe(0);
    expect(validate.stderr).toMatch(/\.claude\/settings\.json:1:1: warning: hookrun's entries are stale for PreToolUse/);
    const check = await runMain(["install", "--check", "--json"], { cwd: p.dir, env: p.env });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)).toEqual([{ host: "claude", file: p.path(".claude/settings.json"), installed: true, stale: ["PreToolUse", "PreSkillShellCommand"] }]);

    const un = await runMain(["uninstall", "claude"], { cwd: p.dir, env: p.env });
    expect(un.code).toBe(0);
    expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe(original);
    // A file hookrun made is removed again.
    p.write("other/.keep", "");
    execFileSync("rm", [p.path(".claude/settings.json")]);
    await runMain(["install", "claude"], { cwd: p.dir, env: p.env });
    expect(existsSync(p.path(".claude/settings.json"))).toBe(true);
    await runMain(["uninstall"], { cwd: p.dir, env: p.env });
    expect(existsSync(p.path(".claude/settings.json"))).toBe(false);
  });

  it("--user writes the user's file, running this hookrun by its absolute path from wherever the host runs it", async () => {
    const p = sandbox({ config: GUARD });
    expect((await runMain(["install", "claude", "--user"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = path.join(p.env.HOME, ".claude/settings.json");
    const stop = JSON.parse(readFileSync(file, "utf8")).hooks.Stop[0].hooks[0];
    expect(stop.command).toBe(`${CLI} run stop --host claude`);
    expect((await runMain(["uninstall", "--user"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("tells what the host still needs to read the entries (Codex: a trusted project)", async () => {
    const p = sandbox({ config: GUARD });
    const r = await runMain(["install", "codex"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\.codex\/hooks\.json: created/);
    expect(r.stderr).toMatch(/note: Codex reads a project's \.codex\/hooks\.json only when the project is trusted in ~\/\.codex\/config\.toml/);
  });

  it("writes through a symlinked settings file (the link stays) and refuses a FIFO", async () => {
    const p = sandbox({ config: GUARD });
    p.write("shared/settings.json", "{}\n");
    p.write(".claude/.keep", "");
    symlinkSync("../shared/settings.json", p.path(".claude/settings.json"));
    expect((await runMain(["install", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(lstatSync(p.path(".claude/settings.json")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(p.path(".claude/settings.json"))).toBe("../shared/settings.json");
    expect(JSON.parse(readFileSync(p.path("shared/settings.json"), "utf8")).hooks.Stop).toBeDefined();

    const q = sandbox({ config: GUARD });
    q.write(".claude/.keep", "");
    execFileSync("mkfifo", [q.path(".claude/settings.json")]);
    const r = await runMain(["install", "claude"], { cwd: q.dir, env: q.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/settings\.json is a FIFO, not a regular file; .*nothing was written/);
  });

  it("says what to do when there is no hooks.yaml, no host folder, or the host is unknown", async () => {
    const empty = sandbox();
    empty.write(".claude/.keep", "");
    const noConfig = await runMain(["install", "claude"], { cwd: empty.dir, env: empty.env });
    expect(noConfig.code).toBe(78);
    expect(noConfig.stderr).toMatch(/no config found: .*run `hooks init`/);
    expect(existsSync(empty.path(".claude/settings.json"))).toBe(false);
    const p = sandbox({ config: GUARD });
    const none = await runMain(["install"], { cwd: p.dir, env: p.env });
    expect(none.code).toBe(64);
    expect(none.stderr).toMatch(/no host config folder .*name the hosts: hooks install claude/);
    const bad = await runMain(["install", "claud"], { cwd: p.dir, env: p.env });
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/claud: no such host to install into; use one of claude/);
    // --dry-run prints the file and writes nothing.
    const dry = await runMain(["install", "claude", "--dry-run"], { cwd: p.dir, env: p.env });
    expect(dry.stdout).toMatch(/^# \.claude\/settings\.json\n\{/);
    expect(existsSync(p.path(".claude/settings.json"))).toBe(false);
  });
});

describe("hooks run --host", () => {
  const payload = { session_id: "s1", transcript_path: "", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf /" } };
  const DENY = "hooks:\n  pre_tool_use:\n    - {name: guard, command: 'echo no >&2; exit 2', matcher: Bash}\n";

  it("answers a host's payload in that host's contract without being told, and hookrun's own output when --output says so", async () => {
    const p = sandbox({ config: DENY });
    const input = JSON.stringify(payload);
    const auto = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input });
    expect(auto.code).toBe(0);
    expect(JSON.parse(auto.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: "no" });
    const text = await runMain(["--trust", "run", "pre_tool_use", "--output", "text"], { cwd: p.dir, env: p.env, input });
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/guard/);
    // The event may be named as the host names it.
    expect((await runMain(["--trust", "run", "PreToolUse", "--host", "claude"], { cwd: p.dir, env: p.env, input })).stdout).toMatch(/"deny"/);
  });

  it("a Claude entry fired by Copilot CLI stays quiet when Copilot has hookrun entries of its own for the event (else every hook ran twice)", async () => {
    const p = sandbox({ config: "hooks:\n  pre_tool_use:\n    - {name: mark, command: 'echo x >> ran.txt', matcher: Bash}\n" });
    const copilotPayload = JSON.stringify({ sessionId: "s", timestamp: 1795523520870, cwd: p.dir, toolName: "bash", toolArgs: { command: "ls" } });
    const runs = () => (existsSync(p.path("ran.txt")) ? readFileSync(p.path("ran.txt"), "utf8").split("\n").filter(Boolean).length : 0);
    // Only the Claude entry is installed: it answers Copilot, in Copilot's contract.
    const alone = await runMain(["--trust", "run", "pre_tool_use", "--host", "claude"], { cwd: p.dir, env: p.env, input: copilotPayload });
    expect(alone.code).toBe(0);
    expect(runs()).toBe(1);
    // Copilot's own entries are installed too: they run the hooks; the Claude entry says nothing.
    p.write(".github/hooks/.keep", "");
    expect((await runMain(["install", "copilot"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const both = await runMain(["--trust", "run", "pre_tool_use", "--host", "claude"], { cwd: p.dir, env: p.env, input: copilotPayload });
    expect(both).toMatchObject({ code: 0, stdout: "" });
    expect(runs()).toBe(1);
    expect((await runMain(["--trust", "run", "pre_tool_use", "--host", "copilot"], { cwd: p.dir, env: p.env, input: copilotPayload })).code).toBe(0);
    expect(runs()).toBe(2);
  });

  it("rejects an unknown host and a second answer format", async () => {
    const p = sandbox({ config: DENY });
    const bad = await runMain(["run", "stop", "--host", "claud"], { cwd: p.dir, env: p.env, input: "{}" });
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/--host claud: no such host; use auto or one of claude/);
    const both = await runMain(["run", "stop", "--host", "claude", "--output", "json"], { cwd: p.dir, env: p.env, input: "{}" });
    expect(both.code).toBe(64);
  });

  it("auto: a Claude payload is Claude's; a payload without a host's markers is hookrun's own", () => {
    expect(resolveHost("auto", payload)?.name).toBe("claude");
    expect(resolveHost(undefined, payload)?.name).toBe("claude");
    expect(resolveHost("auto", { session_id: "x", hook_event_name: "PreToolUse" })).toBeNull();
    expect(resolveHost("claude", { session_id: "x" })?.name).toBe("claude");
  });
});

describe("hooks import HOST", () => {
  it("finds the host's project file, says which host it came from, and refuses a host it cannot read", async () => {
    const p = sandbox();
    p.write(".codex/hooks.json", JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "./check.sh", timeout: 30 }] }] } }));
    const r = await runMain(["import", "codex"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Imported from \.codex\/hooks\.json by `hooks import codex`\./);
    expect(r.stdout).toMatch(/command: \.\/check\.sh/);
    const gptme = await runMain(["import", "gptme"], { cwd: p.dir, env: p.env });
    expect(gptme.code).toBe(64);
    expect(gptme.stderr).toMatch(/gptme: hookrun cannot import hooks from it; use one of claude, codex/);
    // Cline's hooks are a folder: its import looks for .clinerules/hooks.
    const cline = await runMain(["import", "cline"], { cwd: p.dir, env: p.env });
    expect(cline.code).toBe(1);
    expect(cline.stderr).toMatch(/no Cline config found: looked for \.clinerules\/hooks in .* and every parent/);
    const none = await runMain(["import", "gemini"], { cwd: p.dir, env: p.env });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no Gemini CLI config found: looked for \.gemini\/settings\.json in .* and every parent/);
  });
});
