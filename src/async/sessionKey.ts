import { nodeCrypto } from "../crypto/nodeCrypto.js";

const MAX_PLAIN = 80;

/**
 * A filesystem-safe directory name for a session id. Letters, digits, `_` and `-` stay as they
 * are; every other byte becomes `%XX` (so `.`/`..`/`/` can never escape the async dir). Long ids
 * are cut and suffixed with a hash so the name stays well under NAME_MAX and distinct ids never
 * share a directory.
 */
export function sessionKey(sessionId: string): string {
  const encoded = Array.from(Buffer.from(sessionId, "utf8"), (b) =>
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x2d
      ? String.fromCharCode(b)
      : "%" + b.toString(16).toUpperCase().padStart(2, "0"),
  ).join("");
  if (encoded.length === 0) return "%";
  if (encoded.length <= MAX_PLAIN) return encoded;
  const hash = nodeCrypto().createHash("sha256").update(sessionId).digest("hex").slice(0, 16);
  return `${encoded.slice(0, MAX_PLAIN - 17)}~${hash}`;
}
