import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

/**
 * node:crypto, loaded on first use. Loading it costs a cold `hooks run` or `hooks validate` a few
 * milliseconds (7-26 ms on a loaded 2-core box), a large share of the start-up budget (docs/performance.md),
 * and runs that check no trust and start no async hook never need it.
 */
export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}

/** sha256 hex of bytes or text: what trust records about a config file. */
export function sha256(data: string | Buffer): string {
  return nodeCrypto().createHash("sha256").update(data).digest("hex");
}
