import { describe, expect, it } from "vitest";
import { commandWord, COMMANDS } from "../src/cli/commands.js";
import { runCli, runMain } from "./helpers/cli.js";

describe("commandWord", () => {
  it("skips global options and the values of -c/--config/-C/--cwd", () => {
    expect(commandWord(["run", "stop"])).toBe("run");
    expect(commandWord(["--trust", "--no-user-config", "run", "stop"])).toBe("run");
    expect(commandWord(["-C", "run", "validate"])).toBe("validate");
    expect(commandWord(["--config", "list", "-v", "list"])).toBe("list");
    expect(commandWord(["--config=x.yaml", "events"])).toBe("events");
    expect(commandWord(["--color", "always", "run", "stop"])).toBe("run");
    expect(commandWord(["--help"])).toBeUndefined();
    expect(commandWord([])).toBeUndefined();
  });
});

// main() registers only the named command; help and unknown words still see every command.
describe("lazy command registration", () => {
  it("hooks --help lists every command", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    for (const { name, hidden } of COMMANDS) if (!hidden) expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
  });

  it("a misspelt command is still matched against all of them", async () => {
    const r = await runMain(["valdate"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe("hooks: unknown command 'valdate'; did you mean validate?\n");
  });

  it("a command without its required argument is a usage error naming it (exit 64); help itself exits 0", async () => {
    const r = await runMain(["import"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toBe("hooks: missing required argument 'host'\n");
    expect(r.stdout).toBe("");
    for (const args of [["help"], ["help", "run"], ["import", "--help"]]) expect((await runMain(args)).code, args.join(" ")).toBe(0);
  });

  it("a command's own help works when only it is registered", async () => {
    const r = await runMain(["--no-user-config", "run", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: hooks run [options] <event>");
    expect(r.stdout).toContain("--max-parallel");
  });
});
