import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../src/config/loadConfig.js";
import { assertTrusted, WriteError } from "../src/index.js";
import { validateEdit } from "../src/edit/setHooksEnabled.js";
import { runCli, runMain } from "./helpers/cli.js";
import { lineDiff } from "./helpers/lineDiff.js";
import { sandbox, type Sandbox } from "./helpers/sandbox.js";

function setup(): Sandbox {
  const t = sandbox();
  return t;
}

const BASIC = `# project hooks
hooks:
  stop:
    - name: lint   # the linter
      command: npm run lint

    - name: test
      command: npm test
`;

describe("concurrent disables all take effect (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("20 concurrent `hooks disable` of 20 hooks in one file: all 20 land, nothing else changes", async () => {
    const t = setup();
    const names = Array.from({ length: 20 }, (_, i) => `hook-${String(i).padStart(2, "0")}`);
    const original = `# twenty hooks, with comments between them\nhooks:\n  stop:\n${names.map((n, i) => `    # hook number ${i}\n    - name: ${n}\n      command: echo ${i}   # says ${i}\n`).join("\n")}`;
    const file = path.join(t.dir, "hooks.yaml");
    writeFileSync(file, original);
    chmodSync(file, 0o640);
    const runs = await Promise.all(names.map((n) => runCli(["disable", n, "--no-user-config"], { cwd: t.dir, env: t.env, timeoutMs: 60_000 })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const after = readFileSync(file, "utf8");
    const doc = parse(after) as { hooks: { stop: { name: string; enabled?: boolean; command: string }[] } };
    expect(doc.hooks.stop.map((h) => h.enabled)).toEqual(names.map(() => false));
    // Removing the inserted lines gives back the original, byte for byte.
    const inserted = after.split("\n").filter((l) => l === "      enabled: false");
    expect(inserted).toHaveLength(20);
    expect(after.replaceAll("      enabled: false\n", "")).toBe(original);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 120_000);
});

/** The pid of a process that has exited (and, right after, is not reused). */
function _deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

/** A file of `count` hooks named `<prefix>-NN`, each `echo`. */
function manyHooks(count: number, prefix = "hook"): { names: string[]; text: string } {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`);
  return { names, text: `hooks:\n  stop:\n${names.map((n, i) => `    - name: ${n}\n      command: echo ${i}\n`).join("")}` };
}

/** Every process that said it disabled its hook did, every hook is disabled, the file is still valid and trusted. */
async function expectAllLanded(runs: { name: string; r: Awaited<ReturnType<typeof runCli>> }[], file: string, dir: string, env: Record<string, string>): Promise<void> {
  const doc = parse(readFileSync(file, "utf8")) as { hooks: { stop: { name: string; enabled?: boolean }[] } };
  const enabled = new Map(doc.hooks.stop.map((h) => [h.name, h.enabled]));
  for (const { name, r } of runs) if (r.code === 0) expect(enabled.get(name), `${name} reported success: ${r.stdout}`).toBe(false);
  for (const { name, r } of runs) expect(r.code, `${name}: ${r.stderr}`).toBe(0);
  const config = await loadConfig({ configPath: file, cwd: dir, userConfig: false, env });
  expect(() => assertTrusted(config, { env })).not.toThrow();
}

describe("a stale lock is broken by exactly one waiter; locks are keyed by the real path (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("rounds of concurrent `hooks disable` on a file left locked by a dead process: every edit that reports success is on disk", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    for (let round = 0; round < 4; round++) {
      const { names, text } = manyHooks(14, `r${round}`);
      writeFileSync(file, text);
      expect((await runMain(["trust", "--yes", "--no-user-config"], { cwd: t.dir, env: t.env })).code).toBe(0);
      // A `hooks disable` that dies while every other one waits for its lock: they all find the
      // lock stale at about the same moment, which is when two breakers could both "win".
      const holder = spawn("sleep", ["60"], { stdio: "ignore" });
      writeFileSync(`${file}.lock`, `${holder.pid}\n${new Date().toISOString()}\n`);
      const pending = Promise.all(names.map(async (name) => ({ name, r: await runCli(["disable", name, "--no-user-config"], { cwd: t.dir, env: t.env, timeoutMs: 60_000 }) })));
      await new Promise((r) => setTimeout(r, 1500));
      holder.kill("SIGKILL");
      const runs = await pending;
      await expectAllLanded(runs, file, t.dir, t.env);
      expect(readdirSync(t.dir).filter((f) => f !== "hooks.yaml")).toEqual([]);
    }
  }, 120_000);

  it("edits through two symlinks to one file take turns: all land, and it stays trusted through both", async () => {
    const t = setup();
    const real = path.join(t.root, "shared-hooks.yaml");
    const { names, text } = manyHooks(12);
    writeFileSync(real, text);
    const dirs = [path.join(t.root, "a"), path.join(t.root, "b")];
    for (const d of dirs) {
      mkdirSync(d);
      symlinkSync(real, path.join(d, "hooks.yaml"));
      expect((await runMain(["trust", "--yes", "--no-user-config"], { cwd: d, env: t.env })).code).toBe(0);
    }
    const runs = await Promise.all(names.map(async (name, i) => ({ name, r: await runCli(["disable", name, "--no-user-config"], { cwd: dirs[i % 2], env: t.env, timeoutMs: 60_000 }) })));
    for (const d of dirs) await expectAllLanded(runs, path.join(d, "hooks.yaml"), d, t.env);
  }, 120_000);
});

describe("enable / disable from the command line (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("disable then enable prints what changed and where", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    writeFileSync(file, BASIC);
    const r = await runMain(["disable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("disabled lint (hooks.yaml)");
    expect(lineDiff(BASIC, readFileSync(file, "utf8"))).toEqual({ removed: [], added: ["      enabled: false\n"] });
    const again = await runMain(["disable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(again.stdout).toContain("lint is already disabled");
    const e = await runMain(["enable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(e.code).toBe(0);
    expect(lineDiff(BASIC, readFileSync(file, "utf8"))).toEqual({ removed: [], added: ["      enabled: true\n"] });
  });

  it("an unknown name exits 1 with did-you-mean and writes nothing, even for the names that exist", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    writeFileSync(file, BASIC);
    const r = await runMain(["disable", "test", "lnt", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no hook named "lnt"; did you mean "lint"?');
    expect(readFileSync(file, "utf8")).toBe(BASIC);
  });

  it("an already invalid file exits 78 and is not edited", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    const broken = `${BASIC}  oops: [unclosed\n`;
    writeFileSync(file, broken);
    const r = await runMain(["disable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  it("a file that breaks the schema (unknown key) exits 78 with its diagnostic and is not edited", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    const broken = BASIC.replace("command: npm test", "comand: npm test");
    writeFileSync(file, broken);
    const r = await runMain(["disable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("comand");
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  it("no config at all exits 78", async () => {
    const t = setup();
    const r = await runMain(["disable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("hooks init");
  });

  it("a read-only file gives a clear error naming the file and is not replaced", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    writeFileSync(file, BASIC);
    chmodSync(file, 0o444);
    const r = await runMain(["disable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot edit ${file}: it is read-only`);
    expect(r.stderr).toContain("chmod u+w");
    expect(r.stderr).not.toMatch(/at .*\.js/);
    expect(readFileSync(file, "utf8")).toBe(BASIC);
    expect(statSync(file).mode & 0o777).toBe(0o444);
  });

  it("a wrongly typed `enabled` (an explicit !!str tag) is already invalid: 78, not edited", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    const text = "hooks:\n  stop:\n    - name: tagged\n      command: echo\n      enabled: !!str true\n";
    writeFileSync(file, text);
    const r = await runMain(["disable", "tagged", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("enabled");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("an edit that would also change another hook through a shared anchor is refused, file untouched", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    const text = "hooks:\n  stop:\n    - name: a\n      command: echo a\n      enabled: &on true\n    - name: b\n      command: echo b\n      enabled: *on\n";
    writeFileSync(file, text);
    const r = await runMain(["disable", "a", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`refusing to edit ${file}`);
    expect(r.stderr).toContain('hook "b"');
    expect(readFileSync(file, "utf8")).toBe(text);
    // Disabling both at once changes only what was asked, so it is allowed.
    const both = await runMain(["disable", "a", "b", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(both.code, both.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(text.replace("&on true", "&on false").replace("enabled: *on", "enabled: false"));
  });

  it("validateEdit refuses edited text that no longer parses, or that does not say what was asked", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    writeFileSync(file, BASIC);
    const opts = { cwd: t.dir, userConfig: false, env: t.env };
    await expect(validateEdit(opts, { [file]: BASIC.replace("name: lint", "name: [lint") }, [{ name: "lint", file }], false)).rejects.toThrow(WriteError);
    await expect(validateEdit(opts, { [file]: BASIC }, [{ name: "lint", file }], false)).rejects.toThrow(/refusing to edit/);
    await expect(validateEdit(opts, { [file]: BASIC.replace("command: npm run lint", "command: npm run lint\n      enabled: false") }, [{ name: "lint", file }], false)).resolves.toBeUndefined();
  });

  it("a hook whose map is a YAML alias is refused, not edited through its anchor", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    const text = "x-base: &base\n  name: shared\n  command: echo shared\nhooks:\n  stop:\n    - *base\n";
    writeFileSync(file, text);
    const r = await runMain(["disable", "shared", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("alias");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("a user-layer hook is edited in the user file", async () => {
    const t = setup();
    const userFile = path.join(t.env.XDG_CONFIG_HOME, "hookrun", "hooks.yaml");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(path.dirname(userFile), { recursive: true });
    const userText = "hooks:\n  stop:\n    - name: mine\n      command: echo mine\n";
    writeFileSync(userFile, userText);
    writeFileSync(path.join(t.dir, "hooks.yaml"), BASIC);
    const r = await runMain(["disable", "mine"], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(userFile, "utf8")).toBe(userText.replace("name: mine\n", "name: mine\n      enabled: false\n"));
    expect(readFileSync(path.join(t.dir, "hooks.yaml"), "utf8")).toBe(BASIC);
    const config = await loadConfig({ cwd: t.dir, env: t.env });
    const mine = config.hooks.find((h) => h.name === "mine")!;
    expect(mine.enabled).toBe(false);
    expect(mine.enabledSource.file).toBe(userFile);
  });
});

describe("--local writes the override into hooks.local.yaml (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("creates hooks.local.yaml, leaves hooks.yaml untouched, and updates the entry in place later", async () => {
    const t = setup();
    const file = path.join(t.dir, "hooks.yaml");
    const local = path.join(t.dir, "hooks.local.yaml");
    writeFileSync(file, BASIC.replace("  stop:", "  Stop:"));
    const r = await runMain(["disable", "lint", "--local", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(BASIC.replace("  stop:", "  Stop:"));
    expect(parse(readFileSync(local, "utf8"))).toEqual({ hooks: { stop: [{ name: "lint", enabled: false }] } });
    let config = await loadConfig({ cwd: t.dir, userConfig: false, env: t.env });
    let lint = config.hooks.find((h) => h.name === "lint")!;
    expect(lint.enabled).toBe(false);
    expect(lint.enabledSource.file).toBe(local);
    const list = await runMain(["list", "--json", "--no-user-config"], { cwd: t.dir, env: t.env });
    const row = (JSON.parse(list.stdout) as { name: string; enabled: boolean; enabled_source: { file: string; layer: string } }[]).find((h) => h.name === "lint")!;
    expect(row.enabled).toBe(false);
    expect(row.enabled_source).toMatchObject({ file: "hooks.local.yaml", layer: "local" });

    const before = readFileSync(local, "utf8");
    const e = await runMain(["enable", "lint", "--local", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(e.code, e.stderr).toBe(0);
    expect(lineDiff(before, readFileSync(local, "utf8"))).toEqual({ removed: ["      enabled: false\n"], added: ["      enabled: true\n"] });
    config = await loadConfig({ cwd: t.dir, userConfig: false, env: t.env });
    lint = config.hooks.find((h) => h.name === "lint")!;
    expect(lint.enabled).toBe(true);
  });

  it("adds to an existing local file keeping its bytes, under the event key it already has", async () => {
    const t = setup();
    writeFileSync(path.join(t.dir, "hooks.yaml"), BASIC);
    const local = path.join(t.dir, "hooks.local.yaml");
    const localText = "# mine, not checked in\nhooks:\n  Stop:   # PascalCase on purpose\n    - name: test\n      timeout: 5m\n";
    writeFileSync(local, localText);
    const r = await runMain(["disable", "lint", "--local", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    const after = readFileSync(local, "utf8");
    expect(lineDiff(localText, after).removed).toEqual([]);
    expect(lineDiff(localText, after).added).toEqual(["    - name: lint\n", "      enabled: false\n"]);
    const config = await loadConfig({ cwd: t.dir, userConfig: false, env: t.env });
    expect(config.hooks.find((h) => h.name === "lint")!.enabled).toBe(false);
    expect(config.hooks.find((h) => h.name === "test")!.enabled).toBe(true);
  });

  it("without --local, a hook whose state an override decides is edited in the override's file", async () => {
    const t = setup();
    writeFileSync(path.join(t.dir, "hooks.yaml"), BASIC);
    const local = path.join(t.dir, "hooks.local.yaml");
    writeFileSync(local, "hooks:\n  stop:\n    - {name: lint, enabled: false}\n");
    const r = await runMain(["enable", "lint", "--no-user-config"], { cwd: t.dir, env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(local, "utf8")).toBe("hooks:\n  stop:\n    - {name: lint, enabled: true}\n");
    expect(readFileSync(path.join(t.dir, "hooks.yaml"), "utf8")).toBe(BASIC);
  });
});
