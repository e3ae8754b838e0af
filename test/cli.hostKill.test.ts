import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI, cliEnv } from "./helpers/cli.js";
import { alive, useSandbox } from "./helpers/sandbox.js";
import { sleep, waitFor } from "./helpers/waitFor.js";

// docs/running-hooks.md#signals: a host that kills `hooks run` the way Claude Code kills a hook on its timeout
// (SIGTERM to the tree, SIGKILL 1.5 s later) must leave no hook process behind, even one that
// ignores SIGTERM: hookrun's hooks are in their own process groups, out of the host's reach.
const sb = useSandbox({ survivors: true, prefix: "hookrun-host-kill-" });

/** Claude Code's kill of a timed-out hook: SIGKILL follows SIGTERM after 1.5 s. */
const HOST_KILL_DELAY_MS = 1500;

// Ignores SIGTERM (so does `sleep`, which inherits the ignored disposition) and runs far past
// the test; the trailing `echo` keeps the shell from exec'ing sleep, so the group has two members.
const STUBBORN = `trap '' TERM; echo $$ > hook.pid; sleep 30; echo done`;

function config(): void {
  sb.current.write("hooks.yaml", `hooks:\n  pre_tool_use:\n    - {name: stubborn, command: "${STUBBORN}"}\n`);
}

/** Live (not zombie) members of process group `pgid`, from /proc. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(rest[2]) === pgid && alive(Number(entry))) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

async function hookPid(): Promise<number> {
  const file = sb.current.path("hook.pid");
  return Number(await waitFor(() => existsSync(file) && readFileSync(file, "utf8").trim(), { timeoutMs: 15_000, intervalMs: 20, what: "the hook to start" }));
}

/** Kill `host`'s process group as Claude Code kills a timed-out hook; then `hookGroup` must be empty. */
async function killLikeClaude(host: { pid?: number }, exited: Promise<unknown>, hookGroup: number): Promise<void> {
  process.kill(-host.pid!, "SIGTERM");
  await sleep(HOST_KILL_DELAY_MS);
  try {
    process.kill(-host.pid!, "SIGKILL");
  } catch {
    // the dispatch's group is already gone
  }
  await exited;
  // Nothing can kill the hook after this point but hookrun, which is gone: give the kernel a
  // moment to finish a SIGKILL already sent, then the hook's whole group must be empty.
  await waitFor(() => groupMembers(hookGroup).length === 0, { timeoutMs: 3000, what: `hook group ${hookGroup} to be gone` }).catch(() => {});
  expect(groupMembers(hookGroup)).toEqual([]);
}

describe.skipIf(process.platform !== "linux")("a host killing `hooks run` (docs/running-hooks.md#signals)", () => {
  it("SIGTERM to the dispatch's process group, SIGKILL 1.5 s later (Claude Code's hook timeout): no hook process survives", async () => {
    config();
    // As Claude Code runs a command hook: `/bin/sh -c CMD` leading its own process group.
    const command = `"${process.execPath}" "${CLI}" --trust run pre_tool_use --output claude`;
    const host = spawn("/bin/sh", ["-c", command], { cwd: sb.current.dir, env: cliEnv(sb.current.env), detached: true, stdio: ["pipe", "ignore", "ignore"] });
    host.stdin!.end(`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`);
    const exited = new Promise((resolve) => host.once("exit", resolve));
    const pid = await hookPid();
    expect(groupMembers(pid).length).toBeGreaterThan(0);
    await killLikeClaude(host, exited, pid);
  });

  it("the same while hookrun is already killing a timed-out hook (its 2 s grace is cut short too)", async () => {
    // The hook notes its timeout's SIGTERM (term.seen) and goes on; its child ignores SIGTERM.
    const hook = `trap 'touch term.seen' TERM; echo $$ > hook.pid; sh -c \\"trap '' TERM; sleep 30\\" & while :; do wait; done`;
    sb.current.write("hooks.yaml", `hooks:\n  pre_tool_use:\n    - {name: slow, timeout: 1s, command: "${hook}"}\n`);
    const command = `"${process.execPath}" "${CLI}" --trust run pre_tool_use --output claude`;
    const host = spawn("/bin/sh", ["-c", command], { cwd: sb.current.dir, env: cliEnv(sb.current.env), detached: true, stdio: ["pipe", "ignore", "ignore"] });
    host.stdin!.end(`{"session_id":"s1","tool_name":"Bash"}`);
    const exited = new Promise((resolve) => host.once("exit", resolve));
    const pid = await hookPid();
    await waitFor(() => existsSync(sb.current.path("term.seen")), { timeoutMs: 15_000, intervalMs: 10, what: "the timeout's SIGTERM" });
    await killLikeClaude(host, exited, pid);
  });

  it("SIGTERM to the pid of `hooks run` only, SIGKILL 1.5 s later: the hook is killed and the CLI exits 143 before the SIGKILL", async () => {
    config();
    const cli = spawn(process.execPath, [CLI, "--trust", "run", "pre_tool_use", "--output", "claude"], { cwd: sb.current.dir, env: cliEnv(sb.current.env), stdio: ["pipe", "pipe", "pipe"] });
    cli.stdin!.end(`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => cli.once("exit", (code, signal) => resolve({ code, signal })));
    const pid = await hookPid();
    cli.kill("SIGTERM");
    const killer = setTimeout(() => cli.kill("SIGKILL"), HOST_KILL_DELAY_MS);
    const exit = await exited;
    clearTimeout(killer);
    expect(exit).toEqual({ code: 143, signal: null });
    expect(groupMembers(pid)).toEqual([]);
  });
  it("a second signal SIGKILLs the hooks at once: a caller that SIGKILLs 300 ms after it leaves nothing", async () => {
    config();
    const cli = spawn(process.execPath, [CLI, "--trust", "run", "pre_tool_use"], { cwd: sb.current.dir, env: cliEnv(sb.current.env), stdio: ["pipe", "ignore", "ignore"] });
    cli.stdin!.end(`{"session_id":"s1","tool_name":"Bash"}`);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    const pid = await hookPid();
    // Two different signals: two pending SIGTERMs could merge into one.
    cli.kill("SIGTERM");
    cli.kill("SIGINT");
    await sleep(300);
    cli.kill("SIGKILL");
    await exited;
    await waitFor(() => groupMembers(pid).length === 0, { timeoutMs: 3000, what: `hook group ${pid} to be gone` }).catch(() => {});
    expect(groupMembers(pid)).toEqual([]);
  });
});
