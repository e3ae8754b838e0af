import { spawn } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { spawnHook, type SpawnRequest } from "../src/runner/spawnHook.js";

// Busy-waits: stands for a loop stalled by synchronous work (many spawns on a loaded machine).
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

function request(command: string): SpawnRequest {
  return { file: "sh", args: ["-c", command], viaShell: true, cwd: os.tmpdir(), env: process.env, input: "", timeoutMs: 30_000, maxOutput: 1 << 20 };
}

describe("spawnHook: output written just before exit is never lost to a stalled loop", () => {
  // libuv reaps EVERY exited child when it handles one SIGCHLD, so a hook that writes and exits
  // after epoll_wait returned has its exit seen in this poll phase but its stdout only in the next.
  // If the loop then stalls past the drain grace, the grace timer runs before that next poll.
  // The schedule below forces that order (on a loaded machine the sleeps may drift so the race is
  // not hit: the test then passes without exercising it, but it can never fail on correct code).
  it("keeps the stdout of a hook reaped by another hook's SIGCHLD while the loop is blocked", async () => {
    for (let round = 0; round < 3; round++) {
      // Becomes readable at ~50 ms: its handler blocks the poll phase while hook b writes and exits.
      const stall = spawn("sh", ["-c", "sleep 0.05; echo x; exec sleep 5"], { stdio: ["ignore", "pipe", "ignore"] });
      stall.stdout.once("data", () => {
        block(250);
        // And the check phase, past the 150 ms grace, so the next iteration's timers run first.
        setImmediate(() => block(300));
      });
      const a = spawnHook(request("sleep 0.1"));
      const b = spawnHook(request("sleep 0.25; echo hi"));
      // Both the stall's output and a's SIGCHLD are pending when the loop next polls, in that order.
      block(180);
      const [, outB] = await Promise.all([a.outcome, b.outcome]);
      // exec: the kill reaches the sleep itself, so nothing outlives the test.
      const stallExit = once(stall, "exit");
      stall.kill("SIGKILL");
      await stallExit;
      await Promise.all([a.reaped, b.reaped]);
      expect(outB).toMatchObject({ end: "exited", exitCode: 0, stdout: "hi\n" });
    }
  });
});
