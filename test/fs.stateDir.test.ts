import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ensureStateDir, StateDirError } from "../src/fs/stateDir.js";
import { appendRunLog, runLogFile, type RunLogRecord, readRunLog } from "../src/runner/runLog.js";
import { runAsyncWorker } from "../src/async/worker.js";
import { HookrunError } from "../src/errors.js";
import { runCli, runMain } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

const sb = useSandbox({ prefix: "hookrun-state-" });
let root: string;
beforeEach(() => {
  root = sb.current.root;
});

const mode = (p: string): number => fs.statSync(p).mode & 0o777;
const record = (extra: Partial<RunLogRecord> = {}): RunLogRecord => ({
  time: "2026-01-01T00:00:00.000Z",
  project_dir: "/p",
  event: "stop",
  session_id: "s",
  duration_ms: 1,
  blocked: false,
  hooks: [{ name: "h", status: "ok", exit_code: 0, duration_ms: 1 }],
  ...extra,
});

describe("state dir: private to its user", () => {
  it("is created 0700 and the run log 0600, whatever the umask", () => {
    const dir = path.join(root, "a", "hookrun");
    const old = process.umask(0o022);
    try {
      appendRunLog(dir, record());
    } finally {
      process.umask(old);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(runLogFile(dir))).toBe(0o600);
  });

  it("tightens a 0755 dir and a 0644 log left by an older hookrun", () => {
    const dir = path.join(root, "old");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(runLogFile(dir), `${JSON.stringify(record())}\n`);
    fs.chmodSync(runLogFile(dir), 0o644);
    appendRunLog(dir, record());
    expect(mode(dir)).toBe(0o700);
    expect(mode(runLogFile(dir))).toBe(0o600);
    expect(readRunLog(dir).records).toHaveLength(2);
  });

  it.each(["775", "757", "777"])("refuses a dir writable by others (mode %s), naming it and the fix", (octal) => {
    const m = parseInt(octal, 8);
    const dir = path.join(root, "shared");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, m);
    expect(() => ensureStateDir(dir)).toThrow(StateDirError);
    expect(() => appendRunLog(dir, record())).toThrow(`run \`chmod 700 ${dir}\``);
    expect(() => readRunLog(dir)).toThrow(HookrunError);
    expect(mode(dir)).toBe(m); // not "fixed" behind the user's back
    expect(fs.existsSync(runLogFile(dir))).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)("refuses a dir owned by another user (as root: a job there would run as root)", () => {
    const dir = path.join(root, "theirs");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 4242, 4242);
    expect(() => ensureStateDir(dir)).toThrow(/belongs to uid 4242, not to you \(uid 0\).*HOOKS_STATE_DIR/);
  });

  it("a worker runs nothing from a job file others could have written", async () => {
    const dir = path.join(root, "state", "async", "p", "s");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const job = path.join(dir, "0-0.started.json");
    fs.writeFileSync(job, "{}", { mode: 0o600 });
    fs.chmodSync(path.join(root, "state", "async"), 0o777);
    let ran = false;
    const run = runAsyncWorker(
      job,
      async () => {
        ran = true;
        throw new Error("must not run");
      },
      new AbortController().signal,
    );
    await expect(run).rejects.toThrow(/directory .*async in the state dir is writable by group or others \(mode 777\)/);
    fs.chmodSync(path.join(root, "state", "async"), 0o700);
    fs.chmodSync(job, 0o666);
    await expect(
      runAsyncWorker(
        job,
        async () => {
          ran = true;
          throw new Error("must not run");
        },
        new AbortController().signal,
      ),
    ).rejects.toThrow(/async job file .* is writable by group or others.*chmod 600/);
    expect(ran).toBe(false);
  });
});

describe("run log: hostile lines and size", () => {
  it("skips and counts malformed lines instead of failing", () => {
    const dir = path.join(root, "log");
    appendRunLog(dir, record({ session_id: "first" }));
    fs.appendFileSync(runLogFile(dir), '{}\n[1]\n{"time":3}\nnot json\n{"cut":\n');
    appendRunLog(dir, record({ session_id: "second", hooks: [{ name: "x", status: "ok", exit_code: null, duration_ms: 2 }] }));
    const log = readRunLog(dir);
    expect(log.records.map((r) => r.session_id)).toEqual(["first", "second"]);
    expect(log.skipped).toBe(5);
  });

  it("reads only a bounded tail of a huge log", () => {
    const dir = path.join(root, "big");
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(runLogFile(dir), "");
    fs.truncateSync(runLogFile(dir), 300 * 1024 * 1024); // sparse NULs, no newline: one giant "line"
    fs.appendFileSync(runLogFile(dir), `\n${JSON.stringify(record({ session_id: "tail" }))}\n`);
    const log = readRunLog(dir);
    expect(log.records.map((r) => r.session_id)).toEqual(["tail"]);
  });

  it("`hooks log` prints the good lines of a log holding `{}` and says how many it skipped", async () => {
    const dir = path.join(root, "cli");
    appendRunLog(dir, record({ session_id: "good" }));
    fs.appendFileSync(runLogFile(dir), "{}\n");
    const r = await runMain(["log", "--all-projects"], { env: { ...sb.current.env, HOOKS_STATE_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/session good/);
    expect(r.stderr).toMatch(/skipped 1 malformed line in .*runs\.jsonl/);
  });

  it("`hooks log` and `hooks run` refuse a group-writable state dir with the fix", async () => {
    const dir = path.join(root, "open");
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    const log = await runCli(["log"], { env: { ...sb.current.env, HOOKS_STATE_DIR: dir } });
    expect(log.code).toBe(1);
    expect(log.stderr).toContain(`state dir ${dir} is writable by group or others (mode 777)`);
    expect(log.stderr).toContain(`chmod 700 ${dir}`);
    const project = sb.current.dir;
    fs.writeFileSync(path.join(project, "hooks.yaml"), 'hooks:\n  stop:\n    - { name: bg, async: true, command: "touch ran" }\n');
    const run = await runCli(["--trust", "run", "stop", "--session-id", "x", "--json"], { cwd: project, env: { ...sb.current.env, HOOKS_STATE_DIR: dir, XDG_CONFIG_HOME: path.join(root, "cfg") } });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { async_started: string[]; warnings: string[] };
    expect(json.async_started).toEqual([]);
    expect(json.warnings.join("\n")).toMatch(/async hook bg was not started: state dir .* is writable by group or others.*chmod 700/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
