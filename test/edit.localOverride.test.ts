import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { addLocalOverride } from "../src/edit/textEdits.js";
import { lineDiff } from "./helpers/lineDiff.js";

const add = (text: string, file = "/p/hooks.local.yaml") => addLocalOverride(text, "lint", "pre_tool_use", false, file);

describe("--local inserts one override and keeps the local file's bytes (docs/configuration.md#managing-hooks-hooks-enable--hooks-disable)", () => {
  it("an empty file gets a commented hooks section", () => {
    expect(parse(add(""))).toEqual({ hooks: { pre_tool_use: [{ name: "lint", enabled: false }] } });
  });

  it("under an existing key in another spelling, as the first item, with its indentation", () => {
    const text = "hooks:\n    PreToolUse:   # mine\n      - name: other\n        timeout: 5\n";
    const out = add(text);
    expect(lineDiff(text, out)).toEqual({ removed: [], added: ["      - name: lint\n", "        enabled: false\n"] });
    expect(parse(out).hooks.PreToolUse).toHaveLength(2);
  });

  it("a new event key in a block `hooks:` map", () => {
    const text = "# comment\nhooks:\n  stop:\n    - {name: x, enabled: false}\n";
    const out = add(text);
    expect(lineDiff(text, out).removed).toEqual([]);
    expect(parse(out).hooks).toEqual({ pre_tool_use: [{ name: "lint", enabled: false }], stop: [{ name: "x", enabled: false }] });
  });

  it("a new `hooks:` section at the end, keeping CRLF", () => {
    const text = "defaults:\r\n  timeout: 5\r\n";
    const out = add(text);
    expect(out.startsWith(text)).toBe(true);
    expect(out.slice(text.length)).toBe("hooks:\r\n  pre_tool_use:\r\n    - name: lint\r\n      enabled: false\r\n");
  });

  it("flow collections, and JSON with JSON quoting", () => {
    expect(parse(add("hooks: {}\n")).hooks).toEqual({ pre_tool_use: [{ name: "lint", enabled: false }] });
    expect(parse(add("hooks:\n  pre_tool_use: [{name: a, enabled: true}]\n")).hooks.pre_tool_use).toEqual([
      { name: "lint", enabled: false },
      { name: "a", enabled: true },
    ]);
    const json = '{\n  "hooks": {\n    "stop": []\n  }\n}\n';
    const out = add(json, "/p/hooks.local.json");
    expect(JSON.parse(out)).toEqual({ hooks: { pre_tool_use: [{ name: "lint", enabled: false }], stop: [] } });
    expect(JSON.parse(add("{}", "/p/hooks.local.json"))).toEqual({ hooks: { pre_tool_use: [{ name: "lint", enabled: false }] } });
  });

  it("an existing entry for the hook is edited in place", () => {
    const text = "hooks:\n  pre_tool_use:\n    - name: lint\n      enabled: true   # keep\n";
    expect(add(text)).toBe(text.replace("enabled: true", "enabled: false"));
  });
});
