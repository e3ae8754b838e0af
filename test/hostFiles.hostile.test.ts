import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
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
    // a dotted key nests a table per dot: smol-toml takes 5,000 of them, and a walk of the result ran out of stack
    const dotted = `schema_version = 2\n${Array(5000).fill("a").join(".")} = 1\n`;
    p.write(".agent/settings.toml", dotted);
    for (const args of [
      ["import", "agent-code"],
      ["install", "agent-code"],
    ]) {
      const r = await runMain(args, { cwd: p.dir, env });
      expect(r.stdout + r.stderr, args.join(" ")).toMatch(/settings\.toml:2\b.*nested more than 200 levels deep/s);
    }
    expect(readFileSync(p.path(".agent/settings.toml"), "utf8")).toBe(dotted);
  });

  it("the scanner skips strings and comments, and counts every bracket outside them", () => {
    const deepString = `{"a": "${"[".repeat(500)}"} // ${"{".repeat(500)}\n`;
    expect(nestingTooDeepAt(deepString, "json")).toBeNull();
    expect(nestingTooDeepAt(`x = '${"[".repeat(500)}' # ${"[".repeat(500)}\n`, "toml")).toBeNull();
    expect(nestingTooDeepAt(`/* ${"[".repeat(500)} */ ${"[".repeat(201)}`, "json")).toBe(3 + 500 + 4 + 200);
    expect(nestingTooDeepAt("[".repeat(200), "json")).toBeNull();
    // TOML's dots count per line, a comment's dots not at all
    expect(nestingTooDeepAt(`${"a.".repeat(150)}b = 1\n${"c.".repeat(150)}d = 2 # ${".".repeat(300)}\ne = 1.5\n`, "toml")).toBeNull();
    expect(nestingTooDeepAt(`${"a.".repeat(201)}b = 1\n`, "toml")).toBe(401);
    expect(nestingTooDeepAt(`x = "${".".repeat(300)}"\n`, "toml")).toBeNull();
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

describe("writes stay in the project: a symlink out of it is refused, nothing written", () => {
  /** A project whose `link` is a symlink to `outside/target` (a stand-in for the user's home), that target made first by `make`. */
  function linked(link: string, target: string, make: (abs: string) => void) {
    const p = sandbox({ config: CONFIG });
    const outside = p.path(`../outside/${target}`);
    make(outside);
    mkdirSync(path.dirname(p.path(link)), { recursive: true });
    rmSync(p.path(link), { force: true });
    symlinkSync(outside, p.path(link));
    return { p, outside, env: { ...p.env, HOOKS_TRUST: "1" } };
  }
  const tree = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []);

  it("install through a .claude linked to the user's own: refused, the user's settings untouched", async () => {
    const mine = '{\n  "model": "mine"\n}\n';
    const { p, outside, env } = linked(".claude", "claude-home", (d) => {
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, "settings.json"), mine);
    });
    const r = await runMain(["install", "claude"], { cwd: p.dir, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/refusing to write .*settings\.json: a symlink takes it to .*outside.*claude-home.*nothing was written/);
    expect(readFileSync(path.join(outside, "settings.json"), "utf8")).toBe(mine);
  });

  it("a host folder that is a symlink loop is an error naming it, not an internal error", async () => {
    const p = sandbox({ config: CONFIG });
    symlinkSync(".claude", p.path(".claude"));
    const r = await runMain(["install", "claude"], { cwd: p.dir, env: { ...p.env, HOOKS_TRUST: "1" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot write .*\.claude\/settings\.json: cannot create the folder .*\/\.claude \(ELOOP\); make it a folder/);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it("uninstall through a .codex linked outside: refused, the outside file not deleted", async () => {
    const { p, outside, env } = linked(".codex", "codex-home", (d) => mkdirSync(d, { recursive: true }));
    // hookrun's own entries there (as if installed by the user for that other place)
    const q = sandbox({ config: CONFIG });
    mkdirSync(q.path(".codex"));
    expect((await runMain(["install", "codex"], { cwd: q.dir, env: { ...q.env, HOOKS_TRUST: "1" } })).code).toBe(0);
    const theirs = readFileSync(q.path(".codex/hooks.json"), "utf8");
    writeFileSync(path.join(outside, "hooks.json"), theirs);
    const r = await runMain(["uninstall", "codex"], { cwd: p.dir, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/refusing to write .*hooks\.json: a symlink takes it/);
    expect(readFileSync(path.join(outside, "hooks.json"), "utf8")).toBe(theirs);
  });

  it("install cline through a .clinerules linked outside: no script lands there", async () => {
    const { p, outside, env } = linked(".clinerules", "bin", (d) => mkdirSync(d, { recursive: true }));
    const r = await runMain(["install", "cline"], { cwd: p.dir, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/refusing to write .*PreToolUse: a symlink takes it/);
    expect(tree(outside)).toEqual([]);
  });

  it("init leaves a .gitignore linked outside alone, and init --force does not write through a hooks.yaml linked outside", async () => {
    const bashrc = "export PS1='$ '\n";
    const { p, outside } = linked(".gitignore", "bashrc", (f) => {
      mkdirSync(path.dirname(f), { recursive: true });
      writeFileSync(f, bashrc);
    });
    rmSync(p.path("hooks.yaml"));
    const r = await runMain(["init"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\.gitignore is a symlink out of the project, left alone/);
    expect(readFileSync(outside, "utf8")).toBe(bashrc);
    const q = linked("hooks.yaml", "config.yaml", (f) => {
      mkdirSync(path.dirname(f), { recursive: true });
      writeFileSync(f, "mine: true\n");
    });
    const forced = await runMain(["init", "--force", "--person"], { cwd: q.p.dir, env: q.p.env });
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toMatch(/refusing to write .*hooks\.yaml: a symlink takes it/);
    expect(readFileSync(q.outside, "utf8")).toBe("mine: true\n");
  });

  it("import --write keeps a symlinked hooks.yaml a symlink inside the project, and refuses one that points outside", async () => {
    const settings = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "./notify.sh" }] }] } });
    const p = sandbox({ config: CONFIG });
    p.write("config/hooks.yaml", CONFIG);
    rmSync(p.path("hooks.yaml"));
    symlinkSync("config/hooks.yaml", p.path("hooks.yaml"));
    p.write(".claude/settings.json", settings);
    const r = await runMain(["import", "claude", "--write"], { cwd: p.dir, env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(p.path("hooks.yaml")).isSymbolicLink()).toBe(true);
    expect(readFileSync(p.path("config/hooks.yaml"), "utf8")).toMatch(/notify\.sh/);
    const q = linked("hooks.yaml", "hooks.yaml", (f) => {
      mkdirSync(path.dirname(f), { recursive: true });
      writeFileSync(f, CONFIG);
    });
    q.p.write(".claude/settings.json", settings);
    const out = await runMain(["import", "claude", "--write"], { cwd: q.p.dir, env: q.p.env });
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/refusing to write .*hooks\.yaml: a symlink takes it/);
    expect(readFileSync(q.outside, "utf8")).toBe(CONFIG);
    expect(lstatSync(q.p.path("hooks.yaml")).isSymbolicLink()).toBe(true);
  });
});
