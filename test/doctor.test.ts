import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { HOSTS, hostByName, resolveHost } from "../src/hosts/adapters.js";
import { EVENT_BY_NAME } from "../src/events/catalog.js";
import { CLI, runMain, spawnCli } from "./helpers/cli.js";
import { alive, type Sandbox, sandbox, useSandbox, waitGone } from "./helpers/sandbox.js";
import { waitFor } from "./helpers/waitFor.js";

// `hooks doctor` against the real config files `hooks install` writes for Claude Code, Gemini CLI
// and Codex CLI; each entry is fired as the host fires it (its shell, cwd, variables, payload)
// through the project's node_modules/.bin/hooks, a link to this checkout's dist/bin/hooks.js
// (`npm run build` first). Each failure case is one check: it passes only when that check reports.

const CONFIG = `hooks:
  pre_tool_use:
    - {name: guard, command: ./guard.sh, matcher: Bash}
    - {name: writes, command: echo wrote, matcher: Write}
  stop:
    - {name: tests, command: echo done}
`;

interface Finding {
  host: string;
  layer: string;
  event?: string;
  level: "error" | "warning" | "ok";
  what: string;
  where?: string;
  fix?: string;
}
interface Report {
  ok: boolean;
  installed: number;
  hosts: { host: string; layer: string; errors: number; warnings: number; events: string[] }[];
  events: { host: string; layer: string; event: string; canonical: string; reaches: boolean; runs: string[]; filtered: { name: string; reasons: string[] }[] }[];
  findings: Finding[];
}

const hooks = (sb: Sandbox, ...args: string[]) => runMain(args, { cwd: sb.dir, env: sb.env });

async function doctor(sb: Sandbox, ...args: string[]): Promise<{ code: number | null; report: Report; text: string }> {
  const r = await hooks(sb, "doctor", "--json", ...args);
  const text = await hooks(sb, "doctor", ...args);
  expect(text.code).toBe(r.code);
  return { code: r.code, report: JSON.parse(r.stdout) as Report, text: text.stdout };
}

const errors = (r: Report) => r.findings.filter((f) => f.level === "error");

/** A project with hooks.yaml, guard.sh, hookrun linked as node_modules/.bin/hooks, installed for `hosts` and trusted. */
async function project(hosts = ["claude", "gemini", "codex"], config = CONFIG): Promise<Sandbox> {
  const sb = sandbox({ config, prefix: "hookrun-doctor-" });
  sb.write("guard.sh", "#!/bin/sh\nexit 0\n");
  chmodSync(sb.path("guard.sh"), 0o755);
  sb.write("node_modules/.bin/.keep", "");
  symlinkSync(CLI, sb.path("node_modules/.bin/hooks"));
  expect((await hooks(sb, "install", ...hosts)).code).toBe(0);
  expect((await hooks(sb, "trust", "--yes")).code).toBe(0);
  return sb;
}

const editJson = (sb: Sandbox, rel: string, change: (v: Record<string, Record<string, unknown[]>>) => void) => {
  const v = JSON.parse(readFileSync(sb.path(rel), "utf8"));
  change(v);
  writeFileSync(sb.path(rel), `${JSON.stringify(v, null, 2)}\n`);
};

describe("hooks doctor", () => {
  it("a healthy project: exit 0, and per host and event the hooks that would run, and the ones the matcher filters out with why", async () => {
    const sb = await project();
    const { code, report, text } = await doctor(sb);
    expect(code, text).toBe(0);
    expect(report.ok).toBe(true);
    expect(errors(report)).toEqual([]);
    expect(report.installed).toBe(3);
    expect(report.hosts.map((h) => `${h.host} ${h.layer} ${h.errors} ${h.events}`)).toEqual([
      "claude project 0 PreToolUse,PreSkillShellCommand,Stop",
      "codex project 0 PreToolUse,Stop",
      "gemini project 0 BeforeTool,AfterAgent",
    ]);
    const ev = (host: string, event: string) => report.events.find((e) => e.host === host && e.event === event)!;
    for (const [host, pre, stop] of [
      ["claude", "PreToolUse", "Stop"],
      ["gemini", "BeforeTool", "AfterAgent"],
      ["codex", "PreToolUse", "Stop"],
    ]) {
      expect(ev(host, pre)).toMatchObject({ canonical: "pre_tool_use", reaches: true, runs: ["guard"] });
      expect(ev(host, pre).filtered).toEqual([{ name: "writes", reasons: ['matcher "Write" does not match tool_name "Bash"'] }]);
      expect(ev(host, stop)).toMatchObject({ canonical: "stop", reaches: true, runs: ["tests"], filtered: [] });
    }
    // The probe is a shell call: a hook for other tools is said to wait for them, not filtered out.
    expect(text).toMatch(/Claude Code \(project\)\n[\s\S]*PreToolUse → pre_tool_use: runs guard for a shell call; for other tools: writes \(matcher "Write"\)\n/);
    expect(text).toMatch(/BeforeTool → pre_tool_use: runs guard/);
    // Claude Code's event for a skill's embedded shell command reaches the same guard.
    expect(ev("claude", "PreSkillShellCommand")).toMatchObject({ canonical: "pre_tool_use", reaches: true, runs: ["guard"] });
    expect(text).toMatch(/every installed entry reaches hookrun/);
  });

  it("60 copies of one entry: it is fired once, and the doctor says the host runs hookrun 60 times", async () => {
    const sb = await project(["claude"]);
    editJson(sb, ".claude/settings.json", (v) => {
      v.hooks.Stop = Array.from({ length: 60 }, () => v.hooks.Stop[0]);
    });
    const r = await hooks(sb, "doctor", "claude");
    // each firing prints its line: one, not 60
    expect(r.stdout.match(/Stop → stop: runs tests/g), r.stdout).toHaveLength(1);
    expect(r.stdout).toMatch(/Stop: 60 entries run the same command, so Claude Code runs hookrun 60 times for each Stop \(fired once here\)/);
  });

  it("HOST arguments check only those hosts; a named host without entries is an error", async () => {
    const sb = await project(["claude"]);
    const only = await doctor(sb, "claude");
    expect(only.code).toBe(0);
    expect(new Set(only.report.events.map((e) => e.host))).toEqual(new Set(["claude"]));
    const gemini = await doctor(sb, "gemini");
    expect(gemini.code).toBe(1);
    expect(errors(gemini.report)[0]).toMatchObject({ host: "gemini", fix: "hooks install gemini" });
  });

  it("stale entries after hooks.yaml changed: an error per event, fixed by hooks install", async () => {
    const sb = await project();
    sb.write("hooks.yaml", `${CONFIG}    - {name: lint, command: echo lint, timeout: 5m}\n`);
    await hooks(sb, "trust", "--yes");
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    const stale = errors(report).filter((f) => /stale/.test(f.what));
    expect(stale.map((f) => `${f.host} ${f.event}`).sort()).toEqual(["claude Stop", "codex Stop", "gemini AfterAgent"]);
    expect(stale.find((f) => f.host === "gemini")!.fix).toBe("hooks install gemini");
    await hooks(sb, "install");
    expect((await doctor(sb)).code).toBe(0);
  });

  it("a misspelled event key: the host skips its entries, and the doctor names the event meant", async () => {
    const sb = await project();
    editJson(sb, ".claude/settings.json", (v) => {
      v.hooks.PreTooluse = [{ matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh" }] }];
    });
    editJson(sb, ".gemini/settings.json", (v) => {
      v.hooks.disabled = ["some-hook"];
    });
    expect((await doctor(sb, "gemini")).report.findings.filter((f) => f.level !== "ok")).toEqual([]);
    const { code, report } = await doctor(sb, "claude");
    expect(code).toBe(1);
    expect(errors(report)).toEqual([
      expect.objectContaining({
        host: "claude",
        event: "PreTooluse",
        what: expect.stringMatching(/"PreTooluse" is not a Claude Code event \(did you mean "PreToolUse"\?\): Claude Code skips its 1 entry/),
        where: expect.stringMatching(/^\.claude\/settings\.json:\d+$/),
      }),
    ]);
  });

  it("an entry without a command, or a Codex handler without type (Codex drops the whole file)", async () => {
    const sb = await project(["claude", "codex"]);
    editJson(sb, ".claude/settings.json", (v) => {
      v.hooks.Stop.push({ hooks: [{ type: "command" }] });
    });
    editJson(sb, ".codex/hooks.json", (v) => {
      v.hooks.Stop.push({ hooks: [{ command: "echo mine" }] });
    });
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    expect(report.findings).toContainEqual(expect.objectContaining({ host: "claude", event: "Stop", level: "warning", what: "an entry with no `command`: Claude Code skips it" }));
    expect(errors(report)).toEqual([expect.objectContaining({ host: "codex", event: "Stop", what: expect.stringMatching(/no `type`.*Codex refuses the whole file/) })]);
  });

  it("invalid JSON: the host drops the whole file (FILE:LINE)", async () => {
    const sb = await project();
    writeFileSync(sb.path(".gemini/settings.json"), '{\n  "hooks": {\n    "BeforeTool": [\n');
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    expect(errors(report)).toEqual([
      expect.objectContaining({ host: "gemini", what: expect.stringMatching(/not valid JSON .*Gemini CLI drops the whole file/), where: expect.stringMatching(/^\.gemini\/settings\.json:\d+$/) }),
    ]);
  });

  it("a FIFO or a symlink loop in place of the settings file is refused at once, never read", async () => {
    const sb = await project(["claude"]);
    unlinkSync(sb.path(".claude/settings.json"));
    execFileSync("mkfifo", [sb.path(".claude/settings.json")]);
    const { code, report } = await doctor(sb, "claude");
    expect(code).toBe(1);
    expect(errors(report)[0].what).toMatch(/is a FIFO, not a regular file/);
    unlinkSync(sb.path(".claude/settings.json"));
    symlinkSync("settings.json", sb.path(".claude/settings.json"));
    const loop = await doctor(sb, "claude");
    expect(loop.code).toBe(1);
    expect(errors(loop.report)[0].what).toMatch(/cannot read Claude Code config .*\(ELOOP\)/);
  });

  it("untrusted hooks.yaml: nothing would run under any host", async () => {
    const sb = await project();
    await hooks(sb, "untrust");
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    expect(errors(report)).toContainEqual(expect.objectContaining({ host: "*", what: expect.stringMatching(/hooks\.yaml is not trusted/), fix: expect.stringMatching(/hooks trust/) }));
    expect(
      errors(report)
        .filter((f) => /reaches hookrun, which runs none/.test(f.what))
        .map((f) => f.host),
    ).toEqual(["claude", "claude", "claude", "codex", "codex", "gemini", "gemini"]);
  });

  it("node_modules/.bin/hooks missing: each dispatch fails as its host would see it, and the fix is npm install", async () => {
    const sb = await project();
    renameSync(sb.path("node_modules/.bin/hooks"), sb.path("hooks.moved"));
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    const failed = errors(report).filter((f) => /never reaches hookrun/.test(f.what));
    expect(failed).toHaveLength(7);
    for (const f of failed) expect(f.fix).toMatch(/npm install --save-dev hookrun/);
    expect(failed.find((f) => f.host === "claude")!.what).toMatch(/`\/bin\/sh -c COMMAND`\), it exits 127: command not found/);
    expect(failed.find((f) => f.host === "codex")!.what).toMatch(/no node_modules\/\.bin\/hooks/);
  });

  it("a cloned, untrusted repository's own node_modules/hookrun is never run by the doctor; once hooks.yaml is trusted it is", async () => {
    const sb = await project(["claude", "codex"]);
    // the repository commits "hookrun" itself: its own code, run by whoever runs the doctor
    unlinkSync(sb.path("node_modules/.bin/hooks"));
    sb.write("node_modules/hookrun/dist/bin/hooks.js", `#!/bin/sh\ntouch '${sb.path("pwned")}'\nexec '${process.execPath}' '${CLI}' "$@"\n`);
    chmodSync(sb.path("node_modules/hookrun/dist/bin/hooks.js"), 0o755);
    symlinkSync("../hookrun/dist/bin/hooks.js", sb.path("node_modules/.bin/hooks"));
    sb.write("hooks.yaml", `${CONFIG}    - {name: more, command: echo more}\n`);
    const { text } = await doctor(sb);
    expect(existsSync(sb.path("pwned"))).toBe(false);
    expect(text).toMatch(/node_modules\/\.bin\/hooks: not fired \(it is the project's own copy, and hooks\.yaml is not trusted: the doctor runs no code of the repository before `hooks trust`\)/);
    await hooks(sb, "trust", "--yes", "--person");
    await doctor(sb, "claude");
    expect(existsSync(sb.path("pwned"))).toBe(true);
  });

  it("a committed node_modules/.bin/hooks that is not hookrun is never run: an error per host, the fix is npm install", async () => {
    const sb = await project(["claude", "codex", "cline"]);
    unlinkSync(sb.path("node_modules/.bin/hooks"));
    sb.write("node_modules/.bin/hooks", `#!/bin/sh\ntouch '${sb.path("pwned")}'\necho hello\n`);
    chmodSync(sb.path("node_modules/.bin/hooks"), 0o755);
    const { code, report, text } = await doctor(sb);
    expect(code).toBe(1);
    expect(existsSync(sb.path("pwned"))).toBe(false);
    const refused = errors(report).filter((f) => /is not hookrun/.test(f.what));
    expect(refused.map((f) => f.host).sort()).toEqual(["claude", "cline", "codex"]);
    for (const f of refused) {
      expect(f.what).toMatch(/^node_modules\/\.bin\/hooks is not hookrun \(it is a file of its own\): not fired/);
      expect(f.fix).toBe("npm install --save-dev hookrun");
    }
    expect(report.events).toEqual([]);
    expect(text).toMatch(/node_modules\/\.bin\/hooks is not hookrun/);
    // A link to something else is named by what it resolves to.
    unlinkSync(sb.path("node_modules/.bin/hooks"));
    sb.write("tools/hooks", `#!/bin/sh\ntouch '${sb.path("pwned")}'\n`);
    chmodSync(sb.path("tools/hooks"), 0o755);
    symlinkSync("../../tools/hooks", sb.path("node_modules/.bin/hooks"));
    const linked = await doctor(sb, "claude");
    expect(linked.code).toBe(1);
    expect(existsSync(sb.path("pwned"))).toBe(false);
    expect(errors(linked.report)[0].what).toMatch(/^node_modules\/\.bin\/hooks is not hookrun \(it resolves to tools\/hooks\): not fired/);
  });

  it("pnpm's node_modules/.bin/hooks (a cmd-shim script, byte for byte as pnpm 8, 9 and 10 write it) is fired when it only runs hookrun", async () => {
    const sb = await project(["claude", "codex"]);
    // pnpm's layout: the package under .pnpm, linked as node_modules/hookrun; here the package is this repository.
    sb.write("node_modules/.pnpm/hookrun@0.1.0/node_modules/.keep", "");
    symlinkSync(path.resolve(CLI, "../../.."), sb.path("node_modules/.pnpm/hookrun@0.1.0/node_modules/hookrun"));
    symlinkSync(".pnpm/hookrun@0.1.0/node_modules/hookrun", sb.path("node_modules/hookrun"));
    const shim = (version: string, edit = (t: string) => t) => {
      unlinkSync(sb.path("node_modules/.bin/hooks"));
      const text = readFileSync(path.join(import.meta.dirname, "fixtures/pnpm-shims", `${version}.sh`), "utf8")
        .replaceAll("@ROOT@", sb.dir)
        .replaceAll("hookrun@file+hookrun-0.1.0.tgz", "hookrun@0.1.0")
        .replaceAll("file+hookrun-0.1.0.tgz", "hookrun@0.1.0");
      sb.write("node_modules/.bin/hooks", edit(text));
      chmodSync(sb.path("node_modules/.bin/hooks"), 0o755);
    };
    for (const version of ["pnpm8", "pnpm9", "pnpm10"]) {
      shim(version);
      const { code, report, text } = await doctor(sb);
      expect(code, `${version}: ${text}`).toBe(0);
      expect(
        report.events
          .filter((e) => e.reaches)
          .map((e) => e.host)
          .sort(),
        version,
      ).toEqual(["claude", "claude", "claude", "codex", "codex"]);
    }
    // One line more than cmd-shim writes, a target outside a hookrun package, a node beside it: refused, nothing run.
    const refusals: [string, () => void, RegExp][] = [
      ["a line more", () => shim("pnpm9", (t) => t.replace("\nif [ -x", `\ntouch '${sb.path("pwned")}'\nif [ -x`)), /\(it is a file of its own\)/],
      ["its own target", () => shim("pnpm9", (t) => t.replaceAll("../hookrun/dist/bin/hooks.js", "../../tools/evil.js")), /\(it is a pnpm script that runs tools\/evil\.js\)/],
      // sh keeps a CR in $basedir (a committed `.bin\r/node` would run); JS's trim would not see it.
      ["a CR after basedir", () => shim("pnpm9", (t) => t.replace("g')\")\n", "g')\")\r\n")), /\(it is a file of its own\)/],
      // "$basedir//abs/…" runs a file under .bin; resolved as a path it would be /abs/….
      ["an absolute target", () => shim("pnpm9", (t) => t.replaceAll('"$basedir/../hookrun/', `"$basedir/${sb.dir}/node_modules/hookrun/`)), /\(it is a file of its own\)/],
      ["the exec before basedir is set", () => shim("pnpm9", (t) => t.replace("#!/bin/sh\n", '#!/bin/sh\nexec node  "$basedir/../hookrun/dist/bin/hooks.js" "$@"\n')), /\(it is a file of its own\)/],
      ["a node beside it", () => shim("pnpm10"), /\(it is a pnpm script that would run node_modules\/\.bin\/node\)/],
    ];
    sb.write("tools/evil.js", `require("node:fs").writeFileSync(${JSON.stringify(sb.path("pwned"))}, "")\n`);
    for (const [what, make, why] of refusals) {
      make();
      if (what === "a node beside it") {
        sb.write("node_modules/.bin/node", `#!/bin/sh\ntouch '${sb.path("pwned")}'\n`);
        chmodSync(sb.path("node_modules/.bin/node"), 0o755);
      }
      const { code, report } = await doctor(sb, "claude");
      expect(code, what).toBe(1);
      expect(errors(report)[0].what, what).toMatch(why);
      expect(report.events, what).toEqual([]);
      expect(existsSync(sb.path("pwned")), what).toBe(false);
    }
  });

  it("Claude Code's disableAllHooks in the settings layer that wins, and allowManagedHooksOnly in managed settings: an error at FILE:LINE", async () => {
    const sb = await project(["claude"]);
    const offAt = async (env: Record<string, string> = {}) => {
      const r = await runMain(["doctor", "--json", "claude"], { cwd: sb.dir, env: { ...sb.env, ...env } });
      const report = JSON.parse(r.stdout) as Report;
      return { code: r.code, off: errors(report).filter((f) => /disableAllHooks|allowManagedHooksOnly/.test(f.what)) };
    };
    expect((await offAt()).off).toEqual([]);
    // The local layer (not the file install writes) turns every hook off.
    sb.write(".claude/settings.local.json", '{\n  "model": "x",\n  "disableAllHooks": true\n}\n');
    const local = await offAt();
    expect(local.code).toBe(1);
    expect(local.off).toEqual([
      expect.objectContaining({ host: "claude", layer: "project", where: ".claude/settings.local.json:3", fix: expect.stringMatching(/^remove "disableAllHooks" from .*settings\.local\.json$/) }),
    ]);
    expect(local.off[0].what).toMatch(/Claude Code runs no hook at all/);
    // The layer that wins decides (user < project < local < managed): a local false over the
    // project's true runs hooks, as the real CLI does (test/prove.e2e.test.ts).
    sb.write(".claude/settings.local.json", '{"disableAllHooks": false}\n');
    editJson(sb, ".claude/settings.json", (v) => Object.assign(v, { disableAllHooks: true }));
    expect((await offAt()).off).toEqual([]);
    // A file that does not parse is dropped by Claude Code: it switches nothing.
    sb.write(".claude/settings.local.json", '{"disableAllHooks": false, oops\n');
    expect((await offAt()).off.map((f) => f.where)).toEqual([expect.stringMatching(/^\.claude\/settings\.json:\d+$/)]);
    // The user layer, also where CLAUDE_CONFIG_DIR puts it.
    unlinkSync(sb.path(".claude/settings.local.json"));
    editJson(sb, ".claude/settings.json", (v) => delete (v as Record<string, unknown>).disableAllHooks);
    sb.write("../home/.claude/settings.json", '{"disableAllHooks": true}\n');
    expect((await offAt()).off.map((f) => f.where)).toEqual([expect.stringMatching(/home\/\.claude\/settings\.json:1$/)]);
    sb.write("../elsewhere/settings.json", '{"disableAllHooks": true}\n');
    expect((await offAt({ CLAUDE_CONFIG_DIR: path.join(sb.root, "elsewhere") })).off.map((f) => f.where)).toEqual([expect.stringMatching(/elsewhere\/settings\.json:1$/)]);
    // Managed settings (under /etc/claude-code; here a root of the test's own, through the library).
    unlinkSync(path.join(sb.root, "home/.claude/settings.json"));
    sb.write("../sys/etc/claude-code/managed-settings.json", '{\n  "allowManagedHooksOnly": true\n}\n');
    const { doctor: runDoctor } = await import("../src/prove/doctor.js");
    const report = await runDoctor(await sb.load(), { hosts: ["claude"], env: sb.env, cwd: sb.dir, home: sb.env.HOME, selfBin: CLI, root: path.join(sb.root, "sys") });
    expect(report.findings.filter((f) => f.level === "error")).toEqual([
      expect.objectContaining({
        what: expect.stringMatching(/allowManagedHooksOnly: true` in managed settings: Claude Code ignores the hooks of user and project settings/),
        where: expect.stringMatching(/sys\/etc\/claude-code\/managed-settings\.json:2$/),
      }),
    ]);
  });

  it("Gemini CLI's hooksConfig: enabled false in the file that wins, and disabled naming hookrun's entries: errors", async () => {
    const sb = await project(["gemini"]);
    const off = async (env: Record<string, string> = {}) => {
      const r = await runMain(["doctor", "--json", "gemini"], { cwd: sb.dir, env: { ...sb.env, ...env } });
      return errors(JSON.parse(r.stdout) as Report)
        .filter((f) => /hooksConfig/.test(f.what))
        .map((f) => `${f.where} ${f.what}`);
    };
    expect(await off()).toEqual([]);
    // The user's false, overridden by the project's true: hooks run.
    sb.write("../home/.gemini/settings.json", '{"hooksConfig": {"enabled": false}}\n');
    const edit = (v: Record<string, unknown>) => editJson(sb, ".gemini/settings.json", (s) => Object.assign(s, v));
    edit({ hooksConfig: { enabled: true } });
    expect(await off()).toEqual([]);
    edit({ hooksConfig: {} });
    expect(await off()).toEqual([expect.stringMatching(/home\/\.gemini\/settings\.json:1 `hooksConfig\.enabled: false`: Gemini CLI runs no hook at all/)]);
    // The system file (GEMINI_CLI_SYSTEM_SETTINGS_PATH) wins over the project's true.
    edit({ hooksConfig: { enabled: true } });
    sb.write("../sys.json", '{"hooksConfig": {"enabled": false}}\n');
    expect(await off({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(sb.root, "sys.json") })).toEqual([expect.stringMatching(/sys\.json:1 `hooksConfig\.enabled: false`/)]);
    // `/hooks disable hookrun` writes the entries' name into hooksConfig.disabled.
    sb.write("../home/.gemini/settings.json", '{\n  "hooksConfig": {\n    "disabled": [\n      "other",\n      "hookrun"\n    ]\n  }\n}\n');
    expect(await off()).toEqual([expect.stringMatching(/home\/\.gemini\/settings\.json:5 `hooksConfig\.disabled` lists `hookrun`, the name of hookrun's entries: Gemini CLI skips them/)]);
  });

  it("an installed hookrun package that prints no explanation (not hookrun's JSON) is an error", async () => {
    const sb = await project(["claude"]);
    unlinkSync(sb.path("node_modules/.bin/hooks"));
    sb.write("node_modules/hookrun/dist/bin/hooks.js", "#!/bin/sh\necho hello\n");
    chmodSync(sb.path("node_modules/hookrun/dist/bin/hooks.js"), 0o755);
    symlinkSync("../hookrun/dist/bin/hooks.js", sb.path("node_modules/.bin/hooks"));
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    expect(errors(report)[0].what).toMatch(/printed no explanation/);
  });

  it("a hook's script missing, or present but not executable, and a program not on PATH", async () => {
    const sb = await project(["claude"], `${CONFIG}    - {name: ghost, command: ./scripts/ghost.sh}\n    - {name: prog, command: no-such-program-9f2 --fast}\n`);
    chmodSync(sb.path("guard.sh"), 0o644);
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    const byHook = (name: string) => errors(report).find((f) => f.what.startsWith(`hook ${name}:`))!;
    expect(byHook("guard")).toMatchObject({ where: "hooks.yaml:3", fix: "chmod +x guard.sh", what: expect.stringMatching(/exists but is not executable/) });
    expect(byHook("ghost").what).toMatch(/scripts\/ghost\.sh does not exist/);
    expect(byHook("prog").what).toMatch(/`no-such-program-9f2` is not on PATH/);
  });

  it("a native hook still in the host's config that duplicates a hook of hooks.yaml: a warning, it would run twice", async () => {
    const sb = await project(["claude"]);
    editJson(sb, ".claude/settings.json", (v) => {
      v.hooks.PreToolUse.unshift({ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/guard.sh' }] });
      v.hooks.Stop.unshift({ hooks: [{ type: "command", command: "echo other" }] });
    });
    const { code, report } = await doctor(sb);
    expect(code).toBe(0);
    const dup = report.findings.filter((f) => /would run twice/.test(f.what));
    expect(dup).toEqual([expect.objectContaining({ host: "claude", event: "PreToolUse", level: "warning", where: expect.stringMatching(/^\.claude\/settings\.json:\d+$/) })]);
    expect(dup[0].fix).toMatch(/hooks\.yaml's guard at hooks\.yaml:3/);
  });

  it("agent-code: each [[hooks]] table is fired for its own tool_name, as agent-code fires it (a FileWrite entry for a FileWrite call)", async () => {
    const sb = await project(["agent-code"]);
    const { code, report, text } = await doctor(sb, "agent-code");
    expect(code, text).toBe(0);
    const pre = report.events.filter((e) => e.host === "agent-code" && e.event === "pre_tool_use");
    expect(pre.map((e) => e.runs)).toEqual([["guard"], ["writes"]]);
    expect(text).toMatch(/runs guard for a Bash call; for other tools: writes/);
    expect(text).toMatch(/runs writes for a FileWrite call; for other tools: guard/);
  });

  it("agent-code: a table its settings types refuse (agent-code then does not start) is an error at FILE:LINE; keys it ignores and native duplicates are warnings", async () => {
    const sb = await project(["agent-code"]);
    const file = sb.path(".agent/settings.toml");
    const installed = readFileSync(file, "utf8");
    const lineOf = (needle: string) => readFileSync(file, "utf8").split("\n").indexOf(needle) + 1;
    writeFileSync(
      file,
      `${installed}
# the user's own tables
[[hooks]]
event = "session_end"
action = { type = "shell", command = "echo bye" }

[[hooks]] # guard again
event = "pre_tool_use"
tool_name = "Bash"
matcher = "Bash"
action = { type = "shell", command = "./guard.sh" }

[[hooks]] # no command
event = "stop"
tool_name = "Bash"
action = { type = "shell" }

[[hooks]] # an unknown action type
event = "stop"
action = { type = "exec", command = "true" }
`,
    );
    const { code, report, text } = await doctor(sb, "agent-code");
    expect(code, text).toBe(1);
    const at = (n: number) => `.agent/settings.toml:${n}`;
    const [endLine, guardLine, stopLine] = ["# the user's own tables", "[[hooks]] # guard again", "[[hooks]] # no command"].map(lineOf);
    const execLine = lineOf("[[hooks]] # an unknown action type");
    expect(errors(report).map((f) => [f.where, f.what, f.fix])).toEqual([
      [
        at(endLine + 1),
        expect.stringMatching(/^event "session_end" is not one of agent-code's events \(did you mean `session_stop`\?\): agent-code cannot load its settings and does not start$/),
        'rename it to "session_stop"',
      ],
      [at(stopLine), expect.stringMatching(/^a shell action without a `command` text: agent-code cannot load/), 'add command = "…" to the action'],
      [at(execLine), expect.stringMatching(/^action type "exec" is neither "shell" nor "http": agent-code cannot load/), 'set type = "shell" (or "http")'],
    ]);
    const warned = report.findings.filter((f) => f.level === "warning" && f.where !== ".agent/settings.toml").map((f) => [f.where, f.what]);
    expect(warned).toEqual(
      expect.arrayContaining([
        [at(guardLine), expect.stringMatching(/key "matcher" is not read by agent-code .*: this hook runs without its matcher/)],
        [at(stopLine), expect.stringMatching(/tool_name = "Bash" filters nothing on stop .*: this hook runs on every stop/)],
        [at(guardLine), expect.stringMatching(/agent-code's own pre_tool_use entry runs `\.\/guard\.sh`, as hooks\.yaml's hook guard does: it would run twice/)],
      ]),
    );
    expect(warned).toHaveLength(3);
  });

  it("agent-code: a table of hookrun's under an event named __proto__ or constructor is an unknown event, not a crash", async () => {
    const sb = await project(["agent-code"]);
    const file = sb.path(".agent/settings.toml");
    const installed = readFileSync(file, "utf8");
    const stop = installed.slice(installed.lastIndexOf("[[hooks]]"));
    writeFileSync(file, `${installed}\n${stop.replace('event = "stop"', 'event = "constructor"')}\n${stop.replace('event = "stop"', 'event = "__proto__"')}`);
    const { code, report, text } = await doctor(sb, "agent-code");
    expect(code, text).toBe(1);
    expect(text).not.toMatch(/is not a function|cannot read it/);
    expect(errors(report).map((f) => f.what)).toEqual([
      expect.stringMatching(/^event "constructor" is not one of agent-code's events/),
      expect.stringMatching(/^event "__proto__" is not one of agent-code's events/),
    ]);
    expect(report.findings.filter((f) => /left over/.test(f.what)).map((f) => f.event)).toEqual(["constructor", "__proto__"]);
  });

  it("runs no command of the host's file but the one hooks install writes: a look-alike entry or hook file is reported, never run", async () => {
    const sb = await project(["claude", "cline"]);
    editJson(sb, ".claude/settings.json", (v) => {
      // hookrun's (a dispatch and nothing else), but not the bytes install writes.
      (v.hooks.Stop[0] as { hooks: { command: string }[] }).hooks[0].command = `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks run stop --host claude --record`;
      // The user's own (shell syntax around a dispatch): never fired by the doctor either.
      v.hooks.Stop.push({ hooks: [{ type: "command", command: `touch pwned-entry; "$CLAUDE_PROJECT_DIR"/node_modules/.bin/hooks run stop --host claude` }] });
    });
    const script = sb.path(".clinerules/hooks/TaskComplete");
    writeFileSync(script, readFileSync(script, "utf8").replace("\n", "\ntouch pwned-script\n"));
    const { code, report } = await doctor(sb);
    expect(code).toBe(1);
    expect(existsSync(sb.path("pwned-entry"))).toBe(false);
    expect(existsSync(sb.path("pwned-script"))).toBe(false);
    const notFired = report.findings.filter((f) => /not fired|not run/.test(f.what));
    // the edited script is no longer hookrun's (its exact shape): the user's own, and the stop hooks do not run through it
    expect(notFired.map((f) => `${f.host} ${f.event} ${f.level}`).sort()).toEqual(["claude Stop warning", "cline TaskComplete error"]);
    expect(report.events.find((e) => e.host === "claude" && e.event === "PreToolUse")).toMatchObject({ reaches: true, runs: ["guard"] });
  });

  it("every host with hooks install: each entry reaches hookrun run as that host runs it", async () => {
    // pi and opencode run hookrun in process: their files are checked, not fired (test/hosts.pi.test.ts, test/hosts.opencode.test.ts);
    // Kimi Code has no project layer: its user file is fired in test/hosts.kimi.test.ts.
    const all = HOSTS.filter((h) => h.setup && !h.setup.inProcess && !h.setup.userOnly).map((h) => h.name);
    const sb = await project(all);
    const { code, report, text } = await doctor(sb);
    expect(code, text).toBe(0);
    expect(new Set(report.events.map((e) => e.host))).toEqual(new Set(all));
    for (const e of report.events) expect(e.reaches, `${e.host} ${e.event}`).toBe(true);
    for (const host of all) {
      const ran = report.events.filter((e) => e.host === host).flatMap((e) => e.runs);
      expect(ran, host).toContain("guard");
      // A host without a stop event (Crush fires only PreToolUse) runs the guard alone.
      if (Object.values(hostByName(host)!.events).includes("stop")) expect(ran, host).toContain("tests");
    }
  });

  it("the user layer: its file is checked when it holds hookrun's entries, and fired too", async () => {
    const sb = await project(["claude"]);
    expect((await hooks(sb, "install", "claude", "--user")).code).toBe(0);
    const { code, report } = await doctor(sb);
    expect(code).toBe(0);
    expect(report.events.filter((e) => e.layer === "user").map((e) => `${e.event} ${e.runs}`)).toEqual(["PreToolUse guard", "PreSkillShellCommand guard", "Stop tests"]);
    editJson(sb, `${sb.env.HOME}/.claude/settings.json`, (v) => {
      v.hooks.Stop = [];
    });
    const stale = await doctor(sb);
    expect(stale.code).toBe(1);
    expect(errors(stale.report)).toEqual([expect.objectContaining({ layer: "user", event: "Stop", fix: "hooks install claude --user" })]);
  });

  it("no hooks.yaml: exit 78; no host installed: says how, exit 1", async () => {
    const bare = sandbox();
    expect((await hooks(bare, "doctor")).code).toBe(78);
    const sb = sandbox({ config: CONFIG });
    const r = await hooks(sb, "doctor");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/no agent in this project has hookrun's entries.*run `hooks install`/);
    expect((await hooks(sb, "doctor", "nosuchhost")).code).toBe(64);
    sb.write(".claude/settings.json", JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "echo mine" }] }] } }));
    const native = await doctor(sb);
    expect(native.code).toBe(1);
    expect(native.report.findings).toContainEqual(
      expect.objectContaining({ host: "claude", level: "warning", what: expect.stringMatching(/holds hooks, none of them hookrun's/), fix: "hooks install claude" }),
    );
  });
});

describe("hooks doctor interrupted", () => {
  const sandboxes = useSandbox({ survivors: true });

  it("SIGINT while a probe hangs: its process group is killed, nothing more is fired, exit 130", async () => {
    const sb = await project(["claude"]);
    const pids = sb.path("probe.pids");
    // An installed hookrun package (so the doctor fires it) whose probe hangs: the shell and its sleep.
    unlinkSync(sb.path("node_modules/.bin/hooks"));
    sb.write("node_modules/hookrun/dist/bin/hooks.js", `#!/bin/sh\nsleep 37 &\necho "$$ $!" >> '${pids}'\nwait\n`);
    chmodSync(sb.path("node_modules/hookrun/dist/bin/hooks.js"), 0o755);
    symlinkSync("../hookrun/dist/bin/hooks.js", sb.path("node_modules/.bin/hooks"));
    const started: number[] = [];
    onTestFinished(() => {
      for (const pid of started) if (alive(pid)) process.kill(pid, "SIGKILL");
    });
    const p = spawnCli(["doctor"], { cwd: sb.dir, env: sb.env });
    await waitFor(() => existsSync(pids) && /\d+ \d+\n/.test(readFileSync(pids, "utf8")), { timeoutMs: 15_000, what: "the probe to start" });
    started.push(...readFileSync(pids, "utf8").trim().split(/\s+/).map(Number));
    p.child.kill("SIGINT");
    expect(await p.closed).toEqual({ code: 130, signal: null });
    for (const pid of started) expect(await waitGone(pid, 3000), `pid ${pid}`).toBe(true);
    // The first probe only: the doctor fired nothing after the signal.
    expect(readFileSync(pids, "utf8").trim().split("\n")).toHaveLength(1);
    expect(p.stdout()).toBe("");
    expect(p.stderr()).toMatch(/interrupted by SIGINT/);
    expect(sandboxes.survivors()).toEqual([]);
  });
});

describe("each host's probe payload", () => {
  it("reads as that host's (never detected as another), a tool event's call as Bash", () => {
    for (const host of HOSTS.filter((h) => h.probe)) {
      for (const [hostEvent, canonical] of Object.entries(host.events)) {
        const payload = JSON.parse(JSON.stringify(host.probe!.payload(hostEvent, "/tmp/p")));
        // a named host is answered as itself (only --host claude gives way to another host's payload)
        expect(resolveHost(host.name, payload)?.name, `${host.name} ${hostEvent}`).toBe(host.name);
        const context = host.read(payload, canonical, host.probe!.env("/tmp/p", hostEvent));
        const field = EVENT_BY_NAME.get(canonical)?.matchField;
        if (field === "tool_name" && !/MCP|ReadFile|FileEdit|read_code|write_code|mcp_tool/.test(hostEvent)) expect(context.tool_name, `${host.name} ${hostEvent}`).toBe("Bash");
      }
    }
  });
});
