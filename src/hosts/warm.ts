import { nodeCrypto } from "../fs/crypto.js";
import type { TriggerResult } from "../runner/types.js";
import { formatClaude } from "./claude.js";
import { formatCopilot } from "./copilotRun.js";
import { LOCAL_HTTP_FALLBACK } from "./dispatch.js";
import type { HostEntry } from "./types.js";
import { rewriteForWarm } from "./warmRewrite.js";

/**
 * Warm mode: a host that can call a URL instead of a command (`{"type": "http"}` hooks: Claude
 * Code, Copilot CLI) sends events to a running `hooks serve`, which answers in the host's
 * contract. No process per event. The server route (`POST /v1/hosts/{host}/{event}`) is a thin
 * door onto runHostEvent, the one path every door takes, and answers with `hostHttpBody`;
 * `hooks install claude|copilot --serve PORT` writes `warmEntries`.
 * docs/hosts.md#warm-mode-claude-code and docs/hosts/copilot.md#warm-mode have the contracts as
 * verified in the real CLIs.
 */

/** The path of a host's event on `hooks serve`: `/v1/hosts/claude/PreToolUse`. */
export const HOST_ROUTE = /^\/v1\/hosts\/([^/]+)\/([^/]+)$/;

/** The environment variable whose value the entries send as the bearer token (and `hooks serve --port` uses when set). */
export const TOKEN_VAR = "HOOKS_SERVE_TOKEN";

/**
 * How a `hooks serve --port` proves it knows its bearer token without the token being sent to it:
 * `GET /v1/health?challenge=NONCE` (no token needed) answers `{"proof": healthProof(token, NONCE)}`.
 * With `&project=DIR` the proof also says whether DIR is the server's project (`this`) or not
 * (`other`: it would refuse that project's events), without naming its own.
 * `hooks install --check`, `hooks validate` and `hooks doctor` ask it before calling a warm setup
 * good: a listener on the port that cannot answer is not the user's own server.
 */
export const healthProof = (token: string, challenge: string, project?: "this" | "other"): string =>
  nodeCrypto()
    .createHmac("sha256", token)
    .update(`hookrun-health:${challenge}${project ? `:${project}` : ""}`)
    .digest("hex");

/** A challenge `hooks serve` answers: hex, 32 to 128 digits. */
export const CHALLENGE = /^[0-9a-f]{32,128}$/;

/**
 * What each warm host answers over HTTP: the JSON its command hook would print. A host whose
 * command answer can be an exit code or plain text (Claude's exit 2 + stderr, plain context) has
 * only its JSON form here, since an http hook's body must be JSON. Hosts without http hooks are absent.
 */
interface WarmHost {
  /** The response body for a run. */
  render(result: TriggerResult, hostEvent?: string): unknown;
  /** The warm entries, from the host's command entries and the server's port. */
  entries(entries: Record<string, HostEntry[]>, port: number, deadline: (hostEvent: string) => number | null): Record<string, HostEntry[]>;
}

/** The bearer token the http entries send: $HOOKS_SERVE_TOKEN, which the host passes to the URL's headers. */
const bearer = { headers: { Authorization: `Bearer $${TOKEN_VAR}` }, allowedEnvVars: [TOKEN_VAR] };

// Claude Code 2.1.330 skips http hooks on SessionStart and Setup ("HTTP hooks are not supported
// for SessionStart"), and ignores `onFailure: "block"` on the stop events: there a server that
// cannot answer would let the agent stop past a stop guard, so they stay commands.
const CLAUDE_COMMAND_ONLY = new Set(["SessionStart", "Setup", "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"]);

/** Copilot's events that go warm: preToolUse, where a failed http hook denies the call (docs/hosts/copilot.md#warm-mode). */
const COPILOT_WARM_EVENTS = new Set(["preToolUse"]);

const WARM: Readonly<Record<string, WarmHost>> = {
  claude: {
    render: formatClaude,
    // Every http entry fails closed: a server that cannot answer blocks the action (`onFailure: "block"`).
    entries: (entries, port) =>
      rewriteForWarm(entries, CLAUDE_COMMAND_ONLY, (h, hostEvent) => ({
        type: "http",
        url: warmUrl(port, "claude", hostEvent),
        ...(h.timeout !== undefined && { timeout: h.timeout }),
        ...bearer,
        onFailure: "block",
      })),
  },
  copilot: {
    render: (result) => formatCopilot(result).response,
    entries: copilotWarmEntries,
  },
};

/**
 * Copilot's warm entries: on preToolUse, each command entry (kept, first) steps aside when
 * COPILOT_HOOK_ALLOW_LOCALHOST=1 is set, and an http entry with the same matcher and timeout
 * POSTs the call to the server; without that variable Copilot skips the http entry (a local URL
 * must be allowed) and the command entry runs hookrun as before. A fail-closed event's URL carries
 * `--fail-closed --deadline`'s query, so the server blocks before Copilot's timeout, which would
 * let the call run. The other events keep their command entries.
 */
function copilotWarmEntries(entries: Record<string, HostEntry[]>, port: number, deadline: (hostEvent: string) => number | null): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const [hostEvent, list] of Object.entries(entries)) {
    if (!COPILOT_WARM_EVENTS.has(hostEvent)) {
      out[hostEvent] = list;
      continue;
    }
    const seconds = deadline(hostEvent);
    const url = `${warmUrl(port, "copilot", hostEvent)}${seconds === null ? "" : `?fail_closed=1&deadline=${seconds}`}`;
    out[hostEvent] = list.flatMap(({ type: _type, bash, ...rest }) => [
      { type: "command", bash: `${LOCAL_HTTP_FALLBACK}${bash}`, ...rest },
      { type: "http", url, ...rest, ...bearer },
    ]);
  }
  return out;
}

/** Whether `host` can be installed in warm mode. */
export const warmCapable = (host: string): boolean => Object.hasOwn(WARM, host);

/**
 * Hosts with http hooks that hookrun does not install warm, and why: each measured in the real
 * CLI (docs/hosts/qoder.md, docs/hosts/qwen.md).
 */
const NOT_WARM: Readonly<Record<string, string>> = {
  qoder: "Qoder CLI (1.1.52) runs the tool when its http hook cannot reach the server, onFailure or not, so a guard would open",
  qwen: "Qwen Code (0.24.4) runs the tool when its http hook cannot reach the server, times out or gets a non-2xx answer, so a guard would open",
};

/** Why `host` is not installed warm over HTTP, when it has http hooks. */
export const whyNotWarm = (host: string): string | null => (Object.hasOwn(NOT_WARM, host) ? NOT_WARM[host] : null);

/** The URL of one host event on a loopback `hooks serve --port PORT`. */
export const warmUrl = (port: number, host: string, hostEvent: string): string => `http://127.0.0.1:${port}/v1/hosts/${host}/${hostEvent}`;

/**
 * The host's dispatch entries in warm mode: each command entry of `entries` (the adapter's own,
 * matchers and timeouts included) becomes an http entry POSTing to the server, carrying the
 * bearer token from $HOOKS_SERVE_TOKEN and failing closed; events the host never sends to a URL
 * keep their command entries.
 */
export function warmEntries(host: string, entries: Record<string, HostEntry[]>, port: number, deadline: (hostEvent: string) => number | null = () => null): Record<string, HostEntry[]> {
  const warm = Object.hasOwn(WARM, host) ? WARM[host] : undefined;
  return warm ? warm.entries(entries, port, deadline) : entries;
}

/** The port of the warm entries among `entries` (hookrun's, as installed), or null when none is an http entry. */
export function installedPort(entries: Readonly<Record<string, unknown>>): number | null {
  const text = JSON.stringify(entries);
  const m = /"url":"http:\/\/[^"/]+:(\d+)\/v1\/hosts\//.exec(text);
  return m ? Number(m[1]) : null;
}

/** How a host with http hooks answers over HTTP (its JSON renderer), or null for a host without them. */
export const warmRenderer = (host: string): ((result: TriggerResult, hostEvent?: string) => unknown) | null => (Object.hasOwn(WARM, host) ? WARM[host].render : null);
