import { describe, expect, it } from "vitest";
import { EVENTS } from "../src/events/catalog.js";
import { runCli, runMain } from "./helpers/cli.js";

describe("hooks events", () => {
  it("prints every catalog event as JSON", async () => {
    const r = await runMain(["events", "--json"]);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as { name: string; gate: string; match_field: string | null }[];
    expect(printed.map((e) => e.name)).toEqual(EVENTS.map((e) => e.name));
    expect(printed.find((e) => e.name === "pre_tool_use")).toMatchObject({ gate: "yes", match_field: "tool_name" });
  });

  it("prints a table naming each event", async () => {
    const r = await runMain(["events"]);
    expect(r.code).toBe(0);
    for (const e of EVENTS) expect(r.stdout).toMatch(new RegExp(`^${e.name}\\s`, "m"));
  });

  it("exits 64 on an unknown command", async () => {
    const r = await runCli(["bogus"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("unknown command");
  });
});
