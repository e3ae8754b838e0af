import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

// A cold `hooks validate` loads only the Node built-ins it uses (the start-up budget of
// docs/performance.md): node:child_process (with net and stream) is loaded at the first hook
// spawn and node:crypto at the first hash or token, not because a module on validate's path
// imports them. A preload records the built-ins the CLI process loaded, at its exit.
const PRELOAD = `process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADS_OUT, JSON.stringify(process.moduleLoadList)));\n`;

async function builtinsLoaded(args: string[], setup?: (t: ReturnType<typeof sandbox>) => Promise<void>): Promise<string[]> {
  const t = sandbox();
  t.write("hooks.yaml", "hooks:\n  pre_tool_use:\n    - name: guard\n      command: ./guard.sh\n      matcher: Bash\n  stop:\n    - name: done\n      command: echo done\n      timeout: 30s\n");
  t.write("guard.sh", "#!/bin/sh\nexit 0\n");
  await setup?.(t);
  const preload = t.write("preload.cjs", PRELOAD);
  const out = t.path("loads.json");
  const r = await runCli(args, { cwd: t.dir, env: { ...t.env, NODE_OPTIONS: `--require ${preload}`, LOADS_OUT: out } });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(readFileSync(out, "utf8")) as string[]).filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice("NativeModule ".length));
}

describe("built-ins a cold `hooks validate` loads", () => {
  it("neither child_process nor crypto, with no host installed and with hookrun's entries installed for Claude Code", async () => {
    const bare = await builtinsLoaded(["validate"]);
    expect(bare).not.toContain("child_process");
    expect(bare).not.toContain("crypto");
    // The staleness check then reads .claude/settings.json and computes the wanted entries.
    const installed = await builtinsLoaded(["validate"], async (t) => {
      const r = await runCli(["install", "claude"], { cwd: t.dir, env: t.env });
      expect(r.code, r.stderr).toBe(0);
    });
    expect(installed).not.toContain("child_process");
    expect(installed).not.toContain("crypto");
  });

  it("the preload sees what it should: a run that spawns a hook does load child_process", async () => {
    const run = await builtinsLoaded(["--trust", "run", "stop"]);
    expect(run).toContain("child_process");
  });
});
