import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HttpError } from "./httpError.js";

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/**
 * Require `Authorization: Bearer <token>`. Both sides are hashed first so the comparison is
 * constant-time whatever the length of what the client sent.
 */
export function checkBearer(req: IncomingMessage, token: string): void {
  // A string for a well-formed request; anything else (absent, repeated) is no token.
  const raw: unknown = req.headers.authorization;
  const header = typeof raw === "string" ? raw : "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const challenge = { "www-authenticate": 'Bearer realm="hookrun"' };
  if (!match) throw new HttpError(401, "missing bearer token; send `Authorization: Bearer $(cat $HOOKS_STATE_DIR/serve.token)`", {}, challenge);
  if (!timingSafeEqual(digest(match[1]), digest(token))) throw new HttpError(401, "wrong bearer token; read the current one from serve.token in the state directory", {}, challenge);
}
