import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { kimi } from "../src/hosts/kimi.js";
import { CLI, cliEnv, runMain } from "./helpers/cli.js";
import { CLAUDE_PAYLOADS, otherHostsFixtures } from "./helpers/hostFixtures.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { sandbox, useSandbox } from "./helpers/sandbox.js";

useSandbox();

// Kimi Code's payloads as its runner builds them (camelCase input data turned snake_case, the
// session's facts and client_type added): packages/agent-core-v2/src/features/externalHooks.
const BASE = { hook_event_name: "PreToolUse", session_id: "session_abc", cwd: "/home/me/p", session_title: "Fix the login page", client_type: "kimi_code_cli" };
const PRE = { ...BASE, tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_call_id: "call-1" };
const POST = { ...BASE, hook_event_name: "PostToolUse", tool_name: "FetchURL", tool_input: { url: "https://x" }, tool_call_id: "call-2", tool_output: "<html>" };
// The prompt as Kimi Code 2.1.0 sends it: its content parts, not a string (seen from the real CLI in test/kimi.e2e.test.ts).
const PROMPT = { ...BASE, hook_event_name: "UserPromptSubmit", prompt: [{ type: "text", text: "fix the bug" }], is_steer: false };
const STOP = { ...BASE, hook_event_name: "Stop", stop_hook_active: false };

/** Run an entry's command as Kimi Code does: through the shell, in the session's project directory, the payload on stdin. */
function runAsKimi(command: string, payload: unknown, cwd: string, env: Record<string, string>) {
  const r = spawnSync("/bin/sh", ["-c", command], { cwd, env: cliEnv(env), input: JSON.stringify(payload), encoding: "utf8", timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("kimi: read, detect", () => {
  it("reads Kimi Code's payload: tool_call_id is tool_use_id, FetchURL is WebFetch, tool_output the response", () => {
    const ctx = kimi.read(PRE, "pre_tool_use");
    expect(ctx).toMatchObject({ session_id: "session_abc", cwd: "/home/me/p", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "call-1" });
    expect(ctx.host).toEqual({ name: "kimi", event: "PreToolUse", tool_name: "Bash", client_type: "kimi_code_cli", session_title: "Fix the login page" });
    expect(kimi.read(POST, "post_tool_use")).toMatchObject({ tool_name: "WebFetch", tool_response: "<html>" });
    expect(kimi.read(PROMPT, "user_prompt_submit").prompt).toBe("fix the bug");
  });

  it("a prompt's content parts read as its text: the text parts joined with a space (as Kimi Code's own matcher joins them), other parts left out", () => {
    const parts = [{ type: "text", text: "look at" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }, { type: "text", text: "this page" }, { type: "text" }, "stray"];
    expect(kimi.read({ ...PROMPT, prompt: parts }, "user_prompt_submit").prompt).toBe("look at this page");
    expect(kimi.read({ ...PROMPT, prompt: [] }, "user_prompt_submit").prompt).toBe("");
    // A string (an older Kimi Code, or a hand-made payload) passes unchanged; so does a prompt of another shape.
    expect(kimi.read({ ...PROMPT, prompt: "fix the bug" }, "user_prompt_submit").prompt).toBe("fix the bug");
    expect(kimi.read({ ...PROMPT, prompt: { text: "x" } }, "user_prompt_submit").prompt).toEqual({ text: "x" });
  });

  it("claims Kimi Code's payloads (client_type kimi_code_cli) and no other host's", () => {
    for (const p of [PRE, POST, PROMPT, STOP]) expect(kimi.detect(p)).toBe(true);
    for (const [name, p] of otherHostsFixtures("kimi")) expect(kimi.detect(p), name).toBe(false);
    for (const p of CLAUDE_PAYLOADS) expect(kimi.detect(p)).toBe(false);
    // An event Kimi Code fires but hookrun does not read.
    expect(kimi.detect({ ...BASE, hook_event_name: "Interrupt", reason: "cancelled" })).toBe(false);
  });
});

describe("kimi: render (exit 2 blocks; a prompt's stdout is context)", () => {
  it("a block on PreToolUse, UserPromptSubmit and Stop is exit 2 with the reason alone on stderr; ask and a rewrite allow", () => {
    for (const event of ["pre_tool_use", "user_prompt_submit", "stop"]) {
      const blocked = triggerResult(event, [hookResult("g", { status: "blocked", decision: "block", reason: "no rm" })], { blocked: true, blocked_by: "g", reason: "no rm" });
      expect(kimi.render(blocked), event).toEqual({ stdout: "", stderr: "no rm\n", exitCode: 2 });
    }
    const ask = kimi.render(triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "prod" })], { updated_input: { command: "ls" } }));
    expect(ask).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    // Kimi Code reads no answer after a tool ran: a block there is not exit 2.
    const post = kimi.render(triggerResult("post_tool_use", [hookResult("p", { status: "blocked", decision: "block", reason: "x" })], { blocked: true, blocked_by: "p", reason: "x" }));
    expect(post.exitCode).toBe(0);
  });

  it("a prompt's context is stdout; a Stop follow-up is exit 2 with its text; failures go to stderr on exit 0", () => {
    const ctx = kimi.render(triggerResult("user_prompt_submit", [hookResult("c", { messages: [{ role: "system", content: "branch: main" }] })]));
    expect(ctx).toEqual({ stdout: "branch: main\n", stderr: "", exitCode: 0 });
    const session = kimi.render(triggerResult("session_start", [hookResult("c", { messages: [{ role: "system", content: "Use pnpm." }] })]));
    expect(session).toEqual({ stdout: "", stderr: "Use pnpm.\n", exitCode: 0 });
    expect(kimi.render(triggerResult("stop", [hookResult("t", { messages: [{ role: "system", content: "run the tests", kind: "followup" }] })]))).toEqual({
      stdout: "",
      stderr: "run the tests\n",
      exitCode: 2,
    });
    const failed = kimi.render(triggerResult("pre_tool_use", [hookResult("f", { status: "failed", exit_code: 1, stderr: "boom\n" })]));
    expect(failed.exitCode).toBe(0);
    expect(failed.stderr).toMatch(/hookrun: hook f failed/);
  });

  it("the project's hooks not running: the model is told on a submitted prompt, the user (stderr) elsewhere", () => {
    expect(kimi.notRun("user_prompt_submit", "hooks.yaml is not trusted", "Tell the user.")).toEqual({
      stdout: "Tell the user.\n",
      stderr: "hookrun: the project's hooks did not run: hooks.yaml is not trusted\n",
      exitCode: 0,
    });
    expect(kimi.notRun("pre_tool_use", "hooks.yaml is not trusted", "x")).toEqual({ stdout: "", stderr: "hookrun: the project's hooks did not run: hooks.yaml is not trusted\n", exitCode: 0 });
  });
});

describe("kimi: through the CLI (hooks run / install --user / uninstall / import / doctor)", () => {
  const CONFIG = [
    "hooks:",
    "  pre_tool_use:",
    "    - {name: guard, command: './guard.sh', matcher: Bash, timeout: 5s}",
    "  user_prompt_submit:",
    "    - {name: branch, command: './branch.sh', dialect: claude}",
    "  stop:",
    "    - {name: tests, command: 'true'}",
    "",
  ].join("\n");
  const scripts = (p: ReturnType<typeof sandbox>) => {
    p.write("guard.sh", '#!/bin/sh\ncase "$(cat)" in *"rm -rf"*) echo "no rm in this repo" >&2; exit 2;; esac\nexit 0\n');
    p.write("branch.sh", "#!/bin/sh\ncat >/dev/null\necho 'branch: main'\n");
    spawnSync("chmod", ["+x", p.path("guard.sh"), p.path("branch.sh")]);
  };

  it("`hooks run --host kimi` and `--host auto` answer Kimi Code's payloads: exit 2 with the reason, a prompt's context on stdout", async () => {
    const p = sandbox({ config: CONFIG });
    scripts(p);
    const blocked = await runMain(["--trust", "run", "pre_tool_use", "--host", "kimi"], { cwd: p.dir, env: p.env, input: JSON.stringify({ ...PRE, cwd: p.dir }) });
    expect(blocked).toMatchObject({ code: 2, stdout: "", stderr: "no rm in this repo\n" });
    const auto = await runMain(["--trust", "run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: JSON.stringify({ ...PRE, cwd: p.dir }) });
    expect(auto).toMatchObject({ code: 2, stderr: "no rm in this repo\n" });
    const ok = await runMain(["--trust", "run", "pre_tool_use", "--host", "kimi"], { cwd: p.dir, env: p.env, input: JSON.stringify({ ...PRE, tool_input: { command: "ls" }, cwd: p.dir }) });
    expect(ok).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const prompt = await runMain(["--trust", "run", "user_prompt_submit", "--host", "kimi"], { cwd: p.dir, env: p.env, input: JSON.stringify({ ...PROMPT, cwd: p.dir }) });
    expect(prompt).toMatchObject({ code: 0, stdout: "branch: main\n" });
  });

  it("refuses a project install (Kimi Code reads only ~/.kimi-code/config.toml), nothing written", async () => {
    const p = sandbox({ config: CONFIG });
    const r = await runMain(["install", "kimi"], { cwd: p.dir, env: p.env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Kimi Code reads \[\[hooks\]\] only from ~\/\.kimi-code\/config\.toml.*hooks install kimi --user/);
    expect(existsSync(p.path(".kimi-code"))).toBe(false);
  });

  it("--user appends flat [[hooks]] tables (event, matcher, command, timeout only) to the user's config.toml, runs them as Kimi Code does, uninstall restores the file byte for byte", async () => {
    const p = sandbox({ config: CONFIG });
    scripts(p);
    const file = path.join(p.env.HOME, ".kimi-code", "config.toml");
    mkdirSync(path.dirname(file), { recursive: true });
    const mine = '# my config\ndefault_model = "kimi-k2"\n\n[[hooks]]\nevent = "Notification"\nmatcher = "task\\\\.completed"\ncommand = "notify-send done"\n';
    writeFileSync(file, mine);
    const i = await runMain(["install", "kimi", "--user"], { cwd: p.dir, env: p.env });
    expect(i.code, i.stderr).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(mine)).toBe(true);
    const tables = (parse(text) as { hooks: Record<string, unknown>[] }).hooks;
    expect(tables.map((t) => t.event).sort()).toEqual(["Notification", "PreToolUse", "Stop", "UserPromptSubmit"]);
    for (const t of tables)
      expect(
        Object.keys(t).every((k) => ["event", "matcher", "command", "timeout"].includes(k)),
        JSON.stringify(t),
      ).toBe(true);
    const pre = tables.find((t) => t.event === "PreToolUse")!;
    const promptEntry = tables.find((t) => t.event === "UserPromptSubmit")!;
    const stop = tables.find((t) => t.event === "Stop")!;
    expect(pre).toEqual({ event: "PreToolUse", matcher: "^(Bash)$", command: `${CLI} run pre_tool_use --host kimi`, timeout: 15 });
    expect(stop).toMatchObject({ event: "Stop", command: `${CLI} run stop --host kimi` });
    expect(stop.matcher).toBeUndefined();
    expect((await runMain(["install", "kimi", "--user", "--check"], { cwd: p.dir, env: p.env })).code).toBe(0);
    // A second install changes nothing.
    expect((await runMain(["install", "kimi", "--user"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const r = runAsKimi(String(pre.command), { ...PRE, cwd: p.dir }, p.dir, p.env);
    expect(r).toMatchObject({ code: 2, stdout: "", stderr: "no rm in this repo\n" });
    const prompt = runAsKimi(String(promptEntry.command), { ...PROMPT, cwd: p.dir }, p.dir, p.env);
    expect(prompt).toMatchObject({ code: 0, stdout: "branch: main\n" });
    expect((await runMain(["uninstall", "kimi", "--user"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(mine);
  });

  it("a fresh config.toml holds only hookrun's tables, and uninstall removes it; KIMI_CODE_HOME elsewhere is warned about", async () => {
    const p = sandbox({ config: CONFIG });
    const env = { ...p.env, KIMI_CODE_HOME: path.join(p.root, "kimi-home") };
    const i = await runMain(["install", "kimi", "--user"], { cwd: p.dir, env });
    expect(i.code, i.stderr).toBe(0);
    expect(i.stderr).toMatch(/KIMI_CODE_HOME is set: Kimi Code reads .*kimi-home\/config\.toml here/);
    const file = path.join(p.env.HOME, ".kimi-code", "config.toml");
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("[[hooks]]\nevent = ")).toBe(true);
    expect(text).not.toMatch(/schema_version/);
    expect((await runMain(["uninstall", "kimi", "--user"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("`hooks import kimi ~/.kimi-code/config.toml` reads its [[hooks]] as dialect: claude hooks", async () => {
    const p = sandbox();
    p.write("kimi.toml", '[[hooks]]\nevent = "PreToolUse"\nmatcher = "Bash"\ncommand = "node ~/.kimi-code/hooks/block.mjs"\ntimeout = 5\n\n[[hooks]]\nevent = "Interrupt"\ncommand = "echo stopped"\n');
    // The file's name must end in .toml to be read as TOML.
    const r = await runMain(["import", "kimi", "kimi.toml"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pre_tool_use:\n\s+- name: \S+\n/);
    expect(r.stdout).toMatch(/matcher: Bash\n/);
    expect(r.stdout).toMatch(/timeout: 5\n/);
    expect(r.stdout).toMatch(/dialect: claude/);
    expect(r.stdout + r.stderr).toMatch(/Interrupt/);
  });

  it("`hooks doctor kimi --user` fires the installed entries and flags a table Kimi Code would refuse (a key it does not allow)", async () => {
    const p = sandbox({ config: CONFIG });
    scripts(p);
    expect((await runMain(["install", "kimi", "--user"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runMain(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const file = path.join(p.env.HOME, ".kimi-code", "config.toml");
    const good = await runMain(["doctor", "kimi", "--user"], { cwd: p.dir, env: p.env });
    expect(good.code, good.stdout + good.stderr).toBe(0);
    writeFileSync(file, `[[hooks]]\nevent = "Stop"\ncommand = "true"\nname = "mine"\n\n${readFileSync(file, "utf8")}`);
    const bad = await runMain(["doctor", "kimi", "--user"], { cwd: p.dir, env: p.env });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toMatch(/key name: Kimi Code allows only event, matcher, command and timeout/);
  });
});
