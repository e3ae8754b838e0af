import { describe, expect, it } from "vitest";
import { HOSTS } from "../src/hosts/adapters.js";

/**
 * A payload's keys and values stay data under every host: every adapter reads through the one
 * shared reader (src/hosts/payload.ts), so a tool named `constructor` stays the string
 * "constructor" (not the `Object` function an unguarded table lookup returns), a key named
 * `__proto__` stays an own field and never becomes the context's prototype.
 */

const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype"];

/** Every value reachable in `v` (objects and arrays walked, two levels deep). */
function values(v: unknown, depth = 3): unknown[] {
  if (depth === 0 || typeof v !== "object" || v === null) return [v];
  return [v, ...Object.values(v).flatMap((x) => values(x, depth - 1))];
}

/** A payload of `host` for `event`, its name fields set to `event`, with `name` in every place a tool or key name can go. */
function hostile(event: string, name: string): Record<string, unknown> {
  const text = JSON.stringify({
    hook_event_name: event,
    hookName: event,
    agent_action_name: event,
    session_id: "s1",
    sessionId: "s1",
    tool_name: name,
    toolName: name,
    tool_input: { command: "ls", [name]: 1 },
    toolArgs: { command: "ls" },
    tool_info: { mcp_server_name: name, mcp_tool_name: name, command_line: "ls" },
    preToolUse: { toolName: name, parameters: { [name]: 1 } },
    tool_call: { id: "t1", name, input: {} },
    [name]: { polluted: true },
  });
  // `__proto__` written by JSON.stringify of a literal is no own key: spell it in the text.
  return JSON.parse(name === "__proto__" ? text.replace('"hook_event_name"', '"__proto__":{"polluted":true},"hook_event_name"') : text);
}

describe("a payload's keys stay data under every host", () => {
  for (const host of HOSTS) {
    it(`${host.name}: hostile key and tool names are read as plain strings, never as inherited properties`, () => {
      for (const event of Object.keys(host.events)) {
        for (const name of NAMES) {
          const payload = hostile(event, name);
          const context = host.read(payload, host.events[event], { AGENT_CODE_HOOK_TOOL: name });
          expect(Object.getPrototypeOf(context), `${event} ${name}`).toBe(Object.prototype);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          for (const v of values(context)) expect(typeof v, `${host.name} ${event} ${name}: ${typeof v === "function" ? String(v) : ""}`).not.toBe("function");
          const tool = context.tool_name;
          if (typeof tool === "string" && tool !== "" && !tool.startsWith("mcp") && !/^[A-Z]/.test(tool)) expect(NAMES).toContain(tool);
          if (name === "__proto__" && Object.hasOwn(payload, "__proto__")) {
            // Kept as the payload's own field (or under `host`), never as the prototype.
            const text = JSON.stringify(context);
            expect(text, `${host.name} ${event}`).not.toMatch(/^\{"polluted"/);
          }
        }
      }
    });
  }

  it("the tool names of each host's table map only their own keys", () => {
    for (const host of HOSTS)
      for (const name of NAMES) {
        const context = host.read(hostile(Object.keys(host.events)[0], name), host.events[Object.keys(host.events)[0]], { AGENT_CODE_HOOK_TOOL: name });
        expect(typeof context.tool_name === "function", host.name).toBe(false);
      }
  });
});
