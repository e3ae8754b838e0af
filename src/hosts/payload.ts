import { setOwn } from "../runner/context.js";
import type { HookContext } from "../runner/types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import type { HostAdapter, Payload } from "./types.js";

/** The canonical name of a host's tool (Claude's vocabulary); a name the host table lacks passes unchanged. */
export function canonicalTool(adapter: Pick<HostAdapter, "tools">, name: unknown): unknown {
  return typeof name === "string" && Object.hasOwn(adapter.tools, name) ? adapter.tools[name] : name;
}

/** Every host tool name that reads as `canonical` under this host (the name itself included). */
export function hostToolNames(adapter: Pick<HostAdapter, "tools">, canonical: string): string[] {
  const names = new Set([canonical]);
  for (const [host, c] of Object.entries(adapter.tools)) if (c === canonical) names.add(host);
  return [...names];
}

/** The host's name of a canonical event (the first in its table), or null when the host does not fire it. */
export function hostEventName(adapter: Pick<HostAdapter, "events">, event: string): string | null {
  for (const [host, c] of Object.entries(adapter.events)) if (c === event) return host;
  return null;
}

/** A payload's own field (`undefined` for one it does not have: never an inherited `constructor` or `toString`). */
export const field = (payload: Readonly<Record<string, unknown>>, key: string): unknown => (Object.hasOwn(payload, key) ? payload[key] : undefined);

/** A payload's own field when it is a string. */
export const stringField = (payload: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const v = field(payload, key);
  return typeof v === "string" ? v : undefined;
};

/** What an adapter asks of the shared reader besides copying the payload. */
export interface ReadRules {
  /** Host field → canonical field (a table), or a function of the key (Copilot's camelCase → snake_case). */
  renames?: Readonly<Record<string, string>> | ((key: string) => string);
  /** Fields that are the host's own bookkeeping: moved under `host`, not left at the top level. */
  hostFields?: readonly string[];
  /** The host's name for the event when the payload names none (`hook_event_name`). */
  event?: string;
}

/**
 * The one way every adapter reads a payload (docs/hosts.md#reading-a-host): every own field
 * copied as data (a key named `__proto__` stays a field, never the context's prototype); renames
 * applied; `tool_name` mapped to the canonical vocabulary through the adapter's own table (a tool
 * named `constructor` stays "constructor"); the host's own spelling kept under `host` (`{name,
 * event, tool_name}`), with `hostFields` moved there. A field of the payload already named `host`
 * is kept under `host.payload_host`. Adapters adjust the result for what their host sends
 * differently (a tool's input in another field, say), reading further fields through `field`.
 */
export function baseRead(adapter: Pick<HostAdapter, "name" | "tools">, payload: Payload, r: ReadRules = {}): HookContext {
  const rename = typeof r.renames === "function" ? r.renames : (key: string) => (r.renames && Object.hasOwn(r.renames, key) ? (r.renames as Record<string, string>)[key] : key);
  const hostOnly = new Set(r.hostFields ?? []);
  const context: HookContext = {};
  const host: Record<string, unknown> = { name: adapter.name };
  for (const [key, value] of Object.entries(payload)) {
    if (hostOnly.has(key)) {
      setOwn(host, key, value);
      continue;
    }
    const to = rename(key);
    if (to === "host") continue;
    if (!Object.hasOwn(context, to) || context[to] === undefined || to === key) setOwn(context, to, value);
  }
  const event = stringField(payload, "hook_event_name") ?? r.event;
  if (event !== undefined) host.event = event;
  const tool = field(context, "tool_name");
  if (tool !== undefined) {
    host.tool_name = tool;
    context.tool_name = canonicalTool(adapter, tool);
  }
  if (Object.hasOwn(payload, "host")) host.payload_host = payload.host;
  context.host = host;
  return context;
}

/** Plausible values of the match fields other than tool_name, for a synthetic payload. */
const SAMPLE_VALUES: Readonly<Record<string, string>> = Object.freeze({ source: "startup", reason: "other", trigger: "manual", notification_type: "idle_prompt", agent_type: "general-purpose" });

/**
 * The fields of a synthetic payload of canonical `event` in Claude's snake_case shape, as
 * `hooks doctor` fires through a host's entry: a tool event's call is `tool` running the shell
 * command `true`, a prompt is "hooks doctor", a Stop is a first stop. Each host's probe wraps it
 * in its own shape (src/hosts/<host>.ts, `probe.payload`).
 */
export function sampleFields(event: string, tool: string, projectDir: string): Payload {
  const out: Payload = { session_id: "hooks-doctor", cwd: projectDir };
  const info = EVENT_BY_NAME.get(event);
  if (info?.matchField === "tool_name") Object.assign(out, { tool_name: tool, tool_input: { command: "true" }, tool_use_id: "hooks-doctor-1" });
  else if (info?.matchField && Object.hasOwn(SAMPLE_VALUES, info.matchField)) out[info.matchField] = SAMPLE_VALUES[info.matchField];
  if (event === "post_tool_use") out.tool_response = "";
  if (event === "user_prompt_submit") out.prompt = "hooks doctor";
  if (event === "stop" || event === "subagent_stop") out.stop_hook_active = false;
  if (event === "notification") out.message = "hooks doctor";
  return out;
}

/** `/bin/sh -c COMMAND`: how Claude Code (and the hosts built on its contract) run a command hook on POSIX. */
export const POSIX_SHELL = (): string[] => ["/bin/sh", "-c"];
