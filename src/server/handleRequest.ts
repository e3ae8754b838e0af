import type { IncomingMessage, ServerResponse } from "node:http";
import { parseHookEvent } from "../events/parseHookEvent.js";
import type { Runner, TriggerOptions } from "../runner/types.js";
import type { ConfigWatcher } from "../watch/watchConfig.js";
import { checkBearer } from "./checkBearer.js";
import { describeEvents } from "./describeEvents.js";
import { describeHooks } from "./describeHooks.js";
import { errorResponse } from "./errorResponse.js";
import { healthReport } from "./healthReport.js";
import { HttpError } from "./httpError.js";
import { readJsonBody } from "./readJsonBody.js";
import { sendJson } from "./sendJson.js";
import { deriveLastMessage } from "../interop/lastMessageFromTranscript.js";

export interface HandlerDeps {
  runner: Runner;
  /** Source of reloads and of the last reload error; null serves the runner's config as is. */
  watcher: ConfigWatcher | null;
  /** Required bearer token (TCP mode); null on a Unix socket, where file modes guard access. */
  token: string | null;
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, param: string) => Promise<void>;

const list = (v: string | null): string[] | undefined => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined);
const flag = (v: string | null): boolean => v !== null && v !== "0" && v !== "false";

/** The HTTP API of SPEC §12 over one long-lived runner: every door calls the same runner. */
export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { runner, watcher } = deps;

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
    const context = await readJsonBody(req);
    // A transcript that cannot be read (a FIFO, a device, too large) never fails the trigger.
    const transcriptWarning = deriveLastMessage(context, config.projectDir);
    // A caller that hangs up no longer wants the answer: its hooks are cancelled.
    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const options: TriggerOptions = { signal: abort.signal, wait: flag(url.searchParams.get("wait")), only: list(url.searchParams.get("only")), skip: list(url.searchParams.get("skip")) };
    const result = await runner.trigger(event, context, options);
    if (transcriptWarning) result.warnings.unshift(transcriptWarning);
    sendJson(res, 200, result);
  };

  const health = (): ReturnType<typeof healthReport> => healthReport(runner.config, watcher?.error ?? null);

  const routes: { pattern: RegExp; methods: Record<string, Route> }[] = [
    { pattern: /^\/v1\/trigger\/([^/]+)$/, methods: { POST: trigger } },
    { pattern: /^\/v1\/hooks$/, methods: { GET: async (_q, res) => sendJson(res, 200, { hooks: describeHooks(runner.config) }) } },
    { pattern: /^\/v1\/events$/, methods: { GET: async (_q, res) => sendJson(res, 200, { events: describeEvents(runner.config) }) } },
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

  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://hookrun");
    const handle = async (): Promise<void> => {
      if (deps.token !== null) checkBearer(req, deps.token);
      const route = routes.find((r) => r.pattern.test(url.pathname));
      if (!route) throw new HttpError(404, `no such endpoint: ${req.method} ${url.pathname}; the API is POST /v1/trigger/{event}, GET /v1/hooks, GET /v1/events, GET /v1/health, POST /v1/reload`);
      const method = route.methods[req.method ?? ""];
      const allow = Object.keys(route.methods).join(", ");
      if (!method) throw new HttpError(405, `${req.method} is not allowed on ${url.pathname}; use ${allow}`, { allow: Object.keys(route.methods) }, { allow });
      await method(req, res, url, route.pattern.exec(url.pathname)?.[1] ?? "");
    };
    handle().catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      const { status, body, headers } = errorResponse(error);
      // A body we did not read to its end cannot be followed by another request on this connection.
      const unread: Record<string, string> = req.complete ? {} : { connection: "close" };
      sendJson(res, status, body, { ...unread, ...headers });
    });
  };
}
