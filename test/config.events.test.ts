import { describe, expect, it } from "vitest";
import { EVENTS } from "../src/events/catalog.js";
import { parseHookEvent } from "../src/events/parseHookEvent.js";
import { UsageError } from "../src/errors.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const SPELLINGS: [string, string][] = [
  ["Stop", "stop"],
  ["STOP", "stop"],
  ["stop", "stop"],
  ["PreToolUse", "pre_tool_use"],
  ["pre-tool-use", "pre_tool_use"],
  ["pre tool use", "pre_tool_use"],
  ["tool.execute.pre", "pre_tool_use"],
  ["tool_pre_execute", "pre_tool_use"],
  ["tool.execute.post", "post_tool_use"],
  ["turn.pre", "pre_turn"],
  ["step.post", "post_turn"],
  ["message_pre_process", "user_prompt_submit"],
  ["UserPromptSubmit", "user_prompt_submit"],
  ["file.save.pre", "file_pre_save"],
  ["file.patch.post", "file_post_patch"],
  ["SessionStart", "session_start"],
  ["PostToolUseFailure", "post_tool_use_failure"],
];

describe("event spellings (docs/configuration.md#events)", () => {
  it.each(SPELLINGS)("parseHookEvent(%j) is %s", (input, canonical) => {
    expect(parseHookEvent(input)).toBe(canonical);
  });

  it("accepts every canonical name, its PascalCase form and every alias", () => {
    for (const e of EVENTS) {
      expect(parseHookEvent(e.name)).toBe(e.name);
      expect(
        parseHookEvent(
          e.name
            .split("_")
            .map((w) => w[0].toUpperCase() + w.slice(1))
            .join(""),
        ),
      ).toBe(e.name);
      for (const a of e.aliases) expect(parseHookEvent(a)).toBe(e.name);
    }
  });

  it("an unknown name lists the closest events", () => {
    const cases: [string, string][] = [
      ["stpo", "stop"],
      ["PreToolUs", "pre_tool_use"],
      ["sesion_start", "session_start"],
      ["post-compact-x", "post_compact"],
    ];
    for (const [input, best] of cases) {
      const error = (() => {
        try {
          parseHookEvent(input);
        } catch (e) {
          return e;
        }
      })() as UsageError;
      expect(error).toBeInstanceOf(UsageError);
      expect(error.suggestions[0]).toBe(best);
      expect(error.message).toContain(`did you mean \`${best}\``);
    }
  });

  it("every spelling works as an event key in a config file and means the canonical event", async () => {
    const t = sandbox();
    const text = `${["hooks:", ...SPELLINGS.filter(([s]) => s !== "pre tool use").map(([s], i) => `  ${JSON.stringify(s)}:\n    - name: h${i}\n      command: echo`)].join("\n")}\n`;
    t.write("hooks.yaml", text);
    const config = await t.load();
    expect(config.hooks.map((h) => h.event)).toEqual(SPELLINGS.filter(([s]) => s !== "pre tool use").map(([, c]) => c));
  });

  it("`hooks list --event` takes any spelling; an unknown one exits 64 with a suggestion", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks:\n  PreToolUse:\n    - name: a\n      command: echo\n  stop:\n    - name: b\n      command: echo\n");
    const r = await runMain(["list", "--event", "tool.execute.pre", "--json"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((h: { name: string }) => h.name)).toEqual(["a"]);
    const bad = await runMain(["list", "--event", "stpo"], { cwd: t.dir, env: t.env });
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/unknown event `stpo`; did you mean `stop`/);
  });

  it("custom events: usable as keys in any spelling once declared, and by `list --event`", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "events:\n  deploy_finished: { custom: true }\nhooks:\n  DeployFinished:\n    - name: a\n      command: echo\n");
    const config = await t.load();
    expect(config.hooks[0].event).toBe("deploy_finished");
    const r = await runMain(["list", "--event", "deploy-finished", "--json"], { cwd: t.dir, env: t.env });
    expect(JSON.parse(r.stdout).map((h: { event: string }) => h.event)).toEqual(["deploy_finished"]);
  });
});

describe("custom events named like Object.prototype members", () => {
  // Event tables are looked up by user-chosen names: no inherited member may answer for one.
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    it(`\`${name}\` with custom: true loads, lists and runs`, async () => {
      const t = sandbox();
      t.write("hooks.yaml", `events:\n  ${name}: { custom: true, gate: true }\nhooks:\n  ${name}:\n    - name: a\n      command: echo ran\n`);
      const config = await t.load();
      expect(config.hooks.map((h) => h.name)).toEqual(["a"]);
      expect(config.events[config.hooks[0].event]).toMatchObject({ custom: true, gate: true });
      const r = await runMain(["run", name, "--trust"], { cwd: t.dir, env: t.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toContain("ran");
    });
  }

  it("an undeclared `constructor` is still an unknown event", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks:\n  constructor:\n    - name: a\n      command: echo\n");
    expect((await t.diagnostics()).map((d) => d.message)).toEqual([expect.stringContaining("unknown event `constructor`")]);
  });
});
