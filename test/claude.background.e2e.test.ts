import { cpSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killClaudeRuns, modelView, requireClaude, runClaude } from "./helpers/claudeCode.js";
import { CLI, ROOT, runCli } from "./helpers/cli.js";
import { removeTree } from "./helpers/removeTree.js";

/**
 * examples/background-analysis under the real Claude Code CLI (headless, offline, scripted model):
 * the model writes a file, the analysis runs in the background after PostToolUse, and what the
 * model receives afterwards holds its finding exactly once (delivered at the next tool call that
 * comes after it finished). test/examples.background.test.ts covers the same through the
 * settings' command lines alone, with the exact answers.
 */

const claude = requireClaude();
const BAD_PY = "def area(r):\n    return 3.14 * r * r  # TODO: math.pi\n";
const projects: string[] = [];

describe.skipIf(!claude.path)(`Claude Code ${claude.version ?? `(skipped: ${claude.reason})`}: a background analysis reaches the model`, () => {
  afterAll(() => {
    killClaudeRuns();
    for (const dir of projects) removeTree(dir);
  });

  it("after a Write, the model gets the analysis's finding once, at a later tool call", async ({ signal }) => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-e2e-background-")));
    projects.push(dir);
    cpSync(path.join(ROOT, "examples/background-analysis"), dir, { recursive: true });
    mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(CLI, path.join(dir, "node_modules", ".bin", "hooks"));
    const run = await runClaude({
      project: dir,
      prompt: "Write area.py, then look around.",
      script: [
        { tool: "Write", input: { file_path: path.join(dir, "area.py"), content: BAD_PY } },
        // The analysis (no delay) finishes during this call at the latest…
        { tool: "Bash", input: { command: "sleep 2", description: "wait" } },
        // …so this call's PreToolUse delivers it, if that one did not.
        { tool: "Bash", input: { command: "true", description: "check" } },
      ],
      env: { ANALYSIS_DELAY: "0" },
      timeoutMs: 60_000,
      signal,
      setup: async (env) => {
        const r = await runCli(["-C", dir, "trust", "--yes"], {
          cwd: dir,
          env: { HOME: env.HOME, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, XDG_STATE_HOME: env.XDG_STATE_HOME, HOOKS_STATE_DIR: env.HOOKS_STATE_DIR },
        });
        if (r.code !== 0) throw new Error(`hooks trust exited ${r.code}: ${r.stderr}`);
      },
    });
    const view = modelView(run.requests, { hookCommands: run.hookCommands, paths: { "<project>": dir } });
    const detail = `exit ${run.exitCode}; view:\n${view.join("\n")}\nstderr: ${run.stderr.slice(0, 500)}`;
    expect(run.exitCode, detail).toBe(0);
    const findings = view.filter((line) => line.includes("background analysis of <project>/area.py (2 findings)"));
    expect(findings, detail).toHaveLength(1);
    expect(findings[0]).toContain("function area (line 1) has no docstring");
    expect(findings[0]).toContain("line 2: return 3.14 * r * r  # TODO: math.pi");
  }, 90_000);
});
