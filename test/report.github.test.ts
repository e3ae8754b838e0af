import { describe, expect, it } from "vitest";
import { escapeGithubData, escapeGithubProperty, formatGithubActions, githubCommand } from "../src/report/github.js";
import { hookResult, triggerResult } from "./helpers/results.js";

describe("GitHub workflow commands", () => {
  it("escape %, CR and LF in messages, and also : and , in properties", () => {
    expect(escapeGithubData("100% done\r\nnext: a, b")).toBe("100%25 done%0D%0Anext: a, b");
    expect(escapeGithubProperty("100% done\r\nnext: a, b")).toBe("100%25 done%0D%0Anext%3A a%2C b");
    expect(githubCommand("error", "a\nb", { title: "x: y", file: "a,b" })).toBe("::error title=x%3A y,file=a%2Cb::a%0Ab");
  });

  it("fold a hook's details in a group, leave a hook with none as one line, and annotate failures and blocks", () => {
    const out = formatGithubActions(
      triggerResult(
        "stop",
        [
          hookResult("quiet"),
          hookResult("talk", { messages: [{ role: "system", content: "::set-env name=X::1\nsecond line" }] }),
          hookResult("guard", { status: "blocked", decision: "block", reason: "not yet" }),
          hookResult("crash", { status: "failed", exit_code: 1, error: "exit code 1", stderr: "boom\n" }),
        ],
        { blocked: true, blocked_by: "guard", reason: "not yet" },
      ),
      { color: false },
    );
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^✓ {2}quiet/);
    expect(lines[1]).toMatch(/^::group::✓ {2}talk/);
    expect(lines.slice(2, 4)).toEqual(["    » ::set-env name=X::1", "      second line"]);
    expect(lines[4]).toBe("::endgroup::");
    expect(lines.filter((l) => l.startsWith("::error"))).toEqual(["::error title=hookrun stop%3A guard::blocked: not yet", "::error title=hookrun stop%3A crash::failed: exit code 1%0Aboom"]);
    expect(lines.at(-1)).toMatch(/^stop: 4 hooks/);
  });
});
