import { chmodSync, existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claudeHost } from "../src/hosts/claude.js";
import { dispatchCommand } from "../src/hosts/dispatch.js";
import { ownsEntry } from "../src/hosts/install.js";
import { installedMcp, mcpEntries, readMcpArgs } from "../src/hosts/warmMcp.js";
import { CLI, runMain } from "./helpers/cli.js";
import { entriesOf, editorOf } from "./helpers/hostSetup.js";
import { sandbox } from "./helpers/sandbox.js";

/** Warm mode over MCP, install side: `hooks install claude --warm` writes mcp_tool entries and registers `hooks mcp` in .mcp.json. */

const CONFIG = [
  "hooks:",
  "  session_start:",
  "    - {name: hello, command: echo hi}",
  "  pre_tool_use:",
  "    - {name: guard, command: ./guard.sh, matcher: Bash|Write, timeout: 5s, on_failure: block}",
  "  stop:",
  "    - {name: tests, command: npm test, timeout: 2m}",
  "  user_prompt_submit:",
  "    - {name: branch, command: git branch --show-current}",
  "",
].join("\n");
const command = (event: string) => dispatchCommand("claude", event, { root: '"$CLAUDE_PROJECT_DIR"', bin: null });
const SERVER = { type: "stdio", command: "sh", args: ["-c", 'exec "$CLAUDE_PROJECT_DIR/node_modules/.bin/hooks" -C "$CLAUDE_PROJECT_DIR" mcp --host claude'] };
const settingsOf = (p: ReturnType<typeof sandbox>) => JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8"));

describe("warm MCP entries", () => {
  it("turn each command entry into an mcp_tool call of hookrun's server (matcher, timeout, fail closed, the event, every payload field); SessionStart and Stop stay commands", async () => {
    const p = sandbox({ config: CONFIG });
    const config = await p.load();
    const cold = entriesOf(claudeHost, config, command);
    const warm = mcpEntries("claude", cold, (e) => e === "PreToolUse");
    expect(warm.SessionStart).toEqual(cold.SessionStart);
    const pre = warm.PreToolUse[0] as { matcher: string; hooks: Record<string, any>[] };
    expect(pre.matcher).toBe("Bash|Shell|Write");
    expect(pre.hooks[0]).toMatchObject({ type: "mcp_tool", server: "hookrun", tool: "hook", timeout: 15, onFailure: "block", input: { host: "claude", event: "PreToolUse", fail_closed: true } });
    expect(pre.hooks[0].input.payload).toMatchObject({ session_id: "${session_id}", tool_input: "${tool_input}", hook_event_name: "${hook_event_name}" });
    expect((warm.UserPromptSubmit[0] as { hooks: Record<string, any>[] }).hooks[0].input.fail_closed).toBeUndefined();
    // Claude Code ignores onFailure on Stop: a stop guard stays a command entry, which fails closed.
    expect(warm.Stop).toEqual(cold.Stop);
    expect(installedMcp(warm)).toBe(true);
    expect(installedMcp(cold)).toBe(false);
    // hookrun's to the install engine; an mcp_tool hook of another server is the user's.
    expect(ownsEntry(warm.PreToolUse[0])).toBe(true);
    expect(ownsEntry({ hooks: [{ type: "mcp_tool", server: "security", tool: "scan" }] })).toBe(false);
    expect(ownsEntry({ hooks: [pre.hooks[0], { type: "mcp_tool", server: "security", tool: "scan" }] })).toBe(false);
    const editor = editorOf(claudeHost);
    const user = { hooks: [{ type: "mcp_tool", server: "security", tool: "scan" }] };
    const before = `${JSON.stringify({ hooks: { PreToolUse: [user] } }, null, 2)}\n`;
    const after = editor.merge(before, "s.json", { PreToolUse: warm.PreToolUse });
    expect(editor.installed(after, "s.json")).toEqual({ PreToolUse: warm.PreToolUse });
    expect(editor.uninstall(after, "s.json")).toBe(before);
  });

  it("a call's text fields are read back into the payload Claude Code would have piped to a command", () => {
    const args = readMcpArgs(
      { host: "claude", event: "PreToolUse", fail_closed: true, payload: { tool_input: '{"command":"ls"}', stop_hook_active: "true", prompt: "[1]", tool_use_id: "", cwd: "/p" } },
      null,
    );
    expect(args).toEqual({ host: "claude", event: "PreToolUse", failClosed: true, payload: { tool_input: { command: "ls" }, stop_hook_active: true, prompt: "[1]", cwd: "/p" } });
    expect(readMcpArgs({ event: "Stop", payload: { tool_input: { a: 1 } } }, "claude").payload).toEqual({ tool_input: { a: 1 } });
    expect(() => readMcpArgs({ event: "Stop", payload: {} }, null)).toThrow(/"host" must name/);
    expect(() => readMcpArgs({ host: "claude", payload: {} }, null)).toThrow(/"event"/);
    expect(() => readMcpArgs({ host: "claude", event: "Stop", payload: [] }, null)).toThrow(/"payload" must be an object/);
  });
});

describe("hooks install claude --warm", () => {
  it("writes the mcp_tool entries and registers the server; says what happens when it cannot answer; --check, validate, back to commands and uninstall", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", '{\n  "model": "x"\n}\n');
    p.write(".mcp.json", '{\n  "mcpServers": {\n    "docs": {\n      "command": "docs-server"\n    }\n  }\n}\n');
    const r = await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    const hooks = settingsOf(p).hooks;
    expect(hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: "mcp_tool", server: "hookrun", onFailure: "block" });
    expect(hooks.SessionStart[0].hooks[0].type).toBe("command");
    // The model may not call the tool itself (Claude Code lists MCP tools to the model).
    expect(settingsOf(p).permissions).toEqual({ deny: ["mcp__hookrun__hook"] });
    const mcp = JSON.parse(readFileSync(p.path(".mcp.json"), "utf8"));
    expect(mcp.mcpServers).toEqual({ docs: { command: "docs-server" }, hookrun: SERVER });
    expect(r.stderr).toMatch(/warm mode over MCP: Claude Code starts `hooks mcp`/);
    expect(r.stderr).toMatch(/FAILS CLOSED/);

    // --check without --warm checks the mode installed; validate finds nothing stale.
    const check = await runMain(["install", "--check"], { cwd: p.dir, env: p.env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/up to date/);
    expect((await runMain(["validate"], { cwd: p.dir, env: p.env, input: "" })).stderr).not.toMatch(/stale/);
    // The server's registration gone: --check says so and fails.
    p.write(".mcp.json", '{\n  "mcpServers": {\n    "docs": {\n      "command": "docs-server"\n    }\n  }\n}\n');
    const missing = await runMain(["install", "claude", "--check"], { cwd: p.dir, env: p.env });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/the hookrun MCP server in \.mcp\.json/);
    expect((await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env })).code).toBe(0);

    // Back to command mode: the mcp_tool entries are replaced and the registration goes; the user's server stays.
    expect((await runMain(["install", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(settingsOf(p).hooks.PreToolUse[0].hooks[0].type).toBe("command");
    expect(settingsOf(p).permissions).toBeUndefined();
    expect(JSON.parse(readFileSync(p.path(".mcp.json"), "utf8")).mcpServers).toEqual({ docs: { command: "docs-server" } });
    expect((await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["uninstall", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe('{\n  "model": "x"\n}\n');
    expect(JSON.parse(readFileSync(p.path(".mcp.json"), "utf8")).mcpServers).toEqual({ docs: { command: "docs-server" } });
  });

  it("keeps the user's own permission rules; uninstall removes a .mcp.json that held only hookrun's server", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", '{\n  "permissions": {\n    "deny": ["Bash(rm:*)"]\n  }\n}\n');
    expect((await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(existsSync(p.path(".mcp.json"))).toBe(true);
    expect(settingsOf(p).permissions.deny).toEqual(["Bash(rm:*)", "mcp__hookrun__hook"]);
    const check = await runMain(["install", "claude", "--check"], { cwd: p.dir, env: p.env });
    expect(check.stdout).toMatch(/up to date/);
    const u = await runMain(["uninstall", "claude"], { cwd: p.dir, env: p.env });
    expect(u.stdout).toMatch(/\.mcp\.json: removed \(it held only hookrun's MCP server\)/);
    expect(existsSync(p.path(".mcp.json"))).toBe(false);
    expect(settingsOf(p)).toEqual({ permissions: { deny: ["Bash(rm:*)"] } });
  });

  it("never replaces a server named hookrun that is not hookrun's, nor a .mcp.json that is not JSON; nothing is written; a command install is not held up by them", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", "{}\n");
    p.write(".mcp.json", '{"mcpServers": {"hookrun": {"command": "something-else"}}}\n');
    const r = await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/its MCP server "hookrun" is not hookrun's/);
    expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe("{}\n");
    // A command install and an uninstall leave such a file alone, and do not fail over it.
    expect((await runMain(["install", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["uninstall", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".mcp.json"), "utf8")).toBe('{"mcpServers": {"hookrun": {"command": "something-else"}}}\n');
    p.write(".mcp.json", "{ not json");
    expect((await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env })).stderr).toMatch(/\.mcp\.json: not JSON/);
    expect((await runMain(["install", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
  });

  it("is refused for Codex (its MCP hooks fail open), with --serve, and with --user", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", "{}\n");
    const codex = await runMain(["install", "codex", "--warm"], { cwd: p.dir, env: p.env });
    expect(codex.code).toBe(64);
    expect(codex.stderr).toMatch(/--warm: Codex CLI cannot be installed warm over MCP \(Codex \(0\.171\.0\) lets a PreToolUse call go on/);
    expect((await runMain(["install", "claude", "--warm", "--serve", "8411"], { cwd: p.dir, env: p.env })).stderr).toMatch(/--warm and --serve exclude each other/);
    expect((await runMain(["install", "claude", "--warm", "--user"], { cwd: p.dir, env: p.env })).stderr).toMatch(/no --user form/);
  });
});

describe("hooks doctor on warm MCP entries", () => {
  const PROBED = ["hooks:", "  pre_tool_use:", "    - {name: mark, matcher: Bash, command: 'touch ran.txt'}", ""].join("\n");
  const findingsOf = (stdout: string) => (JSON.parse(stdout) as { findings: { level: string; what: string }[] }).findings;

  it("starts the registered server as Claude Code would, probes it, and runs no hook; a server that cannot start, or no registration, is an error", async () => {
    const p = sandbox({ config: PROBED });
    p.write(".claude/settings.json", "{}\n");
    p.write("node_modules/.bin/hooks", `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(p.path("node_modules/.bin/hooks"), 0o755);
    expect((await runMain(["install", "claude", "--warm"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const ok = await runMain(["doctor", "claude", "--json"], { cwd: p.dir, env: p.env });
    expect(ok.code, ok.stdout).toBe(0);
    const good = findingsOf(ok.stdout);
    expect(good.find((f) => /warm MCP:/.test(f.what))).toEqual(
      expect.objectContaining({ level: "ok", what: expect.stringMatching(/answered initialize, lists hook, and a PreToolUse probe \(would run mark; nothing was run\)/) }),
    );
    expect(good.filter((f) => /no `command`/.test(f.what))).toEqual([]);
    expect(existsSync(p.path("ran.txt"))).toBe(false);

    p.write("node_modules/.bin/hooks", "#!/bin/sh\necho broken >&2\nexit 3\n");
    const broken = await runMain(["doctor", "claude", "--json"], { cwd: p.dir, env: p.env });
    expect(broken.code).toBe(1);
    expect(findingsOf(broken.stdout).find((f) => /warm MCP:/.test(f.what))).toEqual(
      expect.objectContaining({
        level: "error",
        what: expect.stringMatching(/started as Claude Code starts it, exited \(exit 3\) before it answered \(stderr: broken\): Claude Code refuses every guarded action/),
      }),
    );

    p.write(".mcp.json", "{}\n");
    const unregistered = await runMain(["doctor", "claude", "--json"], { cwd: p.dir, env: p.env });
    expect(unregistered.code).toBe(1);
    expect(findingsOf(unregistered.stdout).some((f) => f.level === "error" && /does not register the server "hookrun"/.test(f.what))).toBe(true);
  });
});
