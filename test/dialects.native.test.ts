import { describe, expect, it } from "vitest";
import { readNative } from "../src/dialects/native.js";
import type { GateKind } from "../src/events/catalog.js";
import { hookResult } from "./helpers/results.js";
import { hook } from "./helpers/runnerConfig.js";

// hookrun's own dialect reads what a hook said once, for every host: after the tool ran, a block
// is feedback for the model whichever way the hook said it (docs/running-hooks.md).
const read = (event: string, gate: GateKind, code: 0 | 2, stdout: string, stderr = "") => readNative(hookResult("lint", { exit_code: code, stdout, stderr }), hook("lint", event), code, gate);
const block = (reason: string) => JSON.stringify({ decision: "block", reason });
const deny = (reason: string) => JSON.stringify({ decision: "deny", reason });

describe("dialect: native, a block by event", () => {
  it("after the tool ran, exit 2 and a JSON block (or deny) yield the same feedback result", () => {
    for (const event of ["post_tool_use", "post_tool_use_failure"]) {
      const byExit = read(event, "no", 2, "", "  src/a.ts: 2 errors\n");
      const byJson = read(event, "no", 0, block("src/a.ts: 2 errors"));
      const byDeny = read(event, "no", 0, deny("src/a.ts: 2 errors"));
      const feedback = { status: "ok", decision: null, error: null, warnings: [], messages: [{ role: "system", content: "src/a.ts: 2 errors", kind: "feedback", hook: "lint" }] };
      for (const r of [byExit, byJson, byDeny]) {
        expect(r, event).toMatchObject(feedback);
        expect(r, event).not.toHaveProperty("reason");
      }
    }
  });

  it("after the tool ran, the stdout's messages stay beside the feedback; unreadable stdout on exit 2 is a warning", () => {
    expect(read("post_tool_use", "no", 0, JSON.stringify({ decision: "block", reason: "r", additional_context: "ctx" })).messages).toEqual([
      { role: "system", content: "ctx", hook: "lint" },
      { role: "system", content: "r", kind: "feedback", hook: "lint" },
    ]);
    const broken = read("post_tool_use", "no", 2, "{oops", "r");
    expect(broken).toMatchObject({ status: "ok", messages: [{ content: "r", kind: "feedback" }] });
    expect(broken.warnings[0]).toMatch(/not valid JSON/);
  });

  it("on a gate event exit 2 and a JSON block still block", () => {
    expect(read("pre_tool_use", "yes", 2, "", "no rm -rf\n")).toMatchObject({ status: "blocked", decision: "block", reason: "no rm -rf", messages: [] });
    expect(read("pre_tool_use", "yes", 0, block("no rm -rf"))).toMatchObject({ status: "blocked", decision: "block", reason: "no rm -rf", messages: [] });
  });

  it("on any other event exit 2 is a failure and a JSON block is ignored with a warning", () => {
    expect(read("session_start", "no", 2, "", "nope")).toMatchObject({ status: "failed", decision: null, messages: [], error: "exit code 2 (a block) on event `session_start`, which cannot block" });
    expect(read("session_start", "no", 0, block("nope"))).toMatchObject({ status: "ok", decision: null, messages: [], warnings: ["block decision ignored: event `session_start` cannot block"] });
    // a custom event without `gate: true` is not after a tool
    expect(read("deploy", "no", 0, block("nope"))).toMatchObject({ status: "ok", messages: [], warnings: ["block decision ignored: event `deploy` cannot block"] });
  });
});
