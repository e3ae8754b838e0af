import { HookrunError } from "../errors.js";

/** A request the server answers with an error status; `extra` joins `error` in the JSON body. */
export class HttpError extends HookrunError {
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message, { code: "http" });
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}
