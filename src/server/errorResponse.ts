import { ConfigError, ContextError, HookrunError, InterruptedError, TrustError, UsageError } from "../errors.js";
import { HttpError } from "./httpError.js";

/** The one place the server turns an error into a status and a JSON body `{"error": …}`. */
export function errorResponse(error: unknown): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  if (error instanceof HttpError) return { status: error.status, body: { error: error.message, ...error.extra }, headers: error.headers };
  if (error instanceof UsageError) return { status: 404, body: { error: error.message, suggestions: error.suggestions }, headers: {} };
  if (error instanceof ContextError) return { status: 400, body: { error: error.message }, headers: {} };
  if (error instanceof TrustError) return { status: 403, body: { error: error.message, files: error.files }, headers: {} };
  if (error instanceof ConfigError) return { status: 422, body: { error: error.message, diagnostics: error.diagnostics }, headers: {} };
  if (error instanceof InterruptedError) return { status: 503, body: { error: "the server is shutting down; retry against the next one" }, headers: { connection: "close" } };
  if (error instanceof HookrunError) return { status: 500, body: { error: error.message }, headers: {} };
  return { status: 500, body: { error: `internal error: ${error instanceof Error ? error.message : String(error)}` }, headers: {} };
}
