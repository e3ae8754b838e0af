import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import { ensureStateDir, StateDirError, stateDir } from "../fs/stateDir.js";
import { untrustedFiles } from "../trust/store.js";
import type { DoctorRun, Finding } from "./doctorReport.js";
import { judgeCommand } from "./hookCommands.js";

// What every host shares, checked once for the project: hooks.yaml's trust, the state dir, and
// each hook's command.

/** The project-wide checks: trust, state dir, every hook's command. */
export function checkProject(d: DoctorRun): void {
  const base = { host: "*", layer: "project" as const };
  const untrusted = untrustedFiles(d.config, { env: d.options.env });
  for (const f of untrusted)
    d.add({
      ...base,
      level: "error",
      what: `${d.shown(f.path)} is not trusted (new, or changed since it was reviewed): no hook of the project runs under any agent`,
      where: d.shown(f.path),
      fix: "review its commands and trust it: `hooks trust` (in a terminal; never let the agent do it)",
    });
  if (untrusted.length === 0 && d.config.files.some((f) => f.layer !== "user")) d.add({ ...base, level: "ok", what: "hooks.yaml is trusted as it is now" });
  checkStateDir(d, base);
  for (const hook of d.config.hooks) {
    if (!hook.enabled) continue;
    const v = judgeCommand(hook, d.config.projectDir, d.options.env);
    const where = d.shown(hook.source.file, hook.source.line);
    const head = `hook ${hook.name}`;
    if (v.kind === "ok") continue;
    if (v.kind === "unjudged") d.add({ ...base, event: hook.event, level: "ok", what: `${head}: command not checked (${v.detail})`, where });
    else if (v.kind === "not-executable")
      d.add({
        ...base,
        event: hook.event,
        level: "error",
        what: `${head}: ${d.shown(v.file)} exists but is not executable: the hook fails (exit 126)`,
        where,
        fix: `chmod +x ${d.shown(v.file)}`,
      });
    else if (v.kind === "missing")
      d.add({
        ...base,
        event: hook.event,
        level: "error",
        what: `${head}: ${d.shown(v.file)} does not exist: the hook fails (exit 127)`,
        where,
        fix: `create it, or fix the command at ${where}`,
      });
    else d.add({ ...base, event: hook.event, level: "error", what: `${head}: ${v.detail}: the hook fails (exit 127)`, where, fix: `install \`${v.file}\`, or name it by its path at ${where}` });
  }
}

export function checkStateDir(d: DoctorRun, base: Pick<Finding, "host" | "layer">): void {
  const dir = stateDir(d.options.env);
  const shown = d.shown(dir);
  try {
    ensureStateDir(dir, { create: false });
  } catch (error) {
    if (!(error instanceof StateDirError)) throw error;
    d.add({
      ...base,
      level: "error",
      what: `${error.message.split(";")[0]}: hookrun refuses it, so no run is recorded, no async hook runs and nothing is trusted`,
      where: shown,
      fix: error.message.split(": ").pop(),
    });
    return;
  }
  // The nearest directory that exists must let hookrun write (it creates the rest, 0700).
  let probe = dir;
  while (!existsSync(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
  try {
    if (!statSync(probe).isDirectory()) throw new Error("not a directory");
    accessSync(probe, constants.W_OK | constants.X_OK);
    d.add({ ...base, level: "ok", what: `state dir ${shown}: ${probe === dir ? "private and writable" : "not there yet; hookrun creates it (0700) on the first run"}` });
  } catch {
    d.add({ ...base, level: "error", what: `state dir ${shown}: ${d.shown(probe)} is not a writable directory`, where: shown, fix: "set HOOKS_STATE_DIR to a directory of your own" });
  }
}
