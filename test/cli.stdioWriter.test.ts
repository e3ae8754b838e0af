import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI, cliEnv } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

// The CLI writes to a pipe or file with writeSync (src/cli/stdioWriter.ts), not Node's stream.

function manyHooks(n: number): string {
  const lines = ["version: 1", "hooks:", "  stop:"];
  for (let i = 0; i < n; i++) lines.push(`    - name: hook-${String(i).padStart(4, "0")}`, `      command: echo ${"x".repeat(60)} ${i}`);
  return `${lines.join("\n")}\n`;
}

function listThrough(cwd: string, env: Record<string, string>, wrap: string[], onChild: (c: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(wrap[0], [...wrap.slice(1), process.execPath, CLI, "--no-user-config", "list"], { cwd, env: cliEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    onChild(child);
  });
}

describe("CLI output through pipes", () => {
  // perl sets O_NONBLOCK on the pipe before exec.
  it.skipIf(!existsSync("/usr/bin/perl"))("a reader that reads slowly from a non-blocking pipe still gets every byte (EAGAIN is retried; needs /usr/bin/perl)", async () => {
    const t = sandbox();
    t.write("hooks.yaml", manyHooks(3000));
    const nonblocking = ["/usr/bin/perl", "-e", "use Fcntl; my $f = fcntl(STDOUT, F_GETFL, 0); fcntl(STDOUT, F_SETFL, $f | O_NONBLOCK) or die; exec @ARGV or die"];
    const r = await listThrough(t.dir, t.env, nonblocking, (c) => {
      // Let the pipe (64 KiB) fill up while nobody reads, so writes hit EAGAIN.
      c.stdout!.pause();
      setTimeout(() => c.stdout!.resume(), 400);
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(3001);
    expect(rows[3000]).toContain("hook-2999");
    expect(r.stdout.length).toBeGreaterThan(200_000);
  });

  it("a reader that goes away early ends the output quietly (EPIPE), exit 0", async () => {
    const t = sandbox();
    t.write("hooks.yaml", manyHooks(3000));
    const r = await listThrough(t.dir, t.env, ["/bin/sh", "-c", 'exec "$@" | head -n 2', "sh"], () => {});
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").slice(0, 2)[1]).toContain("hook-0000");
    expect(r.stderr).toBe("");
  });

  it("output redirected to a file is complete", async () => {
    const t = sandbox();
    t.write("hooks.yaml", manyHooks(500));
    const out = t.path("out.txt");
    const r = await listThrough(t.dir, t.env, ["/bin/sh", "-c", `exec "$@" > '${out}'`, "sh"], () => {});
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(501);
  });
});
