import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { HOOK_NAME_PATTERN } from "../src/interop/hookNames.js";
import { importClaudeSettings } from "../src/interop/importClaudeSettings.js";
import { ROOT, runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const FIXTURES = path.join(ROOT, "test/fixtures/claude");

/** Every Claude Code settings file of the corpus, relative to test/fixtures/claude. */
function corpus(dir = FIXTURES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return corpus(p);
    return d.name.endsWith(".json") ? [path.relative(FIXTURES, p)] : [];
  });
}

type Entry = Record<string, unknown>;
/** Each command hook of a settings file, with its location as the import names it. */
function commandEntries(settings: { hooks: Record<string, { hooks: Entry[] }[]> }): [string, Entry][] {
  return Object.entries(settings.hooks).flatMap(([event, groups]) =>
    groups.flatMap((g, i) => g.hooks.map((e, j): [string, Entry] => [`hooks.${event}[${i}].hooks[${j}]`, e]).filter(([, e]) => (e.type ?? "command") === "command")),
  );
}

// Which hookrun field carries each field of Claude Code's command hook.
const CARRIED: Record<string, string> = { if: "if", timeout: "timeout", async: "async", asyncRewake: "rewake", shell: "shell", onFailure: "on_failure", statusMessage: "description", args: "args" };
// Names that say nothing about what a hook does (what the import used to produce).
const MEANINGLESS = /^(import|jq|python3?|node|bash|sh|c|e|true|echo|cat|-.*)(-\d+)?$/;

describe("the corpus of real Claude Code settings (test/fixtures/claude)", () => {
  const files = corpus();
  it("has settings to walk", () => {
    expect(files).toEqual(expect.arrayContaining([".claude/settings.json", "corpus/one-liners.json", "corpus/every-field.json"]));
  });

  it.each(files)("%s: every command hook is imported with a meaningful name, or refused with a reason; no field is dropped silently", (file) => {
    const settings = JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8"));
    const imp = importClaudeSettings(settings);
    const names = imp.hooks.map((h) => h.hook.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [at, entry] of commandEntries(settings)) {
      const hook = imp.hooks.find((h) => h.at === at)?.hook;
      const notes = imp.notes.filter((n) => n.startsWith(`${at}:`) || n.startsWith(`${at} (`));
      if (!hook) {
        expect(notes, `${file} ${at} is neither imported nor refused`).toHaveLength(1);
        expect(notes[0]).toMatch(/not imported: |skipped/);
        continue;
      }
      expect(hook.name).toMatch(HOOK_NAME_PATTERN);
      expect(hook.name, `${file} ${at}: ${String(entry.command)}`).not.toMatch(MEANINGLESS);
      expect(hook.dialect).toBe("claude");
      for (const k of Object.keys(entry)) {
        if (k === "type" || k === "command") continue;
        const carried = CARRIED[k] !== undefined && (hook as unknown as Record<string, unknown>)[CARRIED[k]] !== undefined;
        const said = notes.some((n) => n.includes(`\`${k}`) || n.includes(`${k} `));
        expect(carried || said || entry[k] === false || entry[k] === "continue", `${file} ${at}: \`${k}\` dropped silently`).toBe(true);
      }
    }
  });

  it.each(files)("%s: the import validates as printed", async (file) => {
    const t = sandbox();
    const r = await runMain(["import", "claude", path.join(FIXTURES, file)], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    t.write("hooks.yaml", r.stdout);
    const v = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });
});

describe("hooks import claude: every field of a command hook (CLI)", () => {
  const file = path.join(FIXTURES, "corpus/every-field.json");
  async function imported() {
    const t = sandbox();
    const r = await runMain(["import", "claude", file], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    const spec = parse(r.stdout) as { hooks: Record<string, Record<string, unknown>[]> };
    return { t, r, spec, lines: r.stderr.trim().split("\n") };
  }

  it("carries `if`, and the `Bash(git *)` and `Bash(git push*)` variants of one script are two hooks, not a duplicate", async () => {
    const { spec } = await imported();
    expect(spec.hooks.pre_tool_use.slice(0, 2)).toEqual([
      {
        name: "security-review",
        description: "Reviewing the git command",
        matcher: "Bash",
        if: "Bash(git *)",
        command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/security-review.sh',
        timeout: 120,
        on_failure: "block",
        dialect: "claude",
      },
      { name: "security-review-2", matcher: "Bash", if: "Bash(git push*)", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/security-review.sh', dialect: "claude" },
    ]);
  });

  it("maps exec form (`command` + `args`) to hookrun's argv `args`, so `touch` gets its arguments", async () => {
    const { t, spec } = await imported();
    expect(spec.hooks.post_tool_use[0]).toEqual({ name: "touch", matcher: "Edit|Write", args: ["touch", ".claude/last-edit"], dialect: "claude" });
    expect(spec.hooks.pre_tool_use.find((h) => h.if === "Edit(src/**)")).toMatchObject({ name: "check-path", args: ["node", ".claude/hooks/check-path.mjs", "--strict"] });
    t.write("hooks.yaml", `hooks:\n  post_tool_use:\n    - ${JSON.stringify(spec.hooks.post_tool_use[0])}\n`);
    t.write(".claude/.keep", "");
    const r = await runMain(["--trust", "run", "post_tool_use"], { cwd: t.dir, env: t.env, input: JSON.stringify({ tool_name: "Write" }) });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(t.path(".claude/last-edit"))).toBe(true);
  });

  it("refuses what hookrun cannot do, one line each naming the hook and why; the rest still imports", async () => {
    const { spec, lines } = await imported();
    const refused = lines.filter((l) => l.includes("not imported:"));
    expect(refused).toHaveLength(3);
    const expectLine = (at: string, why: RegExp) => expect(refused.find((l) => l.includes(at)) ?? `no line for ${at}`).toMatch(why);
    expectLine("hooks.PreToolUse[0].hooks[2] (`pwsh-guard.ps1`)", /shell: powershell/);
    expectLine("hooks.PreToolUse[1].hooks[1] (`node`)", /placeholder .*CLAUDE_PROJECT_DIR/);
    expectLine("hooks.SessionStart[0].hooks[0] (`.claude/hooks/install-deps.sh`)", /`once`.*no hookrun equivalent/);
    expect(refused.every((l) => l.startsWith("hooks import: ") && !l.includes("\n"))).toBe(true);
    expect(spec.hooks.session_start).toBeUndefined();
    expect(lines.some((l) => l.includes("type `http`"))).toBe(true);
  });

  it("carries `asyncRewake` as `async: true` + `rewake: true`, saying that rewakeMessage and rewakeSummary are not carried", async () => {
    const { spec, lines } = await imported();
    expect(spec.hooks.post_tool_use[1]).toEqual({ name: "run-tests", matcher: "Edit|Write", command: ".claude/hooks/run-tests.sh", async: true, rewake: true, dialect: "claude" });
    expect(lines).toContainEqual(expect.stringMatching(/PostToolUse\[0\]\.hooks\[1\] \(`run-tests`\): `rewakeMessage` not carried/));
    expect(lines).toContainEqual(expect.stringMatching(/PostToolUse\[0\]\.hooks\[1\] \(`run-tests`\): `rewakeSummary` not carried/));
  });

  it("says what it does not carry: a key Claude Code ignores, onFailure where Claude ignores it", async () => {
    const { spec, lines } = await imported();
    expect(lines).toContainEqual(expect.stringMatching(/PreToolUse\[0\]\.hooks\[1\] \(`security-review-2`\): `blocking` is not a field of Claude Code's command hooks/));
    expect(lines).toContainEqual(expect.stringMatching(/SubagentStart\[0\]\.hooks\[0\] \(`review-rules`\): `cloud` not carried/));
    expect(lines).toContainEqual(expect.stringMatching(/PostToolUse\[0\]\.hooks\[2\] \(`format`\): `onFailure: block` not carried: Claude Code ignores it on async hooks/));
    expect(lines).toContainEqual(expect.stringMatching(/Stop\[0\]\.hooks\[0\] \(`check-done`\): `onFailure: block` not carried: Claude Code ignores it on stop/));
    expect(lines).toContainEqual(expect.stringMatching(/Stop\[0\]\.hooks\[0\] \(`check-done`\): `shell: bash` not carried: Claude Code runs it as \/bin\/sh -c/));
    expect(spec.hooks.stop[0]).toEqual({ name: "check-done", command: ".claude/hooks/check-done.sh", dialect: "claude" });
    expect(spec.hooks.subagent_start[0]).toMatchObject({ name: "review-rules", matcher: "code-reviewer" });
    expect(spec.hooks.file_changed[0]).toMatchObject({ name: "direnv", matcher: ".envrc|.env" });
  });

  it("--write twice adds nothing the second time, `if` variants included", async () => {
    const t = sandbox();
    const first = await runMain(["import", "claude", file, "--write"], { cwd: t.dir, env: t.env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("pre_tool_use/security-review-2");
    const second = await runMain(["import", "claude", file, "--write"], { cwd: t.dir, env: t.env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("nothing to add");
    expect(second.stderr).toMatch(/`"\$CLAUDE_PROJECT_DIR"\/\.claude\/hooks\/security-review\.sh` \(if Bash\(git push\*\)\) is already a pre_tool_use hook \(`security-review-2`\); skipped/);
  });
});

describe("imported names say what the hook does", () => {
  it("one-liners are named after their script, their command, or their event and matcher", () => {
    const settings = JSON.parse(readFileSync(path.join(FIXTURES, "corpus/one-liners.json"), "utf8"));
    const imp = importClaudeSettings(settings);
    expect(imp.hooks.map((h) => h.hook.name)).toEqual([
      "pre-tool-use-bash",
      "pre-tool-use-bash-2",
      "pre-tool-use-edit-write",
      "prettier",
      "ruff",
      "post-tool-use-edit-multiedit-write",
      "notify-send",
      "stop-hook",
      "session-start-startup",
      "git",
    ]);
  });
});
