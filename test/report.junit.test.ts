import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { formatJunit, xmlEscape } from "../src/report/formatJunit.js";
import { parseXml, type XmlElement } from "./helpers/parseXml.js";
import { hookResult, triggerResult } from "./helpers/results.js";

const find = (el: XmlElement, name: string): XmlElement[] => el.children.filter((c) => c.name === name);

describe("the XML check used by these tests", () => {
  it.each([["<a><b></a></b>"], ['<a x="1" x="2"/>'], ["<a>&bogus;</a>"], ["<a>\u0001</a>"], ["<a/><b/>"], ["<a x=1/>"]])("rejects %j", (xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});

describe("formatJunit", () => {
  const nasty = 'say "hi" <b>&amp; ]]> \u0000\u0007\u001b[31mred\u001b[0m \uD800 ✓';
  const stop = triggerResult("stop", [
    hookResult("lint", { stdout: nasty }),
    hookResult("tests", { status: "failed", exit_code: 1, stderr: `line 1\n${nasty}\nFAIL src/x.test.ts` }),
    hookResult("guard", { status: "blocked", exit_code: 2, decision: "block", reason: "TODO.md not empty", stderr: "TODO.md not empty" }),
    hookResult("late", { status: "skipped", exit_code: null, duration_ms: 0 }),
  ]);
  const pre = triggerResult(
    "pre_tool_use",
    [hookResult("slow", { status: "timed_out", exit_code: null, signal: "SIGTERM", error: "timed out after 1s" }), hookResult("gone", { status: "cancelled", exit_code: null }), hookResult("ok", {})],
    {
      async_delivered: [
        { ...hookResult("notify", { status: "spawn_error", exit_code: null, error: "command not found: notify-sendx" }), event: "session_start", session_id: "s1", started_at: "", finished_at: "" },
      ],
    },
  );
  const xml = formatJunit([stop, pre], new Date("2026-01-02T03:04:05Z"));
  const root = parseXml(xml);

  it("is well-formed XML even with markup, control characters and lone surrogates in hook output", () => {
    expect(root.name).toBe("testsuites");
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it("is accepted by an independent XML parser (Python's expat)", () => {
    const script = "import sys, xml.dom.minidom as m; d = m.parseString(sys.stdin.buffer.read()); print(d.documentElement.getAttribute('tests'))";
    expect(execFileSync("python3", ["-c", script], { input: xml, encoding: "utf8" }).trim()).toBe("8");
  });

  it("has one testsuite per event and one testcase per hook, classname = event", () => {
    expect(find(root, "testsuite").map((s) => s.attrs.name)).toEqual(["stop", "pre_tool_use", "session_start"]);
    const stopSuite = find(root, "testsuite")[0];
    expect(find(stopSuite, "testcase").map((c) => [c.attrs.name, c.attrs.classname])).toEqual([
      ["lint", "stop"],
      ["tests", "stop"],
      ["guard", "stop"],
      ["late", "stop"],
    ]);
  });

  it("counts tests, failures (blocks included) and skips per suite and in total", () => {
    const counts = find(root, "testsuite").map((s) => [s.attrs.tests, s.attrs.failures, s.attrs.skipped]);
    expect(counts).toEqual([
      ["4", "2", "1"],
      ["3", "1", "1"],
      ["1", "1", "0"],
    ]);
    expect([root.attrs.tests, root.attrs.failures, root.attrs.skipped, root.attrs.errors]).toEqual(["8", "4", "2", "0"]);
    // The attributes agree with the elements.
    const cases = find(root, "testsuite").flatMap((s) => find(s, "testcase"));
    expect(cases.filter((c) => find(c, "failure").length).length).toBe(4);
    expect(cases.filter((c) => find(c, "skipped").length).length).toBe(2);
  });

  it("puts the stderr tail in a failure, says a block is a block, and keeps text intact", () => {
    const tests = find(find(root, "testsuite")[0], "testcase")[1];
    const failure = find(tests, "failure")[0];
    expect(failure.attrs.type).toBe("failed");
    expect(failure.text).toContain("FAIL src/x.test.ts");
    expect(failure.text).toContain('say "hi" <b>&amp; ]]>');
    const guard = find(find(root, "testsuite")[0], "testcase")[2];
    expect(find(guard, "failure")[0].attrs.message).toBe("blocked: TODO.md not empty");
    const slow = find(find(root, "testsuite")[1], "testcase")[0];
    expect(find(slow, "failure")[0].attrs.message).toContain("timed out after 1s");
  });

  it("writes times in seconds", () => {
    const lint = find(find(root, "testsuite")[0], "testcase")[0];
    expect(lint.attrs.time).toBe("0.012");
    expect(find(root, "testsuite")[0].attrs.time).toBe("0.040");
  });

  it("is a valid empty report when no hook ran", () => {
    const empty = parseXml(formatJunit([triggerResult("stop", [])]));
    expect(empty.attrs.tests).toBe("0");
    expect(find(empty, "testsuite")[0].attrs.tests).toBe("0");
  });

  it("xmlEscape escapes the five markup characters", () => {
    expect(xmlEscape(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
  });
});
