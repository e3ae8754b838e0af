import type { ResolvedConfig } from "../config/types.js";
import { TrustError, UsageError } from "../errors.js";
import { parseHookEvent } from "../events/parseHookEvent.js";
import { deriveLastMessage } from "../interop/lastMessageFromTranscript.js";
import type { Runner, TriggerOptions, TriggerResult } from "../runner/types.js";
import { formatClaude } from "./claude.js";
import { notTrustedWords } from "./table.js";
import type { HostAdapter, HostEntry, Payload } from "./types.js";

/**
 * Warm mode (issue 14 §2): a host that can call a URL instead of a command (Claude Code's
 * `{"type": "http"}` hooks) sends each event to a running `hooks serve`, which answers in the
 * host's contract. No process per event. The server route (`POST /v1/hosts/{host}/{event}`) is a
 * thin door onto `answerHostEvent`; `hooks install claude --serve PORT` writes `warmEntries`.
 * docs/hosts.md#warm-mode-claude-code has the contract as verified in the real CLI.
 */

/** The path of a host's event on `hooks serve`: `/v1/hosts/claude/PreToolUse`. */
export const HOST_ROUTE = /^\/v1\/hosts\/([^/]+)\/([^/]+)$/;

/** The environment variable whose value the entries send as the bearer token (and `hooks serve --port` uses when set). */
export const TOKEN_VAR = "HOOKS_SERVE_TOKEN";

/**
 * What each warm host answers over HTTP: the JSON its command hook would print. A host whose
 * command answer can be an exit code or plain text (Claude's exit 2 + stderr, plain context) has
 * only its JSON form here, since an http hook's body must be JSON. Hosts without http hooks are absent.
 */
interface WarmHost {
  /** The response body for a run. */
  render(result: TriggerResult): unknown;
  /** Host events the host never sends to a URL: their entries stay commands. */
  commandOnly: ReadonlySet<string>;
  /** Turns a failure to reach the server into a block where the host can (Claude: `onFailure: "block"`). */
  failClosed: Readonly<Record<string, unknown>>;
}

const WARM: Readonly<Record<string, WarmHost>> = {
  claude: {
    render: formatClaude,
    // Claude Code 2.1.330 skips http hooks on these ("HTTP hooks are not supported for SessionStart").
    commandOnly: new Set(["SessionStart", "Setup"]),
    failClosed: { onFailure: "block" },
  },
};

/** Whether `host` can be installed in warm mode. */
export const warmCapable = (host: string): boolean => Object.hasOwn(WARM, host);

/** The URL of one host event on a loopback `hooks serve --port PORT`. */
export const warmUrl = (port: number, host: string, hostEvent: string): string => `http://127.0.0.1:${port}/v1/hosts/${host}/${hostEvent}`;

/**
 * The host's dispatch entries in warm mode: each command entry of `entries` (the adapter's own,
 * matchers and timeouts included) becomes an http entry POSTing to the server, carrying the
 * bearer token from $HOOKS_SERVE_TOKEN and failing closed; events the host never sends to a URL
 * keep their command entries.
 */
export function warmEntries(adapter: HostAdapter, config: ResolvedConfig, command: (event: string) => string, port: number): Record<string, HostEntry[]> {
  const warm = WARM[adapter.name];
  const entries = adapter.install!.entries(config, command);
  if (!warm) return entries;
  const out: Record<string, HostEntry[]> = {};
  for (const [hostEvent, list] of Object.entries(entries)) {
    if (warm.commandOnly.has(hostEvent)) {
      out[hostEvent] = list;
      continue;
    }
    out[hostEvent] = list.map((entry) => ({
      ...entry,
      hooks: (entry.hooks as Record<string, unknown>[]).map((h) => ({
        type: "http",
        url: warmUrl(port, adapter.name, hostEvent),
        ...(h.timeout !== undefined && { timeout: h.timeout }),
        headers: { Authorization: `Bearer $${TOKEN_VAR}` },
        allowedEnvVars: [TOKEN_VAR],
        ...warm.failClosed,
      })),
    }));
  }
  return out;
}

/** The port of the warm entries among `entries` (hookrun's, as installed), or null when none is an http entry. */
export function installedPort(entries: Record<string, HostEntry[]>): number | null {
  const text = JSON.stringify(entries);
  const m = /"url":"http:\/\/[^"/]+:(\d+)\/v1\/hosts\//.exec(text);
  return m ? Number(m[1]) : null;
}

/** An answer of the host route: status and JSON body. */
export interface WarmAnswer {
  status: number;
  body: unknown;
}

/**
 * One host event through a warm runner: the payload read by the host's adapter, the event run,
 * the result rendered as the host's http hook expects it (always 200: a host reads a body only
 * on 2xx). Untrusted config: the adapter's notRun answer (never a silent fail-open). Unknown host
 * or event: a UsageError (the server answers 404, which the host treats as a failed hook).
 */
export async function answerHostEvent(runner: Runner, hostName: string, hostAdapter: HostAdapter | undefined, eventArg: string, payload: Payload, options: TriggerOptions): Promise<WarmAnswer> {
  const warm = WARM[hostName];
  if (!hostAdapter || !warm) {
    throw new UsageError(`no host "${hostName}" answers over HTTP here; warm mode serves ${Object.keys(WARM).join(", ")}`);
  }
  const config = runner.config;
  const custom = Object.keys(config.events).filter((e) => config.events[e].custom);
  const event = Object.hasOwn(hostAdapter.events, eventArg) ? hostAdapter.events[eventArg] : parseHookEvent(eventArg, custom);
  const context = hostAdapter.read(payload, event);
  const transcriptWarning = deriveLastMessage(context, config.projectDir);
  try {
    // The run log names the host and, when recording is on, keeps the payload as the host sent it (as `hooks run --host` does).
    const result = await runner.trigger(event, context, { ...options, log: { ...options.log, always: true, host: hostAdapter.name, payload } });
    if (transcriptWarning) result.warnings.unshift(transcriptWarning);
    return { status: 200, body: warm.render(result) };
  } catch (error) {
    if (!(error instanceof TrustError)) throw error;
    const notRun = hostAdapter.notRun(event, ...notTrustedWords(error.files, `hooks -C ${config.projectDir} trust`));
    return { status: 200, body: JSON.parse(notRun.stdout) };
  }
}
