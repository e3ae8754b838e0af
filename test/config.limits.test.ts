import { describe, expect, it } from "vitest";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const TAIL = "hooks:\n  stop:\n    - name: a\n      command: b\n";

/** The one error loadConfig reports for `text` as hooks.yaml (or hooks.json), as FILE:LINE:COL: message. */
async function only(text: string, name = "hooks.yaml"): Promise<string> {
  const t = sandbox();
  t.write(name, text);
  const errors = (await t.diagnostics()).filter((d) => d.severity === "error");
  expect(errors).toHaveLength(1);
  const [d] = errors;
  return `${d.file.slice(t.dir.length + 1)}:${d.line}:${d.col}: ${d.message}`;
}

function billionLaughs(): string {
  let text = "x-l0: &l0 [a, a, a, a, a, a, a, a, a]\n";
  for (let i = 1; i <= 9; i++)
    text += `x-l${i}: &l${i} [${Array(9)
      .fill(`*l${i - 1}`)
      .join(", ")}]\n`;
  return text + TAIL;
}

describe("YAML alias mistakes are config errors with a position, not internal errors", () => {
  it("an alias with no anchor before it", async () => {
    expect(await only("hooks:\n  stop:\n    - name: a\n      command: *typo\n")).toBe(
      "hooks.yaml:4:16: unknown alias `*typo`: no anchor `&typo` comes before it; define the anchor above this line or fix the name",
    );
    expect(await only(`x-a: *later\nx-b: &later 1\n${TAIL}`)).toMatch(/^hooks\.yaml:1:6: unknown alias `\*later`/);
  });

  it("`<<` whose value is not a map", async () => {
    expect(await only(`x-a: {<<: 5}\n${TAIL}`)).toBe("hooks.yaml:1:11: `<<` merges maps into this one, but this value is `5`: write `<<: *name` naming a map anchor (or a list of them)");
    expect(await only(`x-l: &l [1]\nx-a:\n  <<: [*l]\n${TAIL}`)).toMatch(/^hooks\.yaml:3:8: `<<` merges maps into this one, but this value is a list/);
  });

  it("a map merging itself, and a list holding itself", async () => {
    expect(await only(`x-a: &a\n  k: 1\n  <<: *a\n${TAIL}`)).toBe("hooks.yaml:3:7: alias `*a` sits inside the value it names, so that value would contain itself: point it at another anchor");
    expect(await only(`x-a: &a [1, *a]\n${TAIL}`)).toMatch(/^hooks\.yaml:1:13: alias `\*a` sits inside the value it names/);
  });

  it("an alias bomb stops at 100,000 expanded values, at the alias that crosses the line", async () => {
    expect(await only(billionLaughs())).toBe("hooks.yaml:6:12: aliases expand to more than 100,000 values by this one (an alias bomb?): write the values out, or alias less");
  });

  it("ordinary alias use loads, however often one anchor is used (yaml's own counter stops at 100)", async () => {
    const t = sandbox();
    const hooks = Array.from({ length: 1500 }, (_, i) => `    - name: h${i}\n      <<: *common\n      command: run ${i}\n      timeout: *t\n`).join("");
    t.write("hooks.yaml", `x-common: &common {async: true, env: {A: "1"}}\nx-t: &t 30\nhooks:\n  stop:\n${hooks}`);
    const config = await t.load();
    expect(config.hooks).toHaveLength(1500);
    expect(config.hooks[1499]).toMatchObject({ async: true, env: { A: "1" }, timeoutMs: 30_000 });
  });

  it("the CLI exits 78 with FILE:LINE:COL for each (and never 1 with an internal error)", async () => {
    const t = sandbox();
    for (const text of [`x-a: *typo\n${TAIL}`, `x-a: {<<: 5}\n${TAIL}`, `x-a: &a\n  <<: *a\n${TAIL}`, billionLaughs()]) {
      t.write("hooks.yaml", text);
      const r = await runMain(["validate"], { cwd: t.dir, env: t.env });
      expect(r.code, r.stderr).toBe(78);
      expect(r.stderr).toMatch(/^hooks\.yaml:\d+:\d+: error: /);
      expect(r.stderr).not.toContain("internal error");
    }
  });
});

describe("nesting is capped at 200 levels, in both YAML readers and in JSON, without overflowing the stack", () => {
  const TOO_DEEP = "nested more than 200 levels deep: a config never needs that many; flatten this value";
  const blockDeep = (n: number) => `x-d:\n${Array.from({ length: n }, (_, i) => `${" ".repeat(i + 2)}k:\n`).join("")}${TAIL}`;

  it("200 levels load; 201 do not, in flow, block and mixed YAML", async () => {
    // The top-level map is level 1, x-d's list level 2.
    const t = sandbox();
    t.write("hooks.yaml", `x-d: ${"[".repeat(199)}${"]".repeat(199)}\n${TAIL}`);
    expect((await t.load()).hooks).toHaveLength(1);
    t.write("hooks.yaml", blockDeep(199));
    expect((await t.load()).hooks).toHaveLength(1);
    expect(await only(`x-d: ${"[".repeat(200)}${"]".repeat(200)}\n${TAIL}`)).toBe(`hooks.yaml:1:205: ${TOO_DEEP}`);
    expect(await only(blockDeep(200))).toBe(`hooks.yaml:201:202: ${TOO_DEEP}`);
    expect(await only(`x-d:\n${Array.from({ length: 150 }, (_, i) => `${" ".repeat(i + 2)}k:\n`).join("")}${" ".repeat(152)}k: ${"[".repeat(60)}${"]".repeat(60)}\n${TAIL}`)).toBe(
      `hooks.yaml:152:204: ${TOO_DEEP}`,
    );
  });

  it("5,000 and 100,000 levels: the same error, no stack overflow", async () => {
    expect(await only(`x-d: ${"[".repeat(5000)}${"]".repeat(5000)}\n${TAIL}`)).toBe(`hooks.yaml:1:206: ${TOO_DEEP}`);
    expect(await only(`x-d: ${"{a: ".repeat(100_000)}1${"}".repeat(100_000)}\n${TAIL}`)).toMatch(/^hooks\.yaml:1:\d+: nested more than 200 levels/);
    expect(await only(blockDeep(5000).slice(0, 4 * 1024 * 1024))).toBe(`hooks.yaml:201:202: ${TOO_DEEP}`);
    expect(await only(blockDeep(1000))).toBe(`hooks.yaml:201:202: ${TOO_DEEP}`);
  });

  it("aliases cannot nest past the limit either", async () => {
    const a = `x-a: &a ${"[".repeat(150)}${"]".repeat(150)}\nx-b: &b ${"[".repeat(100)}*a${"]".repeat(100)}\n`;
    expect(await only(a + TAIL)).toMatch(/^hooks\.yaml:2:109: this alias makes the value nested more than 200 levels deep/);
  });

  it("JSON: 5,000 levels is the same error at the bracket that goes past 200", async () => {
    const json = (n: number) => `{"x-d": ${"[".repeat(n)}${"]".repeat(n)}, "hooks": {"stop": [{"name": "a", "command": "b"}]}}`;
    expect(await only(json(5000), "hooks.json")).toBe(`hooks.json:1:208: invalid JSON: ${TOO_DEEP}`);
    const t = sandbox();
    t.write("hooks.json", json(199));
    expect((await t.load()).hooks).toHaveLength(1);
  });

  it("the CLI exits 78 for 5,000 levels in YAML and JSON", async () => {
    const t = sandbox();
    t.write("hooks.yaml", blockDeep(5000).slice(0, 4 * 1024 * 1024));
    const yaml = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(yaml.code, yaml.stderr).toBe(78);
    expect(yaml.stderr).toContain(`hooks.yaml:201:202: error: ${TOO_DEEP}`);
  });
});

describe("JSON configs: a BOM and very long numbers load as JSON.parse reads them", () => {
  const HOOKS = '"hooks": {"stop": [{"name": "a", "command": "b"}]}';

  it("a UTF-8 BOM is skipped, and positions count from after it", async () => {
    const t = sandbox();
    t.write("hooks.json", `\uFEFF{${HOOKS}}`);
    expect((await t.load()).hooks.map((h) => h.name)).toEqual(["a"]);
    t.write("hooks.json", `\uFEFF{\n  "hooks": {"stop": [{"name": "a", "command": "b", "priority": "x"}]}}`);
    const [d] = await t.diagnostics();
    expect([d.line, d.col]).toEqual([2, 64]);
    const r = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(r.stderr).toContain("hooks.json:2:64: error:");
    // YAML too, on both readers (the fast one takes the rest of this file).
    t.write("hooks.json", "{}");
    const y = sandbox();
    y.write("hooks.yaml", `\uFEFFhooks:\n  stop:\n    - name: a\n      command: b\n      priority: x\n`);
    expect((await y.diagnostics()).map((e) => [e.line, e.col])).toEqual([[5, 17]]);
  });

  it("a 500-digit number loads (as the nearest double, Infinity past 1.8e308); where a number matters it is a clear error", async () => {
    const t = sandbox();
    t.write("hooks.json", `{"x-big": 1${"0".repeat(500)}, "x-small": 0.${"0".repeat(500)}1, ${HOOKS}}`);
    expect((await t.load()).hooks).toHaveLength(1);
    t.write("hooks.json", `{"hooks": {"stop": [{"name": "a", "command": "b", "priority": 1${"0".repeat(450)}}]}}`);
    const [d] = await t.diagnostics();
    expect(d.message).toBe("`priority` in hook `a` must be a whole number, not number Infinity");
    expect(d.col).toBe(63);
  });
});
