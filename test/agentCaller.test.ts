import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_MARKERS, agentAncestor, agentCaller } from "../src/cli/agentCaller.js";
import { CLI, cliEnv, runCli } from "./helpers/cli.js";
import { type Sandbox, sandbox } from "./helpers/sandbox.js";

/**
 * The agent cannot switch off its own guards (docs/trust.md#an-agent-cannot-switch-off-its-guards):
 * every command that changes which hooks run, run as an agent's tool call runs it (no terminal, the
 * agent's variables), changes nothing and exits 77 saying what to do; a person in a terminal, or
 * one who types --person, goes on.
 */

const GUARD = ["hooks:", "  pre_tool_use:", "    - name: guard", "      command: 'exit 2'", ""].join("\n");
const trustFile = (p: Sandbox) => path.join(p.env.HOOKS_STATE_DIR as string, "trust.json");
const snapshot = (p: Sandbox) => ({
  config: readFileSync(p.path("hooks.yaml"), "utf8"),
  trust: existsSync(trustFile(p)) ? readFileSync(trustFile(p), "utf8") : null,
  claude: existsSync(p.path(".claude/settings.json")) ? readFileSync(p.path(".claude/settings.json"), "utf8") : null,
});

// Each command that changes what runs, set up so that it would change something.
const COMMANDS: { args: string[]; before?: (p: Sandbox) => Promise<void> }[] = [
  { args: ["trust", "--yes"] },
  { args: ["untrust"], before: async (p) => void (await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })) },
  { args: ["disable", "guard"], before: async (p) => void (await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })) },
  { args: ["enable", "guard"], before: async (p) => writeFileSync(p.path("hooks.yaml"), GUARD.replace("      command", "      enabled: false\n      command")) },
  { args: ["init", "--force"] },
  { args: ["install", "claude"] },
  { args: ["uninstall", "claude"], before: async (p) => void (await runCli(["install", "claude"], { cwd: p.dir, env: p.env })) },
];

describe("an agent's tool call cannot change which hooks run", () => {
  for (const { args, before } of COMMANDS) {
    it(`hooks ${args.join(" ")}: refused (exit 77, nothing changed) under each agent's variables; --person goes on`, async () => {
      for (const marker of AGENT_MARKERS) {
        const p = sandbox({ config: GUARD });
        await before?.(p);
        const was = snapshot(p);
        const env = { ...p.env, [marker.variable]: marker.value ?? "1" };
        const r = await runCli(args, { cwd: p.dir, env });
        expect(r.code, `${marker.variable}: ${r.stderr}`).toBe(77);
        expect(r.stderr).toContain(`looks like ${marker.agent}'s tool call`);
        expect(r.stderr).toMatch(/Ask the user to run `hooks \w+` themselves, in a terminal of their own \(not one the agent started\)/);
        expect(snapshot(p), marker.variable).toEqual(was);
      }
      const p = sandbox({ config: GUARD });
      await before?.(p);
      const was = snapshot(p);
      const r = await runCli([...args, "--person"], { cwd: p.dir, env: { ...p.env, CLAUDECODE: "1" } });
      expect(r.code, r.stderr).toBe(0);
      expect(snapshot(p)).not.toEqual(was);
    });
  }

  it("what changes nothing still runs under an agent: install --dry-run and --check, uninstall --dry-run, init without --force, run, validate", async () => {
    const p = sandbox({ config: GUARD });
    const env = { ...p.env, CLAUDECODE: "1" };
    for (const args of [["install", "claude", "--dry-run"], ["uninstall", "--dry-run"], ["validate"], ["list"]]) expect((await runCli(args, { cwd: p.dir, env })).code, args.join(" ")).toBe(0);
    expect((await runCli(["install", "claude", "--check"], { cwd: p.dir, env })).code).toBe(1); // missing: exit 1, as ever
    const fresh = sandbox();
    expect((await runCli(["init"], { cwd: fresh.dir, env: { ...fresh.env, CLAUDECODE: "1" } })).code).toBe(0);
  });

  /** `hooks trust` in a real terminal (python's pty), answering y at the prompt when it comes. */
  async function trustInTerminal(p: Sandbox, extra: Record<string, string>): Promise<{ code: number | null; out: string }> {
    const child = spawn("python3", ["-c", "import pty, sys; sys.exit(pty.spawn(sys.argv[1:]) >> 8)", process.execPath, CLI, "trust"], { cwd: p.dir, env: cliEnv({ ...p.env, ...extra }) });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (/\[y\/N\]/.test(out)) child.stdin.write("y\n");
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    return { code, out };
  }

  it("a person in a terminal of their own goes on; a terminal with an agent's variables is no proof (Codex, Gemini and Qwen run calls in a pty)", async () => {
    const p = sandbox({ config: GUARD });
    const agent = await trustInTerminal(p, { CODEX_THREAD_ID: "t1" });
    expect(agent.code, agent.out).toBe(77);
    expect(agent.out).toMatch(/looks like Codex's tool call/);
    expect(existsSync(trustFile(p))).toBe(false);
    const person = await trustInTerminal(p, {});
    expect(person.code, person.out).toBe(0);
    expect(person.out).toMatch(/trusted hooks\.yaml/);
    expect(existsSync(trustFile(p))).toBe(true);
  });
});

describe("telling an agent's tool call", () => {
  it("by each agent's variable (an empty one, or another value where the agent sets one, is not a marker)", () => {
    for (const m of AGENT_MARKERS) expect(agentCaller({ [m.variable]: m.value ?? "x" }, 1), m.variable).toBe(m.agent);
    expect(agentCaller({ CLAUDECODE: "" }, 1)).toBeNull();
    expect(agentCaller({ CLAUDECODE: "0" }, 1)).toBeNull();
    expect(agentCaller({}, 1)).toBeNull();
  });

  it("by an agent's process among the ancestors, with its variables unset (`env -u`)", () => {
    // A program named as Claude Code's binary runs a shell tool call: the call asks from below it.
    const dir = sandbox().dir;
    const probe = `"${process.execPath}" -e 'import("${path.resolve("dist/cli/agentCaller.js")}").then((m) => console.log(m.agentCaller({}, process.ppid)))'`;
    for (const [name, expected] of [
      ["claude", "Claude Code"],
      ["codex", "Codex"],
      ["gemini", "Gemini CLI"],
      ["claude-notes", "null"],
    ]) {
      const program = path.join(dir, name);
      writeFileSync(program, `#!/bin/sh\n/bin/sh -c '${probe.replaceAll("'", "'\\''")}'\n`, { mode: 0o755 });
      const r = spawnSync("/bin/sh", ["-c", `env -u CLAUDECODE "${program}"`], { encoding: "utf8", env: cliEnv({}) });
      expect(r.stdout.trim(), `${name}: ${r.stderr}`).toBe(expected);
    }
    expect(agentAncestor(process.pid)).toBeNull();
  });
});
