import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../src/errors.js";
import { runCli, runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

const HOOK = (name: string) => `hooks:\n  stop:\n    - name: ${name}\n      command: "true"\n`;
const mkfifo = (file: string) => execFileSync("mkfifo", [file]);

// Every command that loads config reads it before the trust check: a hooks.yaml that is a link
// to /dev/zero or a FIFO must be refused at once, never read forever or waited on.
describe("a config that is not a regular file is refused (exit 78), naming the file and what it is", () => {
  for (const command of [["validate"], ["list"], ["run", "stop"]]) {
    it(`hooks ${command.join(" ")}: hooks.yaml → /dev/zero, and hooks.yaml a FIFO`, async () => {
      const t = sandbox();
      symlinkSync("/dev/zero", t.path("hooks.yaml"));
      const zero = await runCli(command, { cwd: t.dir, env: t.env, timeoutMs: 10_000 });
      expect(zero.signal).toBeNull();
      expect(zero.code).toBe(78);
      expect(zero.stderr).toContain(`${t.path("hooks.yaml")} (a symlink to /dev/zero) is a character device, not a regular file; replace it with a regular file`);
      t.write("sub/.keep", "");
      mkfifo(t.path("sub/hooks.yaml"));
      const fifo = await runCli(command, { cwd: t.path("sub"), env: t.env, timeoutMs: 10_000 });
      expect(fifo.signal).toBeNull();
      expect(fifo.code).toBe(78);
      expect(fifo.stderr).toContain(`${t.path("sub/hooks.yaml")} is a FIFO, not a regular file`);
    });
  }

  it("every layer: user, local and --config, and a directory named hooks.yaml", async () => {
    const t = sandbox();
    mkdirSync(path.join(t.env.XDG_CONFIG_HOME, "hookrun"), { recursive: true });
    mkfifo(path.join(t.env.XDG_CONFIG_HOME, "hookrun/hooks.yaml"));
    t.write("hooks.yaml", HOOK("a"));
    await expect(t.load()).rejects.toThrow(/hookrun\/hooks\.yaml is a FIFO/);
    const noUser = { userConfig: false };
    expect((await t.load(noUser)).hooks).toHaveLength(1);
    mkfifo(t.path("hooks.local.yaml"));
    await expect(t.load(noUser)).rejects.toThrow(/hooks\.local\.yaml is a FIFO/);
    mkfifo(t.path("named.yaml"));
    const named = await runCli(["validate", "--config", "named.yaml", "--no-user-config"], { cwd: t.dir, env: t.env, timeoutMs: 10_000 });
    expect(named.code).toBe(78);
    expect(named.stderr).toContain("named.yaml is a FIFO, not a regular file");
    mkdirSync(t.path("d/hooks.yaml"), { recursive: true });
    const error = await t.load({ ...noUser, cwd: t.path("d") }).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.diagnostics[0]).toMatchObject({ file: t.path("d/hooks.yaml"), line: 1, col: 1, severity: "error" });
    expect(error.message).toContain("is a directory, not a regular file");
  });

  it("a config over 4 MiB is refused with its size and the limit, not read", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("a") + "#".repeat(4 * 1024 * 1024));
    await expect(t.load()).rejects.toThrow(/hooks\.yaml is 419\d+ bytes, over the 4194304-byte limit; make it smaller/);
  });

  it("a dangling hooks.yaml symlink is an error naming link and target, not a reason to use the parent's config", async () => {
    const t = sandbox();
    t.write("hooks.yaml", HOOK("parent"));
    t.write("sub/.keep", "");
    symlinkSync("gone.yaml", t.path("sub/hooks.yaml"));
    const error = await t.load({ cwd: t.path("sub") }).catch((e) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`config file ${t.path("sub/hooks.yaml")} is a symlink to gone.yaml, which does not exist: fix the link or delete it`);
    const r = await runMain(["run", "stop"], { cwd: t.path("sub"), env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("sub/hooks.yaml is a symlink to gone.yaml, which does not exist");
    // --config naming a dangling link says so too (not just "does not exist").
    await expect(t.load({ configPath: t.path("sub/hooks.yaml") })).rejects.toThrow(/is a symlink to gone\.yaml, which does not exist/);
  });

  it("a symlink to a regular file is still read (a common way to share one config)", async () => {
    const t = sandbox();
    t.write("shared/cfg.yaml", HOOK("shared"));
    t.write("p/.keep", "");
    symlinkSync("../shared/cfg.yaml", t.path("p/hooks.yaml"));
    expect((await t.load({ cwd: t.path("p") })).hooks.map((h) => h.name)).toEqual(["shared"]);
  });
});

describe("hooks import claude reads settings bounded", () => {
  it("refuses a settings file that is a FIFO or a link to /dev/zero, naming it", async () => {
    const t = sandbox();
    mkdirSync(t.path(".claude"));
    mkfifo(t.path(".claude/settings.json"));
    const fifo = await runCli(["import", "claude"], { cwd: t.dir, env: t.env, timeoutMs: 10_000 });
    expect(fifo.signal).toBeNull();
    expect(fifo.code).toBe(1);
    expect(fifo.stderr).toContain(`Claude Code config file ${t.path(".claude/settings.json")} is a FIFO, not a regular file`);
    symlinkSync("/dev/zero", t.path("zero.json"));
    const zero = await runCli(["import", "claude", "zero.json"], { cwd: t.dir, env: t.env, timeoutMs: 10_000 });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain("is a character device, not a regular file");
  });

  it("--write with --config naming a FIFO refuses instead of waiting for a writer", async () => {
    const t = sandbox();
    writeFileSync(t.path("settings.json"), `\uFEFF${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } })}`);
    mkfifo(t.path("cfg.yaml"));
    const r = await runCli(["import", "claude", "settings.json", "--write", "--config", "cfg.yaml"], { cwd: t.dir, env: t.env, timeoutMs: 10_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("cfg.yaml is a FIFO, not a regular file");
    // A BOM before Claude's JSON is not an error.
    const ok = await runMain(["import", "claude", "settings.json"], { cwd: t.dir, env: t.env });
    expect(ok.code).toBe(0);
  });
});
