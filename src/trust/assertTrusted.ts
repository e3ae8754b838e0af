import path from "node:path";
import type { ConfigFileInfo, ResolvedConfig } from "../config/types.js";
import { TrustError } from "../errors.js";
import { stateDir as defaultStateDir } from "../fs/stateDir.js";
import { trustedByEnvironment } from "../env.js";
import { readTrustStore } from "./trustStore.js";

export interface TrustOptions {
  env?: NodeJS.ProcessEnv;
  /** Where trust.json lives (default stateDir(env)). */
  stateDir?: string;
  /** "all" (library) or true (`--trust`): trust every layer for this call. */
  trust?: "all" | boolean;
}

/** The project and local files whose current bytes have not been reviewed with `hooks trust`. */
export function untrustedFiles(config: Pick<ResolvedConfig, "files">, options: TrustOptions = {}): ConfigFileInfo[] {
  const env = options.env ?? process.env;
  if (options.trust === "all" || options.trust === true || trustedByEnvironment(env)) return [];
  const reviewed = config.files.filter((f) => f.layer !== "user");
  if (reviewed.length === 0) return [];
  const store = readTrustStore(options.stateDir ?? defaultStateDir(env));
  return reviewed.filter((f) => store.files[path.resolve(f.path)] !== f.sha256);
}

/**
 * Throw TrustError unless every project/local file is trusted as loaded. The user layer is
 * the user's own and always trusted; so are CI, HOOKS_TRUST=1, --trust and trust: "all".
 */
export function assertTrusted(config: Pick<ResolvedConfig, "files">, options: TrustOptions = {}): void {
  const bad = untrustedFiles(config, options);
  if (bad.length === 0) return;
  const first = bad[0].path;
  const more = bad.length > 1 ? ` (and ${bad.slice(1).map((f) => f.path).join(", ")})` : "";
  throw new TrustError(
    `${first}${more} is not trusted (new or changed since it was reviewed); run \`hooks trust\` in ${path.dirname(first)} to review its commands and trust it`,
    bad.map((f) => f.path),
  );
}
