import { describe, expect, it } from "vitest";
import { bashRuleMatches, ifRuleMatches, parsePermissionRule, pathRuleMatches, simpleCommands, wildcardMatch } from "../src/runner/permissionRule.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

describe("`if`: Claude Code's permission rule", () => {
  it("parses Tool(content) the way Claude does", () => {
    expect(parsePermissionRule("Bash(git *)")).toEqual({ toolName: "Bash", content: "git *" });
    expect(parsePermissionRule("Read")).toEqual({ toolName: "Read" });
    expect(parsePermissionRule("Bash(*)")).toEqual({ toolName: "Bash" });
    expect(parsePermissionRule("Bash()")).toEqual({ toolName: "Bash" });
    expect(parsePermissionRule("Task(x)")).toEqual({ toolName: "Agent", content: "x" });
    expect(parsePermissionRule("Bash(echo \\(hi\\))")).toEqual({ toolName: "Bash", content: "echo (hi)" });
    expect(parsePermissionRule("Bash(git *) extra")).toEqual({ toolName: "Bash(git *) extra" }); // malformed: matches no tool
  });

  it("wildcards: * any run, a single trailing ' *' also matches nothing, \\* a literal star", () => {
    expect(wildcardMatch("git *", "git")).toBe(true);
    expect(wildcardMatch("git *", "git push origin")).toBe(true);
    expect(wildcardMatch("git *", "gitk")).toBe(false);
    expect(wildcardMatch("git push*", "git push --force")).toBe(true);
    expect(wildcardMatch("git push*", "git pull")).toBe(false);
    expect(wildcardMatch("echo \\*", "echo *")).toBe(true);
    expect(wildcardMatch("echo \\*", "echo x")).toBe(false);
    expect(wildcardMatch("src/**/*.ts", "src/a/b/c.ts")).toBe(true);
    expect(wildcardMatch("src/**/*.ts", "src/c.ts")).toBe(true);
  });

  it("splits a Bash line into its simple commands, without quotes, assignments or redirections", () => {
    expect(simpleCommands("cd web && FOO=1 npm test 2>&1 | tee log.txt; git push origin 'main'")).toEqual(["cd web", "npm test", "tee log.txt", "git push origin main"]);
    expect(simpleCommands("echo $(git push)")).toBeNull();
  });

  it("compound commands are not followed (they run the hook): a guard on `git push*` is not skipped by wrapping the push", () => {
    for (const line of ["if true; then git push --force; fi", "! git push", "time git push", "while true; do git push; done", "for r in a b; do git push $r; done", "X=1 time git push"]) {
      expect(simpleCommands(line), line).toBeNull();
      expect(bashRuleMatches("git push*", line), line).toBe(true);
    }
    // A reserved word as an argument is just a word.
    expect(simpleCommands("echo if then fi")).toEqual(["echo if then fi"]);
  });

  it("Bash rules: any simple command of the line matches; `X:*` is a prefix; unreadable lines run the hook", () => {
    expect(bashRuleMatches("git push*", "npm test")).toBe(false);
    expect(bashRuleMatches("git push*", "npm test && git push origin main")).toBe(true);
    expect(bashRuleMatches("git push*", "git   push")).toBe(true);
    expect(bashRuleMatches("git *", "git status")).toBe(true);
    expect(bashRuleMatches("git *", "echo git")).toBe(false);
    expect(bashRuleMatches("npm run test:*", "npm run test")).toBe(true);
    expect(bashRuleMatches("npm run test:*", "npm run test -- --watch")).toBe(true);
    expect(bashRuleMatches("npm run test:*", "npm run testing")).toBe(false);
    expect(bashRuleMatches("rm *", "find . | xargs rm -f")).toBe(true);
    expect(bashRuleMatches("git push*", "echo `date`")).toBe(true);
  });

  it("a wrapper's command is read too: env, command, nohup, timeout, nice, sudo, exec, eval, sh -c and friends do not slip past `git push*`", () => {
    const wrapped = [
      "env X=1 git push --force",
      "env -i -u HOME PATH=/bin git push --force",
      "/usr/bin/env git push",
      "command git push",
      "command -p git push",
      "nohup git push --force &",
      "timeout 5 git push",
      "timeout -s KILL --kill-after=2 5s git push",
      "nice git push",
      "nice -n 5 git push",
      "nice -5 git push",
      "sudo git push",
      "sudo -u deploy -E git push",
      "sudo --user=deploy git push",
      "sudo -s git push",
      "doas -u root git push",
      "exec git push",
      "exec -a name git push",
      'eval "git push --force"',
      "eval git push",
      'bash -c "git push --force"',
      "sh -c 'git push'",
      "bash -lc 'cd repo && git push'",
      "zsh -ec 'git push'",
      "setsid git push",
      "stdbuf -o0 git push",
      "/usr/bin/git push --force",
      "sudo env X=1 timeout 9 nice -n 2 nohup git push",
      "sh -c \"sh -c 'eval git push'\"",
    ];
    for (const line of wrapped) expect(bashRuleMatches("git push*", line), line).toBe(true);
    // what the wrappers run is matched, not everything: these run no push
    for (const line of ["env X=1 git status", "sudo ls", "timeout 5 npm test", "bash -c 'echo git push'", "sh ./deploy.sh", "nice -n 5 make", "command -v git"])
      expect(bashRuleMatches("git push*", line), line).toBe(false);
    expect(simpleCommands("sudo -u deploy git push")).toEqual(["sudo -u deploy git push", "git push"]);
  });

  it("a wrapper whose command cannot be read runs the hook: an unknown option, a shell reading stdin, nesting too deep", () => {
    for (const line of ["echo 'git push' | bash", "sudo --weird git push", "env -S 'git push'", "timeout --what 5 git push", "sh -s", `${"eval ".repeat(20)}git status`])
      expect(bashRuleMatches("git push*", line), line).toBe(true);
  });

  it("wildcards match as the regular expression they stand for, in time linear in the value (a 64 KB command, several stars)", () => {
    // the reference: the pattern as a regular expression, as Claude Code matches it
    const reference = (pattern: string, value: string) => {
      const marked = pattern.trim().replace(/\\\*/g, "\0S").replace(/\\\\/g, "\0B");
      let re = marked
        .replace(/[.+?^${}()|[\]\\'"]/g, "\\$&")
        .replace(/\/(?:\*\*\/)+/g, "\0G")
        .replaceAll("*", ".*")
        .replaceAll("\0G", "/(?:.*/)?")
        .replaceAll("\0S", "\\*")
        .replaceAll("\0B", "\\\\");
      if (re.endsWith(" .*") && (marked.match(/\*/g) ?? []).length === 1) re = `${re.slice(0, -3)}( .*)?`;
      return new RegExp(`^${re}$`, "s").test(value);
    };
    let seed = 7;
    const pick = (xs: string[]) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return xs[seed % xs.length];
    };
    for (let n = 0; n < 4000; n++) {
      const pattern = Array.from({ length: 1 + (n % 7) }, () => pick(["a", "b", "/", "*", " ", "\\*", "/**/", "ab"])).join("");
      const value = Array.from({ length: n % 9 }, () => pick(["a", "b", "/", " ", "*", "ab/"])).join("");
      expect(wildcardMatch(pattern, value), `${JSON.stringify(pattern)} ~ ${JSON.stringify(value)}`).toBe(reference(pattern, value));
    }
    const long = `git ${"a ".repeat(32_000)}`;
    expect(wildcardMatch("git * * --force *", long)).toBe(false);
    expect(wildcardMatch("git * * --force *", `${long} --force x`)).toBe(true);
    expect(bashRuleMatches("git * * --force *", long)).toBe(false);
  });

  it("file rules: gitignore-style below their root", () => {
    const roots = { cwd: "/repo", projectDir: "/repo", home: "/home/u" };
    expect(pathRuleMatches("src/**", "/repo/src/a/b.ts", roots)).toBe(true);
    expect(pathRuleMatches("src/**", "/repo/test/a.ts", roots)).toBe(false);
    expect(pathRuleMatches("*.env", "/repo/config/prod.env", roots)).toBe(true);
    expect(pathRuleMatches(".env", "/repo/sub/.env", roots)).toBe(true);
    expect(pathRuleMatches("/docs/*.md", "/repo/docs/a.md", roots)).toBe(true);
    expect(pathRuleMatches("//etc/**", "/etc/hosts", roots)).toBe(true);
    expect(pathRuleMatches("~/notes/*", "/home/u/notes/x.md", roots)).toBe(true);
    expect(pathRuleMatches("src/**", "src/x.ts", roots)).toBe(true); // a relative path is resolved against cwd
  });

  it("only tool events; the tool name must be the rule's; other tools have no content matcher", () => {
    const roots = { cwd: "/repo", projectDir: "/repo", home: "/home/u" };
    const bash = { tool_name: "Bash", tool_input: { command: "git push" } };
    expect(ifRuleMatches("Bash(git *)", "pre_tool_use", bash, roots)).toBe(true);
    expect(ifRuleMatches("Bash(git *)", "permission_denied", bash, roots)).toBe(true);
    expect(ifRuleMatches("Bash(git *)", "stop", bash, roots)).toBe(false);
    expect(ifRuleMatches("Bash", "post_tool_use", bash, roots)).toBe(true);
    expect(ifRuleMatches("Edit", "pre_tool_use", bash, roots)).toBe(false);
    expect(ifRuleMatches("Edit(src/**)", "pre_tool_use", { tool_name: "Edit", tool_input: { file_path: "/repo/src/a.ts" } }, roots)).toBe(true);
    // Copilot CLI names the tools as Claude does but the path `path` (its PascalCase payloads).
    expect(ifRuleMatches("Write(src/**)", "pre_tool_use", { tool_name: "Write", tool_input: { path: "/repo/src/a.ts", file_text: "x" } }, roots)).toBe(true);
    expect(ifRuleMatches("Write(src/**)", "pre_tool_use", { tool_name: "Write", tool_input: { path: "/repo/test/a.ts" } }, roots)).toBe(false);
    expect(ifRuleMatches("Grep(*.ts)", "pre_tool_use", { tool_name: "Grep", tool_input: { pattern: "x.ts" } }, roots)).toBe(true);
    expect(ifRuleMatches("WebFetch(domain:example.com)", "pre_tool_use", { tool_name: "WebFetch", tool_input: { url: "https://example.com" } }, roots)).toBe(false);
    expect(ifRuleMatches("WebFetch", "pre_tool_use", { tool_name: "WebFetch", tool_input: {} }, roots)).toBe(true);
  });
});

describe("`if` through the CLI", () => {
  const config = [
    "hooks:",
    "  pre_tool_use:",
    "    - name: security-review",
    "      matcher: Bash",
    '      if: "Bash(git push*)"',
    "      command: echo reviewed",
    "    - name: edits",
    '      if: "Edit(src/**)"',
    "      command: echo edit",
    "",
  ].join("\n");

  async function ran(dir: string, env: Record<string, string>, context: object): Promise<string[]> {
    const r = await runMain(["--trust", "run", "pre_tool_use", "--output", "json"], { cwd: dir, env, input: JSON.stringify(context) });
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { hooks: { name: string }[] }).hooks.map((h) => h.name);
  }

  it("a security review with `if: Bash(git push*)` does not run for `npm test`, and runs for `git push`", async () => {
    const t = sandbox();
    t.write("hooks.yaml", config);
    expect(await ran(t.dir, t.env, { tool_name: "Bash", tool_input: { command: "npm test" } })).toEqual([]);
    expect(await ran(t.dir, t.env, { tool_name: "Bash", tool_input: { command: "npm test && git push origin main" } })).toEqual(["security-review"]);
    expect(await ran(t.dir, t.env, { tool_name: "Edit", tool_input: { file_path: t.path("src/a.ts") } })).toEqual(["edits"]);
    expect(await ran(t.dir, t.env, { tool_name: "Edit", tool_input: { file_path: t.path("README.md") } })).toEqual([]);
  });

  it("`hooks list --json` shows it; `hooks validate` warns when the event has no tool call", async () => {
    const t = sandbox();
    t.write("hooks.yaml", `${config}  stop:\n    - name: never\n      if: Bash\n      command: "true"\n`);
    const list = await runMain(["list", "--json"], { cwd: t.dir, env: t.env });
    const hooks = JSON.parse(list.stdout) as { name: string; if: string | null }[];
    expect(hooks.map((h) => [h.name, h.if])).toEqual([
      ["security-review", "Bash(git push*)"],
      ["edits", "Edit(src/**)"],
      ["never", "Bash"],
    ]);
    const v = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(v.code).toBe(0);
    expect(v.stderr + v.stdout).toMatch(/hooks\.yaml:\d+:\d+: warning: hook `never` never runs: `if` tests a tool call, and `stop` has none/);
    const r = await runMain(["--trust", "run", "stop", "--output", "json"], { cwd: t.dir, env: t.env, input: "{}" });
    expect((JSON.parse(r.stdout) as { hooks: unknown[] }).hooks).toEqual([]);
  });

  it("an empty `if` is a config error", async () => {
    const t = sandbox();
    t.write("hooks.yaml", 'hooks:\n  pre_tool_use:\n    - {name: a, if: "", command: "true"}\n');
    const v = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(v.code).toBe(78);
  });
});
