import { mkdirSync, symlinkSync, renameSync, unlinkSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../src/errors.js";
import type { ResolvedConfig } from "../src/config/types.js";
import { watchConfig, type ConfigWatcher, serialReloader } from "../src/watch/watchConfig.js";
import { configWatchScope } from "../src/watch/configWatchScope.js";
import { useSandbox } from "./helpers/sandbox.js";
import { sleep, waitFor } from "./helpers/waitFor.js";

const yamlWith = (...names: string[]) => `hooks:\n  stop:\n${names.map((n) => `    - name: ${n}\n      command: "true"\n`).join("")}`;
const names = (c: ResolvedConfig | null) => (c?.hooks ?? []).map((h) => h.name).join(",");

let tmp: string;
let project: string;
let env: NodeJS.ProcessEnv;
let watcher: ConfigWatcher | undefined;
let reloads: ResolvedConfig[];
let errors: ConfigError[];

function start(extra: { cwd?: string; configPath?: string } = {}) {
  watcher = watchConfig({ cwd: extra.cwd ?? project, configPath: extra.configPath, env, debounceMs: 50, onReload: (c) => reloads.push(c), onError: (e) => errors.push(e) });
  return watcher;
}

const sb = useSandbox({ prefix: "hookrun-watch-" });
beforeEach(() => {
  tmp = sb.current.root;
  project = path.join(tmp, "repo");
  mkdirSync(project);
  env = { XDG_CONFIG_HOME: path.join(tmp, "xdg"), HOME: tmp };
  reloads = [];
  errors = [];
});

afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
});

describe("watchConfig: saves editors make", () => {
  it("picks up an atomic-rename save (write a temp file, rename it over)", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("a"));
    const w = start();
    await w.ready;
    expect(names(w.current)).toBe("a");
    writeFileSync(path.join(project, ".hooks.yaml.tmp-123"), yamlWith("a", "b"));
    renameSync(path.join(project, ".hooks.yaml.tmp-123"), file);
    await waitFor(() => names(w.current) === "a,b", { what: "the renamed file" });
    expect(names(reloads.at(-1) ?? null)).toBe("a,b");
  });

  it("picks up a vim-style save (rename to a backup, write anew, drop the backup)", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("a"));
    const w = start();
    await w.ready;
    writeFileSync(path.join(project, ".hooks.yaml.swp"), "swap");
    renameSync(file, `${file}~`);
    writeFileSync(file, yamlWith("v"));
    unlinkSync(`${file}~`);
    await waitFor(() => names(w.current) === "v", { what: "the vim save" });
  });

  it("picks up delete and recreate", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("a"));
    const w = start();
    await w.ready;
    unlinkSync(file);
    await waitFor(() => w.current && w.current.files.length === 0, { what: "the deletion" });
    writeFileSync(file, yamlWith("again"));
    await waitFor(() => names(w.current) === "again", { what: "the recreated file" });
  });

  it("ends on the written content after truncate-then-write", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("a"));
    const w = start();
    await w.ready;
    const fd = openSync(file, "w");
    await sleep(80);
    writeSync(fd, yamlWith("t1", "t2"));
    closeSync(fd);
    await waitFor(() => names(w.current) === "t1,t2", { what: "the rewritten file" });
  });
});

describe("watchConfig: files that do not exist yet", () => {
  it("picks up a user config created in a directory that did not exist", async () => {
    const w = start();
    await w.ready;
    expect(w.current?.files).toEqual([]);
    mkdirSync(path.join(tmp, "xdg", "hookrun"), { recursive: true });
    await sleep(200);
    writeFileSync(path.join(tmp, "xdg", "hookrun", "hooks.yaml"), yamlWith("mine"));
    await waitFor(() => names(w.current) === "mine", { what: "the new user config" });
  });

  it("picks up a local override created beside the project file", async () => {
    writeFileSync(path.join(project, "hooks.yaml"), yamlWith("a", "b"));
    const w = start();
    await w.ready;
    writeFileSync(path.join(project, "hooks.local.yaml"), yamlWith("c"));
    await waitFor(() => names(w.current) === "a,b,c", { what: "the local layer" });
  });

  it("switches to a project file created nearer the working directory", async () => {
    writeFileSync(path.join(project, "hooks.yaml"), yamlWith("outer"));
    const deep = path.join(project, "pkg", "src");
    mkdirSync(deep, { recursive: true });
    const w = start({ cwd: deep });
    await w.ready;
    expect(names(w.current)).toBe("outer");
    writeFileSync(path.join(project, "pkg", "hooks.yaml"), yamlWith("inner"));
    await waitFor(() => names(w.current) === "inner", { what: "the nearer project file" });
  });

  it("watches an explicit config path that is created later", async () => {
    const w = start({ configPath: path.join(project, "ci-hooks.yaml") });
    await w.ready;
    writeFileSync(path.join(project, "ci-hooks.yaml"), yamlWith("ci"));
    await waitFor(() => names(w.current) === "ci", { what: "the explicit file" });
  });
});

describe("watchConfig: symlinked config files", () => {
  it("picks up an edit of the file a symlinked config points to", async () => {
    const dotfiles = path.join(tmp, "dotfiles");
    mkdirSync(dotfiles);
    writeFileSync(path.join(dotfiles, "hooks.yaml"), yamlWith("linked"));
    symlinkSync(path.join(dotfiles, "hooks.yaml"), path.join(project, "hooks.yaml"));
    const w = start();
    await w.ready;
    expect(names(w.current)).toBe("linked");
    writeFileSync(path.join(dotfiles, "hooks.yaml"), yamlWith("linked", "edited"));
    await waitFor(() => names(w.current) === "linked,edited", { what: "the edit of the link target" });
    // An atomic-rename save in the target's directory replaces the inode chokidar followed.
    for (const round of ["one", "two"]) {
      writeFileSync(path.join(dotfiles, ".tmp"), yamlWith(round));
      renameSync(path.join(dotfiles, ".tmp"), path.join(dotfiles, "hooks.yaml"));
      await waitFor(() => names(w.current) === round, { what: `atomic save ${round} of the link target` });
    }
  });
});

describe("watchConfig: invalid edits", () => {
  it("keeps the last good config and reports the error, then recovers", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("good"));
    const w = start();
    await w.ready;
    writeFileSync(file, "hooks: [unclosed\n");
    await waitFor(() => errors.length > 0, { what: "the error" });
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect(w.error).toBe(errors[0]);
    expect(names(w.current)).toBe("good");
    writeFileSync(file, yamlWith("fixed"));
    await waitFor(() => names(w.current) === "fixed", { what: "the fix" });
    expect(w.error).toBeNull();
  });

  it("reload() rejects with the ConfigError and keeps the old config", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("good"));
    const w = start();
    await w.ready;
    writeFileSync(file, "hooks: [unclosed\n");
    await expect(w.reload()).rejects.toBeInstanceOf(ConfigError);
    expect(names(w.current)).toBe("good");
  });
});

describe("watchConfig: lifecycle", () => {
  it("close() releases every fs watcher and stops reloading", async () => {
    const count = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
    // Watchers of earlier tests are released asynchronously; each test file runs in its own worker.
    await waitFor(() => count() === 0, { what: "watchers of earlier tests to be released", timeoutMs: 5000 });
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("a"));
    const w = start();
    await w.ready;
    expect(count()).toBeGreaterThan(0);
    await w.close();
    watcher = undefined;
    await waitFor(() => count() === 0, { what: "watchers to be released", timeoutMs: 5000 });
    // A second watcher of the same file, still open, is the positive signal: once it has seen the
    // change (same debounce), the closed one would have reported it too if it were still live.
    const witnessReloads: ResolvedConfig[] = [];
    watcher = watchConfig({ cwd: project, env, debounceMs: 50, onReload: (c) => witnessReloads.push(c) });
    await watcher.ready;
    writeFileSync(file, yamlWith("b"));
    await waitFor(() => names(witnessReloads.at(-1) ?? null) === "b", { what: "the open watcher to see the change" });
    expect(reloads).toEqual([]);
    expect(names(w.current)).toBe("a");
  });

  it("debounces a burst of writes into few reloads", async () => {
    const file = path.join(project, "hooks.yaml");
    writeFileSync(file, yamlWith("a"));
    watcher = watchConfig({ cwd: project, env, debounceMs: 300, onReload: (c) => reloads.push(c) });
    await watcher.ready;
    for (let i = 0; i < 20; i++) writeFileSync(file, yamlWith(`n${i}`));
    await waitFor(() => names(watcher!.current) === "n19", { what: "the last write" });
    expect(reloads.length).toBeLessThan(5);
  });

  it("scopes the walk-up to the directories discovery would read", () => {
    writeFileSync(path.join(project, "hooks.yaml"), yamlWith("a"));
    const deep = path.join(project, "a", "b");
    mkdirSync(deep, { recursive: true });
    const scope = configWatchScope({ cwd: deep, env });
    expect([...scope.keys()]).toEqual([tmp, deep, path.join(project, "a"), project]);
    expect([...scope.get(project)!]).toEqual(["hooks.yaml", "hooks.yml", "hooks.json", "hooks.local.yaml", "hooks.local.yml", "hooks.local.json"]);
    expect([...scope.get(tmp)!]).toEqual(["xdg"]);
  });
});

describe("serialReloader", () => {
  it("runs one at a time and coalesces requests made during a run into one more", async () => {
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    const r = serialReloader(async () => {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(50);
      active--;
    });
    const first = r.request();
    const more = [r.request(), r.request(), r.request()];
    await Promise.all([first, ...more]);
    await r.idle();
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
  });
});
