import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../src/hosts/adapters.js";
import { HOST_NAMES, HOST_TABLE, hostRow, resolveHostName, resolveHostRuntime } from "../src/hosts/table.js";

// The host table (src/hosts/table.ts) detects hosts without loading their modules: each row's
// detect must be the very function its runtime part and its whole adapter answer with, and both
// modules must be the same host (docs/architecture.md).
describe("the host table", () => {
  it("lists every whole adapter, in its order", () => {
    expect(HOSTS.map((h) => h.name)).toEqual(HOST_NAMES);
    expect(new Set(HOST_NAMES).size).toBe(HOST_NAMES.length);
  });

  it.each(HOST_TABLE.map((row) => [row.name, row] as const))("%s: the row's detect is its runtime part's and its adapter's; the adapter carries the runtime part", async (name, row) => {
    const runtime = await row.runtime();
    const adapter = await row.adapter();
    expect(runtime.name).toBe(name);
    expect(adapter.name).toBe(name);
    expect(runtime.detect).toBe(row.detect);
    expect(adapter.detect).toBe(row.detect);
    for (const key of ["title", "events", "tools", "timeout", "read", "render", "notRun", "degrade", "route", "readEnv", "announceNotRun"] as const) expect(adapter[key], key).toBe(runtime[key]);
    expect(HOSTS.find((h) => h.name === name)).toBe(adapter);
  });

  it.each(HOST_TABLE.map((row) => [row.name, row] as const))("%s: the row's folder is its setup's, and the project file hookrun writes is in it", async (_, row) => {
    const setup = (await row.adapter()).setup;
    expect(setup?.folder).toBe(row.folder);
    if (!setup || setup.userOnly) return;
    const written = path.relative("/project", setup.place("/project", false));
    expect(written === row.folder || written.startsWith(`${row.folder}/`), written).toBe(true);
  });

  it("resolves --host NAME to NAME's runtime part, and a name not in the table to nothing", async () => {
    const codex = await resolveHostRuntime("codex", { hook_event_name: "Stop", session_id: "s", transcript_path: "/t.jsonl" });
    expect(codex).toBe(await hostRow("codex")?.runtime());
    expect(resolveHostName("no-such-host", {})).toBeNull();
    expect(await resolveHostRuntime("no-such-host", {})).toBeNull();
    // No flag, nothing recognisable: no host (hookrun's own output).
    expect(await resolveHostRuntime(undefined, {})).toBeNull();
    // --host claude gives way to a payload only Cursor sends.
    expect(resolveHostName("claude", { hook_event_name: "stop", cursor_version: "1.7", workspace_roots: ["/p"] })).toBe("cursor");
    expect(resolveHostName("claude", { hook_event_name: "Stop", session_id: "s", transcript_path: "/t.jsonl" })).toBe("claude");
  });
});
