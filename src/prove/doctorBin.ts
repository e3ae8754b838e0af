import { accessSync, constants, lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { readBoundedText } from "../fs/readBounded.js";
import { cmdShimTarget } from "./binShim.js";
import type { DoctorRun, Layer } from "./doctorReport.js";

// Whether the project's node_modules/.bin/hooks, which a dispatch entry runs, is hookrun: the
// doctor fires an entry only when it is (a cloned repository can commit any executable there).

/** Whether `real` (a real path) is hookrun: the running CLI's entry, or a file of an installed hookrun package (inside node_modules/hookrun/). */
export function isHookrun(real: string, selfBin: string | null): boolean {
  if (selfBin !== null && real === selfBin) return true;
  const parts = real.split(path.sep);
  return parts.some((p, i) => p === "node_modules" && parts[i + 1] === "hookrun" && i + 2 < parts.length);
}

/**
 * The node_modules/.bin/hooks the walk-up dispatch (Codex, agent-code) execs from `start`, as its
 * shell finds it (src/hosts/dispatch.ts walkUpDispatchCommand): the nearest executable one, no
 * higher than the project root (the first folder holding `.git` or the host's folder).
 */
function walkUpBin(start: string, marker: string | null): string | null {
  for (let d = start; ; d = path.dirname(d)) {
    const bin = path.join(d, "node_modules", ".bin", "hooks");
    try {
      accessSync(bin, constants.X_OK);
      return bin;
    } catch {
      // not here: the parent, unless this is the project root
    }
    if (path.dirname(d) === d || lstatSync(path.join(d, ".git"), { throwIfNoEntry: false }) || (marker && lstatSync(path.join(d, marker), { throwIfNoEntry: false })?.isDirectory())) return null;
  }
}

/**
 * Why a binary the doctor would run is not this user's to run (null: it is): owned by another
 * user, or in a folder (its own, node_modules/.bin, node_modules) another user can write.
 */
export function notOwnBin(bin: string, real: string): string | null {
  if (typeof process.getuid !== "function") return null;
  const uid = process.getuid();
  for (const p of [real, path.dirname(bin), path.dirname(path.dirname(bin))]) {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.uid !== uid) return `${p} belongs to another user (uid ${st.uid})`;
    if (st.isDirectory() && (st.mode & 0o022) !== 0) return `${p} is writable by other users`;
  }
  return null;
}

/**
 * The project's node_modules/.bin/hooks that `command` (a dispatch entry, or a Cline hook file,
 * both exactly as `hooks install` writes them for the project: every one runs it) would run, when one is there and is not hookrun:
 * what it resolves to. A cloned repository can commit any executable there; the agent would run
 * it, the doctor must not. Missing (or nothing found by the walk-up), the dispatch fails as the
 * agent would see it, running nothing: it is fired.
 */
export function foreignBin(d: DoctorRun, command: string, layer: Layer, isFile: boolean, marker: string | null = null): { bin: string; why: string; untrusted?: true } | null {
  // The user layer's entries run the running hookrun by its absolute path (selfBin).
  if (layer !== "project") return null;
  const dir = d.config.projectDir;
  const bins = new Set<string>();
  if (!isFile && command.includes('"$d/node_modules/.bin/hooks"')) {
    // The walk-up starts at the shell's $PWD: the project dir as given, or its real path.
    for (const start of new Set([path.resolve(dir), realpathSync(dir)])) {
      const found = walkUpBin(start, marker);
      if (found) bins.add(found);
    }
  } else bins.add(path.join(dir, "node_modules", ".bin", "hooks"));
  for (const bin of bins) {
    const stat = lstatSync(bin, { throwIfNoEntry: false });
    if (!stat) continue;
    let real: string;
    try {
      real = realpathSync(bin);
    } catch {
      // a dangling link: the shell cannot run it either
      continue;
    }
    const notOwn = notOwnBin(bin, real);
    if (notOwn) return { bin, why: notOwn };
    // The project's own copy of hookrun is the repository's code: none of it runs before hooks.yaml is trusted.
    if (real !== d.options.selfBin && d.projectUntrusted())
      return { bin, why: `it is the project's own copy, and hooks.yaml is not trusted: the doctor runs no code of the repository before \`hooks trust\``, untrusted: true };
    if (isHookrun(real, d.options.selfBin)) continue;
    if (stat.isSymbolicLink()) return { bin, why: `it resolves to ${d.shown(real)}` };
    const why = shimRefusal(d, real);
    if (why) return { bin, why };
  }
  return null;
}

/**
 * Why a script at node_modules/.bin/hooks is not hookrun's (null: it is). pnpm's are scripts
 * (cmd-shim) that only `exec node TARGET`: one is hookrun's when the target is, and no
 * node_modules/.bin/node is there for it to run instead.
 */
export function shimRefusal(d: DoctorRun, bin: string): string | null {
  let text: string;
  try {
    text = readBoundedText(bin, 16 * 1024, { what: "node_modules/.bin/hooks" });
  } catch {
    return "it is a file of its own";
  }
  const target = cmdShimTarget(text);
  if (target === null) return "it is a file of its own";
  const node = path.join(path.dirname(bin), "node");
  if (lstatSync(node, { throwIfNoEntry: false })) return `it is a pnpm script that would run ${d.shown(node)}`;
  const resolved = path.resolve(path.dirname(bin), target);
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch {
    return `it is a pnpm script whose target ${d.shown(resolved)} is missing`;
  }
  return isHookrun(real, d.options.selfBin) ? null : `it is a pnpm script that runs ${d.shown(real)}`;
}
