import { nodeCrypto } from "../crypto/nodeCrypto.js";

/** sha256 hex of bytes or text: what trust records about a config file. */
export function sha256(data: string | Buffer): string {
  return nodeCrypto().createHash("sha256").update(data).digest("hex");
}
