import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { ConfigError, type Diagnostic } from "../../src/errors.js";
import { loadConfig, type LoadConfigOptions } from "../../src/config/loadConfig.js";

export interface TempProject {
  root: string;
  /** Isolated XDG/state dirs: no user layer unless the test writes one. */
  env: Record<string, string>;
  /** Write a file (parents created); returns its absolute path. */
  write(rel: string, text: string): string;
  /** Absolute path of a file in the tree. */
  path(rel: string): string;
  /** loadConfig with this tree's env. */
  load(options?: LoadConfigOptions): ReturnType<typeof loadConfig>;
  /** The diagnostics loadConfig throws (fails the test when it does not throw). */
  diagnostics(options?: LoadConfigOptions): Promise<Diagnostic[]>;
}

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A real temporary directory tree, removed after each test. */
export function tempProject(): TempProject {
  const root = mkdtempSync(path.join(os.tmpdir(), "hookrun-config-"));
  made.push(root);
  const env = { XDG_CONFIG_HOME: path.join(root, "xdg"), XDG_STATE_HOME: path.join(root, "state"), HOOKS_STATE_DIR: path.join(root, "state/hookrun") };
  const p = (rel: string) => path.join(root, rel);
  const t: TempProject = {
    root,
    env,
    path: p,
    write(rel, text) {
      mkdirSync(path.dirname(p(rel)), { recursive: true });
      writeFileSync(p(rel), text);
      return p(rel);
    },
    load(options = {}) {
      return loadConfig({ cwd: root, env, ...options });
    },
    async diagnostics(options = {}) {
      try {
        await t.load(options);
      } catch (e) {
        if (e instanceof ConfigError) return e.diagnostics;
        throw e;
      }
      throw new Error("expected loadConfig to throw ConfigError");
    },
  };
  return t;
}
