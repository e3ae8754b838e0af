import type { IncomingMessage, ServerResponse } from "node:http";
import { parseHookEvent } from "../events/parseHookEvent.js";
import type { Runner, TriggerOptions } from "../runner/types.js";
import type { ConfigWatcher } from "../watch/watchConfig.js";
import { EVENTS } from "../events/catalog.js";
import { deriveLastMessage } from "../interop/lastMessageFromTranscript.js";
import { eventJson, healthJson, hookJson } from "../report/json.js";
import { checkHookNames } from "../runner/context.js";
import { hostByName } from "../hosts/table.js";
import { answerHostEvent, HOST_ROUTE } from "../hosts/warm.js";
import type { Payload } from "../hosts/types.js";
import { checkBearer, errorResponse, HttpError, MAX_BODY_BYTES, readJsonBody, sendJson } from "./http.js";

export interface HandlerDeps {
  runner: Runner;
  /** Source of reloads and of the last reload error; null serves the runner's config as is. */
  watcher: ConfigWatcher | null;
  /** Required bearer token (TCP mode); null on a Unix socket, where file modes guard access. */
  token: string | null;
  /** A request body that sends nothing for this long is answered 408 (0: no limit). */
  bodyStallMs?: number;
  /** Paths in answers are shown relative to this (default: the config's project dir). */
  cwd?: string;
  /** The runner's environment, for the hooks it turns off (HOOKS, HOOKS_DISABLED) in GET /v1/hooks. */
  env?: NodeJS.ProcessEnv;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, param: string) => Promise<void>;

const list = (v: string | null): string[] | undefined =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
const flag = (v: string | null): boolean => v !== null && v !== "0" && v !== "false";

/**
 * The HTTP API of SPEC §12 over one long-lived runner: every door calls the same runner. The
 * handler's promise never rejects; it settles once the answer is handed to the connection.
 */
export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { runner, watcher } = deps;
  const base = (): string => deps.cwd ?? runner.config.projectDir;

  const trigger: Route = async (req, res, url, param) => {
    const config = runner.config;
    const custom = Object.keys(config.events).filter((e) => config.events[e].custom);
    let raw: string;
    try {
      raw = decodeURIComponent(param);
    } catch {
      throw new HttpError(400, `the event in ${url.pathname} is not valid percent-encoding`);
    }
    const event = parseHookEvent(raw, custom);
    const context = await readJsonBody(req, MAX_BODY_BYTES, deps.bodyStallMs);
    // A transcript that cannot be read (a FIFO, a device, too large) never fails the trigger.
    const transcriptWarning = deriveLastMessage(context, config.projectDir);
    // A caller that hangs up no longer wants the answer: its hooks are cancelled. The answer's
    // close says so; for a request pipelined behind another, whose answer is not on the
    // connection yet, only the connection's close does.
    const abort = new AbortController();
    const socket = req.socket;
    const hungUp = (): void => {
      try {
        if (!res.writableFinished) abort.abort();
      } catch {
        // A listener's failure must not escape an event handler: the hooks end by their timeouts.
      }
    };
    socket.once("close", hungUp);
    res.once("close", () => {
      socket.off("close", hungUp);
      hungUp();
    });
    const only = list(url.searchParams.get("only"));
    const skip = list(url.searchParams.get("skip"));
    // As the CLI's --only/--skip: a misspelt name is an error, not a run of nothing.
    const names = config.hooks.map((h) => h.name);
    checkHookNames("only", only, names);
    checkHookNames("skip", skip, names);
    // ?record=1 records this trigger's context in the run log (as `hooks run --record`); ?record=0 never.
    const record = url.searchParams.get("record");
    const options: TriggerOptions = { signal: abort.signal, wait: flag(url.searchParams.get("wait")), only, skip, ...(record !== null ? { log: { record: flag(record) } } : {}) };
    const result = await runner.trigger(event, context, options);
    if (transcriptWarning) result.warnings.unshift(transcriptWarning);
    sendJson(res, 200, result);
  };

  // Warm mode: a host's own payload in, the host's own answer out (src/hosts/warm.ts holds the logic).
  const hostEvent: Route = async (req, res, url) => {
    const [, rawHost, rawEvent] = HOST_ROUTE.exec(url.pathname)!;
    let host: string;
    let eventArg: string;
    try {
      host = decodeURIComponent(rawHost);
      eventArg = decodeURIComponent(rawEvent);
    } catch {
      throw new HttpError(400, `the host or event in ${url.pathname} is not valid percent-encoding`);
    }
    const payload = (await readJsonBody(req, MAX_BODY_BYTES, deps.bodyStallMs)) as Payload;
    const abort = new AbortController();
    res.once("close", () => {
      try {
        if (!res.writableFinished) abort.abort();
      } catch {
        // as in trigger
      }
    });
    const record = url.searchParams.get("record");
    const answer = await answerHostEvent(runner, host, hostByName(host), eventArg, payload, { signal: abort.signal, ...(record !== null ? { log: { record: flag(record) } } : {}) });
    sendJson(res, answer.status, answer.body);
  };

  const health = (): ReturnType<typeof healthJson> => healthJson(runner.config, watcher?.error ?? null, base());
  const events = (): ReturnType<typeof eventJson>[] => {
    const custom = Object.entries(runner.config.events).filter(([, s]) => s.custom);
    return [
      ...EVENTS.map((e) => eventJson(e)),
      ...custom.map(([name, s]) => eventJson({ name, aliases: [], fires: s.description ?? "", gate: s.gate ? "yes" : "no", matchField: null, fields: [] }, true)),
    ];
  };

  const routes: { pattern: RegExp; methods: Record<string, Route> }[] = [
    { pattern: /^\/v1\/trigger\/([^/]+)$/, methods: { POST: trigger } },
    { pattern: HOST_ROUTE, methods: { POST: hostEvent } },
    { pattern: /^\/v1\/hooks$/, methods: { GET: async (_q, res) => sendJson(res, 200, { hooks: runner.config.hooks.map((h) => hookJson(h, base(), deps.env ?? {})) }) } },
    { pattern: /^\/v1\/events$/, methods: { GET: async (_q, res) => sendJson(res, 200, { events: events() }) } },
    { pattern: /^\/v1\/health$/, methods: { GET: async (_q, res) => sendJson(res, 200, health()) } },
    {
      pattern: /^\/v1\/reload$/,
      methods: {
        POST: async (_q, res) => {
          if (watcher) runner.setConfig(await watcher.reload());
          sendJson(res, 200, health());
        },
      },
    },
  ];

  // Everything a request can make go wrong happens inside this promise, so it ends as an error
  // response, never as an exception that would take the server (and every other client) down.
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req);
    if (deps.token !== null) checkBearer(req, deps.token);
    const route = routes.find((r) => r.pattern.test(url.pathname));
    if (!route)
      throw new HttpError(
        404,
        `no such endpoint: ${req.method} ${url.pathname}; the API is POST /v1/trigger/{event}, POST /v1/hosts/{host}/{event}, GET /v1/hooks, GET /v1/events, GET /v1/health, POST /v1/reload`,
      );
    const method = route.methods[req.method ?? ""];
    const allow = Object.keys(route.methods).join(", ");
    if (!method) throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}; use ${allow}`, { allow: Object.keys(route.methods) }, { allow });
    await method(req, res, url, route.pattern.exec(url.pathname)?.[1] ?? "");
  };

  return (req, res) => {
    // A stream error with no listener is thrown by Node as an uncaught exception. Errors of the
    // request surface through readJsonBody; a response that cannot be written has nobody to tell.
    req.on("error", () => {});
    res.on("error", () => {});
    return handle(req, res).catch((error: unknown) => {
      try {
        // Headers gone out: the only honest ending left is to cut the response short.
        if (res.headersSent) return void res.destroy();
        if (res.destroyed) return;
        const { status, body, headers } = errorResponse(error, base());
        // A body we did not read to its end cannot be followed by another request on this connection.
        const unread: Record<string, string> = req.complete ? {} : { connection: "close" };
        sendJson(res, status, body, { ...unread, ...headers });
      } catch {
        res.destroy();
      }
    });
  };
}

/**
 * The request-target as a URL. `//x:99999` and the like are not valid URLs (WHATWG reads a
 * leading `//` as a host): a 400 for that client, not an exception.
 */
function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? "/", "http://hookrun");
  } catch {
    throw new HttpError(400, `the request target ${JSON.stringify(req.url)} is not a valid path; send e.g. POST /v1/trigger/stop`, {}, { connection: "close" });
  }
}
