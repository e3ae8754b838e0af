import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asyncSessionDir } from "../src/async/asyncSessionDir.js";
import { sessionKey } from "../src/async/sessionKey.js";
import { newAsyncId, asyncFileName } from "../src/async/asyncFiles.js";
import { writeAsyncResult } from "../src/async/writeAsyncResult.js";
import { writeAsyncJob } from "../src/async/writeAsyncJob.js";
import { collectAsyncResults } from "../src/async/collectAsyncResults.js";
import { listAsyncPending } from "../src/async/listAsyncPending.js";
import type { AsyncDelivery } from "../src/runner/types.js";
import type { AsyncJob } from "../src/async/asyncJob.js";
import { ROOT } from "./helpers/cli.js";

let state: string;
beforeEach(() => {
  state = fs.mkdtempSync(path.join(os.tmpdir(), "hookrun-async-store-"));
});
afterEach(() => {
  fs.rmSync(state, { recursive: true, force: true });
});

function delivery(name: string, extra: Partial<AsyncDelivery> = {}): AsyncDelivery {
  const now = new Date().toISOString();
  return {
    name, status: "ok", exit_code: 0, signal: null, duration_ms: 5, stdout: `${name}\n`, stderr: "", truncated: false,
    messages: [{ role: "system", content: name }], decision: null, error: null, warnings: [],
    event: "stop", session_id: "s1", started_at: now, finished_at: now, ...extra,
  };
}

function job(id: string, extra: Partial<AsyncJob> = {}): AsyncJob {
  return {
    version: 1, id, name: "bg", event: "stop", gate: "yes", session_id: "s1", project_dir: "/p", started_at: new Date().toISOString(),
    timeout_ms: 60_000, worker_pid: null, hook_pid: null, cwd: "/p", run_log: null, context: { session_id: "s1" },
    hook: { name: "bg", event: "stop", command: "true", priority: 0, async: true, timeoutMs: 60_000, enabled: true, env: {}, dir: "/p", shell: "sh", onFailure: "continue", maxOutput: 1024, order: 0,
      source: { file: "/p/hooks.yaml", line: 1, col: 1, layer: "project" }, enabledSource: { file: "/p/hooks.yaml", line: 1, col: 1, layer: "project" }, sources: [] },
    ...extra,
  };
}

describe("async store layout", () => {
  it("keys results by project and by a filesystem-safe session name", () => {
    const dir = asyncSessionDir(state, "/repo", "../../etc/x y");
    expect(path.relative(state, dir).split(path.sep)).toHaveLength(3);
    expect(path.basename(dir)).toBe("%2E%2E%2F%2E%2E%2Fetc%2Fx%20y");
    expect(asyncSessionDir(state, "/repo", "a")).not.toBe(asyncSessionDir(state, "/other", "a"));
    expect(sessionKey("")).toBe("%");
    const long1 = sessionKey("x".repeat(300) + "1");
    const long2 = sessionKey("x".repeat(300) + "2");
    expect(long1.length).toBeLessThanOrEqual(80);
    expect(long1).not.toBe(long2);
  });
});

describe("async store delivery", () => {
  it("delivers a finished result once, oldest first, and removes it", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    writeAsyncResult(dir, newAsyncId(Date.now() - 1000), delivery("second", { started_at: "2026-01-01T00:00:02.000Z" }));
    writeAsyncResult(dir, newAsyncId(), delivery("first", { started_at: "2026-01-01T00:00:01.000Z" }));
    expect(listAsyncPending(dir).map((p) => [p.name, p.state])).toEqual(expect.arrayContaining([["first", "finished"], ["second", "finished"]]));
    const one = collectAsyncResults(dir);
    expect(one.delivered.map((d) => d.name)).toEqual(["first", "second"]);
    expect(one.warnings).toEqual([]);
    expect(collectAsyncResults(dir).delivered).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("lists a started run as running and does not deliver it while its worker lives", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const id = newAsyncId();
    // a stand-in worker: detached, so it leads its own process group like a real one
    const worker = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    try {
      writeAsyncJob(dir, job(id, { worker_pid: worker.pid! }));
      expect(listAsyncPending(dir).map((p) => p.state)).toEqual(["running"]);
      const got = collectAsyncResults(dir);
      expect(got.delivered).toEqual([]);
      expect(got.warnings).toEqual([]);
    } finally {
      worker.kill("SIGKILL");
    }
    writeAsyncResult(dir, id, delivery("bg"));
    expect(fs.existsSync(path.join(dir, asyncFileName(id, "started")))).toBe(false);
    expect(collectAsyncResults(dir).delivered.map((d) => d.name)).toEqual(["bg"]);
  });

  it("delivers a run whose worker died without a result as failed, once", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const dead = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
    const pid = Number(dead.stdout.trim());
    writeAsyncJob(dir, job(newAsyncId(), { worker_pid: pid }));
    const got = collectAsyncResults(dir);
    expect(got.delivered).toHaveLength(1);
    expect(got.delivered[0]).toMatchObject({ name: "bg", status: "failed" });
    expect(got.delivered[0].error).toMatch(/exited without writing a result/);
    expect(collectAsyncResults(dir).delivered).toEqual([]);
  });
});

describe("async store: corrupt and half-written files", () => {
  it("reports a half-written result, moves it aside, and still delivers the others", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    writeAsyncResult(dir, newAsyncId(), delivery("good"));
    const bad = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.writeFileSync(bad, '{"name":"half","status":"o');
    const wrongShape = path.join(dir, asyncFileName(newAsyncId(), "result"));
    fs.writeFileSync(wrongShape, '{"name": 3}');
    const got = collectAsyncResults(dir);
    expect(got.delivered.map((d) => d.name)).toEqual(["good"]);
    expect(got.warnings).toHaveLength(2);
    expect(got.warnings.join("\n")).toMatch(/is corrupt \(.*\); moved it aside/);
    expect(fs.existsSync(bad)).toBe(false);
    expect(fs.readdirSync(dir).filter((n) => n.includes(".corrupt."))).toHaveLength(2);
    // reported once, not on every later trigger
    expect(collectAsyncResults(dir).warnings).toEqual([]);
  });

  it("reports a corrupt started record", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, asyncFileName(newAsyncId(), "started")), "{");
    const got = collectAsyncResults(dir);
    expect(got.delivered).toEqual([]);
    expect(got.warnings.join("\n")).toMatch(/async run record .* is corrupt/);
  });
});

describe("async store expiry", () => {
  it("deletes a result older than 24 h without delivering it, and says so", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const old = new Date(Date.now() - 25 * 3600_000);
    const file = writeAsyncResult(dir, newAsyncId(old.getTime()), delivery("stale", { started_at: old.toISOString(), finished_at: old.toISOString() }));
    fs.utimesSync(file, old, old);
    writeAsyncResult(dir, newAsyncId(), delivery("fresh"));
    const got = collectAsyncResults(dir);
    expect(got.delivered.map((d) => d.name)).toEqual(["fresh"]);
    expect(got.expired.map((e) => e.name)).toEqual(["stale"]);
    expect(got.warnings.join("\n")).toMatch(/"stale".*expired/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("expires a run started more than 24 h ago whose worker never reported back", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    writeAsyncJob(dir, job(newAsyncId(), { started_at: old, worker_pid: null }));
    const got = collectAsyncResults(dir);
    expect(got.delivered).toEqual([]);
    expect(got.expired.map((e) => e.name)).toEqual(["bg"]);
    expect(got.warnings.join("\n")).toMatch(/"bg".*expired/);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("expires by file age even when finished_at claims to be recent", () => {
    const dir = asyncSessionDir(state, "/repo", "s1");
    const old = new Date(Date.now() - 25 * 3600_000);
    const file = writeAsyncResult(dir, newAsyncId(), delivery("stale"));
    fs.utimesSync(file, old, old);
    expect(collectAsyncResults(dir).expired.map((e) => e.name)).toEqual(["stale"]);
  });
});

describe("async store: exactly-once delivery across concurrent processes", () => {
  it("four processes racing over 300 results deliver each exactly once", async () => {
    const total = 300;
    const ids: string[] = [];
    for (let i = 0; i < total; i++) {
      // one session per result, so every claim is contended by all four processes
      const dir = asyncSessionDir(state, "/repo", `s${i}`);
      writeAsyncResult(dir, newAsyncId(), delivery(`h${i}`, { session_id: `s${i}` }));
      ids.push(`h${i}`);
    }
    const script = `
      const { collectAsyncResults } = await import(${JSON.stringify(path.join(ROOT, "dist/async/collectAsyncResults.js"))});
      const { asyncSessionDir } = await import(${JSON.stringify(path.join(ROOT, "dist/async/asyncSessionDir.js"))});
      const got = [];
      const warnings = [];
      for (let i = 0; i < ${total}; i++) {
        const r = collectAsyncResults(asyncSessionDir(${JSON.stringify(state)}, "/repo", "s" + i));
        got.push(...r.delivered.map((d) => d.name));
        warnings.push(...r.warnings);
      }
      process.stdout.write(JSON.stringify({ got, warnings }));`;
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        new Promise<{ got: string[]; warnings: string[] }>((resolve, reject) => {
          const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
          let out = "";
          child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
          child.on("error", reject);
          child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`collector exited ${code}`))));
        }),
      ),
    );
    const all = runs.flatMap((r) => r.got);
    expect(runs.flatMap((r) => r.warnings)).toEqual([]);
    expect(all.length).toBe(total);
    expect(new Set(all).size).toBe(total);
    expect(all.sort()).toEqual(ids.sort());
    expect(fs.readdirSync(path.join(state, "async")).length).toBeLessThanOrEqual(1);
  });
});
