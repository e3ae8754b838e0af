import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killClaudeRuns, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, runCli } from "./helpers/cli.js";
import { killCopilotRuns, requireCopilot, runCopilot, warmCopilotCache } from "./helpers/copilotCli.js";
import { killGeminiRuns, requireGemini, runGemini } from "./helpers/geminiCli.js";
import { makeQwenHome, type QwenHome, requireQwen, runQwen } from "./helpers/qwenCli.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * docs/dialects.md: a guard written for one agent, in that agent's own contract (its payload
 * fields, its own deny), installed through hookrun into ANOTHER real agent, Claude Code, as
 * `dialect: <agent>`: Claude Code's model gets the guard's reason and the tool does not run. The
 * control: the same guard configured directly in its own agent has the same effect. Each run
 * makes one shell call (`touch ran.txt`) against a scripted model on 127.0.0.1.
 */

const claude = requireClaude();
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-dialects-e2e-")));
const homes: QwenHome[] = [];
afterAll(() => {
  killClaudeRuns();
  killGeminiRuns();
  killCopilotRuns();
  for (const h of homes) h.cleanup();
  removeTree(root);
}, 60_000);

const PROMPT = "Run the command.";
const TOUCH = "touch ran.txt && echo ran";

/** A project holding the guard script (./guard.sh, executable) and the given files. */
function project(name: string, guard: string, files: Record<string, string> = {}): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  // The guard keeps what it received (stdin.json), so a test can compare the two payloads.
  writeFileSync(path.join(dir, "guard.sh"), `#!/bin/sh\ninput=$(cat)\nprintf '%s' "$input" > stdin.json\nprintf '%s' "$input" | {\n${guard}\n}\n`);
  chmodSync(path.join(dir, "guard.sh"), 0o755);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/** The guard in hooks.yaml as `dialect`, installed into Claude Code (`hooks install claude`, `hooks trust`), and one Claude run. */
async function underClaude(name: string, guard: string, dialect: string) {
  const dir = project(name, guard, { "hooks.yaml": `version: 1\nhooks:\n  pre_tool_use:\n    - name: guard\n      dialect: ${dialect}\n      matcher: Bash\n      command: ./guard.sh\n` });
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
  const run = await runClaude({
    project: dir,
    prompt: PROMPT,
    script: [{ tool: "Bash", input: { command: TOUCH } }, { text: "done" }],
    timeoutMs: 90_000,
    setup: async (env) => {
      const as = Object.fromEntries(["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOOKS_STATE_DIR", "XDG_CACHE_HOME"].map((k) => [k, env[k]]));
      for (const args of [
        ["install", "claude"],
        ["-C", dir, "trust", "--yes"],
      ]) {
        const r = await runCli(args, { cwd: dir, env: as });
        if (r.code !== 0) throw new Error(`hooks ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
      }
    },
  });
  expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
  return { dir, seen: JSON.stringify(run.mainRequests.at(-1)?.body ?? null) };
}

const ran = (dir: string) => existsSync(path.join(dir, "ran.txt"));
const received = (dir: string) => JSON.parse(readFileSync(path.join(dir, "stdin.json"), "utf8")) as Record<string, unknown>;
const kind = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);

/** Every field the real host sent its guard, the guard got through hookrun too, of the same JSON type. */
function sameShape(real: Record<string, unknown>, ours: Record<string, unknown>): void {
  const shape = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, Object.hasOwn(o, k) ? kind(o[k]) : "missing"]));
  const keys = Object.keys(real);
  expect(shape(ours, keys)).toEqual(shape(real, keys));
}
/** `f` run once, on first call (a test and the test that compares its payload share the run). */
const once = <T>(f: () => Promise<T>): (() => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
};
const deny = (json: unknown) => `printf '%s\\n' '${JSON.stringify(json)}'`;

describe.skipIf(!claude.path)("a guard written for Gemini CLI, Qwen Code or Copilot CLI guards Claude Code through hookrun", () => {
  // Gemini's BeforeTool contract: tool_name is Gemini's, the deny is a top-level decision.
  const GEMINI_GUARD = `grep -q '"tool_name":"run_shell_command"' && ${deny({ decision: "deny", reason: "GEMINI-GUARD: no shell here" })}`;
  const gemini = requireGemini();
  describe.skipIf(!gemini.path)("gemini", () => {
    const under = once(() => underClaude("gemini-under-claude", GEMINI_GUARD, "gemini"));
    const direct = once(async () => {
      const settings = { hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "$GEMINI_PROJECT_DIR/guard.sh" }] }] } };
      const dir = project("gemini-direct", GEMINI_GUARD, { ".gemini/settings.json": JSON.stringify(settings) });
      const run = await runGemini({ project: dir, prompt: PROMPT, script: [{ tool: "run_shell_command", args: { command: TOUCH, description: "run it" } }, { text: "done" }], timeoutMs: 90_000 });
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
      return { dir, seen: JSON.stringify(run.mainRequests.at(-1)?.body) };
    });
    it("`dialect: gemini` under Claude Code: the tool does not run, the model gets the reason", { timeout: 120_000 }, async () => {
      const { dir, seen } = await under();
      expect(ran(dir)).toBe(false);
      expect(seen).toContain("GEMINI-GUARD: no shell here");
    });
    it("control: the same guard in .gemini/settings.json under Gemini CLI", { timeout: 120_000 }, async () => {
      const { dir, seen } = await direct();
      expect(ran(dir)).toBe(false);
      expect(seen).toContain("GEMINI-GUARD: no shell here");
    });
    it("through hookrun the guard received every field Gemini CLI sent it, of the same type", { timeout: 240_000 }, async () => {
      sameShape(received((await direct()).dir), received((await under()).dir));
    });
  });

  // Qwen's PreToolUse contract: Qwen's tool id, a top-level `decision: "deny"` (outside Claude Code's schema).
  const QWEN_GUARD = `grep -q '"tool_name":"run_shell_command"' && ${deny({ decision: "deny", reason: "QWEN-GUARD: no shell here" })}`;
  const qwen = requireQwen();
  describe.skipIf(!qwen.path)("qwen", () => {
    const under = once(() => underClaude("qwen-under-claude", QWEN_GUARD, "qwen"));
    const direct = once(async () => {
      const settings = { hooks: { PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: '"$QWEN_PROJECT_DIR"/guard.sh' }] }] } };
      const dir = project("qwen-direct", QWEN_GUARD, { ".qwen/settings.json": JSON.stringify(settings) });
      const home = makeQwenHome();
      homes.push(home);
      const run = await runQwen({ project: dir, prompt: PROMPT, home, script: [{ tool: "run_shell_command", input: { command: TOUCH } }, { text: "done" }], timeoutMs: 90_000 });
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
      return { dir, seen: JSON.stringify(run.mainRequests.at(-1)?.body) };
    });
    it("`dialect: qwen` under Claude Code: the tool does not run, the model gets the reason", { timeout: 120_000 }, async () => {
      const { dir, seen } = await under();
      expect(ran(dir)).toBe(false);
      expect(seen).toContain("QWEN-GUARD: no shell here");
    });
    it("control: the same guard in .qwen/settings.json under Qwen Code", { timeout: 120_000 }, async () => {
      const { dir, seen } = await direct();
      expect(ran(dir)).toBe(false);
      expect(seen).toContain("QWEN-GUARD: no shell here");
    });
    it("through hookrun the guard received every field Qwen Code sent it, of the same type", { timeout: 240_000 }, async () => {
      sameShape(received((await direct()).dir), received((await under()).dir));
    });
  });

  // Copilot's camelCase preToolUse contract: toolName is Copilot's, the deny is its flat permissionDecision.
  const COPILOT_GUARD = `grep -Eq '"toolName" *: *"bash"' && ${deny({ permissionDecision: "deny", permissionDecisionReason: "COPILOT-GUARD: no shell here" })}`;
  const copilot = requireCopilot();
  describe.skipIf(!copilot.argv)("copilot", () => {
    const under = once(() => underClaude("copilot-under-claude", COPILOT_GUARD, "copilot"));
    const direct = once(async () => {
      warmCopilotCache();
      const file = { version: 1, hooks: { preToolUse: [{ type: "command", bash: "./guard.sh", matcher: "bash" }] } };
      const dir = project("copilot-direct", COPILOT_GUARD, { ".github/hooks/direct.json": JSON.stringify(file) });
      const run = await runCopilot({ project: dir, prompt: PROMPT, script: [{ tool: "bash", input: { command: TOUCH, description: "run it" } }, { text: "done" }], timeoutMs: 90_000 });
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
      return { dir, seen: JSON.stringify(run.mainRequests.at(-1)?.body) };
    });
    it("`dialect: copilot` under Claude Code: the tool does not run, the model gets the reason", { timeout: 120_000 }, async () => {
      const { dir, seen } = await under();
      expect(ran(dir)).toBe(false);
      expect(seen).toContain("COPILOT-GUARD: no shell here");
    });
    it("control: the same guard in .github/hooks/ under Copilot CLI", { timeout: 240_000 }, async () => {
      const { dir, seen } = await direct();
      expect(ran(dir)).toBe(false);
      expect(seen).toContain("COPILOT-GUARD: no shell here");
    });
    it("through hookrun the guard received every field Copilot CLI sent it, of the same type", { timeout: 240_000 }, async () => {
      sameShape(received((await direct()).dir), received((await under()).dir));
    });
  });
});
