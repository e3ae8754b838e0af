import { StringDecoder } from "node:string_decoder";

/**
 * The small part of the Model Context Protocol that `hooks mcp` speaks (docs/server.md#hooks-mcp):
 * JSON-RPC 2.0 over stdio, one message per line, as an agent that starts an MCP server itself
 * speaks it. A server answers `initialize`, `ping`, `tools/list` and `tools/call`, ignores
 * notifications (but `notifications/cancelled`, which cancels a call in flight), and answers
 * anything else "method not found". Nothing but JSON-RPC is written to `output`.
 */

/** One tool the server offers. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool call answers: its text, and whether it is the tool's error. */
export interface McpToolResult {
  text: string;
  isError: boolean;
}

export interface McpServerOptions {
  input: NodeJS.ReadableStream;
  output: { write(chunk: string): unknown };
  /** The server's name and version in `initialize`'s answer. */
  info: { name: string; version: string };
  tools: readonly McpTool[];
  /** One call of one of `tools`; `signal` aborts when the client cancels it or the server closes. */
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpToolResult>;
  /** A line longer than this many bytes is refused (and read no further). */
  maxLineBytes: number;
  /** For the log (stderr): a message that was refused, or a call that failed. */
  log?(line: string): void;
}

/** The protocol versions this subset answers with; a client asking another gets the newest. */
export const MCP_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;

/** JSON-RPC's error codes (and MCP's use of them). */
export const RPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603 } as const;

type Id = string | number | null;

export interface McpServer {
  /** Resolves when the input has ended (the client closed it) or `close()` was called, once the calls in flight have answered. */
  done: Promise<void>;
  /** Stop reading, abort the calls in flight. */
  close(): void;
}

export function startMcpServer(opts: McpServerOptions): McpServer {
  const session = new Session(opts);
  const stop = readLines(opts.input, opts.maxLineBytes, {
    line: (line) => session.handle(line),
    tooLong: () => {
      opts.log?.(`refused a line over ${opts.maxLineBytes} bytes`);
      session.fail(null, RPC.invalidRequest, `message too large: a line may hold at most ${opts.maxLineBytes} bytes`);
    },
    end: () => session.close(),
  });
  return {
    done: session.ended.then(() => session.drained()),
    close: () => {
      stop();
      session.close();
    },
  };
}

/** One client's session: its state, and an answer to each message. */
class Session {
  private readonly inFlight = new Map<string, AbortController>();
  private readonly answering = new Set<Promise<void>>();
  private initialized = false;
  private closed = false;
  private finish!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.finish = resolve));

  constructor(private readonly opts: McpServerOptions) {}

  private send(message: Record<string, unknown>): void {
    this.opts.output.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  fail(id: Id, code: number, message: string): void {
    this.send({ id, error: { code, message } });
  }

  handle(line: string): void {
    if (line.trim() === "") return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.opts.log?.("refused a line that is not JSON");
      this.fail(null, RPC.parse, "parse error: the line is not JSON");
      return;
    }
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
      this.fail(null, RPC.invalidRequest, "invalid request: expected one JSON-RPC object per line (batches are not supported)");
      return;
    }
    const m = msg as Record<string, unknown>;
    const id: Id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
    if (m.jsonrpc !== "2.0" || typeof m.method !== "string") {
      // A response from the client (to a request this server never sends) is not answered.
      if (!Object.hasOwn(m, "method") && (Object.hasOwn(m, "result") || Object.hasOwn(m, "error"))) return;
      this.fail(id, RPC.invalidRequest, 'invalid request: "jsonrpc" must be "2.0" and "method" a string');
      return;
    }
    const params = m.params !== null && typeof m.params === "object" && !Array.isArray(m.params) ? (m.params as Record<string, unknown>) : {};
    if (!Object.hasOwn(m, "id")) this.notification(m.method, params);
    else if (id === null) this.fail(null, RPC.invalidRequest, "invalid request: an id must be a string or a number");
    else this.request(id, m.method, params);
  }

  private notification(method: string, params: Record<string, unknown>): void {
    if (method === "notifications/initialized") this.initialized = true;
    else if (method === "notifications/cancelled") {
      const target = params.requestId;
      if (typeof target === "string" || typeof target === "number") this.inFlight.get(key(target))?.abort();
    }
  }

  private request(id: string | number, method: string, params: Record<string, unknown>): void {
    if (method === "ping") this.send({ id, result: {} });
    else if (method === "initialize") {
      const asked = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
      const protocolVersion = (MCP_VERSIONS as readonly string[]).includes(asked) ? asked : MCP_VERSIONS[MCP_VERSIONS.length - 1];
      this.initialized = true; // some clients send their first request before notifications/initialized
      this.send({ id, result: { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: this.opts.info } });
    } else if (method !== "tools/list" && method !== "tools/call") this.fail(id, RPC.methodNotFound, `method not found: ${method}`);
    else if (!this.initialized) this.fail(id, RPC.invalidRequest, `${method} before initialize: send initialize first`);
    else if (method === "tools/list") this.send({ id, result: { tools: this.opts.tools } });
    else this.call(id, params);
  }

  private call(id: string | number, params: Record<string, unknown>): void {
    const { opts } = this;
    const name = params.name;
    if (typeof name !== "string" || !opts.tools.some((t) => t.name === name)) {
      this.fail(id, RPC.invalidParams, `unknown tool: ${typeof name === "string" ? name : "(no name)"}; this server has ${opts.tools.map((t) => t.name).join(", ")}`);
      return;
    }
    const args = params.arguments ?? {};
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      this.fail(id, RPC.invalidParams, "arguments must be an object");
      return;
    }
    const k = key(id);
    if (this.inFlight.has(k)) {
      this.fail(id, RPC.invalidRequest, `a call with id ${JSON.stringify(id)} is already in flight`);
      return;
    }
    const abort = new AbortController();
    this.inFlight.set(k, abort);
    if (this.closed) abort.abort();
    // A call that throws at once is answered as one that fails: nothing a client sends ends the server.
    const answer = Promise.resolve()
      .then(() => opts.call(name, args as Record<string, unknown>, abort.signal))
      .then(
        (r) => this.send({ id, result: { content: [{ type: "text", text: r.text }], isError: r.isError } }),
        (error: unknown) => {
          const text = error instanceof Error ? error.message : String(error);
          opts.log?.(`${name} failed: ${text}`);
          this.send({ id, result: { content: [{ type: "text", text }], isError: true } });
        },
      )
      .finally(() => {
        this.inFlight.delete(k);
        this.answering.delete(answer);
      });
    this.answering.add(answer);
  }

  /** No more messages: the calls in flight are aborted (they still answer, if anyone reads). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const a of this.inFlight.values()) a.abort();
    this.finish();
  }

  /** Resolves once every call has answered. */
  async drained(): Promise<void> {
    while (this.answering.size > 0) await Promise.allSettled([...this.answering]);
  }
}

/**
 * Lines of `input`, cut from raw bytes: a line over `max` bytes is refused as soon as it passes
 * the limit and the rest of it is skipped, so a client never makes this process hold more than
 * `max`. A last line without its newline is still a line. Returns a function that stops reading.
 */
function readLines(input: NodeJS.ReadableStream, max: number, on: { line(text: string): void; tooLong(): void; end(): void }): () => void {
  const decoder = new StringDecoder("utf8");
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const flush = (): void => {
    const text = decoder.write(Buffer.concat(parts)) + decoder.end();
    parts = [];
    size = 0;
    on.line(text);
  };
  const onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    while (buf.length > 0) {
      const nl = buf.indexOf(10);
      const piece = nl === -1 ? buf : buf.subarray(0, nl);
      if (!skipping && size + piece.length > max) {
        skipping = true;
        parts = [];
        size = 0;
        on.tooLong();
      } else if (!skipping) {
        parts.push(piece);
        size += piece.length;
      }
      if (nl === -1) break;
      if (!skipping) flush();
      skipping = false;
      buf = buf.subarray(nl + 1);
    }
  };
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    input.off("data", onData);
    on.end();
  };
  input.on("data", onData);
  input.once("end", () => {
    if (!stopped && !skipping && size > 0) flush();
    stop();
  });
  input.once("error", stop);
  input.once("close", stop);
  return stop;
}

const key = (id: string | number): string => `${typeof id}:${id}`;
