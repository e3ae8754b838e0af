import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ClaudeRun, killClaudeRuns, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { runCli } from "./helpers/cli.js";
import { linkHookrun } from "./helpers/hostDispatch.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * Claude Code's PreSkillShellCommand in the REAL CLI (`claude -p`, headless, offline against the
 * scripted model): a project slash command (`.claude/commands/x.md`) embeds a shell command
 * (`!`touch made.txt && echo DONE``), which Claude Code runs while expanding `/x`, before the model
 * is asked anything. A hookrun pre_tool_use guard, handed to hookrun by `hooks install claude`,
 * must stop it: judged by what happened (made.txt is not there) and by what the model received
 * (the expanded prompt says the command was not run, with the guard's reason). The control: the
 * same project with the install's PreToolUse entry alone (hookrun's install before it knew the
 * event) runs the command, and the model reads its output. Failing: a guard that crashes with
 * `on_failure: block` refuses the command through hookrun's deny, while a PreSkillShellCommand hook
 * of Claude Code's own that exits 1 does not stop it (Claude Code runs it anyway).
 */

const claude = requireClaude();
const MADE = "made.txt";
const REASON = "no touching from a slash command";
const GUARD = `hooks:\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      command: 'grep -q touch && { echo "${REASON}" >&2; exit 2; } || exit 0'\n`;
const projects: string[] = [];

afterAll(() => {
  killClaudeRuns();
  for (const dir of projects) removeTree(dir);
});

const userEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));

/** A guard that crashes (exit 1) and asks to fail closed. */
const CRASHING = "hooks:\n  pre_tool_use:\n    - name: guard\n      matcher: Bash\n      on_failure: block\n      command: exit 1\n";

/**
 * The project, hooks.yaml's guard (`config`) installed by `hooks install claude` and trusted;
 * `oldShape`: the PreSkillShellCommand entry taken out again; `direct`: no hookrun, this
 * settings.json's hooks instead (what Claude Code itself does).
 */
async function runSlashCommand(oldShape: boolean, config = GUARD, direct?: Record<string, unknown>): Promise<{ dir: string; run: ClaudeRun; settings: Record<string, unknown> }> {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-skill-shell-")));
  projects.push(dir);
  mkdirSync(path.join(dir, ".claude", "commands"), { recursive: true });
  writeFileSync(path.join(dir, ".claude", "commands", "x.md"), "---\ndescription: make a file\n---\nOutput: !`touch made.txt && echo DONE`\nSay ok.\n");
  let settings: Record<string, unknown> = {};
  if (direct) {
    settings = { hooks: direct };
    writeFileSync(path.join(dir, ".claude", "settings.json"), JSON.stringify(settings));
  } else {
    writeFileSync(path.join(dir, "hooks.yaml"), config);
    linkHookrun(dir);
  }
  const run = await runClaude({
    project: dir,
    prompt: "/x",
    script: [{ text: "ok" }],
    timeoutMs: 120_000,
    setup: async (env) => {
      if (direct) return;
      const i = await runCli(["install", "claude"], { cwd: dir, env: userEnv(env) });
      if (i.code !== 0) throw new Error(`hooks install claude exited ${i.code}: ${i.stderr}`);
      const file = path.join(dir, ".claude", "settings.json");
      settings = JSON.parse(readFileSync(file, "utf8"));
      if (oldShape) {
        delete (settings.hooks as Record<string, unknown>).PreSkillShellCommand;
        writeFileSync(file, JSON.stringify(settings, null, 2));
      }
      const t = await runCli(["-C", dir, "trust", "--yes"], { cwd: dir, env: userEnv(env) });
      if (t.code !== 0) throw new Error(`hooks trust exited ${t.code}: ${t.stderr}`);
    },
  });
  return { dir, run, settings };
}

/** The text of the user turn Claude Code sent the model: the expanded slash command. */
function promptText(run: ClaudeRun): string {
  const first = run.mainRequests[0]?.body?.messages?.[0];
  const blocks: { type: string; text?: string }[] = typeof first?.content === "string" ? [{ type: "text", text: first.content }] : (first?.content ?? []);
  return blocks
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

const describeRun = (r: { dir: string; run: ClaudeRun }) => `exit ${r.run.exitCode}\nstderr: ${r.run.stderr.slice(0, 2000)}\nprompt: ${promptText(r.run)}`;

describe.skipIf(!claude.path)(`Claude Code ${claude.version ?? `(skipped: ${claude.reason})`}: a shell command a slash command embeds meets hookrun's pre_tool_use guard`, () => {
  const guarded = runSlashCommand(false);
  const control = runSlashCommand(true);
  const crashing = runSlashCommand(false, CRASHING);
  const failing = runSlashCommand(false, "", { PreSkillShellCommand: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo broken >&2; exit 1" }] }] });
  for (const p of [guarded, control, crashing, failing]) p.catch(() => {});

  it("`hooks install claude` writes the PreSkillShellCommand entry; the guard stops the command: it did not run, and the model reads why", { timeout: 180_000 }, async () => {
    const r = await guarded;
    const hooks = r.settings.hooks as Record<string, { matcher?: string; hooks: unknown[] }[]>;
    expect(hooks.PreSkillShellCommand).toEqual([{ matcher: "Bash", hooks: hooks.PreToolUse[0].hooks }]);
    expect(r.run.exitCode, describeRun(r)).toBe(0);
    expect(existsSync(path.join(r.dir, MADE)), describeRun(r)).toBe(false);
    const prompt = promptText(r.run);
    expect(prompt, describeRun(r)).toContain(`Output: [not run: blocked by hook: ${REASON}]`);
    expect(prompt).not.toContain("DONE");
  });

  it("control: with the install's PreToolUse entry alone, the command runs and the model reads its output", { timeout: 180_000 }, async () => {
    const r = await control;
    expect((r.settings.hooks as Record<string, unknown>).PreSkillShellCommand, "the old install shape").toBeUndefined();
    expect(r.run.exitCode, describeRun(r)).toBe(0);
    expect(existsSync(path.join(r.dir, MADE)), describeRun(r)).toBe(true);
    expect(promptText(r.run), describeRun(r)).toContain("Output: DONE");
  });

  it("a guard that fails with `on_failure: block`: hookrun's deny refuses the command, and the model reads why", { timeout: 180_000 }, async () => {
    const r = await crashing;
    expect(r.run.exitCode, describeRun(r)).toBe(0);
    expect(existsSync(path.join(r.dir, MADE)), describeRun(r)).toBe(false);
    expect(promptText(r.run), describeRun(r)).toMatch(/Output: \[not run: blocked by hook: hook guard failed and has on_failure: block \(exit code 1\)\]/);
  });

  it("Claude Code itself: a PreSkillShellCommand hook that fails (exit 1) does not stop the command (why a guard that must hold asks to fail closed)", { timeout: 180_000 }, async () => {
    const r = await failing;
    expect(r.run.exitCode, describeRun(r)).toBe(0);
    expect(existsSync(path.join(r.dir, MADE)), describeRun(r)).toBe(true);
    expect(promptText(r.run), describeRun(r)).toContain("Output: DONE");
  });
});
