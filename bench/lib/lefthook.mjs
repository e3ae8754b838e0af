// lefthook is the peer: a Go binary from the npm registry. We time the binary itself, not the
// node_modules/.bin wrapper (a Node script that would add a Node start to every lefthook run).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { tempDir, isolatedEnv } from "./fixtures.mjs";

export function lefthookBinary(root) {
  const require = createRequire(path.join(root, "package.json"));
  return require.resolve(`lefthook-${process.platform}-${process.arch}/bin/lefthook${process.platform === "win32" ? ".exe" : ""}`);
}

/** A temp git repo whose lefthook.yml has hook `bench-one` (one `true` job), `bench-100` (100 sequential) and `bench-parallel` (100 `sleep 0.5` in parallel). */
export function lefthookRepo() {
  const dir = tempDir("hookrun-bench-lefthook-");
  const env = isolatedEnv({ HOME: dir, GIT_CONFIG_NOSYSTEM: "1", LEFTHOOK_VERBOSE: "0" });
  execFileSync("git", ["init", "-q", dir], { env });
  const jobs100 = Array.from({ length: 100 }, (_, i) => `    - name: j${i}\n      run: "true"\n`).join("");
  const sleeps = Array.from({ length: 100 }, (_, i) => `    - name: s${i}\n      run: "sleep 0.5"\n`).join("");
  writeFileSync(
    path.join(dir, "lefthook.yml"),
    `bench-one:\n  jobs:\n    - name: t\n      run: "true"\nbench-100:\n  parallel: false\n  jobs:\n${jobs100}bench-parallel:\n  parallel: true\n  jobs:\n${sleeps}`,
  );
  return { dir, env };
}

/** Arguments for a cold `lefthook run` of `hook` (no implicit install of git hooks, no colours). */
export function lefthookArgs(hook) {
  return ["run", hook, "--no-auto-install", "--colors", "off"];
}
