import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDialect } from "../src/dialects/load.js";
import { DIALECTS, type DialectName, dialectOf } from "../src/events/dialects.js";
import { EVENTS } from "../src/events/catalog.js";
import { HOSTS, hostByName } from "../src/hosts/adapters.js";

// docs/dialects.md: the dialect table is the one list of dialects. Every row is a whole dialect:
// its host exists, its code loads, its section is in the docs, and its stdin shaping treats the
// context as data (a hostile payload's keys stay keys; the context the other hooks see is untouched).
const DOC = readFileSync(path.resolve(import.meta.dirname, "../docs/dialects.md"), "utf8");

/** Contexts as hookrun hands them to a hook: fired by no host, and by each host (its own spelling under `host`). */
function contexts(event: string): Record<string, unknown>[] {
  const base: Record<string, unknown> = { session_id: "s1", turn_count: 2, last_assistant_message: null, cwd: "/tmp/project", hook_event_name: event };
  const info = EVENTS.find((e) => e.name === event);
  if (info?.matchField === "tool_name") Object.assign(base, { tool_name: "Bash", tool_input: { command: "git push --force", __proto__: "x" }, tool_use_id: "t1" });
  if (event === "post_tool_use") base.tool_response = { stdout: "ok" };
  if (event === "user_prompt_submit") base.prompt = "hello";
  if (event === "stop") base.stop_hook_active = false;
  // A key named like an object's own machinery is data, never the prototype.
  Object.defineProperty(base, "__proto__", { value: { polluted: true }, enumerable: true, configurable: true, writable: true });
  return [base, ...HOSTS.map((h) => ({ ...structuredClone(base), host: { name: h.name, event: "SomeHostEvent", tool_name: "some_tool" } }))];
}

const EVENTS_TRIED = ["session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop", "notification", "session_end"];

describe("the dialect table (src/events/dialects.ts)", () => {
  it("has unique names, and every host dialect names a host of src/hosts/table.ts", () => {
    const names = DIALECTS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of DIALECTS) if (d.host !== null) expect(hostByName(d.host), `${d.name}: host ${d.host}`).toBeDefined();
    expect(dialectOf(undefined).name).toBe("native");
  });

  it("every host dialect has its section in docs/dialects.md", () => {
    for (const d of DIALECTS) if (d.host !== null) expect(DOC, `docs/dialects.md lacks a section for ${d.name}`).toContain(`## \`${d.name}\`: hooks written for ${d.title}`);
  });

  it("every dialect's stdin leaves the context untouched, keeps hostile keys as data and gives a JSON object", async () => {
    for (const d of DIALECTS) {
      const code = await loadDialect(d.name as DialectName);
      for (const event of EVENTS_TRIED) {
        for (const base of contexts(event)) {
          const before = JSON.stringify(base);
          const input = code.stdin(base, event);
          expect(JSON.stringify(base), `${d.name} ${event}: the context was changed`).toBe(before);
          expect(typeof input === "object" && input !== null && !Array.isArray(input), `${d.name} ${event}`).toBe(true);
          const text = JSON.stringify(input);
          expect(JSON.parse(text)).toBeTypeOf("object");
          expect(({} as Record<string, unknown>).polluted, `${d.name} ${event}: Object.prototype was polluted`).toBeUndefined();
          expect(Object.getPrototypeOf(input), `${d.name} ${event}`).toBe(Object.prototype);
        }
      }
    }
  });
});
