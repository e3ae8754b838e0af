import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nestingTooDeepAt } from "../src/config/limits.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

// Host settings files as a cloned repository may hold them: nested to blow a parser's stack, or
// with a key twice, which the host reads one way (JSON.parse: the last) and an editor another.

const CONFIG = "hooks:\n  pre_tool_use:\n    - name: guard\n      command: 'exit 0'\n";
const DEEP_JSON = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
const DEEP_TOML = `schema_version = 2\nx = ${"[".repeat(5000)}1${"]".repeat(5000)}\n`;

describe("a host file nested 5,000 levels deep (10 KB)", () => {
  it("import, install, install --check, uninstall and the doctor name FILE:LINE and the limit, never run out of stack", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".claude/settings.json", DEEP_JSON);
    const env = { ...p.env, HOOKS_TRUST: "1" };
    for (const args of [
      ["import", "claude"],
      ["install", "claude"],
      ["install", "claude", "--check"],
      ["uninstall", "claude"],
      ["doctor", "claude"],
    ]) {
      const r = await runMain(args, { cwd: p.dir, env });
      const out = r.stdout + r.stderr;
      expect(out, args.join(" ")).toMatch(/settings\.json:1\b.*nested more than 200 levels deep|nested more than 200 levels deep.*settings\.json:1\b/s);
      expect(out, args.join(" ")).not.toMatch(/Maximum call stack|internal error/);
      expect(r.code, args.join(" ")).not.toBe(0);
    }
    expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe(DEEP_JSON);
  });

  it("agent-code's TOML too", async () => {
    const p = sandbox({ config: CONFIG });
    p.write(".agent/settings.toml", DEEP_TOML);
    const env = { ...p.env, HOOKS_TRUST: "1" };
    for (const args of [
      ["import", "agent-code"],
      ["install", "agent-code"],
      ["uninstall", "agent-code"],
    ]) {
      const r = await runMain(args, { cwd: p.dir, env });
      expect(r.stdout + r.stderr, args.join(" ")).toMatch(/settings\.toml:2\b.*nested more than 200 levels deep/s);
      expect(r.stdout + r.stderr, args.join(" ")).not.toMatch(/Maximum call stack|internal error/);
    }
    expect(readFileSync(p.path(".agent/settings.toml"), "utf8")).toBe(DEEP_TOML);
  });

  it("the scanner skips strings and comments, and counts every bracket outside them", () => {
    const deepString = `{"a": "${"[".repeat(500)}"} // ${"{".repeat(500)}\n`;
    expect(nestingTooDeepAt(deepString, "json")).toBeNull();
    expect(nestingTooDeepAt(`x = '${"[".repeat(500)}' # ${"[".repeat(500)}\n`, "toml")).toBeNull();
    expect(nestingTooDeepAt(`/* ${"[".repeat(500)} */ ${"[".repeat(201)}`, "json")).toBe(3 + 500 + 4 + 200);
    expect(nestingTooDeepAt("[".repeat(200), "json")).toBeNull();
  });
});

describe("a key twice on the way to the hooks map", () => {
  const TWICE = [
    "{",
    '  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo first"}]}]},',
    '  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo second"}]}]}',
    "}",
    "",
  ].join("\n");
  const EVENT_TWICE = ["{", '  "hooks": {', '    "PreToolUse": [],', '    "PreToolUse": []', "  }", "}", ""].join("\n");

  it("is refused by install, install --check and uninstall, and an error in the doctor, naming both lines: the host reads the last, an edit of the first would never run", async () => {
    for (const [text, what, line] of [
      [TWICE, /"hooks" appears twice \(lines 2 and 3\)/, 3],
      [EVENT_TWICE, /"hooks" → "PreToolUse" appears twice \(lines 3 and 4\)/, 4],
    ] as const) {
      const p = sandbox({ config: CONFIG });
      p.write(".claude/settings.json", text);
      const env = { ...p.env, HOOKS_TRUST: "1" };
      for (const args of [
        ["install", "claude"],
        ["install", "claude", "--check"],
        ["uninstall", "claude"],
      ]) {
        const r = await runMain(args, { cwd: p.dir, env });
        expect(r.code, args.join(" ")).not.toBe(0);
        expect(r.stderr, args.join(" ")).toMatch(what);
        expect(r.stderr, args.join(" ")).toMatch(new RegExp(`settings\\.json:${line}: `));
        expect(r.stderr, args.join(" ")).not.toMatch(/up to date/);
      }
      expect(readFileSync(p.path(".claude/settings.json"), "utf8")).toBe(text);
      const doctor = await runMain(["doctor", "claude"], { cwd: p.dir, env });
      expect(doctor.code).not.toBe(0);
      expect(doctor.stdout).toMatch(what);
      expect(doctor.stdout).not.toMatch(/entries are current/);
    }
  });
});

describe("byte for byte: a UTF-8 byte order mark", () => {
  it("is kept by install and uninstall gives back the exact bytes, with and without the user's own hooks, JSON and TOML", async () => {
    const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
    for (const [file, host, text] of [
      [".claude/settings.json", "claude", '{\n  "model": "x"\n}\n'],
      [".claude/settings.json", "claude", '{\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]\n  }\n}\n'],
      [".agent/settings.toml", "agent-code", 'schema_version = 2\nmodel = "x"\n'],
    ] as const) {
      const p = sandbox({ config: CONFIG });
      const original = Buffer.concat([BOM, Buffer.from(text)]);
      p.write(file, original.toString("utf8"));
      expect(readFileSync(p.path(file)).subarray(0, 3), file).toEqual(BOM);
      const env = { ...p.env, HOOKS_TRUST: "1" };
      expect((await runMain(["install", host], { cwd: p.dir, env })).code, `${host} install`).toBe(0);
      const installed = readFileSync(p.path(file));
      expect(installed.subarray(0, 3), `${host}: install kept the BOM`).toEqual(BOM);
      expect(installed.toString("utf8"), host).toMatch(/run pre_tool_use --host/);
      expect((await runMain(["install", host, "--check"], { cwd: p.dir, env })).code, `${host} --check`).toBe(0);
      expect((await runMain(["uninstall", host], { cwd: p.dir, env })).code, `${host} uninstall`).toBe(0);
      expect(readFileSync(p.path(file)).equals(original), `${host}: uninstall gave back the exact bytes\n${readFileSync(p.path(file), "utf8")}`).toBe(true);
    }
  });
});
