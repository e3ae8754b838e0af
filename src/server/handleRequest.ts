import type { ResolvedConfig } from "../config/types.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { realDestination } from "../fs/insideDir.js";
import { terminalSafe } from "../text.js";
import { HookrunError, UsageError } from "../errors.js";
import { EVENTS } from "../events/catalog.js";
import { trustCommand } from "../hosts/notRunWords.js";
import { type HostEventOutcome, type HostEventRequest, runHostEvent } from "../hosts/runHostEvent.js";
import { HOSTS, hostByName } from "../hosts/adapters.js";
import type { HostAdapter, Payload } from "../hosts/types.js";
import { hostHttpBody } from "../hosts/httpAnswer.js";
import { resolveHostName } from "../hosts/table.js";
import { CHALLENGE, HOST_ROUTE, healthProof, warmCapable } from "../hosts/warm.js";
import { eventJson, healthJson, hookJson } from "../report/json.js";
import { checkHookNames } from "../runner/context.js";
import type { Runner, TriggerOptions } from "../runner/types.js";
import type { ConfigWatcher } from "../watch/watchConfig.js";
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
  /** `hooks serve --trust`: the config runs without a recorded review. */
  trust?: boolean;
  /** The command that reviews and trusts the config of a project, as a host's not-run answer names it. */
  trustCommand?: (projectDir: string) => string;
  /**
   * How to run a last trusted version while a file is changed and not trusted, or no longer loads
   * (docs/trust.md#the-last-trusted-version-keeps-guarding): load the config with those texts in
   * place of the files, and a runner for it (closed after the request). Absent: the config as it is.
   */
  lastTrusted?: LastTrustedDeps;
}

export interface LastTrustedDeps {
  load(overrides: Record<string, string>): Promise<ResolvedConfig>;
  runner(config: ResolvedConfig): Runner;
}

/** A path segment, percent-decoded; a bad encoding is the client's error. */
function decodeParam(raw: string, url: URL, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new HttpError(400, `the ${what} in ${url.pathname} is not valid percent-encoding`);
  }
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

/** Paths in answers are shown relative to this. */
const baseOf = (deps: HandlerDeps): string => deps.cwd ?? deps.runner.config.projectDir;

/**
 * The HTTP API of `hooks serve` (docs/server.md#api) over one long-lived runner. The handler's
 * promise never rejects; it settles once the answer is handed to the connection.
 */
export function createRequestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const routes = apiRoutes(deps);
  return (req, res) => {
    // A stream error with no listener is thrown by Node as an uncaught exception. Errors of the
    // request surface through readJsonBody; a response that cannot be written has nobody to tell.
    req.on("error", () => {});
    res.on("error", () => {});
    // Everything a request can make go wrong happens inside this promise, so it ends as an error
    // response, never as an exception that would take the server (and every other client) down.
    return routeRequest(deps, routes, req, res).catch((error: unknown) => {
      try {
        // Headers gone out: the only honest ending left is to cut the response short.
        if (res.headersSent) return void res.destroy();
        if (res.destroyed) return;
        const { status, body, headers } = errorResponse(error, baseOf(deps));
        // A body we did not read to its end cannot be followed by another request on this connection.
        const unread: Record<string, string> = req.complete ? {} : { connection: "close" };
        sendJson(res, status, body, { ...unread, ...headers });
      } catch {
        res.destroy();
      }
    });
  };
}

type Routes = { pattern: RegExp; methods: Record<string, Route> }[];

async function routeRequest(deps: HandlerDeps, routes: Routes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req);
  // The proof of the token, asked without it (src/hosts/warm.ts healthProof): an HMAC of a nonce the asker chose reveals nothing of the token.
  const challenge = url.searchParams.get("challenge");
  if (deps.token !== null && req.method === "GET" && url.pathname === "/v1/health" && challenge !== null && CHALLENGE.test(challenge)) {
    // &project=DIR: whether this server answers that project's events (assertOwnProject), in the proof.
    const project = url.searchParams.get("project");
    const which = project !== null && path.isAbsolute(project) ? (inProject(project, deps.runner.config.projectDir) ? "this" : "other") : undefined;
    sendJson(res, 200, { proof: healthProof(deps.token, challenge, which) });
    return;
  }
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
}

/** The routes of the API, each a thin door: the triggers onto runHostEvent, the rest onto the runner's config. */
function apiRoutes(deps: HandlerDeps): Routes {
  const { runner, watcher } = deps;
  const health = (): ReturnType<typeof healthJson> => healthJson(runner.config, watcher?.error ?? null, baseOf(deps));
  const events = (): ReturnType<typeof eventJson>[] => {
    const custom = Object.entries(runner.config.events).filter(([, s]) => s.custom);
    return [
      ...EVENTS.map((e) => eventJson(e)),
      ...custom.map(([name, s]) => eventJson({ name, aliases: [], fires: s.description ?? "", gate: s.gate ? "yes" : "no", matchField: null, fields: [] }, true)),
    ];
  };
  const trigger: Route = async (req, res, url, param) => {
    const payload = (await readJsonBody(req, MAX_BODY_BYTES, deps.bodyStallMs)) as Payload;
    const outcome = await dispatch(deps, req, res, url, null, decodeParam(param, url, "event"), payload);
    // Without a host nothing is ignored and nothing is answered for the host: a config that keeps
    // the hooks from running is an error (403, 422), thrown by runHostEvent.
    if (outcome.kind !== "ran") throw new HookrunError(`no result for ${outcome.event}: ${outcome.kind}`);
    sendJson(res, 200, outcome.result);
  };
  // A host's own payload in, the host's own answer out (warm mode: src/hosts/warm.ts).
  const hostEvent: Route = async (req, res, url) => {
    // The host's timeout runs from its request: so does a ?deadline.
    const startedAt = Date.now();
    const [, rawHost, rawEvent] = HOST_ROUTE.exec(url.pathname)!;
    const name = decodeParam(rawHost, url, "host");
    const eventArg = decodeParam(rawEvent, url, "event");
    const named = hostByName(name);
    if (!named) throw new UsageError(`no host "${name}"; hooks serve answers ${HOSTS.map((h) => h.name).join(", ")}`);
    const closed = failClosedParams(url, startedAt);
    const payload = (await readJsonBody(req, MAX_BODY_BYTES, deps.bodyStallMs)) as Payload;
    assertOwnProject(payload, runner.config.projectDir);
    // Copilot CLI also sends Claude Code's warm entries: as `hooks run --host claude` does, the
    // event is Copilot's, and stays quiet where Copilot has hookrun entries of its own.
    const detected = name === "claude" ? resolveHostName(name, payload) : null;
    const host = detected !== null && detected !== name && warmCapable(detected) ? (hostByName(detected) ?? named) : named;
    const outcome = await dispatch(deps, req, res, url, host, eventArg, payload, { ...closed, ...(host !== named && { named: name }) });
    sendJson(res, 200, hostHttpBody(host, outcome, url.searchParams.get("answer") === "command" ? "command" : "http"));
  };
  const reload: Route = async (_q, res) => {
    if (watcher) runner.setConfig(await watcher.reload());
    sendJson(res, 200, health());
  };
  return [
    { pattern: /^\/v1\/trigger\/([^/]+)$/, methods: { POST: trigger } },
    { pattern: HOST_ROUTE, methods: { POST: hostEvent } },
    { pattern: /^\/v1\/hooks$/, methods: { GET: async (_q, res) => sendJson(res, 200, { hooks: runner.config.hooks.map((h) => hookJson(h, baseOf(deps), deps.env ?? {})) }) } },
    { pattern: /^\/v1\/events$/, methods: { GET: async (_q, res) => sendJson(res, 200, { events: events() }) } },
    { pattern: /^\/v1\/health$/, methods: { GET: async (_q, res) => sendJson(res, 200, health()) } },
    { pattern: /^\/v1\/reload$/, methods: { POST: reload } },
  ];
}

/**
 * One event through the one path to its answer (src/hosts/runHostEvent.ts), over the warm
 * runner. `host` null: hookrun's own context and result (`/v1/trigger`), which keeps running the
 * last good config while an edit does not load (docs/server.md); with a host, the config's state
 * is the one `hooks run --host` would see, so both doors answer alike.
 */
function dispatch(
  deps: HandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  host: HostAdapter | null,
  event: string,
  payload: Payload,
  extra: Pick<HostEventRequest, "failClosed" | "deadlineMs" | "startedAt" | "named"> = {},
): Promise<HostEventOutcome> {
  const { runner, watcher } = deps;
  const only = list(url.searchParams.get("only"));
  const skip = list(url.searchParams.get("skip"));
  // ?record=1 records this trigger's context in the run log (as `hooks run --record`); ?record=0 never.
  const record = url.searchParams.get("record");
  const options: TriggerOptions = { signal: cancelOnHangUp(req, res), wait: flag(url.searchParams.get("wait")), only, skip, ...(record !== null ? { log: { record: flag(record) } } : {}) };
  // A last trusted version runs on a runner of its own, closed with the request (its async hooks with it).
  let own: Runner | null = null;
  return runHostEvent({
    host,
    event,
    payload,
    env: deps.env ?? {},
    cwd: baseOf(deps),
    config: (overrides) => {
      if (overrides) {
        if (!deps.lastTrusted) throw new HookrunError("this server cannot load a last trusted version");
        return deps.lastTrusted.load(overrides);
      }
      if (host && watcher?.error) throw watcher.error;
      return runner.config;
    },
    runner: (config) => {
      // As the CLI's --only/--skip: a misspelt name is an error, not a run of nothing.
      const names = config.hooks.map((h) => h.name);
      checkHookNames("only", only, names);
      checkHookNames("skip", skip, names);
      if (config === runner.config || !deps.lastTrusted) return runner;
      own = deps.lastTrusted.runner(config);
      return own;
    },
    lastTrusted: deps.lastTrusted !== undefined,
    trust: deps.trust,
    trustCommand: deps.trustCommand ?? ((dir) => trustCommand({}, dir)),
    options,
    ...extra,
  }).finally(() => (own as Runner | null)?.close({ graceMs: 0 }));
}

/**
 * A host's event from a session outside the server's project (the payload's `cwd`) is refused:
 * answered with this project's hooks, the other project's guards would silently not run. A host
 * reads the 409 as a failed hook, which fails closed under warm mode (docs/server.md).
 */
function assertOwnProject(payload: Payload, projectDir: string): void {
  const cwd = payload.cwd;
  if (typeof cwd !== "string" || !path.isAbsolute(cwd) || inProject(cwd, projectDir)) return;
  throw new HttpError(
    409,
    `this hooks serve runs the hooks of ${realDestination(projectDir)}, and the event comes from ${terminalSafe(realDestination(cwd))}, outside it: run a hooks serve in that project, on a port of its own (hooks install HOST --serve OTHER_PORT there)`,
  );
}

/** Whether `dir` is the project `projectDir` or inside it: as written (the common case, no file system call), else with symlinks followed. */
function inProject(dir: string, projectDir: string): boolean {
  const inside = (root: string, at: string): boolean => {
    const rel = path.relative(root, at);
    return !(rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
  };
  return inside(projectDir, path.resolve(dir)) || inside(realDestination(projectDir), realDestination(dir));
}

/**
 * A warm entry's `?fail_closed=1&deadline=SECONDS`, as `hooks run`'s `--fail-closed --deadline`
 * (docs/fail-closed.md): the event blocks when hookrun cannot run its hooks, and the hooks are
 * stopped, and the call blocked, before the host's timeout, counted from the request.
 */
function failClosedParams(url: URL, startedAt: number): Pick<HostEventRequest, "failClosed" | "deadlineMs" | "startedAt"> {
  const deadline = url.searchParams.get("deadline");
  if (deadline !== null && (!/^\d+(\.\d+)?$/.test(deadline) || Number(deadline) <= 0))
    throw new HttpError(400, `deadline=${deadline}: expected the seconds after which the host gives up on this request (its timeout)`);
  return { failClosed: flag(url.searchParams.get("fail_closed")), ...(deadline !== null && { deadlineMs: Number(deadline) * 1000, startedAt }) };
}

/** A caller that hangs up no longer wants the answer: the signal that cancels its hooks. */
function cancelOnHangUp(req: IncomingMessage, res: ServerResponse): AbortSignal {
  // The answer's close says so; for a request pipelined behind another, whose answer is not on
  // the connection yet, only the connection's close does.
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
  return abort.signal;
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
