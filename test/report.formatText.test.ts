import { describe, expect, it } from "vitest";
import { formatText } from "../src/report/formatText.js";
import { notRunResult } from "../src/runner/hookResult.js";
import type { HookResult, TriggerResult } from "../src/runner/types.js";

const hookResult = (over: Partial<HookResult>): HookResult => ({ ...notRunResult("h", "skipped"), status: "ok", exit_code: 0, duration_ms: 12, ...over });
const result = (hooks: HookResult[], over: Partial<TriggerResult> = {}): TriggerResult => ({
  event: "stop", session_id: "s", duration_ms: 1500, messages: [], blocked: false, blocked_by: null, reason: null, continue: true, stop_reason: null,
  stopped_by: null, updated_input: null, hooks, async_started: [], async_delivered: [], warnings: [], ...over,
});

describe("text output (SPEC §8)", () => {
  it("one line per hook with mark, name, duration and exit code or reason; Messages; stderr tail on failure; a summary", () => {
    const stderr = Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const text = formatText(
      result(
        [
          hookResult({ name: "lint", messages: [{ role: "system", content: "all good\nsecond line", hook: "lint" }, { role: "user", content: "hidden", hide: true }] }),
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
