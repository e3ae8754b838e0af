import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createInProcessHost } from "../src/hosts/inProcess.js";
import type { HostEventOutcome } from "../src/hosts/runHostEvent.js";
import { pi } from "../src/hosts/pi.js";
import { PI_EXTENSION_MARK, piExtensionText } from "../src/hosts/piExtension.js";
import { buildContext } from "../src/runner/context.js";
import { CLAUDE_PAYLOADS, hostFixtures } from "./helpers/hostFixtures.js";
import { hookResult, triggerResult } from "./helpers/results.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { alive, type Sandbox, useSandbox, waitGone } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

/** Every file name under `dir`. */
const readdirDeep = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String);

const sb = useSandbox({ survivors: true });
const FX = hostFixtures("pi");
const answer = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;
const SESSION = "0193a5f0-7c1e-7b2a-9d3e-5f6a7b8c9d0e";

describe("pi: reading the payloads its extension sends", () => {
  const expected: Record<string, [string, string | undefined, unknown, Record<string, unknown>]> = {
    tool_call: ["pre_tool_use", "Bash", { command: "rm -rf build" }, { tool_use_id: "call_7" }],
    "tool_call-edit": ["pre_tool_use", "Edit", { path: "src/cart.ts", edits: [{ oldText: "total", newText: "subtotal" }] }, { tool_use_id: "call_8" }],
    tool_result: ["post_tool_use", "Bash", { command: "npm test" }, { tool_response: { content: [{ type: "text", text: "2 passing" }], is_error: false } }],
    input: ["user_prompt_submit", undefined, undefined, { prompt: "Add a discount field to the cart" }],
    session_start: ["session_start", undefined, undefined, { source: "startup" }],
    session_shutdown: ["session_end", undefined, undefined, { reason: "quit" }],
    agent_end: ["stop", undefined, undefined, { stop_hook_active: false, last_assistant_message: "The cart has a discount field now." }],
  };
  it("has an expectation for every fixture", () => expect(Object.keys(FX).sort()).toEqual(Object.keys(expected).sort()));
  for (const [name, [event, tool, input, fields]] of Object.entries(expected)) {
    it(`${name} → ${event}${tool ? ` (${tool})` : ""}`, () => {
      const payload = FX[name];
      expect(pi.events[payload.type as string]).toBe(event);
      const ctx = pi.read(payload, event);
      expect(ctx).toMatchObject({ session_id: SESSION, cwd: "/home/dev/shop" });
      expect(buildContext(event, ctx, "/tmp", {})).toMatchObject(fields);
      expect(ctx.tool_name).toBe(tool);
      expect(ctx.tool_input).toEqual(input);
      expect(ctx.host).toMatchObject({ name: "pi", event: payload.type });
      // pi's own field names do not stay beside hookrun's.
      for (const k of ["sessionId", "toolName", "toolCallId", "input", "content", "isError", "text", "lastAssistantMessage"]) expect(ctx, k).not.toHaveProperty(k);
    });
  }
  it("never claims a payload by its shape: only the extension sends pi's, naming the host", () => {
    for (const p of [...Object.values(FX), ...CLAUDE_PAYLOADS]) expect(pi.detect(p)).toBe(false);
  });
});

describe("pi: what the extension is told to apply", () => {
  const render = (r: Parameters<typeof pi.render>[0]) => {
    const a = pi.render(r);
    expect(a.exitCode).toBe(0);
    return answer(a.stdout);
  };
  const blocked = (event: string, reason: string) => triggerResult(event, [hookResult("g", { decision: "block", reason })], { blocked: true, reason });

  it("a block of a tool call, a prompt or a compaction: `block` with the reason", () => {
    for (const event of ["pre_tool_use", "user_prompt_submit", "pre_compact"]) expect(render(blocked(event, "R"))).toEqual({ block: "R" });
  });
  it("ask, which pi's extensions cannot put to the user headless: a block saying so", () => {
    const r = triggerResult("pre_tool_use", [hookResult("a", { decision: "ask", reason: "ASK-R" })]);
    expect(render(r).block).toMatch(/asked for the user's confirmation \(ASK-R\).*blocked/);
  });
  it("a rewritten input is applied: `input`; one that is not an object blocks", () => {
    expect(render(triggerResult("pre_tool_use", [hookResult("r", { decision: "allow" })], { updated_input: { command: "ls" } }))).toEqual({ input: { command: "ls" } });
    expect(render(triggerResult("pre_tool_use", [hookResult("r", { decision: "allow" })], { updated_input: "ls" as never })).block).toMatch(/not an object pi can run/);
  });
  it("after the tool, a block and context are both feedback for the model: `context`", () => {
    const r = triggerResult("post_tool_use", [], {
      messages: [
        { role: "system", kind: "feedback", content: "FIX" },
        { role: "system", content: "CTX" },
      ],
    });
    expect(render(r)).toEqual({ context: "CTX\n\nFIX" });
  });
  it("session context: `context`; notices and failures: `notify`", () => {
    const r = triggerResult("session_start", [hookResult("h", { status: "failed", exit_code: 1 })], {
      messages: [
        { role: "system", content: "M" },
        { role: "system", kind: "notice", content: "N" },
      ],
    });
    const a = render(r);
    expect(a.context).toBe("M");
    expect(a.notify).toMatch(/^hookrun: N\nhookrun: hook h failed/);
  });
  it("a stop hook's request to go on reaches the user only (pi does not wait for agent_end)", () => {
    const a = render(blocked("stop", "GO-ON"));
    expect(a).not.toHaveProperty("block");
    expect(a).not.toHaveProperty("context");
    expect(a.notify).toMatch(/go on, which pi cannot do from its agent_end event: GO-ON/);
  });
  it("continue: false blocks a gate and is said elsewhere", () => {
    expect(render(triggerResult("pre_tool_use", [], { continue: false, stop_reason: "S" })).block).toMatch(/stop the agent: S/);
    expect(render(triggerResult("post_tool_use", [], { continue: false, stop_reason: "S" })).notify).toMatch(/stop the agent: S; pi's extensions cannot stop it/);
  });
  it("hooks that did not run: the user is told, and the model at the start of a session and at a prompt", () => {
    expect(answer(pi.notRun("pre_tool_use", "U", "M").stdout)).toEqual({ notify: "hookrun: the project's hooks did not run: U" });
    expect(answer(pi.notRun("session_start", "U", "M").stdout).context).toBe("hookrun: the project's hooks are not running in this session: M");
  });
});

/** A project with hookrun in node_modules as `npm install hookrun` leaves it (a link to this build). */
function withHookrun(p: Sandbox): void {
  mkdirSync(p.path("node_modules/.bin"), { recursive: true });
  symlinkSync(ROOT, p.path("node_modules/hookrun"));
  symlinkSync(path.join(ROOT, "dist/bin/hooks.js"), p.path("node_modules/.bin/hooks"));
}
const cli = (p: Sandbox, ...args: string[]) => runCli(args, { cwd: p.dir, env: p.env });
const EXT = ".pi/extensions/hookrun.ts";
const GUARD = `hooks:\n  pre_tool_use:\n    - {name: guard, matcher: Bash, command: "echo NO-RM >&2; exit 2"}\n`;

describe("hooks install pi: the extension file", () => {
  it("writes the one template, is idempotent, and --check follows it", async () => {
    const p = sb.current;
    p.write("hooks.yaml", GUARD);
    withHookrun(p);
    const first = await cli(p, "install", "pi");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/\.pi\/extensions\/hookrun\.ts: created; pi hands session_start, session_shutdown, input, tool_call/);
    const text = readFileSync(p.path(EXT), "utf8");
    expect(text).toBe(piExtensionText());
    expect(text.split("\n")[0]).toBe(PI_EXTENSION_MARK);
    expect((await cli(p, "install", "pi")).stdout).toMatch(/hookrun\.ts: up to date/);
    expect((await cli(p, "install", "--check")).code).toBe(0);
    // The file does not depend on hooks.yaml: a new hook needs no install.
    p.write("hooks.yaml", `${GUARD}  stop:\n    - {name: s, command: "true"}\n`);
    expect((await cli(p, "install", "--check")).code).toBe(0);
    writeFileSync(p.path(EXT), `${text}// edited\n`);
    const stale = await cli(p, "install", "pi", "--check");
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/stale: hookrun\.ts; run `hooks install pi`/);
    expect((await cli(p, "install", "pi")).code).toBe(0);
    expect(readFileSync(p.path(EXT), "utf8")).toBe(text);
  });

  it("never overwrites nor removes a file of the user's at that place", async () => {
    const p = sb.current;
    p.write("hooks.yaml", GUARD);
    p.write(EXT, "export default function mine() {}\n");
    const r = await cli(p, "install", "pi");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/your own pi hook, not hookrun's; hookrun will not overwrite it/);
    expect(readFileSync(p.path(EXT), "utf8")).toBe("export default function mine() {}\n");
    expect((await cli(p, "uninstall", "pi")).code).toBe(0);
    expect(readFileSync(p.path(EXT), "utf8")).toBe("export default function mine() {}\n");
  });

  it("a symlinked extension file is written through to its target: the link stays", async () => {
    const p = sb.current;
    p.write("hooks.yaml", GUARD);
    const target = p.write("shared/hookrun.ts", `${PI_EXTENSION_MARK}\n// an older version\n`);
    mkdirSync(path.dirname(p.path(EXT)), { recursive: true });
    symlinkSync(target, p.path(EXT));
    const r = await cli(p, "install", "pi");
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(p.path(EXT)).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe(piExtensionText());
  });

  it("install warns that node_modules/hookrun is missing (what the extension imports), not node_modules/.bin/hooks", async () => {
    const p = sb.current;
    p.write("hooks.yaml", GUARD);
    const r = await cli(p, "install", "pi");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: node_modules\/hookrun is missing, and pi loads it: until it is there, every tool call is blocked/);
    expect(r.stderr).not.toMatch(/\.bin\/hooks/);
  });

  it("uninstall removes it; --user writes into pi's user extension folder", async () => {
    const p = sb.current;
    p.write("hooks.yaml", GUARD);
    expect((await cli(p, "install", "pi")).code).toBe(0);
    expect((await cli(p, "uninstall", "pi")).code).toBe(0);
    expect(existsSync(p.path(EXT))).toBe(false);
    const user = await cli(p, "install", "pi", "--user");
    expect(user.code, user.stderr).toBe(0);
    expect(readFileSync(path.join(p.env.HOME, ".pi/agent/extensions/hookrun.ts"), "utf8")).toBe(piExtensionText());
    expect(existsSync(p.path(EXT))).toBe(false);
  });

  it("hooks doctor pi: the file current, hookrun loading from the project, a probe answered; else says what to do", async () => {
    const p = sb.current;
    p.write("hooks.yaml", GUARD);
    expect((await cli(p, "install", "pi")).code).toBe(0);
    expect((await cli(p, "trust", "--yes")).code).toBe(0);
    const missing = await cli(p, "doctor", "pi");
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/cannot load hookrun from node_modules\/hookrun.*blocks every tool call/);
    expect(missing.stdout).toMatch(/npm install --save-dev hookrun/);
    withHookrun(p);
    const good = await cli(p, "doctor", "pi");
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toMatch(/the extension is current/);
    expect(good.stdout).toMatch(/a probe tool_call reaches its hooks/);
    writeFileSync(p.path(EXT), "// hookrun: old\n");
    const foreign = await cli(p, "doctor", "pi");
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toMatch(/your own file, not the extension/);
  });
});

describe("createInProcessHost: pi's events through the library, in this process", () => {
  const payload = (type: string, extra: Record<string, unknown> = {}) => ({ type, sessionId: "s1", cwd: sb.current.dir, ...extra });
  const bash = (command: string) => payload("tool_call", { toolName: "bash", toolCallId: "c1", input: { command } });
  /** What the extension applies from an outcome. */
  const said = (o: HostEventOutcome) => answer("answer" in o && o.answer ? o.answer.stdout : "{}");

  it("a guard blocks with its reason, context comes back for the model, and the run log records the host", async () => {
    const p = sb.current;
    p.write("hooks.yaml", `${GUARD}  session_start:\n    - {name: ctx, command: "echo ON-MAIN"}\n`);
    expect((await cli(p, "trust", "--yes")).code).toBe(0);
    const host = createInProcessHost({ host: "pi", cwd: p.dir, env: p.processEnv });
    try {
      expect(said(await host.fire("session_start", payload("session_start", { reason: "startup" })))).toEqual({ context: "ON-MAIN" });
      expect(said(await host.fire("tool_call", bash("ls")))).toEqual({ block: "NO-RM" });
      // hooks.yaml read at each event: an edit counts at the next one (trust checks it too).
      p.write("hooks.yaml", `hooks:\n  pre_tool_use:\n    - {name: guard, matcher: Bash, command: "echo NEW >&2; exit 2"}\n`);
      expect((await cli(p, "trust", "--yes")).code).toBe(0);
      expect(said(await host.fire("tool_call", bash("ls")))).toEqual({ block: "NEW" });
    } finally {
      await host.close();
    }
    const log = readFileSync(path.join(p.env.HOOKS_STATE_DIR, "runs.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log.some((r) => r.event === "pre_tool_use" && JSON.stringify(r).includes('"pi"'))).toBe(true);
  });

  it("a hanging hook is killed at its own timeout with its children, and the call goes on with the user told", async () => {
    const p = sb.current;
    p.write("hang.sh", "#!/bin/sh\necho $$ > hang.pid\nsleep 300 &\necho $! > child.pid\nwait\n");
    p.write("hooks.yaml", `hooks:\n  pre_tool_use:\n    - {name: hang, command: "sh ./hang.sh", timeout: 1s}\n`);
    expect((await cli(p, "trust", "--yes")).code).toBe(0);
    const host = createInProcessHost({ host: "pi", cwd: p.dir, env: p.processEnv });
    try {
      const a = said(await host.fire("tool_call", bash("ls")));
      expect(a).not.toHaveProperty("block");
      expect(a.notify).toMatch(/hook hang timed out/);
    } finally {
      await host.close();
    }
    for (const f of ["hang.pid", "child.pid"]) {
      const pid = Number(readFileSync(p.path(f), "utf8"));
      expect(await waitGone(pid), f).toBe(true);
      expect(alive(pid)).toBe(false);
    }
  });

  it("an untrusted hooks.yaml runs nothing: the not-run answer; a guard asking to fail closed blocks instead", async () => {
    const p = sb.current;
    p.write("hooks.yaml", `hooks:\n  session_start:\n    - {name: mark, command: "touch ran.txt"}\n  pre_tool_use:\n    - {name: guard, command: "touch ran.txt; exit 2"}\n`);
    const host = createInProcessHost({ host: "pi", cwd: p.dir, env: p.processEnv });
    try {
      const start = said(await host.fire("session_start", payload("session_start")));
      expect(start.notify).toMatch(/did not run: .*not trusted/);
      expect(start.context).toMatch(/not running in this session/);
      expect((await host.fire("tool_call", bash("ls"))).kind).toBe("not-run");
      p.write("hooks.yaml", `hooks:\n  pre_tool_use:\n    - {name: guard, command: "touch ran.txt; exit 2", on_failure: block}\n`);
      const closed = said(await host.fire("tool_call", bash("ls")));
      expect(closed.block).toMatch(/not trusted/);
    } finally {
      await host.close();
    }
    expect(existsSync(p.path("ran.txt"))).toBe(false);
  });

  it("an async hook's result is delivered at a later event of the session, from a detached worker (the built library, as pi loads it)", async () => {
    const p = sb.current;
    p.write("hooks.yaml", `hooks:\n  post_tool_use:\n    - {name: bg, async: true, command: "echo ASYNC-DONE-7"}\n`);
    expect((await cli(p, "trust", "--yes")).code).toBe(0);
    const built = (await import(path.join(ROOT, "dist/index.js"))) as typeof import("../src/index.js");
    const host = built.createInProcessHost({ host: "pi", cwd: p.dir, env: p.processEnv });
    const result = payload("tool_result", { toolName: "bash", toolCallId: "c1", input: { command: "ls" }, content: [], isError: false });
    try {
      const first = await host.fire("tool_result", result);
      expect(first.kind === "ran" && first.result.async_started).toEqual(["bg"]);
      expect(said(first)).toEqual({});
      const sessionDir = path.join(p.env.HOOKS_STATE_DIR, "async");
      await waitFor(() => existsSync(sessionDir) && JSON.stringify(readdirDeep(sessionDir)).includes(".result.json"), { timeoutMs: 10_000, what: "the worker's result" });
      expect(said(await host.fire("tool_result", result)).context).toContain("ASYNC-DONE-7");
    } finally {
      await host.close();
    }
  });

  it("refuses a host hookrun does not know", () => {
    expect(() => createInProcessHost({ host: "nosuch", cwd: sb.current.dir })).toThrow(/no host "nosuch"/);
  });
});
