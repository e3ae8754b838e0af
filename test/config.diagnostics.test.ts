import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../src/errors.js";
import { runMain } from "./helpers/cli.js";
import { sandbox } from "./helpers/sandbox.js";

/** [line, col, severity, message pattern] of each expected diagnostic, in order. */
type Expect = [number, number, Diagnostic["severity"], RegExp];

async function diagnose(file: string, text: string, extra: Record<string, string> = {}): Promise<Diagnostic[]> {
  const t = sandbox();
  t.write(file, text);
  for (const [rel, content] of Object.entries(extra)) t.write(rel, content);
  try {
    const config = await t.load();
    return config.warnings;
  } catch (e) {
    return (e as { diagnostics: Diagnostic[] }).diagnostics;
  }
}

function expectDiagnostics(ds: Diagnostic[], expected: Expect[]): void {
  expect(ds.map((d) => [d.line, d.col, d.severity, d.message])).toEqual(expected.map(([l, c, s, m]) => [l, c, s, expect.stringMatching(m)]));
}

const y = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("syntax problems, each with LINE:COL and what to do", () => {
  it("tab indentation in YAML", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", "hooks:\n\tstop:\n\t\t- name: a\n"), [
      [2, 1, "error", /tab used for indentation.*replace the tabs/],
      [3, 1, "error", /tab used for indentation/],
    ]);
  });

  it("an empty file, or one with only comments", async () => {
    for (const text of ["", "\n\n", "# nothing yet\n", "# nothing yet\r\n# nor here\r\n\r\n", "---\n  # indented\n...", "# no newline at the end"]) {
      expectDiagnostics(await diagnose("hooks.yaml", text), [[1, 1, "error", /the file is empty: add a `hooks:` map.*hooks init/]]);
    }
    expectDiagnostics(await diagnose("hooks.json", "  \n"), [[1, 1, "error", /the file is empty/]]);
  });

  it("a JSON trailing comma (which YAML's flow syntax would accept) is an error at the comma", async () => {
    const text = '{\n  "hooks": {\n    "stop": [\n      {"name": "a", "command": "true"},\n    ]\n  }\n}\n';
    expectDiagnostics(await diagnose("hooks.json", text), [[4, 39, "error", /trailing comma after the last item: JSON does not allow it; remove this comma/]]);
    expectDiagnostics(await diagnose("hooks.json", '{"hooks": {"stop": [],}}'), [[1, 22, "error", /trailing comma/]]);
  });

  it("other JSON syntax errors name their position", async () => {
    expectDiagnostics(await diagnose("hooks.json", '{\n  "hooks": {\n    stop: []\n  }\n}'), [[3, 5, "error", /invalid JSON: expected a double-quoted string but found `s`/]]);
    expectDiagnostics(await diagnose("hooks.json", '{"hooks": {}'), [[1, 13, "error", /expected `,` or `}` but found the end of the file/]]);
    expectDiagnostics(await diagnose("hooks.json", '{"hooks": {}} // done'), [[1, 15, "error", /comment/]]);
  });

  it("duplicate keys in YAML and JSON", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("hooks:", "  stop: []", "  stop: []")), [[3, 3, "error", /duplicate key `stop`: a key may appear only once in a map/]]);
    expectDiagnostics(await diagnose("hooks.json", '{\n"hooks": {},\n"hooks": {}\n}'), [[3, 1, "error", /duplicate key `"hooks"`/]]);
  });

  it("a top level that is not a map", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", "- stop\n- name: a\n"), [[1, 1, "error", /top level must be a map with a `hooks:` key, but it is a list/]]);
    expectDiagnostics(await diagnose("hooks.json", "[1]"), [[1, 1, "error", /but it is a list/]]);
    expectDiagnostics(await diagnose("hooks.yaml", "just words\n"), [[1, 1, "error", /but it is a string/]]);
  });

  it("broken YAML indentation", async () => {
    const ds = await diagnose("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "   command: x"));
    expect(ds[0]).toMatchObject({ line: 4, col: 1, severity: "error" });
    expect(ds[0].message).toMatch(/invalid YAML.*indentation/);
  });
});

describe("validation (docs/configuration.md#diagnostics): all problems at once", () => {
  it("unknown event with suggestions; custom events declared under events: count", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("hooks:", "  stpo: []", "  pre_tool: []", "  deplyo_done: []", "events:", "  deploy_done: { custom: true }")), [
      [2, 3, "error", /unknown event `stpo` \(did you mean `stop`/],
      [3, 3, "error", /unknown event `pre_tool` \(did you mean `pre_tool_use`/],
      [4, 3, "error", /unknown event `deplyo_done` \(did you mean `deploy_done`\?\); or declare it under `events:` with `custom: true`/],
    ]);
  });

  it("unknown event under events: without custom: true", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("events:", "  deploy: { parallel: true }", "  sotp: {}")), [
      [2, 3, "error", /unknown event `deploy` under `events`.*add `custom: true`/],
      [3, 3, "error", /unknown event `sotp` under `events` \(did you mean `stop`/],
    ]);
  });

  it("unknown keys with did-you-mean, at the key's position, in hooks, defaults, events and the top level", async () => {
    expectDiagnostics(
      await diagnose(
        "hooks.yaml",
        y(
          "defaults:",
          "  timout: 5",
          "events:",
          "  stop: { paralel: true }",
          "hook:",
          "  stop: []",
          "hooks:",
          "  stop:",
          "    - name: a",
          "      command: echo",
          "      matcher_: x",
          "      onFailure: block",
          "      x-note: ignored",
          "x-anchors: {}",
        ),
      ),
      [
        [2, 3, "error", /unknown key `timout` in `defaults` \(did you mean `timeout`\?\)/],
        [4, 11, "error", /unknown key `paralel` in the settings of event `stop` \(did you mean `parallel`\?\)/],
        [5, 1, "error", /unknown key `hook` at the top level \(did you mean `hooks`\?\)/],
        [11, 7, "error", /unknown key `matcher_` in hook `a` \(did you mean `matcher`\?\)/],
        [12, 7, "error", /unknown key `onFailure` in hook `a` \(did you mean `on_failure`\?\)/],
      ],
    );
  });

  it("an event written at the top level is pointed under hooks:", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("stop:", "  - name: a", "    command: echo")), [[1, 1, "error", /`stop` is an event, not a top-level key: move it under `hooks:`/]]);
  });

  it("duplicate hook name in one file names both places", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("hooks:", "  stop:", "    - name: dup", "      command: echo 1", "  session_start:", "    - name: dup", "      command: echo 2")), [
      [6, 13, "error", /duplicate hook name `dup`: already used at line 3, column 13 of this file; names are unique in a file, rename one/],
    ]);
  });

  it("bad durations, timeouts not positive or above 24 h, bad sizes", async () => {
    expectDiagnostics(
      await diagnose(
        "hooks.yaml",
        y(
          "defaults:",
          "  timeout: 5 minutes",
          "  max_output: 1 megabyte",
          "hooks:",
          "  stop:",
          "    - name: a",
          "      command: echo",
          "      timeout: 0",
          "    - name: b",
          "      command: echo",
          "      timeout: 25h",
          "    - name: c",
          "      command: echo",
          "      timeout: -3",
          "      max_output: 12XB",
          "    - name: d",
          "      command: echo",
          "      timeout: 24h",
          "      max_output: 1.5MiB",
        ),
      ),
      [
        [2, 12, "error", /bad duration "5 minutes" for `timeout`: write seconds \(30\) or "500ms", "30s", "2m", "1h"/],
        [3, 15, "error", /bad size "1 megabyte" for `max_output`/],
        [8, 16, "error", /`timeout` must be positive, not 0/],
        [11, 16, "error", /`timeout` "25h" is above the 24 h maximum/],
        [14, 16, "error", /`timeout` must be positive, not -3/],
        [15, 19, "error", /bad size "12XB"/],
      ],
    );
  });

  it("invalid regex in matcher; plain name lists are not regexes (docs/configuration.md#matchers-and-paths)", async () => {
    expectDiagnostics(
      await diagnose(
        "hooks.yaml",
        y(
          "hooks:",
          "  pre_tool_use:",
          "    - name: a",
          "      command: echo",
          "      matcher: 'Bash(['",
          "    - name: b",
          "      command: echo",
          "      matcher: 'Bash | Edit, Write'",
          "    - name: c",
          "      command: echo",
          "      matcher: 'mcp__.*'",
          "    - name: d",
          "      command: echo",
          "      matcher: '*'",
        ),
      ),
      [[5, 16, "error", /invalid regex in `matcher`: .*fix it, or use plain names separated by \|/]],
    );
  });

  it("a matcher repeated on several hooks is reported at each of them (each distinct matcher is checked once per file)", async () => {
    expectDiagnostics(
      await diagnose(
        "hooks.yaml",
        y(
          "hooks:",
          "  pre_tool_use:",
          "    - name: a",
          "      command: echo",
          "      matcher: 'Bash(['",
          "    - name: b",
          "      command: echo",
          "      matcher: 'Bash(['",
          "  stop:",
          "    - name: c",
          "      command: echo",
          "      matcher: Bash",
          "    - name: d",
          "      command: echo",
          "      matcher: Bash",
          "    - name: e",
          "      command: echo",
          "      matcher: '*'",
          "  post_tool_use:",
          "    - name: f",
          "      command: echo",
          "      matcher: Bash",
        ),
      ),
      [
        [5, 16, "error", /invalid regex in `matcher`/],
        [8, 16, "error", /invalid regex in `matcher`/],
        [12, 16, "warning", /`matcher` has no effect on `stop`/],
        [15, 16, "warning", /`matcher` has no effect on `stop`/],
      ],
    );
  });

  it("parallel on a transform event; gate or custom on a built-in event", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("events:", "  tool_transform: { parallel: true }", "  message_transform: { parallel: false }", "  stop: { gate: false, custom: true }")), [
      [2, 21, "error", /`parallel` is not allowed on `tool_transform`/],
      [4, 11, "error", /`gate` can only be set on custom events/],
      [4, 24, "error", /`stop` is a built-in event: remove `custom: true`/],
    ]);
  });

  it("command and args both, or neither", async () => {
    expectDiagnostics(await diagnose("hooks.yaml", y("hooks:", "  stop:", "    - name: both", "      command: echo", "      args: [echo]", "    - name: neither", "      async: true")), [
      [5, 7, "error", /hook `both` has both `command` and `args`: keep exactly one/],
      [6, 7, "error", /hook `neither` has neither `command` nor `args`: add one/],
    ]);
  });

  it("cwd that does not exist (relative to the declaring file)", async () => {
    expectDiagnostics(
      await diagnose("hooks.yaml", y("hooks:", "  stop:", "    - name: a", "      command: echo", "      cwd: packages/web", "    - name: b", "      command: echo", "      cwd: missing"), {
        "packages/web/.keep": "",
      }),
      [[8, 12, "error", /`cwd` "missing" does not exist \(resolved to .*\/missing\): create it or fix the path/]],
    );
  });

  it("type errors in friendly words, with the hook named", async () => {
    expectDiagnostics(
      await diagnose(
        "hooks.yaml",
        y(
          "version: 2",
          "hooks:",
          "  stop:",
          "    name: a",
          "  session_start:",
          "    - name: Bad Name",
          "      command: echo",
          "      priority: high",
          "      async: 'yes'",
          "      on_failure: blok",
          "      env: { N: 1 }",
          "    - command: echo",
        ),
      ),
      [
        [1, 10, "error", /`version` must be 1/],
        [4, 5, "error", /the hooks of `stop` must be a list, but this is a map: start each hook with `- name:`/],
        [6, 13, "error", /invalid hook name "Bad Name": use lowercase letters.*\(e\.g\. "bad-name"\)/],
        [8, 17, "error", /`priority` in hook `Bad Name` must be a whole number, not the string "high"/],
        [9, 14, "error", /`async` in hook `Bad Name` must be true or false, not the string "yes"/],
        [10, 19, "error", /`on_failure` in hook `Bad Name` must be `continue` or `block`, not the string "blok" \(did you mean `block`\?\)/],
        [11, 17, "error", /`N` in hook `Bad Name` must be a string, not number 1 \(quote it: "1"\)/],
        [12, 7, "error", /this hook has no `name`/],
      ],
    );
  });

  it("warnings: matcher without a match field, on_failure: block on a non-gate event, missing relative script", async () => {
    const ds = await diagnose(
      "hooks.yaml",
      y(
        "hooks:",
        "  stop:",
        "    - name: a",
        "      command: echo",
        "      matcher: Bash",
        "  post_tool_use:",
        "    - name: b",
        "      command: ./scripts/missing.sh --flag",
        "      on_failure: block",
        "    - name: c",
        "      command: scripts/present.sh",
        "    - name: d",
        "      args: [bin/nope]",
      ),
      { "scripts/present.sh": "#!/bin/sh\n" },
    );
    expectDiagnostics(ds, [
      [5, 16, "warning", /`matcher` has no effect on `stop`, which has no match field/],
      [8, 16, "warning", /`command` runs \.\/scripts\/missing\.sh, which does not exist \(looked for .*scripts\/missing\.sh\)/],
      [9, 19, "warning", /`on_failure: block` has no effect on `post_tool_use`, which cannot block/],
      [13, 13, "warning", /`args` runs bin\/nope, which does not exist/],
    ]);
  });

  it("positions in JSON files too", async () => {
    const text = '{\n  "hooks": {\n    "stpo": [],\n    "stop": [\n      {"name": "a", "command": "echo", "timout": 5}\n    ]\n  }\n}\n';
    expectDiagnostics(await diagnose("hooks.json", text), [
      [3, 5, "error", /unknown event `stpo` \(did you mean `stop`/],
      [5, 40, "error", /unknown key `timout` in hook `a` \(did you mean `timeout`/],
    ]);
  });

  it("x- keys and YAML anchors/merge keys are allowed", async () => {
    const ds = await diagnose(
      "hooks.yaml",
      y("x-common: &common", "  timeout: 5", "  async: true", "hooks:", "  x-shared: {}", "  stop:", "    - <<: *common", "      name: a", "      command: echo", "      x-owner: me"),
    );
    expect(ds).toEqual([]);
  });
});

describe("a new user's mistakes (docs/configuration.md#diagnostics): every problem with line and column, a suggestion, exit 78", () => {
  it("typo in an event, misspelt key, duplicate name and a local override under another event, at once", async () => {
    const t = sandbox();
    t.write(
      "hooks.yaml",
      y("hooks:", "  stpo:", "    - name: notify", "      command: echo done", "  post_tool_use:", "    - name: lint", "      comand: npm run lint", "    - name: lint", "      command: echo twice"),
    );
    t.write("hooks.local.yaml", y("hooks:", "  pre_tool_use:", "    - name: lint", "      enabled: false"));
    const r = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^hooks\.yaml:2:3: error: unknown event `stpo` \(did you mean `stop`\?\)/),
      expect.stringMatching(/^hooks\.yaml:7:7: error: unknown key `comand` in hook `lint` \(did you mean `command`\?\)/),
      expect.stringMatching(/^hooks\.yaml:8:13: error: duplicate hook name `lint`: already used at line 6, column 13/),
      expect.stringMatching(/^hooks\.local\.yaml:3:7: error: hook `lint` overrides the hook declared under `post_tool_use` at hooks\.yaml:6:7, but sits under `pre_tool_use`/),
      "hooks: config is invalid: 4 errors in hooks.yaml, hooks.local.yaml; fix them and run `hooks validate` again",
    ]);
  });

  it.each([
    ["tab-indented YAML", "hooks.yaml", "hooks:\n\tstop: []\n", /^hooks\.yaml:2:1: error: tab used for indentation/],
    ["an empty file", "hooks.yaml", "", /^hooks\.yaml:1:1: error: the file is empty/],
    ["a JSON trailing comma", "hooks.json", '{"hooks": {"stop": [],\n}}', /^hooks\.json:1:22: error: invalid JSON: trailing comma/],
  ])("%s", async (_name, file, text, pattern) => {
    const t = sandbox();
    t.write(file, text);
    const r = await runMain(["validate"], { cwd: t.dir, env: t.env });
    expect(r.code).toBe(78);
    expect(r.stderr.split("\n")[0]).toMatch(pattern);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
