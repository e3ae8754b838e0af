import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sandbox } from "./helpers/sandbox.js";

describe("merging layers (docs/configuration.md#files-and-layers)", () => {
  it("concatenates user → project → local and keeps declaration order", async () => {
    const t = sandbox();
    t.write(t.userPath("hooks.yaml"), "hooks:\n  stop:\n    - name: u1\n      command: echo u\n");
    t.write("hooks.yaml", "hooks:\n  stop:\n    - name: p1\n      command: echo p\n  session_start:\n    - name: p2\n      command: echo s\n");
    t.write("hooks.local.yaml", "hooks:\n  stop:\n    - name: l1\n      command: echo l\n");
    const config = await t.load();
    expect(config.hooks.map((h) => [h.name, h.order, h.source.layer])).toEqual([
      ["u1", 0, "user"],
      ["p1", 1, "project"],
      ["p2", 2, "project"],
      ["l1", 3, "local"],
    ]);
  });

  it("a later layer overrides an earlier hook of the same name field by field and may omit command", async () => {
    const t = sandbox();
    const project = t.write(
      "hooks.yaml",
      ["hooks:", "  pre_tool_use:", "    - name: guard", "      command: ./guard.sh", "      matcher: Bash", "      priority: 5", "      timeout: 10", "      env: { A: a, B: b }", ""].join("\n"),
    );
    t.write("guard.sh", "#!/bin/sh\n");
    const local = t.write("hooks.local.yaml", ["hooks:", "  PreToolUse:", "    - name: guard", "      timeout: 2m", "      enabled: false", "      env: { B: local }", ""].join("\n"));
    const config = await t.load();
    expect(config.hooks).toHaveLength(1);
    const h = config.hooks[0];
    expect(h).toMatchObject({ name: "guard", event: "pre_tool_use", command: "./guard.sh", matcher: "Bash", priority: 5, timeoutMs: 120_000, enabled: false, env: { A: "a", B: "local" }, dir: t.dir });
    expect(h.source).toEqual({ file: project, line: 3, col: 7, layer: "project" });
    expect(h.enabledSource).toEqual({ file: local, line: 5, col: 7, layer: "local" });
    expect(h.sources).toEqual([h.source, { file: local, line: 3, col: 7, layer: "local" }]);
  });

  it("env variables named __proto__ or constructor stay variables, in defaults and in an override (docs/configuration.md#files-and-layers)", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "defaults:\n  env: {__proto__: d, constructor: c}\nhooks:\n  stop:\n    - name: a\n      command: env\n      env: {A: a}\n");
    t.write("hooks.local.yaml", "hooks:\n  stop:\n    - name: a\n      env: {__proto__: local}\n");
    const h = (await t.load()).hooks[0];
    expect(Object.getPrototypeOf(h.env)).toBe(Object.prototype);
    expect(Object.entries(h.env).sort()).toEqual([
      ["A", "a"],
      ["__proto__", "local"],
      ["constructor", "c"],
    ]);
  });

  it("an override giving args replaces the inherited command (exactly one survives)", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks:\n  stop:\n    - name: a\n      command: echo shell\n");
    t.write("hooks.local.yaml", "hooks:\n  stop:\n    - name: a\n      args: [echo, exec]\n");
    const [h] = (await t.load()).hooks;
    expect(h.args).toEqual(["echo", "exec"]);
    expect(h.command).toBeUndefined();
  });

  it("an override under another event is an error naming both places", async () => {
    const t = sandbox();
    const project = t.write("hooks.yaml", "hooks:\n  post_tool_use:\n    - name: lint\n      command: echo lint\n");
    const local = t.write("hooks.local.yaml", "hooks:\n  stop:\n    - name: lint\n      enabled: false\n");
    const [d, ...rest] = await t.diagnostics();
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ file: local, line: 3, col: 7, severity: "error" });
    expect(d.message).toContain("at hooks.yaml:3:7");
    expect(project.endsWith("hooks.yaml")).toBe(true);
    expect(d.message).toContain("under `post_tool_use`");
    expect(d.message).toMatch(/move this override under `post_tool_use`/);
  });

  it("an override of a user-layer hook under another event names the user file by its full path", async () => {
    const t = sandbox();
    const user = t.write(t.userPath("hooks.yaml"), "hooks:\n  stop:\n    - name: notify\n      command: echo\n");
    t.write("hooks.yaml", "hooks:\n  session_end:\n    - name: notify\n      async: true\n");
    const [d] = await t.diagnostics();
    expect(d).toMatchObject({ file: t.path("hooks.yaml"), line: 3, col: 7 });
    expect(d.message).toContain(`at ${user}:3:7`);
  });

  it("user-layer hooks are not checked against the caller's directory (relative cwd and scripts)", async () => {
    const t = sandbox();
    t.write(t.userPath("hooks.yaml"), "hooks:\n  stop:\n    - name: u\n      command: ./bin/x.sh\n      cwd: sub\n    - name: abs\n      command: echo\n      cwd: /definitely/not/here\n");
    const ds = await t.diagnostics();
    expect(ds.map((d) => [d.line, d.col, d.message.split(":")[0]])).toEqual([[8, 12, '`cwd` "/definitely/not/here" does not exist (resolved to /definitely/not/here)']]);
  });

  it("a hook that overrides nothing must have command or args", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks:\n  stop:\n    - name: a\n      command: echo\n");
    t.write("hooks.local.yaml", "hooks:\n  stop:\n    - name: typo-of-a\n      enabled: false\n");
    const ds = await t.diagnostics();
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ file: t.path("hooks.local.yaml"), line: 3, col: 7 });
    expect(ds[0].message).toMatch(/`typo-of-a` has neither `command` nor `args`/);
  });

  it("defaults merge key by key and defaults.env variable by variable; hook values win", async () => {
    const t = sandbox();
    t.write(t.userPath("hooks.yaml"), "defaults:\n  timeout: 5\n  shell: bash\n  env: { A: user, B: user }\n  max_output: 64KiB\n");
    t.write(
      "hooks.yaml",
      "defaults:\n  timeout: 2m\n  env: { B: project, C: project }\nhooks:\n  stop:\n    - name: a\n      command: echo\n    - name: b\n      command: echo\n      shell: zsh\n      env: { C: hook }\n      max_output: 1KiB\n",
    );
    const [a, b] = (await t.load()).hooks;
    expect(a).toMatchObject({ timeoutMs: 120_000, shell: "bash", env: { A: "user", B: "project", C: "project" }, maxOutput: 65536 });
    expect(b).toMatchObject({ timeoutMs: 120_000, shell: "zsh", env: { A: "user", B: "project", C: "hook" }, maxOutput: 1024 });
  });

  it("fills defaults when nothing is said: 60 s, sh, 1 MiB, enabled, priority 0, continue", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks:\n  stop:\n    - name: a\n      command: echo\n");
    const [h] = (await t.load()).hooks;
    expect(h).toMatchObject({ timeoutMs: 60_000, shell: "sh", maxOutput: 1024 * 1024, enabled: true, priority: 0, async: false, onFailure: "continue", env: {} });
    expect(h.enabledSource).toBe(h.source);
  });

  it("events settings merge across layers; a custom event declared by one layer is usable in another", async () => {
    const t = sandbox();
    t.write(t.userPath("hooks.yaml"), "events:\n  deploy_finished: { custom: true, gate: true, description: ours }\n");
    t.write(
      "hooks.yaml",
      "events:\n  post_tool_use: { parallel: true }\n  deploy-finished: { parallel: true }\nhooks:\n  DeployFinished:\n    - name: d\n      command: echo\n      on_failure: block\n",
    );
    t.write("hooks.local.yaml", "events:\n  PostToolUse: { parallel: false }\n");
    const config = await t.load();
    expect(config.events).toEqual({
      deploy_finished: { custom: true, gate: true, description: "ours", parallel: true },
      post_tool_use: { custom: false, parallel: false },
    });
    expect(config.hooks[0].event).toBe("deploy_finished");
    expect(config.warnings).toEqual([]);
  });

  it("overrides text replaces a file's content, even for a file not yet on disk", async () => {
    const t = sandbox();
    const project = t.write("hooks.yaml", "hooks:\n  stop:\n    - name: a\n      command: echo\n");
    const local = t.path("hooks.local.yaml");
    const config = await t.load({ overrides: { [local]: "hooks:\n  stop:\n    - name: a\n      enabled: false\n" } });
    expect(config.files.map((f) => f.path)).toEqual([project, local]);
    expect(config.hooks[0].enabled).toBe(false);
    const bad = await t.diagnostics({ overrides: { [project]: "hooks:\n  stpo: []\n" } });
    expect(bad[0].message).toMatch(/unknown event `stpo`/);
  });

  it("records each file's sha256 and layer", async () => {
    const t = sandbox();
    t.write("hooks.yaml", "hooks: {}\n");
    const [f] = (await t.load()).files;
    expect(f).toEqual({ path: t.path("hooks.yaml"), layer: "project", sha256: createHash("sha256").update("hooks: {}\n").digest("hex") });
  });
});
