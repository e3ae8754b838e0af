import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnCli, type CliProcess } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

const sb = useSandbox({ prefix: "hookrun-watchcli-" });
let repo: string;
let proc: CliProcess | undefined;

const yamlWith = (...names: string[]) => `hooks:\n  stop:\n${names.map((n) => `    - name: ${n}\n      command: "true"\n`).join("")}`;

beforeEach(() => {
  repo = sb.current.path("repo");
  mkdirSync(repo);
});

// Runs before the sandbox's own afterEach removes the tree (after-hooks run in reverse order).
afterEach(async () => {
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
  await proc?.exited;
  proc = undefined;
});

function watchCli(args: string[] = []): CliProcess {
  proc = spawnCli(["watch", ...args], { cwd: repo, env: sb.current.env });
  return proc;
}

describe("hooks watch", () => {
  it("prints the state after every change and exits 0 on SIGINT", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), yamlWith("a"));
    const p = watchCli();
    await waitFor(() => p.stdout().includes("valid: 1 hook in hooks.yaml"), { what: "the first report" });
    await waitFor(() => p.stderr().includes("watching"), { what: "the watcher" });
    writeFileSync(path.join(repo, "hooks.yaml"), "hooks: [unclosed\n");
    await waitFor(() => /invalid: /.test(p.stdout()), { what: "the invalid report" });
    expect(p.stdout()).toMatch(/^hooks\.yaml:\d+:\d+: error: /m);
    writeFileSync(path.join(repo, "hooks.yaml"), yamlWith("a", "b"));
    await waitFor(() => p.stdout().includes("valid: 2 hooks in hooks.yaml"), { what: "the fixed report" });
    p.child.kill("SIGINT");
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it("--json prints one object per check and exits 0 on SIGTERM", async () => {
    const p = watchCli(["--json"]);
    await waitFor(() => p.stdout().includes("\n"), { what: "the first report" });
    expect(JSON.parse(p.stdout().split("\n")[0])).toMatchObject({ valid: true, hooks: 0, files: [] });
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(path.join(repo, "hooks.yaml"), yamlWith("a"));
    await waitFor(() => p.stdout().split("\n").filter(Boolean).length >= 2, { what: "the second report" });
    expect(JSON.parse(p.stdout().split("\n")[1])).toEqual({
      valid: true,
      message: "valid: 1 hook in hooks.yaml",
      hooks: 1,
      files: [{ path: "hooks.yaml", layer: "project" }],
      errors: [],
      warnings: [],
    });
    p.child.kill("SIGTERM");
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });
});
