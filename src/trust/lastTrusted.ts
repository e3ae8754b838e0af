import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { ConfigError } from "../errors.js";
import { stateDir as defaultStateDir } from "../fs/stateDir.js";
import { readSnapshot } from "./snapshots.js";
import { readTrustStore, type TrustOptions, untrustedFiles } from "./store.js";

/**
 * The last trusted version keeps guarding (docs/trust.md#the-last-trusted-version-keeps-guarding):
 * for an agent's event, a project or local file that changed since it was trusted, or that no
 * longer loads, is replaced by the bytes last trusted for it, so its guards keep running until a
 * person reviews the change. A file with no trusted version kept is left as it is: it is then
 * untrusted or invalid, as before.
 */

/** A file whose last trusted version runs instead of its current bytes, and why. */
export interface KeptVersion {
  file: string;
  why: "changed" | "invalid";
  /** For `invalid`: the first problem, FILE:LINE:COL: message. */
  problem?: string;
}

/** Load the config as it is, or with the last trusted version of each file that changed or no longer loads. */
export async function loadLastTrusted(
  load: (overrides?: Record<string, string>) => Promise<ResolvedConfig> | ResolvedConfig,
  options: TrustOptions = {},
): Promise<{ config: ResolvedConfig; kept: KeptVersion[] }> {
  const overrides: Record<string, string> = {};
  const kept: KeptVersion[] = [];
  const trustedVersion = trustedVersions(options.stateDir ?? defaultStateDir(options.env ?? process.env));
  // Each round replaces the files that keep the config from running; one more catches a file a
  // replacement made load that is itself changed. Layers are at most three.
  for (let round = 0; round < 4; round++) {
    let config: ResolvedConfig;
    try {
      config = await load(Object.keys(overrides).length ? { ...overrides } : undefined);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const bad = [...new Set(error.diagnostics.filter((d) => d.severity === "error").map((d) => d.file))].filter((f) => !Object.hasOwn(overrides, f));
      const versions = bad.map((f) => [f, trustedVersion(f)] as const);
      if (bad.length === 0 || versions.some(([, v]) => v === null)) throw error;
      for (const [file, text] of versions) {
        overrides[file] = text as string;
        const d = error.diagnostics.find((x) => x.file === file && x.severity === "error");
        kept.push({ file, why: "invalid", problem: d ? `${d.file}:${d.line}:${d.col}: ${d.message}` : error.message });
      }
      continue;
    }
    let changed: ReturnType<typeof untrustedFiles>;
    try {
      changed = untrustedFiles(config, options).filter((f) => !Object.hasOwn(overrides, f.path));
    } catch {
      // The trust store cannot be read (a state dir hookrun refuses): the run's own trust check reports it.
      return { config, kept };
    }
    const versions = changed.map((f) => [f.path, trustedVersion(f.path)] as const).filter(([, v]) => v !== null);
    if (versions.length === 0) return { config, kept };
    for (const [file, text] of versions) {
      overrides[file] = text as string;
      kept.push({ file, why: "changed" });
    }
  }
  return { config: await load({ ...overrides }), kept };
}

/** The last trusted version of a file, by its path: null when none is kept, or the state dir cannot be read (hookrun refuses it; the trust check says why). */
export function trustedVersions(dir: string): (file: string) => string | null {
  let store: ReturnType<typeof readTrustStore> | null = null;
  return (file) => {
    try {
      store ??= readTrustStore(dir);
    } catch {
      return null;
    }
    const hash = store.files[path.resolve(file)];
    return hash === undefined ? null : readSnapshot(dir, hash);
  };
}

/** What the user is told while last trusted versions run: what changed, and the command that reviews it. */
export function keptNotice(kept: readonly KeptVersion[], review: string): string {
  const what = kept.map((k) => (k.why === "changed" ? `${k.file} changed since it was trusted` : `${k.file} no longer loads (${k.problem})`)).join("; ");
  return `hookrun: ${what}: its last trusted version is running instead, guards included, until the change is reviewed: ${review}`;
}
