import http from "node:http";
import { createServer } from "node:net";
import { untilStderr, type CliProcess } from "./cli.js";

/** A loopback port nothing listens on now (a listener bound to port 0, then closed). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Wait until `hooks serve` logs that it listens (or fail with what it printed); returns its URL. */
export async function untilListening(p: CliProcess, timeoutMs = 15_000): Promise<string> {
  return (await untilStderr(p, /listening on (\S+)/, "the server to listen", timeoutMs))[1];
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: any;
}

export type Target = { socketPath: string } | { port: number };

/** One HTTP request over the socket (or to 127.0.0.1:port); the body is JSON-parsed. */
export function request(target: Target, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const where = "socketPath" in target ? { socketPath: target.socketPath } : { host: "127.0.0.1", port: target.port };
    const req = http.request({ ...where, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = { raw: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
