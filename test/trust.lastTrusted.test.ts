import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/loadConfig.js";
import { HOSTS } from "../src/hosts/adapters.js";
import { runHostEvent } from "../src/hosts/runHostEvent.js";
import { createRunner } from "../src/runner/createRunner.js";
import { loadLastTrusted } from "../src/trust/lastTrusted.js";
import { runCli } from "./helpers/cli.js";
import { type Sandbox, sandbox } from "./helpers/sandbox.js";

/**
 * The last trusted version keeps guarding (docs/trust.md#the-last-trusted-version-keeps-guarding):
 * what `hooks trust` keeps, where, for how long, and that an edit, a broken file or a changed
 * state dir never turns a trusted guard off in silence.
 */

const GUARD = ["hooks:", "  pre_tool_use:", "    - name: guard", `      command: 'echo "no shell here" >&2; exit 2'`, ""].join("\n");
const OPEN = ["hooks:", "  pre_tool_use:", "    - name: guard", "      command: 'exit 0'", ""].join("\n");
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const versions = (p: Sandbox) => {
  const dir = path.join(p.env.HOOKS_STATE_DIR as string, "trusted");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
const CALL = JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
const claude = (p: Sandbox, extra: string[] = []) => runCli(["run", "PreToolUse", "--host", "claude", ...extra], { cwd: p.dir, env: p.env, input: CALL });
const denied = (stdout: string) => JSON.parse(stdout || "{}").hookSpecificOutput?.permissionDecision === "deny";

describe("what hooks trust keeps", () => {
  it("the trusted bytes under their sha256, mode 0600; a new trust replaces them, untrust removes them", async () => {
    const p = sandbox({ config: GUARD });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(versions(p)).toEqual([sha(GUARD)]);
    const kept = path.join(p.env.HOOKS_STATE_DIR as string, "trusted", sha(GUARD));
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    writeFileSync(p.path("hooks.yaml"), OPEN);
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(versions(p)).toEqual([sha(OPEN)]);
    expect((await runCli(["untrust"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect(versions(p)).toEqual([]);
  });

  it("hooks disable keeps the edited text as the trusted version (it re-records trust)", async () => {
    const p = sandbox({ config: `${GUARD}    - name: other\n      command: 'true'\n` });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    expect((await runCli(["disable", "other"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const now = readFileSync(p.path("hooks.yaml"), "utf8");
    expect(now).toMatch(/enabled: false/);
    expect(versions(p)).toEqual([sha(now)]);
  });
});

describe("an agent's event while the trusted file is changed or broken", () => {
  it("runs the trusted version (the guard still blocks) and tells the user; hooks trust takes the change", async () => {
    const p = sandbox({ config: GUARD });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    writeFileSync(p.path("hooks.yaml"), OPEN);
    const r = await claude(p);
    expect(denied(r.stdout), r.stdout).toBe(true);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason).toBe("no shell here");
    expect(JSON.parse(r.stdout).systemMessage).toMatch(/changed since it was trusted: its last trusted version is running instead.*hooks -C .* trust$/);
    // A person reviews what changed since the trusted version, and trusts it: it runs.
    const review = await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env });
    expect(review.code).toBe(0);
    expect(review.stdout).toContain(
      [
        "  changed since you last trusted it (line 4; an agent's events run the trusted version until you trust this one):",
        `  -       command: 'echo "no shell here" >&2; exit 2'`,
        "  +       command: 'exit 0'",
      ].join("\n"),
    );
    const after = await claude(p);
    expect(denied(after.stdout), after.stdout).toBe(false);
    expect(after.stdout).not.toMatch(/last trusted version/);
  });

  it("a trusted version whose bytes were changed in the state dir is not used: the not-run answer, or a block where the guard fails closed", async () => {
    const p = sandbox({ config: `${GUARD}      on_failure: block\n` });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const [name] = versions(p);
    writeFileSync(path.join(p.env.HOOKS_STATE_DIR as string, "trusted", name), OPEN);
    writeFileSync(p.path("hooks.yaml"), `${OPEN}# edited\n`);
    const open = await claude(p);
    expect(denied(open.stdout), open.stdout).toBe(false);
    expect(JSON.parse(open.stdout).systemMessage).toMatch(/not trusted/);
    writeFileSync(p.path("hooks.yaml"), `${OPEN}      on_failure: block\n`);
    const closed = await claude(p);
    expect(denied(closed.stdout), closed.stdout).toBe(true);
    expect(JSON.parse(closed.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/fail closed.*is not trusted/);
  });

  it("hooks run without a host (a terminal, CI) sees the file as it is", async () => {
    const p = sandbox({ config: GUARD });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    writeFileSync(p.path("hooks.yaml"), OPEN);
    const r = await runCli(["run", "pre_tool_use"], { cwd: p.dir, env: p.env, input: CALL });
    expect(r.code).toBe(77);
  });

  it("the library: runHostEvent hands the last trusted version to the caller's loader, as overrides", async () => {
    const p = sandbox({ config: GUARD });
    expect((await runCli(["trust", "--yes"], { cwd: p.dir, env: p.env })).code).toBe(0);
    writeFileSync(p.path("hooks.yaml"), "hooks: [\n");
    const seen: (Record<string, string> | undefined)[] = [];
    const load = (overrides?: Record<string, string>) => {
      seen.push(overrides);
      return loadConfig({ cwd: p.dir, env: p.env, userConfig: false, overrides });
    };
    const { kept } = await loadLastTrusted(load, { env: p.env });
    expect(kept).toEqual([{ file: p.path("hooks.yaml"), why: "invalid", problem: expect.stringMatching(/hooks\.yaml:\d+:\d+: /) }]);
    expect(seen).toEqual([undefined, { [p.path("hooks.yaml")]: GUARD }]);
    const host = HOSTS.find((h) => h.name === "claude")!;
    const runners: ReturnType<typeof createRunner>[] = [];
    const outcome = await runHostEvent({
      host,
      event: "PreToolUse",
      payload: JSON.parse(CALL),
      env: p.env,
      cwd: p.dir,
      config: load,
      runner: (config) => {
        const r = createRunner(config, { env: p.env, cwd: p.dir, runLog: false });
        runners.push(r);
        return r;
      },
      trustCommand: () => "hooks trust",
    });
    for (const r of runners) await r.close();
    expect(outcome.kind).toBe("ran");
    expect(outcome.kind === "ran" && outcome.result.blocked).toBe(true);
    expect(outcome.kind === "ran" && outcome.result.messages[0]).toMatchObject({ kind: "notice", content: expect.stringMatching(/no longer loads/) });
  });
});
