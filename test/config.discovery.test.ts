import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectFile } from "../src/config/discover.js";
import { ConfigError } from "../src/errors.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";
import { removeTree } from "./helpers/removeTree.js";

const HOOK = (name: string) => `hooks:\n  stop:\n    - name: ${name}\n      command: "true"\n`;

describe("discovery (docs/configuration.md#files-and-layers)", () => {
  it("walks up from the working directory to the first hooks.yaml", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("top"));
    t.write("a/b/c/.keep", "");
    const config = await t.load({ cwd: t.path("a/b/c") });
    expect(config.files.map((f) => [f.path, f.layer])).toEqual([[t.path("hooks.yaml"), "project"]]);
    expect(config.projectDir).toBe(t.dir);
    expect(config.hooks.map((h) => h.name)).toEqual(["top"]);
  });

  it("stops at the nearest directory that has a config (hooks.yml and hooks.json count)", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("outer"));
    t.write("inner/hooks.json", JSON.stringify({ hooks: { stop: [{ name: "inner", command: "true" }] } }));
    const config = await t.load({ cwd: t.path("inner") });
    expect(config.hooks.map((h) => h.name)).toEqual(["inner"]);
    t.write("yml/hooks.yml", HOOK("yml"));
    expect((await t.load({ cwd: t.path("yml") })).hooks.map((h) => h.name)).toEqual(["yml"]);
  });

  it("--config names the project file directly: no walk, and its hooks.local.yaml still applies", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("walked"));
    const named = t.write("elsewhere/my-hooks.yaml", HOOK("named"));
    t.write("elsewhere/hooks.local.yaml", "hooks:\n  stop:\n    - name: named\n      enabled: false\n");
    const config = await t.load({ configPath: named });
    expect(config.files.map((f) => f.layer)).toEqual(["project", "local"]);
    expect(config.hooks.map((h) => [h.name, h.enabled])).toEqual([["named", false]]);
  });

  it("HOOKS_CONFIG names the project file too; a missing named file is a config error", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("walked"));
    t.write("cfg/x.yaml", HOOK("from-env"));
    const config = await t.load({ env: { ...t.env, HOOKS_CONFIG: "cfg/x.yaml" } });
    expect(config.hooks.map((h) => h.name)).toEqual(["from-env"]);
    await expect(t.load({ env: { ...t.env, HOOKS_CONFIG: "nope.yaml" } })).rejects.toThrow(/nope\.yaml \(from HOOKS_CONFIG\) does not exist/);
    await expect(t.load({ configPath: "nope.yaml" })).rejects.toThrow(/from --config/);
  });

  it("two candidates in one directory is a config error naming both", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("a"));
    t.write("hooks.json", "{}");
    const error = await t.load().catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain("hooks.yaml and hooks.json");
    expect(error.diagnostics.map((d: { file: string }) => d.file)).toEqual([t.path("hooks.yaml"), t.path("hooks.json")]);
    expect(() => findProjectFile({ cwd: t.dir, env: {} })).toThrow(ConfigError);
    const r = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("two config files");
  });

  it("two local candidates beside the project file are an error too", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("a"));
    t.write("hooks.local.yaml", "hooks: {}\n");
    t.write("hooks.local.json", "{}");
    await expect(t.load()).rejects.toThrow(/hooks\.local\.yaml and hooks\.local\.json/);
  });

  it("reads the user layer from $XDG_CONFIG_HOME/hookrun first, and skips it with userConfig: false / --no-user-config", async () => {
    const t = sandbox();
    t.write(t.userPath("hooks.yaml"), HOOK("from-user"));
    t.write("project/hooks.yaml", HOOK("from-project"));
    const config = await t.load({ cwd: t.path("project") });
    expect(config.files.map((f) => f.layer)).toEqual(["user", "project"]);
    expect(config.hooks.map((h) => [h.name, h.dir])).toEqual([
      ["from-user", null],
      ["from-project", t.path("project")],
    ]);
    expect((await t.load({ cwd: t.path("project"), userConfig: false })).hooks.map((h) => h.name)).toEqual(["from-project"]);
    const withUser = await runMain(["list", "--json"], { cwd: t.path("project"), env: t.env });
    expect(JSON.parse(withUser.stdout).map((h: { name: string }) => h.name)).toEqual(["from-user", "from-project"]);
    const without = await runMain(["--no-user-config", "list", "--json"], { cwd: t.path("project"), env: t.env });
    expect(JSON.parse(without.stdout).map((h: { name: string }) => h.name)).toEqual(["from-project"]);
  });

  it("no config anywhere: loadConfig returns an empty config; validate and list exit 78 saying what to do", async () => {
    const t = sandbox();
    const config = await t.load();
    expect(config.files).toEqual([]);
    expect(config.hooks).toEqual([]);
    for (const cmd of ["validate", "list"]) {
      const r = await runMain([cmd], { cwd: t.dir, env: t.env });
      expect(r.code).toBe(78);
      expect(r.stderr).toMatch(/no config found.*hooks init/);
    }
  });

  it("findProjectFile is exported for enable/disable and init", () => {
    const t = sandbox();
    t.write("hooks.yml", HOOK("a"));
    t.write("sub/.keep", "");
    expect(findProjectFile({ cwd: t.path("sub"), env: {} })).toBe(t.path("hooks.yml"));
    expect(findProjectFile({ cwd: path.parse(t.dir).root, env: {} })).toBe(null);
  });
});

describe("the user layer and the state dir follow the HOME they are handed (in-process callers: docs/running-hooks.md#from-a-program-library)", () => {
  it("findUserFile and stateDir read env.HOME when XDG_* are unset, not the process's home", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, realpathSync } = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { findUserFile } = await import("../src/config/discover.js");
    const { stateDir } = await import("../src/fs/stateDir.js");
    const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), "hookrun-home-")));
    try {
      mkdirSync(path.join(home, ".config", "hookrun"), { recursive: true });
      writeFileSync(path.join(home, ".config", "hookrun", "hooks.yaml"), "hooks: {}\n");
      expect(findUserFile({ HOME: home })).toBe(path.join(home, ".config", "hookrun", "hooks.yaml"));
      expect(stateDir({ HOME: home })).toBe(path.join(home, ".local", "state", "hookrun"));
    } finally {
      removeTree(home);
    }
  });
});
