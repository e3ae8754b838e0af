import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostEventName } from "../src/hosts/payload.js";
import { HOSTS } from "../src/hosts/adapters.js";
import type { HostAdapter, Payload } from "../src/hosts/types.js";
import { type CliProcess, runCli, spawnCli } from "./helpers/cli.js";
import { hostFixtures } from "./helpers/hostFixtures.js";
import { type Sandbox, sandbox } from "./helpers/sandbox.js";
import { request, untilListening } from "./helpers/server.js";

/**
 * One path from an agent's event to its answer (src/hosts/runHostEvent.ts): the same payload in
 * the same config state gets the same answer, byte for byte, from `hooks run --host HOST` (a real
 * process, as the agent runs it) and from `hooks serve` (POST /v1/hosts/HOST/EVENT?answer=command),
 * for every host, with the config trusted, changed since it was trusted (its last trusted version
 * runs), no longer parsing (the same), and with no trusted version at all (the not-run answer).
 * `hooks test` takes the same path: a fixture per host expecting the guard's block passes when
 * trusted, and none runs otherwise.
 */

const CONFIG = [
  "hooks:",
  "  pre_tool_use:",
  "    - name: no-tools",
  `      command: 'echo "no tool calls in this project" >&2; exit 2'`,
  "  session_start:",
  "    - name: branch",
  "      command: echo on branch main",
  "  user_prompt_submit:",
  "    - name: remind",
  "      command: echo remember the tests",
  "  stop:",
  "    - name: done",
  "      command: echo finished",
  "",
].join("\n");

/** Each host's payloads: its probe's synthetic ones for the events above, and its documented ones where the suite has them. */
function payloads(host: HostAdapter, projectDir: string): [event: string, payload: Payload][] {
  const out: [string, Payload][] = [];
  for (const canonical of ["pre_tool_use", "session_start", "user_prompt_submit", "stop"]) {
    const event = hostEventName(host, canonical);
    if (event && host.probe) out.push([event, host.probe.payload(event, projectDir)]);
  }
  let documented: Record<string, Payload> = {};
  try {
    documented = hostFixtures(host.name);
  } catch {
    // no documented payloads for this host in the suite
  }
  for (const [file, payload] of Object.entries(documented)) {
    const event = file.split("-")[0];
    // a session of this project (the server refuses another project's: docs/server.md)
    if (Object.hasOwn(host.events, event)) out.push([event, typeof payload.cwd === "string" ? { ...payload, cwd: projectDir } : payload]);
  }
  return out;
}

const stateEnv = (p: Sandbox) => ({ ...p.env });

let p: Sandbox;
let server: CliProcess;
const socketPath = (): string => path.join(p.root, "serve.sock");

beforeAll(async () => {
  p = sandbox({ config: CONFIG });
  const trusted = await runCli(["trust", "--yes"], { cwd: p.dir, env: stateEnv(p) });
  expect(trusted.code, trusted.stderr).toBe(0);
  server = spawnCli(["serve", "--socket", socketPath()], { cwd: p.dir, env: stateEnv(p) });
  await untilListening(server);
});

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
  await server?.exited;
  p?.cleanup();
});

/** Both doors' answers to every payload of every host, as `[label, cli, server]`. */
async function answers(): Promise<[string, string, string][]> {
  const out: [string, string, string][] = [];
  for (const host of HOSTS) {
    for (const [event, payload] of payloads(host, p.dir)) {
      const body = JSON.stringify(payload);
      const cli = await runCli(["run", event, "--host", host.name], { cwd: p.dir, env: stateEnv(p), input: body });
      const served = await request({ socketPath: socketPath() }, "POST", `/v1/hosts/${host.name}/${encodeURIComponent(event)}?answer=command`, body, { "content-type": "application/json" });
      expect(served.status, JSON.stringify(served.json)).toBe(200);
      out.push([`${host.name} ${event}`, JSON.stringify({ stdout: cli.stdout, stderr: cli.stderr, exit_code: cli.code }), JSON.stringify(served.json)]);
    }
  }
  return out;
}

/** The answers to each host's pre-tool event. */
const preAnswers = (all: [string, string, string][]) => all.filter(([label]) => HOSTS.some((h) => label === `${h.name} ${hostEventName(h, "pre_tool_use")}`));

/** `hooks test` over one fixture per host that expects the guard to block its shell call. */
async function fixturesRun(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fixtures: unknown[] = [];
  for (const host of HOSTS) {
    const event = hostEventName(host, "pre_tool_use");
    // A host that runs no commands has no probe: its documented payload instead (pi's extension).
    const context = event && (host.probe?.payload(event, p.dir) ?? hostFixtures(host.name)[event]);
    if (!event || !context) continue;
    fixtures.push({ name: `${host.name} guard`, host: host.name, event, context, expect: { decision: "block", reason: "no tool calls" } });
  }
  writeFileSync(p.path("guards.hooktest.yaml"), `${JSON.stringify({ fixtures })}\n`);
  return runCli(["test", "guards.hooktest.yaml"], { cwd: p.dir, env: stateEnv(p), timeoutMs: 60_000 });
}

describe("host dispatch: one path, the same answer through every door", () => {
  it("trusted: every host's answer from the CLI and from the server are byte-identical, and hooks test blocks with each", async () => {
    const all = await answers();
    expect(all.length).toBeGreaterThan(HOSTS.length * 2);
    for (const [label, cli, served] of all) expect(served, label).toBe(cli);
    // The guard's reason reached each host's pre-tool answer (the comparison above is not of two empty answers).
    const pre = preAnswers(all);
    expect(new Set(pre.map(([label]) => label)).size).toBe(HOSTS.length);
    for (const [label, cli] of pre) expect(cli, label).toContain("no tool calls in this project");
    const tested = await fixturesRun();
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(new RegExp(`${HOSTS.length} passed`));
  }, 180_000);

  it("changed after trust: both doors run its last trusted version (the guard still blocks) and tell the user; hooks test sees the file as it is", async () => {
    writeFileSync(p.path("hooks.yaml"), `${CONFIG}# an edit nobody reviewed yet\n`);
    const reloaded = await request({ socketPath: socketPath() }, "POST", "/v1/reload");
    expect(reloaded.status).toBe(200);
    const all = await answers();
    for (const [label, cli, served] of all) expect(served, label).toBe(cli);
    for (const [label, cli] of preAnswers(all)) expect(cli, label).toContain("no tool calls in this project");
    const claude = all.find(([label]) => label === "claude PreToolUse");
    expect(claude?.[1]).toMatch(/hooks\.yaml changed since it was trusted: its last trusted version is running instead.*hooks -C .* trust/);
    const tested = await fixturesRun();
    expect(tested.code, tested.stdout + tested.stderr).toBe(77);
  }, 180_000);

  it("invalid after trust: both doors run its last trusted version and name FILE:LINE:COL; hooks test runs nothing", async () => {
    writeFileSync(p.path("hooks.yaml"), "hooks:\n  pre_tool_use:\n    - name: broken\n      comand: true\n");
    const reloaded = await request({ socketPath: socketPath() }, "POST", "/v1/reload");
    expect(reloaded.status).toBe(422);
    const all = await answers();
    for (const [label, cli, served] of all) expect(served, label).toBe(cli);
    for (const [label, cli] of preAnswers(all)) expect(cli, label).toContain("no tool calls in this project");
    const claude = all.find(([label]) => label === "claude PreToolUse");
    expect(claude?.[1]).toMatch(/no longer loads \(\S*hooks\.yaml:4:7: .*its last trusted version is running instead/);
    const tested = await fixturesRun();
    expect(tested.code, tested.stdout + tested.stderr).toBe(78);
  }, 180_000);

  it("invalid with no trusted version (untrusted): both doors give the host's not-run answer naming FILE:LINE:COL", async () => {
    expect((await runCli(["untrust"], { cwd: p.dir, env: stateEnv(p) })).code).not.toBe(0); // an invalid file cannot be loaded to untrust
    writeFileSync(p.path("hooks.yaml"), CONFIG);
    expect((await runCli(["untrust"], { cwd: p.dir, env: stateEnv(p) })).code).toBe(0);
    writeFileSync(p.path("hooks.yaml"), "hooks:\n  pre_tool_use:\n    - name: broken\n      comand: true\n");
    await request({ socketPath: socketPath() }, "POST", "/v1/reload");
    const all = await answers();
    for (const [label, cli, served] of all) expect(served, label).toBe(cli);
    const claude = all.find(([label]) => label === "claude PreToolUse");
    expect(claude?.[1]).toMatch(/the config is invalid \(\S*hooks\.yaml:4:7: /);
    const tested = await fixturesRun();
    expect(tested.code, tested.stdout + tested.stderr).toBe(78);
  }, 180_000);

  it("never trusted: both doors give the host's not-run answer with the same words, and hooks test runs nothing", async () => {
    writeFileSync(p.path("hooks.yaml"), CONFIG);
    expect((await request({ socketPath: socketPath() }, "POST", "/v1/reload")).status).toBe(200);
    const all = await answers();
    for (const [label, cli, served] of all) expect(served, label).toBe(cli);
    const claude = all.find(([label]) => label === "claude PreToolUse");
    expect(claude?.[1]).toMatch(/not trusted \(new or changed since it was last reviewed\).*hooks -C .* trust/);
    const tested = await fixturesRun();
    expect(tested.code, tested.stdout + tested.stderr).toBe(77);
  }, 180_000);
});
