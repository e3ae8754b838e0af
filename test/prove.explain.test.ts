import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { explainHooks } from "../src/prove/explain.js";
import { planHooks } from "../src/runner/select.js";
import { runCli, runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

// `hooks explain EVENT`, the reasons of `hooks run --dry-run` and HOOKS_EXPLAIN=1 (docs/cli.md#hooks-explain-event):
// every hook of the event, whether it would run for this context, and why not.

const CONFIG = `hooks:
  pre_tool_use:
    - name: guard
      command: touch ran-guard
      matcher: Bash
      priority: 10
    - name: fmt
      command: touch ran-fmt
      matcher: Write|Edit
    - name: gitonly
      command: touch ran-git
      if: Bash(git *)
    - name: docs
      command: touch ran-docs
      paths: ["docs/**"]
    - name: off
      command: touch ran-off
      enabled: false
  stop:
    - name: final
      command: touch ran-final
`;

const BASH_LS = JSON.stringify({ tool_name: "Bash", tool_input: { command: "ls" } });

async function explainJson(t: ReturnType<typeof sandbox>, args: string[], input: string, env: Record<string, string> = {}) {
  const r = await runMain(["explain", ...args, "--json"], { cwd: t.dir, env: { ...t.env, ...env }, input });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { event: string; trusted: boolean; untrusted: string[]; hooks: { name: string; runs: boolean; reasons: string[] }[] };
}

const byName = (x: { hooks: { name: string; runs: boolean; reasons: string[] }[] }) => Object.fromEntries(x.hooks.map((h) => [h.name, h.reasons]));

describe("hooks explain", () => {
  it("names, for each hook of the event, every reason it would not run, and where it comes from", async () => {
    const t = sandbox({ config: CONFIG });
    const x = await explainJson(t, ["pre_tool_use", "--trust"], BASH_LS);
    expect(x.event).toBe("pre_tool_use");
    expect(x.hooks.map((h) => h.name)).toEqual(["guard", "fmt", "gitonly", "docs", "off"]);
    const why = byName(x);
    expect(why.guard).toEqual([]);
    expect(x.hooks[0].runs).toBe(true);
    expect(why.fmt).toEqual(['matcher "Write|Edit" does not match tool_name "Bash"']);
    expect(why.gitonly).toEqual(['if "Bash(git *)" does not match this Bash call']);
    expect(why.docs).toEqual(['paths ["docs/**"]: the context has no path']);
    expect(why.off).toEqual(["disabled: `enabled: false` at hooks.yaml:18 (`hooks enable off` turns it on)"]);
    // Nothing ran.
    for (const f of ["ran-guard", "ran-fmt", "ran-git", "ran-docs", "ran-off"]) expect(existsSync(t.path(f))).toBe(false);
  });

  it("follows the context: a git command passes `if`, a docs path passes paths, a missing matcher field is said", async () => {
    const t = sandbox({ config: CONFIG });
    const git = byName(await explainJson(t, ["pre_tool_use", "--trust"], JSON.stringify({ tool_name: "Bash", tool_input: { command: "git status" } })));
    expect(git.gitonly).toEqual([]);
    const docs = byName(await explainJson(t, ["pre_tool_use", "--trust"], JSON.stringify({ tool_name: "Write", path: "docs/a.md" })));
    expect(docs.docs).toEqual([]);
    expect(docs.fmt).toEqual([]);
    expect(docs.guard).toEqual(['matcher "Bash" does not match tool_name "Write"']);
    expect(byName(await explainJson(t, ["pre_tool_use", "--trust"], "{}")).guard).toEqual(['matcher "Bash": the context has no tool_name']);
    const wrongPath = byName(await explainJson(t, ["pre_tool_use", "--trust"], JSON.stringify({ tool_name: "Write", path: "src/a.ts" })));
    expect(wrongPath.docs).toEqual(['paths ["docs/**"] do not match path "src/a.ts"']);
  });

  it("says HOOKS=0, HOOKS_DISABLED, --only and --skip, all of them when several apply", async () => {
    const t = sandbox({ config: CONFIG });
    expect(byName(await explainJson(t, ["pre_tool_use", "--trust"], BASH_LS, { HOOKS: "0" })).guard).toEqual(["HOOKS=0 turns every hook off"]);
    expect(byName(await explainJson(t, ["pre_tool_use", "--trust"], BASH_LS, { HOOKS_DISABLED: "guard,x" })).guard).toEqual(["named in HOOKS_DISABLED"]);
    expect(byName(await explainJson(t, ["pre_tool_use", "--trust", "--only", "fmt"], BASH_LS)).guard).toEqual(["not named by --only"]);
    const both = byName(await explainJson(t, ["pre_tool_use", "--trust", "--skip", "fmt"], BASH_LS));
    expect(both.fmt).toEqual(["named by --skip", 'matcher "Write|Edit" does not match tool_name "Bash"']);
  });

  it("an untrusted project: the hooks that would run say so and how to trust; the others keep their own reasons", async () => {
    const t = sandbox({ config: CONFIG });
    const x = await explainJson(t, ["pre_tool_use"], BASH_LS);
    expect(x.trusted).toBe(false);
    expect(x.untrusted).toEqual(["hooks.yaml"]);
    const why = byName(x);
    expect(why.guard).toEqual(["hooks.yaml not trusted (new or changed since it was reviewed): no hook runs until `hooks trust`"]);
    expect(why.fmt).toEqual(['matcher "Write|Edit" does not match tool_name "Bash"']);
    expect((await runMain(["trust", "--yes"], { cwd: t.dir, env: t.env })).code).toBe(0);
    const after = await explainJson(t, ["pre_tool_use"], BASH_LS);
    expect(after.trusted).toBe(true);
    expect(byName(after).guard).toEqual([]);
  });

  it("agrees with the runner's selection on every hook and context", async () => {
    const t = sandbox({ config: CONFIG });
    const config = await t.load();
    const contexts = [
      {},
      { tool_name: "Bash", tool_input: { command: "ls" } },
      { tool_name: "Bash", tool_input: { command: "git push" } },
      { tool_name: "Edit", path: "docs/x.md" },
      { tool_name: "Read", path: "README.md" },
    ];
    for (const env of [{}, { HOOKS_DISABLED: "guard" }, { HOOKS: "off" }])
      for (const context of contexts) {
        const options = { env: { ...t.processEnv, ...env }, cwd: t.dir, trust: "all" as const };
        const planned = planHooks(config, "pre_tool_use", context, options).map((h) => h.name);
        const explained = explainHooks(config, "pre_tool_use", context, options)
          .hooks.filter((h) => h.runs)
          .map((h) => h.name);
        expect(explained).toEqual(planned);
      }
  });

  it("reads a host's payload with --host (the host's event name too) and prints text with the matched value", async () => {
    const t = sandbox({ config: CONFIG });
    const gemini = JSON.stringify({ session_id: "g", hook_event_name: "BeforeTool", timestamp: "2026-11-24T00:00:00Z", tool_name: "run_shell_command", tool_input: { command: "ls" }, cwd: t.dir });
    const r = await runMain(["--trust", "explain", "BeforeTool", "--host", "gemini"], { cwd: t.dir, env: t.env, input: gemini });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe('pre_tool_use (tool_name "Bash") from gemini: 1 of 5 hooks would run');
    expect(r.stdout).toContain("  ✓ guard  ");
    expect(r.stdout).toMatch(/ {2}✗ fmt +priority 0 {2}hooks\.yaml:7\n {6}matcher "Write\|Edit" does not match tool_name "Bash"/);
  });

  it("an event no hook is declared for says so; control characters in context values are escaped", async () => {
    const t = sandbox({ config: CONFIG });
    const none = await runMain(["--trust", "explain", "session_start"], { cwd: t.dir, env: t.env, input: "{}" });
    expect(none.stdout).toContain("session_start: 0 of 0 hooks would run\n  no hook is declared for this event");
    const r = await runMain(["--trust", "explain", "pre_tool_use"], { cwd: t.dir, env: t.env, input: JSON.stringify({ tool_name: "evil\u001b[2Jtool" }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("evil");
    expect(r.stdout).not.toContain("\u001b");
  });
});

describe("hooks run --dry-run", () => {
  it("lists, after the plan, the hooks that would not run with their reasons", async () => {
    const t = sandbox({ config: CONFIG });
    const r = await runMain(["--trust", "run", "pre_tool_use", "--dry-run", "--json"], { cwd: t.dir, env: t.env, input: BASH_LS });
    const out = JSON.parse(r.stdout);
    expect(out.hooks.map((h: { name: string }) => h.name)).toEqual(["guard"]);
    expect(out.not_run.map((h: { name: string }) => h.name)).toEqual(["fmt", "gitonly", "docs", "off"]);
    expect(out.not_run[0].reasons).toEqual(['matcher "Write|Edit" does not match tool_name "Bash"']);
    const text = await runMain(["--trust", "run", "pre_tool_use", "--dry-run"], { cwd: t.dir, env: t.env, input: BASH_LS });
    expect(text.stdout).toContain('  not run: fmt: matcher "Write|Edit" does not match tool_name "Bash"\n');
  });
});

describe("HOOKS_EXPLAIN=1 (what hooks doctor fires through a host's entry)", () => {
  it("makes `hooks run --host claude` print the explanation as JSON and start no hook, in a real process", async () => {
    const t = sandbox({ config: CONFIG });
    const payload = JSON.stringify({ session_id: "c", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, cwd: t.dir, transcript_path: "", permission_mode: "default" });
    const r = await runCli(["--trust", "run", "PreToolUse", "--host", "claude"], { cwd: t.dir, env: { ...t.env, HOOKS_EXPLAIN: "1" }, input: payload });
    expect(r.code).toBe(0);
    const x = JSON.parse(r.stdout);
    expect(x.host).toBe("claude");
    expect(x.hooks.filter((h: { runs: boolean }) => h.runs).map((h: { name: string }) => h.name)).toEqual(["guard"]);
    expect(existsSync(t.path("ran-guard"))).toBe(false);
    // Without it, the same command runs the hook.
    const real = await runCli(["--trust", "run", "PreToolUse", "--host", "claude"], { cwd: t.dir, env: t.env, input: payload });
    expect(real.code).toBe(0);
    expect(existsSync(t.path("ran-guard"))).toBe(true);
  });

  it("an invalid config is an error (exit 78), not the host's not-run answer", async () => {
    const t = sandbox({ config: "hooks:\n  stop:\n    - name: x\n" });
    const r = await runMain(["run", "Stop", "--host", "claude"], { cwd: t.dir, env: { ...t.env, HOOKS_EXPLAIN: "1" }, input: JSON.stringify({ session_id: "c", hook_event_name: "Stop" }) });
    expect(r.code).toBe(78);
    expect(r.stdout).toBe("");
  });
});
