import { nodeCrypto } from "../fs/crypto.js";
import type { TriggerResult } from "../runner/types.js";
import { formatClaude } from "./claude.js";
import type { HostEntry } from "./types.js";
import { rewriteForWarm } from "./warmRewrite.js";

/**
 * Warm mode: a host that can call a URL instead of a command (Claude Code's
 * `{"type": "http"}` hooks) sends each event to a running `hooks serve`, which answers in the
 * host's contract. No process per event. The server route (`POST /v1/hosts/{host}/{event}`) is a
 * thin door onto runHostEvent, the one path every door takes, and answers with `hostHttpBody`;
 * `hooks install claude --serve PORT` writes `warmEntries`.
 * docs/hosts.md#warm-mode-claude-code has the contract as verified in the real CLI.
 */

/** The path of a host's event on `hooks serve`: `/v1/hosts/claude/PreToolUse`. */
export const HOST_ROUTE = /^\/v1\/hosts\/([^/]+)\/([^/]+)$/;

/** The environment variable whose value the entries send as the bearer token (and `hooks serve --port` uses when set). */
export const TOKEN_VAR = "HOOKS_SERVE_TOKEN";

/**
 * How a `hooks serve --port` proves it knows its bearer token without the token being sent to it:
 * `GET /v1/health?challenge=NONCE` (no token needed) answers `{"proof": healthProof(token, NONCE)}`.
 * `hooks install --check`, `hooks validate` and `hooks doctor` ask it before calling a warm setup
 * good: a listener on the port that cannot answer is not the user's own server.
 */
export const healthProof = (token: string, challenge: string): string => nodeCrypto().createHmac("sha256", token).update(`hookrun-health:${challenge}`).digest("hex");

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
  /** Host events the host never sends to a URL: their entries stay commands. */
  commandOnly: ReadonlySet<string>;
  /** Turns a failure to reach the server into a block where the host can (Claude: `onFailure: "block"`). */
  failClosed: Readonly<Record<string, unknown>>;
}

const WARM: Readonly<Record<string, WarmHost>> = {
  claude: {
    render: formatClaude,
    // Claude Code 2.1.330 skips http hooks on SessionStart and Setup ("HTTP hooks are not
    // supported for SessionStart"), and ignores `onFailure: "block"` on the stop events: there a
    // server that cannot answer would let the agent stop past a stop guard, so they stay commands.
    commandOnly: new Set(["SessionStart", "Setup", "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"]),
    failClosed: { onFailure: "block" },
  },
};

/** Whether `host` can be installed in warm mode. */
export const warmCapable = (host: string): boolean => Object.hasOwn(WARM, host);

/**
 * Hosts with http hooks that hookrun does not install warm, and why: each measured in the real
 * CLI (docs/hosts/qoder.md, docs/hosts/qwen.md, docs/hosts/copilot.md).
 */
const NOT_WARM: Readonly<Record<string, string>> = {
  qoder: "Qoder CLI (1.1.52) runs the tool when its http hook cannot reach the server, onFailure or not, so a guard would open",
  qwen: "Qwen Code (0.24.4) runs the tool when its http hook cannot reach the server, times out or gets a non-2xx answer, so a guard would open",
  copilot:
    "Copilot CLI (1.0.102) skips every http hook to a local server, guards included, unless COPILOT_HOOK_ALLOW_LOCALHOST=1 is in its environment, and runs the tool when one times out; hookrun has no warm entries for it yet",
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
export function warmEntries(host: string, entries: Record<string, HostEntry[]>, port: number): Record<string, HostEntry[]> {
  const warm = Object.hasOwn(WARM, host) ? WARM[host] : undefined;
  if (!warm) return entries;
  return rewriteForWarm(entries, warm.commandOnly, (h, hostEvent) => ({
    type: "http",
    url: warmUrl(port, host, hostEvent),
    ...(h.timeout !== undefined && { timeout: h.timeout }),
    headers: { Authorization: `Bearer $${TOKEN_VAR}` },
    allowedEnvVars: [TOKEN_VAR],
    ...warm.failClosed,
  }));
}

/** The port of the warm entries among `entries` (hookrun's, as installed), or null when none is an http entry. */
export function installedPort(entries: Readonly<Record<string, unknown>>): number | null {
  const text = JSON.stringify(entries);
  const m = /"url":"http:\/\/[^"/]+:(\d+)\/v1\/hosts\//.exec(text);
  return m ? Number(m[1]) : null;
}

/** How a host with http hooks answers over HTTP (its JSON renderer), or null for a host without them. */
export const warmRenderer = (host: string): ((result: TriggerResult, hostEvent?: string) => unknown) | null => (Object.hasOwn(WARM, host) ? WARM[host].render : null);
