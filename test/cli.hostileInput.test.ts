import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli, runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// What a caller passes on the command line or stdin is hostile input (docs/limits.md,
// docs/trust.md#terminal-safety).
const sb = useSandbox({ prefix: "hookrun-cli-hostile-" });
let env: Record<string, string>;
let repo: string;
beforeEach(() => {
  env = sb.current.env;
  repo = sb.current.path("repo");
  mkdirSync(repo);
  writeFileSync(path.join(repo, "hooks.yaml"), `hooks:\n  stop:\n    - {name: cap, command: "cat > ctx.json; echo '{}'"}\n`);
});

const run = (args: string[], input = "") => runMain(["--trust", ...args], { cwd: repo, env, input });

describe("--set cannot reach Object.prototype (docs/limits.md)", () => {
  for (const key of ["__proto__.decision", "a.__proto__.decision", "constructor.prototype.decision", "tool_input.prototype", "a..b"]) {
    it(`refuses --set ${key}=block with exit 64, running nothing`, async () => {
      const r = await run(["run", "stop", "--set", `${key}=block`]);
      expect(r.code).toBe(64);
      expect(r.stderr).toContain("cannot be a context key");
      expect(() => readFileSync(path.join(repo, "ctx.json"))).toThrow();
    });
  }

  it("a context field named __proto__ reaches the hook as a field, and a hook's own __proto__ stays data", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), `hooks:\n  stop:\n    - {name: cap, command: "cat > ctx.json; echo '{\\"__proto__\\": {\\"decision\\": \\"block\\"}, \\"x\\": 1}'"}\n`);
    const r = await run(["run", "stop", "--json"], `{"__proto__": {"decision": "block"}, "note": "n"}`);
    expect(r.code).toBe(0);
    const ctx = JSON.parse(readFileSync(path.join(repo, "ctx.json"), "utf8"));
    expect(Object.hasOwn(ctx, "__proto__")).toBe(true);
    expect(ctx.__proto__).toEqual({ decision: "block" });
    const result = JSON.parse(r.stdout);
    expect(result.blocked).toBe(false);
    expect(result.hooks[0].status).toBe("ok");
    expect(Object.hasOwn(result.hooks[0].json, "__proto__")).toBe(true);
    expect(result.hooks[0].json).toMatchObject({ x: 1 });
  });
});

describe("bad places to read from (docs/limits.md)", () => {
  it("-C naming a missing directory is a usage error (64), not a quiet run of nothing", async () => {
    const r = await run(["-C", "no/such/dir", "run", "stop"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("is not a directory");
    const file = await run(["-C", "hooks.yaml", "run", "stop"]);
    expect(file.code).toBe(64);
  });

  it("a directory on stdin is bad context input (65)", () => {
    const fd = openSync(repo, "r");
    try {
      const r = spawnSync(process.execPath, [CLI, "--trust", "run", "stop"], { cwd: repo, env: cliEnv(env), stdio: [fd, "pipe", "pipe"], encoding: "utf8", timeout: 20_000 });
      expect(r.status).toBe(65);
      expect(r.stderr).toContain("stdin is a directory");
    } finally {
      closeSync(fd);
    }
  });

  it("a context over 10 MiB, on stdin or in --context, is refused with 65 instead of read whole", async () => {
    const big = `{"pad":"${"x".repeat(10 * 1024 * 1024 + 16)}"}`;
    // stdin through the built CLI: it reads its descriptor directly (readFdText)
    const r = await runCli(["--trust", "run", "stop"], { cwd: repo, env, input: big });
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("byte limit");
    writeFileSync(path.join(repo, "big.json"), big);
    const f = await run(["run", "stop", "--context", "big.json"]);
    expect(f.code).toBe(65);
    expect(f.stderr).toContain("byte limit");
  });

  it("--context reads a pipe (process substitution names one)", () => {
    const r = spawnSync("bash", ["-c", `node ${JSON.stringify(CLI)} --trust run stop --context <(echo '{"turn_count": 7}')`], { cwd: repo, env: cliEnv(env), encoding: "utf8", timeout: 20_000 });
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(path.join(repo, "ctx.json"), "utf8")).turn_count).toBe(7);
  });
});

describe("text bound for a terminal never carries raw control characters (docs/trust.md#terminal-safety)", () => {
  const ESC = "\u001b";
  const clean = (s: string) => expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);

  it("hooks list escapes a command's escape sequences", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), `hooks:\n  stop:\n    - {name: cap, command: "touch /tmp/x #\\r\\e[2K  looks innocent"}\n`);
    const r = await run(["list"]);
    expect(r.code).toBe(0);
    clean(r.stdout);
    expect(r.stdout).toContain("⟨CR⟩⟨ESC⟩[2K");
  });

  it("diagnostics and error sentences quote hostile names escaped", async () => {
    writeFileSync(path.join(repo, "hooks.yaml"), `hooks:\n  stop:\n    - {name: cap, command: "true", "bad\\e[2Jkey": 1}\n`);
    const v = await run(["validate"]);
    expect(v.code).toBe(78);
    clean(v.stderr);
    expect(v.stderr).toContain("⟨ESC⟩[2J");
    writeFileSync(path.join(repo, "hooks.yaml"), `hooks:\n  stop:\n    - {name: cap, command: "true"}\n`);
    const d = await run(["disable", `nope${ESC}]52;c;ZXZpbA==${ESC}\\`]);
    expect(d.code).toBe(1);
    clean(d.stderr);
    expect(d.stderr).toContain("⟨ESC⟩]52");
  });

  it("hooks log shows a hostile session id escaped", async () => {
    const r = await run(["run", "stop", "--session-id", `s${ESC}[2J`]);
    expect(r.code).toBe(0);
    clean(r.stdout);
    const log = await run(["log"]);
    expect(log.code).toBe(0);
    clean(log.stdout);
    expect(log.stdout).toContain("s⟨ESC⟩[2J");
  });
});

describe("the trust store is only believed in a private state dir (docs/trust.md#the-state-dir-is-private)", () => {
  it("a state dir others can write is refused before trust.json is read", async () => {
    const { chmodSync, mkdirSync: mk } = await import("node:fs");
    const { createHash } = await import("node:crypto");
    const state = env.HOOKS_STATE_DIR;
    mk(state, { recursive: true, mode: 0o700 });
    const text = readFileSync(path.join(repo, "hooks.yaml"), "utf8");
    // What another user who can write the dir would plant: a store that trusts their config.
    writeFileSync(path.join(state, "trust.json"), JSON.stringify({ version: 1, files: { [path.join(repo, "hooks.yaml")]: createHash("sha256").update(text).digest("hex") } }));
    const ok = await runMain(["run", "stop"], { cwd: repo, env });
    expect(ok.code).toBe(0);
    const { rmSync } = await import("node:fs");
    rmSync(path.join(repo, "ctx.json"));
    chmodSync(state, 0o777);
    // A new process: the state dir is checked once per process (src/state/stateDir.ts `verified`).
    const r = await runCli(["run", "stop"], { cwd: repo, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`chmod 700 ${state}`);
    expect(() => readFileSync(path.join(repo, "ctx.json"))).toThrow(); // the hook did not run
  });

  it("a trust.json with malformed entries is no crash: nothing is trusted (77)", async () => {
    const { mkdirSync: mk } = await import("node:fs");
    const state = env.HOOKS_STATE_DIR;
    mk(state, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(state, "trust.json"), JSON.stringify({ version: 1, files: { [path.join(repo, "hooks.yaml")]: { toString: "x" } } }));
    const r = await runMain(["run", "stop"], { cwd: repo, env });
    expect(r.code).toBe(77);
  });
});
