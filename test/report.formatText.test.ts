import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatText } from "../src/report/formatText.js";
import type { HookResult, TriggerResult } from "../src/runner/types.js";
import { CLI, cliEnv, runMain } from "./helpers/cli.js";
import { hookResult as baseHookResult, triggerResult } from "./helpers/results.js";
import { notRunResult } from "../src/runner/runHook.js";
import { sandbox } from "./helpers/sandbox.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;

const hookResult = (over: Partial<HookResult>): HookResult => baseHookResult(over.name ?? "h", over);
const result = (hooks: HookResult[], over: Partial<TriggerResult> = {}): TriggerResult => triggerResult("stop", hooks, { session_id: "s", duration_ms: 1500, messages: [], ...over });

describe("text output (docs/cli.md#output-formats)", () => {
  it("one line per hook with mark, name, duration and exit code or reason; Messages; stderr tail on failure; a summary", () => {
    const stderr = `${Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
    const text = formatText(
      result(
        [
          hookResult({
            name: "lint",
            messages: [
              { role: "system", content: "all good\nsecond line", hook: "lint" },
              { role: "user", content: "hidden", hide: true },
              { role: "system", content: "formatted 3 files", kind: "notice", hook: "lint" },
            ],
          }),
          hookResult({ name: "tests", status: "failed", exit_code: 1, error: "exit code 1: line 15", stderr, duration_ms: 2300 }),
          hookResult({ name: "guard", status: "blocked", exit_code: 2, decision: "block", reason: "no force push" }),
          notRunResult("later", "skipped"),
        ],
        { blocked: true, blocked_by: "guard", reason: "no force push", warnings: ["async hooks are not supported yet: bg was not run"] },
      ),
      { color: false },
    );
    expect(text).toBe(
      [
        "✓  lint  12ms",
        "    » all good",
        "      second line",
        "    » (notice) formatted 3 files",
        "✗  tests  2.30s  exit code 1: line 15",
        ...Array.from({ length: 10 }, (_, i) => `    │ line ${i + 6}`),
        "■  guard  12ms  blocked: no force push",
        "-  later  skipped",
        "warning: async hooks are not supported yet: bg was not run",
        "stop: 4 hooks (1 ok, 1 blocked, 1 failed, 1 skipped) in 1.50s — blocked by guard: no force push",
        "",
      ].join("\n"),
    );
  });

  it("colours only when asked", () => {
    expect(formatText(result([hookResult({ name: "a" })]), { color: true })).toContain("\x1b[32m✓\x1b[0m");
    expect(formatText(result([hookResult({ name: "a" })]), { color: false })).not.toContain("\x1b[");
  });
});

describe("text output never passes hook output's control sequences to the terminal", () => {
  const CLEAR = "\x1b[2J\x1b[H";
  const OSC52 = "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07";

  it("messages, stderr tail, reasons, errors, warnings and names are escaped; tabs and line breaks kept", () => {
    const text = formatText(
      result(
        [
          hookResult({ name: "lint\x1b[8m", messages: [{ role: "system", content: `done${CLEAR}\nnext\tline${OSC52}`, hook: "lint" }], warnings: ["w\rW"] }),
          hookResult({ name: "tests", status: "failed", exit_code: 1, error: "exit code 1: \x1b[31mred", stderr: "ok\r\nover\rwritten\u202eevil\n" }),
          hookResult({ name: "guard", status: "blocked", exit_code: 2, decision: "block", reason: "no\x1b[2K" }),
        ],
        { blocked: true, blocked_by: "guard", reason: "no\x1b[2K", warnings: ["top\x1b[A"] },
      ),
      { color: false },
    );
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/u);
    expect(text).toContain("✓  lint⟨ESC⟩[8m  12ms");
    expect(text).toContain("    » done⟨ESC⟩[2J⟨ESC⟩[H\n      next\tline⟨ESC⟩]52;c;Y3VybCBldmlsIHwgc2g=⟨BEL⟩\n");
    expect(text).toContain("warning: w⟨CR⟩W");
    expect(text).toContain("exit code 1: ⟨ESC⟩[31mred\n    │ ok\n    │ over⟨CR⟩written⟨U+202E⟩evil\n");
    expect(text).toContain("■  guard  12ms  blocked: no⟨ESC⟩[2K");
    expect(text).toContain("warning: top⟨ESC⟩[A");
    expect(text).toContain("— blocked by guard: no⟨ESC⟩[2K");
  });

  const noisyProject = () => {
    const t = sandbox({ prefix: "hookrun-text-" });
    const script = path.join(t.dir, "noisy.sh");
    writeFileSync(script, `printf 'hello\\033[2J\\033]52;c;ZXZpbA==\\007\\n'\nprintf 'bad\\rworse\\033[2K\\n' >&2\nexit "$1"\n`);
    writeFileSync(path.join(t.dir, "hooks.yaml"), "hooks:\n  stop:\n    - name: noisy\n      command: sh ./noisy.sh 0\n    - name: failing\n      command: sh ./noisy.sh 1\n");
    return t;
  };

  it("`hooks run`: escaped in text output, exact in --json", async () => {
    const t = noisyProject();
    const text = await runMain(["run", "stop", "--trust", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("» hello⟨ESC⟩[2J⟨ESC⟩]52;c;ZXZpbA==⟨BEL⟩");
    expect(text.stdout).toContain("│ bad⟨CR⟩worse⟨ESC⟩[2K");
    expect(text.stdout).not.toContain("\x1b");
    const json = await runMain(["run", "stop", "--trust", "--no-user-config", "--json"], { cwd: t.dir, env: t.env });
    const parsed = JSON.parse(json.stdout) as { hooks: { stdout: string; stderr: string }[] };
    expect(parsed.hooks[0].stdout).toBe("hello\x1b[2J\x1b]52;c;ZXZpbA==\x07\n");
    expect(parsed.hooks[1].stderr).toBe("bad\rworse\x1b[2K\n");
  });

  it.skipIf(!hasScript)("`hooks run`: escaped on a real terminal, with the live progress line drawn (needs util-linux `script`)", () => {
    const t = noisyProject();
    const cmd = [process.execPath, CLI, "run", "stop", "--trust", "--no-user-config"].join(" ");
    const tty = spawnSync("script", ["-qec", cmd, "/dev/null"], { cwd: t.dir, env: { ...cliEnv(t.env), CI: "", HOOKS_TRUST: "" }, encoding: "utf8" });
    expect(tty.stdout).toContain("» hello⟨ESC⟩[2J");
    expect(tty.stdout).not.toContain("\x1b[2J");
    expect(tty.stdout).not.toContain("\x1b]52");
  });
});
