import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { spawnCli, type CliProcess } from "./helpers/cli.js";
import { request, untilListening, type Target } from "./helpers/server.js";
import { expectNoSurvivors, markProcesses, sandbox, type Sandbox } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// Suite-level: no hook started through this file's servers outlives it.
const survivors = markProcesses();
afterAll(() => expectNoSurvivors(survivors));

let project: Sandbox | undefined;
let server: CliProcess | undefined;
afterEach(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await server?.exited;
  server = undefined;
  project?.cleanup();
  project = undefined;
});

describe("hooks serve: async hooks live in the server and are delivered per session (docs/server.md)", () => {
  it("delivers an async result on the next trigger of the same session only, over the socket", async () => {
    project = sandbox({
      config: `
hooks:
  stop:
    - { name: bg, async: true, command: "touch bg-done; echo from-the-server" }
`,
    });
    server = spawnCli(["--trust", "serve"], {
      cwd: project.dir,
      env: { HOOKS_STATE_DIR: project.env.HOOKS_STATE_DIR, XDG_CONFIG_HOME: project.env.XDG_CONFIG_HOME, HOOKRUN_TEST_MARK: process.env.HOOKRUN_TEST_MARK },
    });
    const url = await untilListening(server);
    const target: Target = { socketPath: url.slice("unix:".length) };
    const first = await request(target, "POST", "/v1/trigger/stop", JSON.stringify({ session_id: "A" }));
    expect(first.status).toBe(200);
    expect(first.json.async_started).toEqual(["bg"]);
    await waitFor(() => fs.existsSync(path.join(project!.dir, "bg-done")));
    const other = await request(target, "POST", "/v1/trigger/pre_turn", JSON.stringify({ session_id: "B" }));
    expect(other.json.async_delivered).toEqual([]);
    // the hook's file exists a moment before its result is collected: ask until it is delivered
    const delivered = await waitFor(async () => {
      const r = await request(target, "POST", "/v1/trigger/pre_turn", JSON.stringify({ session_id: "A" }));
      return r.json.async_delivered.length > 0 ? r.json : null;
    });
    expect(delivered.async_delivered).toMatchObject([{ name: "bg", event: "stop", session_id: "A", status: "ok" }]);
    expect(delivered.messages).toEqual([{ role: "system", content: "from-the-server", hook: "bg", async: true }]);
    // in memory, not in the state dir
    expect(fs.existsSync(path.join(project.env.HOOKS_STATE_DIR, "async"))).toBe(false);
  });
});
