import type { HostEntry, Payload } from "./types.js";
import { rewriteForWarm } from "./warmRewrite.js";

/**
 * Warm mode over MCP: a host whose hooks can be tools of an MCP server it starts itself (Claude
 * Code's `{"type": "mcp_tool"}` hooks) keeps one `hooks mcp` process for its session and calls its
 * `hook` tool for each event, instead of starting hookrun per event. `hooks install claude
 * --warm` registers the server in the project's `.mcp.json` and writes `mcpEntries`;
 * docs/hosts.md#warm-mode-over-mcp-claude-code has the contract as verified in the real CLI.
 */

/** The name of the server in the host's MCP config, and of its one tool. */
export const MCP_SERVER = "hookrun";
export const MCP_TOOL = "hook";

/**
 * A host's warm MCP path: how its entries carry the payload, and what keeps a guard closed when
 * the server cannot answer.
 */
interface McpHost {
  /**
   * The payload's fields the entry passes to the tool. Claude Code's `input` is a template whose
   * `${field}` placeholders are replaced by the hook input's fields, each as text (an object as
   * its JSON, a missing field as ""); there is no placeholder for the whole input, so each field
   * hookrun's hooks may read is named here.
   */
  fields: readonly string[];
  /** Fields whose text is JSON (an object or an array) in the payload. */
  jsonFields: ReadonlySet<string>;
  /** Fields whose text is `true` or `false`. */
  booleanFields: ReadonlySet<string>;
  /** Host events whose entries stay commands (the host does not wait for its MCP servers on them). */
  commandOnly: ReadonlySet<string>;
  /** Turns the server being absent, failing or timing out into a block where the host can. */
  failClosed: Readonly<Record<string, unknown>>;
}

const MCP_HOSTS: Readonly<Record<string, McpHost>> = {
  claude: {
    fields: [
      "session_id",
      "transcript_path",
      "cwd",
      "permission_mode",
      "hook_event_name",
      "agent_id",
      "agent_type",
      "agent_transcript_path",
      "tool_name",
      "tool_input",
      "tool_use_id",
      "tool_response",
      "permission_suggestions",
      "error",
      "is_interrupt",
      "prompt",
      "source",
      "reason",
      "model",
      "stop_hook_active",
      "last_assistant_message",
      "trigger",
      "custom_instructions",
      "compact_summary",
      "message",
      "title",
      "notification_type",
    ],
    jsonFields: new Set(["tool_input", "tool_response", "permission_suggestions"]),
    booleanFields: new Set(["stop_hook_active", "is_interrupt"]),
    // Claude Code 2.1.332 does not wait for a still-connecting MCP server at the start of a
    // session, and at SessionEnd it is closing its servers; it ignores `onFailure: "block"` on
    // SessionStart, Setup, Stop, SubagentStop, TaskCompleted and TeammateIdle, so a stop guard
    // whose server cannot answer would let the agent stop: these entries stay commands.
    commandOnly: new Set(["SessionStart", "Setup", "SessionEnd", "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"]),
    failClosed: { onFailure: "block" },
  },
};

/**
 * Hosts with MCP-tool hooks that hookrun does not install warm, and why: a guard there would
 * open when the server cannot answer.
 */
const FAILS_OPEN: Readonly<Record<string, string>> = {
  codex: "Codex (0.171.0) lets a PreToolUse call go on when its MCP hook cannot reach its server, fails or times out, so a guard would open",
};

/** Why `host` is not installed warm over MCP, when it has MCP hooks. */
export const whyNotMcp = (host: string): string | null => (Object.hasOwn(FAILS_OPEN, host) ? FAILS_OPEN[host] : null);

/** Whether `host` can be installed in warm mode over MCP. */
export const mcpCapable = (host: string): boolean => Object.hasOwn(MCP_HOSTS, host);

/** The hosts that can. */
export const mcpHosts = (): string[] => Object.keys(MCP_HOSTS);

/** The arguments of one hook call, as the entries send them. */
export interface McpHookArgs {
  host: string;
  event: string;
  payload: Payload;
  failClosed: boolean;
}

/**
 * The host's dispatch entries in warm MCP mode: each command entry of `entries` (matchers and
 * timeouts kept) becomes an `mcp_tool` entry calling `hooks mcp`'s tool with the event's name and
 * the payload's fields, failing closed; events the host does not hold for its MCP servers, and
 * those with an asyncRewake entry (it runs in the host's background), keep their command entries.
 * `failClosed(hostEvent)`: the event has an `on_failure: block` hook (it stays closed even if the
 * config later says otherwise, as a command entry's `--fail-closed`).
 */
export function mcpEntries(host: string, entries: Record<string, HostEntry[]>, failClosed: (hostEvent: string) => boolean): Record<string, HostEntry[]> {
  const warm = Object.hasOwn(MCP_HOSTS, host) ? MCP_HOSTS[host] : undefined;
  if (!warm) return entries;
  const payload = Object.fromEntries(warm.fields.map((f) => [f, `\${${f}}`]));
  return rewriteForWarm(entries, warm.commandOnly, (h, hostEvent) => ({
    type: "mcp_tool",
    server: MCP_SERVER,
    tool: MCP_TOOL,
    input: { host, event: hostEvent, ...(failClosed(hostEvent) && { fail_closed: true }), payload },
    ...(h.timeout !== undefined && { timeout: h.timeout }),
    ...warm.failClosed,
  }));
}

/** Whether one hook of a host entry is hookrun's warm MCP call. */
export const isMcpDispatch = (hook: unknown): boolean =>
  hook !== null && typeof hook === "object" && (hook as Record<string, unknown>).type === "mcp_tool" && (hook as Record<string, unknown>).server === MCP_SERVER;

/** Whether hookrun's entries among `entries` (as installed) are warm MCP entries. */
export function installedMcp(entries: Readonly<Record<string, unknown>>): boolean {
  for (const list of Object.values(entries)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const hooks = entry !== null && typeof entry === "object" ? (entry as Record<string, unknown>).hooks : undefined;
      if (Array.isArray(hooks) && hooks.some(isMcpDispatch)) return true;
    }
  }
  return false;
}

/**
 * The arguments of a call read back: the host, its event, and the payload the host would have
 * sent a command, rebuilt from the template's text fields (an empty field is a missing one; a
 * JSON field's text parsed; a field already typed, as a client that keeps types sends it, kept).
 * Throws on arguments no entry of hookrun sends.
 */
export function readMcpArgs(args: Readonly<Record<string, unknown>>, defaultHost: string | null): McpHookArgs {
  const host = args.host === undefined && defaultHost !== null ? defaultHost : args.host;
  if (typeof host !== "string" || !Object.hasOwn(MCP_HOSTS, host)) throw new Error(`"host" must name a host with a warm MCP path (${mcpHosts().join(", ")})`);
  if (typeof args.event !== "string" || args.event === "") throw new Error('"event" must be the event\'s name');
  // Required: a call without the hook input is no event hookrun can judge (a guard would see no tool and pass).
  const raw = args.payload;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error('"payload" must be an object (the hook input\'s fields)');
  const spec = MCP_HOSTS[host];
  const payload: Payload = {};
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    if (value === "" || value === undefined || value === null) continue;
    if (typeof value !== "string") payload[field] = value;
    else if (spec.jsonFields.has(field) && /^\s*[[{]/.test(value)) payload[field] = parseField(field, value);
    else if (spec.booleanFields.has(field) && (value === "true" || value === "false")) payload[field] = value === "true";
    else payload[field] = value;
  }
  return { host, event: args.event, payload, failClosed: args.fail_closed === true };
}

function parseField(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`payload field "${field}" is not JSON`);
  }
}
