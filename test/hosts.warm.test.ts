import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeHost } from "../src/hosts/claude.js";
import { ownsEntry } from "../src/hosts/install.js";
import { dispatchCommand } from "../src/hosts/dispatch.js";
import { installedPort, warmEntries, warmUrl } from "../src/hosts/warm.js";
import { runMain, spawnCli } from "./helpers/cli.js";
import { untilListening } from "./helpers/server.js";
import { sandbox } from "./helpers/sandbox.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { entriesOf } from "./helpers/hostSetup.js";
import { editorOf } from "./helpers/hostSetup.js";

const claudeEditor = editorOf(claudeHost);

/** Warm mode's install side: `hooks install claude --serve PORT` writes http entries the engine owns. */

const CONFIG = [
  "hooks:",
  "  session_start:",
  "    - {name: hello, command: echo hi}",
  "  pre_tool_use:",
  "    - {name: guard, command: ./guard.sh, matcher: Bash|Write, timeout: 5s}",
  "  stop:",
  "    - {name: tests, command: npm test, timeout: 2m}",
  "",
].join("\n");
const command = (event: string) => dispatchCommand("claude", event, { root: '"$CLAUDE_PROJECT_DIR"', bin: null });
const http = (event: string, timeout: number) => ({
  type: "http",
  url: `http://127.0.0.1:8411/v1/hosts/claude/${event}`,
  timeout,
  headers: { Authorization: "Bearer $HOOKS_SERVE_TOKEN" },
  allowedEnvVars: ["HOOKS_SERVE_TOKEN"],
  onFailure: "block",
});

describe("warm entries", () => {
  it("turn each command entry into an http entry on the server (same matcher and timeout, token header, fail closed); SessionStart and the stop events stay commands", async () => {
    const p = sandbox({ config: CONFIG });
    const config = await p.load();
    const cold = entriesOf(claudeHost, config, command);
    const warm = warmEntries("claude", cold, 8411);
    expect(warm.SessionStart).toEqual(cold.SessionStart);
    expect(warm.PreToolUse).toEqual([{ matcher: "Bash|Shell|Write", hooks: [http("PreToolUse", 15)] }]);
    // Claude ignores onFailure on Stop: over http a server that is down would let a stop guard pass.
    expect(warm.Stop).toEqual(cold.Stop);
    expect(warmUrl(1, "claude", "Stop")).toBe("http://127.0.0.1:1/v1/hosts/claude/Stop");
    expect(installedPort(warm)).toBe(8411);
    expect(installedPort(cold)).toBeNull();
  });

  it("are hookrun's to the install engine: merged, idempotent, removed exactly; a user's http hook is not", () => {
    expect(ownsEntry({ matcher: "Bash", hooks: [http("PreToolUse", 15)] })).toBe(true);
    expect(
      ownsEntry({
        hooks: [
          { type: "http", url: "http://localhost:9/v1/hosts/claude/Stop" },
          { type: "command", command: command("stop") },
        ],
      }),
    ).toBe(true);
    expect(ownsEntry({ hooks: [{ type: "http", url: "https://hooks.example.com/v1/hosts/claude/Stop" }] })).toBe(false);
    expect(ownsEntry({ hooks: [{ type: "http", url: "http://127.0.0.1:8411/v1/trigger/stop" }] })).toBe(false);
    expect(ownsEntry({ hooks: [http("Stop", 1), { type: "command", command: "./mine.sh" }] })).toBe(false);
    const user = { hooks: [{ type: "http", url: "http://127.0.0.1:9000/audit" }] };
    const before = `${JSON.stringify({ hooks: { Stop: [user] } }, null, 2)}\n`;
    const wanted = { Stop: [{ hooks: [http("Stop", 130)] }] };
    const after = claudeEditor.merge(before, "s.json", wanted);
    expect(JSON.parse(after).hooks.Stop).toEqual([user, ...wanted.Stop]);
    expect(claudeEditor.installed(after, "s.json")).toEqual(wanted);
    expect(claudeEditor.merge(after, "s.json", wanted)).toBe(after);
    expect(claudeEditor.uninstall(after, "s.json")).toBe(before);
  });
});

describe("hooks install claude --serve PORT", () => {
  it("writes the warm entries and says loudly what happens while no server answers; --check and validate judge the installed mode", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", '{\n  "model": "x"\n}\n');
    const r = await runMain(["install", "claude", "--serve", "8411"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    const hooks = JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8")).hooks;
    expect(hooks.PreToolUse).toEqual([{ matcher: "Bash|Shell|Write", hooks: [http("PreToolUse", 15)] }]);
    expect(hooks.SessionStart[0].hooks[0].type).toBe("command");
    expect(r.stderr).toMatch(
      /warm mode: start the server in the project: {2}HOOKS_SERVE_TOKEN=… hooks serve --port 8411\n {2}Claude Code POSTs each event \(but the session start and stop events, which stay commands\) to http:\/\/127\.0\.0\.1:8411/,
    );
    expect(r.stderr).not.toMatch(/Copilot/);
    expect(r.stderr).toMatch(/FAILS CLOSED/);
    expect(r.stderr).toMatch(/WARNING: nothing answers on 127\.0\.0\.1:8411 now/);

    // --check without --serve checks the warm install as installed, and warns that no server answers.
    const check = await runMain(["install", "--check"], { cwd: p.dir, env: p.env });
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/up to date/);
    expect(check.stderr).toMatch(/nothing answers on 127\.0\.0\.1:8411/);
    const validate = await runMain(["validate"], { cwd: p.dir, env: p.env, input: "" });
    expect(validate.stderr).not.toMatch(/stale/);
    expect(validate.stderr).toMatch(/\.claude\/settings\.json:1:1: warning: hookrun's entries call `hooks serve` on 127\.0\.0\.1:8411: warm mode, and nothing answers on 127\.0\.0\.1:8411/);
    // Back to command mode: the http entries are replaced, not kept beside.
    await runMain(["install", "claude"], { cwd: p.dir, env: p.env });
    expect(JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8")).hooks.PreToolUse[0].hooks[0].type).toBe("command");
    expect((await runMain(["uninstall", "claude"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe('{\n  "model": "x"\n}\n');
  });

  it("with no host named, --serve makes Claude Code's entries warm and leaves the other hosts' commands; a named host that cannot call a URL is refused", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", "{}\n");
    p.write(".gemini/settings.json", "{}\n");
    expect((await runMain(["install", "--serve", "8411"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(JSON.parse(readFileSync(p.path(".claude/settings.json"), "utf8")).hooks.PreToolUse[0].hooks[0].type).toBe("http");
    expect(JSON.stringify(JSON.parse(readFileSync(p.path(".gemini/settings.json"), "utf8")).hooks)).toMatch(/run pre_tool_use --host gemini/);
    const named = await runMain(["install", "claude", "gemini", "--serve", "8411"], { cwd: p.dir, env: p.env });
    expect(named.code).toBe(64);
    expect(named.stderr).toMatch(/--serve: Gemini CLI cannot call a URL/);
  });

  it("Qoder CLI and Qwen Code have http hooks but are refused warm mode, with the reason (they fail open); nothing is written", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".qoder/settings.json", "{}\n");
    p.write(".qwen/settings.json", "{}\n");
    const r = await runMain(["install", "qoder", "qwen", "gemini", "--serve", "8411"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(
      "--serve: Qoder CLI (1.1.52) runs the tool when its http hook cannot reach the server, onFailure or not, so a guard would open; Qwen Code (0.24.4) runs the tool when its http hook cannot reach the server, times out or gets a non-2xx answer, so a guard would open; Gemini CLI cannot call a URL; warm mode is for Claude Code and Copilot CLI (hooks install claude copilot --serve 8411)",
    );
    expect(readFileSync(p.path(".qoder/settings.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(p.path(".qwen/settings.json"), "utf8")).toBe("{}\n");
  });

  it("Copilot CLI: preToolUse gets its command entry, stepping aside under COPILOT_HOOK_ALLOW_LOCALHOST=1, and an http entry failing closed before the timeout; the other events stay commands; back to commands without --serve", async () => {
    const p = sandbox({ config: CONFIG.replace("timeout: 5s}", "timeout: 5s, on_failure: block}") });
    p.write(".github/hooks/keep.json", "{}\n");
    const r = await runMain(["install", "copilot", "--serve", "8411"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Copilot CLI POSTs each preToolUse to http:\/\/127\.0\.0\.1:8411 only with COPILOT_HOOK_ALLOW_LOCALHOST=1 and \$HOOKS_SERVE_TOKEN in its environment/);
    expect(r.stderr).not.toMatch(/Claude Code/);
    const hooks = JSON.parse(readFileSync(p.path(".github/hooks/hookrun.json"), "utf8")).hooks;
    expect(hooks.sessionStart).toHaveLength(1);
    expect(hooks.sessionStart[0].bash).toMatch(/^\{ \[ -x .* run session_start --host copilot$/);
    expect(hooks.agentStop[0].type).toBe("command");
    const [cmd, web] = hooks.preToolUse;
    expect(cmd.bash).toMatch(/^\[ "\$\{COPILOT_HOOK_ALLOW_LOCALHOST:-\}" = 1 \] && exit 0; \{ \[ -x .* run pre_tool_use --host copilot --fail-closed --deadline 15$/);
    expect(web).toEqual({
      type: "http",
      url: "http://127.0.0.1:8411/v1/hosts/copilot/preToolUse?fail_closed=1&deadline=15",
      timeoutSec: 15,
      matcher: cmd.matcher,
      headers: { Authorization: "Bearer $HOOKS_SERVE_TOKEN" },
      allowedEnvVars: ["HOOKS_SERVE_TOKEN"],
    });
    expect(ownsEntry(cmd) && ownsEntry(web)).toBe(true);
    // the fallback's head recognised only before a dispatch of hookrun's
    expect(ownsEntry({ ...cmd, bash: '[ "${COPILOT_HOOK_ALLOW_LOCALHOST:-}" = 1 ] && exit 0; ./mine.sh' })).toBe(false);
    expect(ownsEntry({ ...web, url: `${web.url}&x=1` })).toBe(false);
    // --check keeps the installed mode; the user's own file is untouched
    const check = await runMain(["install", "copilot", "--check"], { cwd: p.dir, env: p.env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stderr).toMatch(/nothing answers on 127\.0\.0\.1:8411: Copilot CLI refuses guarded actions until `hooks serve --port 8411` runs/);
    expect(readFileSync(p.path(".github/hooks/keep.json"), "utf8")).toBe("{}\n");
    // the doctor fires the command entry without the variable (the cold path), even when the user has it set
    linkHookrun(p.dir);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const doctor = await runMain(["doctor"], { cwd: p.dir, env: { ...p.env, COPILOT_HOOK_ALLOW_LOCALHOST: "1" } });
    expect(doctor.stdout).toMatch(/✓ preToolUse → pre_tool_use: runs guard/);
    expect(doctor.stdout).toMatch(/! preToolUse: warm mode, and nothing answers on 127\.0\.0\.1:8411: Copilot CLI refuses guarded actions/);
    expect(doctor.stdout).not.toMatch(/never reaches hookrun/);
    // no user form: one server runs one project's hooks
    const user = await runMain(["install", "copilot", "--user", "--serve", "8411"], { cwd: p.dir, env: p.env });
    expect(user.code).toBe(64);
    expect(user.stderr).toMatch(/--serve answers one project's hooks from a server started in it; it has no --user form/);
    expect(existsSync(path.join(p.env.HOME, ".copilot"))).toBe(false);
    // without --serve: the command entries alone again
    expect((await runMain(["install", "copilot"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const back = JSON.parse(readFileSync(p.path(".github/hooks/hookrun.json"), "utf8")).hooks;
    expect(back.preToolUse).toHaveLength(1);
    expect(back.preToolUse[0].bash).toMatch(/^\{ \[ -x /);
  });

  it("a listener that is not the user's own hooks serve (it cannot prove it knows the token) is a loud warning in --check and validate, an error in the doctor; the user's own server passes", async () => {
    // another user's listener on the port: it answers, and knows no token
    const foreign = createServer((_q, res) => res.writeHead(401).end());
    await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
    const TOKEN = "a".repeat(16) + "b".repeat(16);
    try {
      const port = (foreign.address() as AddressInfo).port;
      const p = sandbox({ config: CONFIG });
      const env = { ...p.env, HOOKS_SERVE_TOKEN: TOKEN };
      const r = await runMain(["install", "claude", "--serve", String(port)], { cwd: p.dir, env });
      expect(r.stderr).toMatch(new RegExp(`A server answers on 127\\.0\\.0\\.1:${port} now`));
      const NOT_YOURS = new RegExp(`WARNING: warm mode: what answers on 127\\.0\\.0\\.1:${port} is NOT your \`hooks serve\``);
      expect(r.stderr).toMatch(NOT_YOURS);
      expect((await runMain(["install", "--check"], { cwd: p.dir, env })).stderr).toMatch(NOT_YOURS);
      expect((await runMain(["validate"], { cwd: p.dir, env, input: "" })).stderr).toMatch(NOT_YOURS);
      expect((await runMain(["trust", "--yes"], { cwd: p.dir, env })).code).toBe(0);
      const doctor = await runMain(["doctor", "claude", "--json"], { cwd: p.dir, env });
      const findings = (JSON.parse(doctor.stdout) as { findings: { level: string; what: string }[] }).findings;
      expect(findings.filter((f) => f.level === "error" && NOT_YOURS.test(f.what)).length, doctor.stdout).toBeGreaterThan(0);
      // without a token here, it cannot be checked: said so
      const bare = await runMain(["install", "--check"], { cwd: p.dir, env: { ...p.env, HOOKS_SERVE_TOKEN: "" } });
      expect(bare.stderr).toMatch(/there is no token here to check it is your `hooks serve`/);
      foreign.close();

      // the user's own hooks serve on the same port, with the token: it proves it, nothing is said
      const own = spawnCli(["serve", "--port", String(port)], { cwd: p.dir, env });
      try {
        await untilListening(own);
        const check = await runMain(["install", "--check"], { cwd: p.dir, env });
        expect(check.stderr).not.toMatch(/warm mode/);
        expect((await runMain(["validate"], { cwd: p.dir, env, input: "" })).stderr).not.toMatch(/warm mode/);
        const ok = await runMain(["doctor", "claude"], { cwd: p.dir, env });
        expect(ok.stdout).toMatch(/your `hooks serve` answers there \(it proved it knows the token\)/);
        // the proof is asked without the token, and gives nothing else away
        const proof = await fetch(`http://127.0.0.1:${port}/v1/health?challenge=${"0".repeat(32)}`);
        expect(Object.keys((await proof.json()) as object)).toEqual(["proof"]);
        expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(401);
      } finally {
        own.child.kill("SIGKILL");
        await own.exited;
      }

      // the user's own hooks serve, started in another project on the same port: it refuses this one's events; said
      const other = sandbox({ config: CONFIG });
      const theirs = spawnCli(["serve", "--port", String(port)], { cwd: other.dir, env: { ...other.env, HOOKS_SERVE_TOKEN: TOKEN, HOOKS_TRUST: "1" } });
      try {
        await untilListening(theirs);
        const ELSEWHERE = new RegExp(
          `what answers on 127\\.0\\.0\\.1:${port} is your \`hooks serve\` of another project: it refuses this project's events, so Claude Code refuses guarded actions here`,
        );
        expect((await runMain(["install", "--check"], { cwd: p.dir, env })).stderr).toMatch(ELSEWHERE);
        const doctor = await runMain(["doctor", "claude", "--json"], { cwd: p.dir, env });
        const findings = (JSON.parse(doctor.stdout) as { findings: { level: string; what: string }[] }).findings;
        expect(findings.filter((f) => f.level === "error" && ELSEWHERE.test(f.what)).length, doctor.stdout).toBeGreaterThan(0);
        // from the other project's side it is its own
        expect((await runMain(["install", "claude", "--serve", String(port)], { cwd: other.dir, env: { ...other.env, HOOKS_SERVE_TOKEN: TOKEN } })).stderr).not.toMatch(/another project|NOT your/);
      } finally {
        theirs.child.kill("SIGKILL");
        await theirs.exited;
      }
      const bad = await runMain(["install", "claude", "--serve", "http://x"], { cwd: p.dir, env: p.env });
      expect(bad.code).toBe(64);
      expect(bad.stderr).toMatch(/--serve http:\/\/x: expected the port/);
    } finally {
      foreign.close();
    }
  });
});
