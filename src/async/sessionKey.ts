import { nodeCrypto } from "../fs/crypto.js";

const MAX_PLAIN = 80;

/**
 * A filesystem-safe directory name for a session id, distinct for distinct ids. Letters, digits,
 * `_` and `-` stay as they are; every other byte of the id's UTF-8 becomes `%XX` (so `.`/`..`/`/`
 * can never escape the async dir). A lone surrogate, which UTF-8 cannot encode (it would become
 * U+FFFD, so `"\ud800v"` and `"\udbffv"` would share a directory), becomes `%uD800`; UTF-8
 * bytes never spell `%u`, so the encoding stays one-to-one. Long ids are cut and suffixed with a
 * hash of the whole encoding so the name stays well under NAME_MAX and distinct ids never share
 * a directory.
 */
export function sessionKey(sessionId: string): string {
  // The common case (UUIDs and the like) is its own encoding.
  if (sessionId.length <= MAX_PLAIN && /^[A-Za-z0-9_-]+$/.test(sessionId)) return sessionId;
  let encoded = "";
  for (const ch of sessionId) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      encoded += "%u" + cp.toString(16).toUpperCase();
      continue;
    }
    for (const b of Buffer.from(ch, "utf8")) {
      encoded +=
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b === 0x2d
          ? String.fromCharCode(b)
          : "%" + b.toString(16).toUpperCase().padStart(2, "0");
    }
  }
  if (encoded.length === 0) return "%";
  if (encoded.length <= MAX_PLAIN) return encoded;
  // The encoding, not the id: hashing the id would hash its UTF-8, where lone surrogates collide.
  const hash = nodeCrypto().createHash("sha256").update(encoded).digest("hex").slice(0, 16);
  return `${encoded.slice(0, MAX_PLAIN - 17)}~${hash}`;
}
