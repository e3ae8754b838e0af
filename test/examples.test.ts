import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { STARTER_CONFIG } from "../src/config/starterConfig.js";
import { runCli } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const EXAMPLES = [
  "hooks.example.yaml",
  ...readdirSync(path.join(ROOT, "examples"))
    // github-actions.yml is a workflow (integrations.examples.test.ts), *.hooktest.yaml are fixtures (prove.fixtures.test.ts)
    .filter((f) => /\.(ya?ml|json)$/.test(f) && f !== "github-actions.yml" && !f.includes(".hooktest."))
    .map((f) => `examples/${f}`),
];

describe("shipped configs are valid, without warnings", () => {
  it("there are hooks.example.yaml and at least three more examples", () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(4);
  });

  it.each(EXAMPLES)("%s", async (file) => {
    const t = sandbox();
    const config = await loadConfig({ cwd: t.dir, configPath: path.join(ROOT, file), userConfig: false, env: t.env });
    expect(config.warnings).toEqual([]);
    expect(config.hooks.length).toBeGreaterThan(0);
  });

  it("hooks.example.yaml uses the common events, a matcher, paths and an async hook", async () => {
    const t = sandbox();
    const config = await loadConfig({ cwd: t.dir, configPath: path.join(ROOT, "hooks.example.yaml"), userConfig: false, env: t.env });
    for (const e of ["session_start", "pre_tool_use", "post_tool_use", "file_post_save", "stop"]) expect(config.hooks.some((h) => h.event === e)).toBe(true);
    expect(config.hooks.some((h) => h.event === "pre_tool_use" && h.matcher)).toBe(true);
    expect(config.hooks.some((h) => h.paths)).toBe(true);
    expect(config.hooks.some((h) => h.async)).toBe(true);
  });

  it("the `hooks init` starter is valid without warnings", async () => {
    const t = sandbox();
    t.write("hooks.yaml", STARTER_CONFIG);
    expect((await t.load()).warnings).toEqual([]);
  });

  it("`npm run demo` fires real hooks of hooks.example.yaml: messages, a block, an async result, an explanation, its fixtures", () => {
    const t = sandbox();
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts/demo.mjs")], { cwd: ROOT, env: { ...t.env, NO_COLOR: "1" }, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/✓ +session-context .*\n +» Repository on branch /);
    expect(r.stdout).toMatch(/pre_tool_use: 1 hook \(1 ok\)/);
    expect(r.stdout).toContain("blocked by guard-shell: force push; push a new branch instead");
    expect(r.stdout).toContain("(exit 2: blocked)");
    expect(r.stdout).toMatch(/async delivered: 1/);
    // Then why the guard would not run for a Write, and the example's fixtures, all passing.
    expect(r.stdout).toContain('✗ guard-shell  priority 100  hooks.example.yaml:26\n      matcher "Bash|shell" does not match tool_name "Write"');
    expect(r.stdout).toContain("3 fixtures: 3 passed, 0 failed");
  });

  it("hooks.example.yaml validates and lists with the built CLI", async () => {
    const t = sandbox();
    const v = await runCli(["--no-user-config", "--config", "hooks.example.yaml", "validate"], { cwd: ROOT, env: t.env });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^valid: \d+ hooks in hooks\.example\.yaml\n$/);
    const l = await runCli(["--no-user-config", "--config", "hooks.example.yaml", "list"], { cwd: ROOT, env: t.env });
    expect(l.code).toBe(0);
    expect(l.stdout).toContain("guard-shell");
  });
});
