import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { DispatchTarget } from "../hosts/dispatch.js";
import { wantedFor } from "../hosts/installTargets.js";
import { ownedScripts, planScripts } from "../hosts/hostScripts.js";
import type { HostAdapter, HostSetup } from "../hosts/types.js";
import { checkUnfired, sayAssumed } from "./doctorEntries.js";
import { probeEntry } from "./doctorFire.js";
import type { DoctorRun, Layer } from "./doctorReport.js";

/** A host that runs one file per hook (Cline): hookrun's files current, each run as the host runs it. */
export async function checkHostScripts(d: DoctorRun, host: HostAdapter, setup: HostSetup, layer: Layer, named: boolean): Promise<boolean> {
  const dir = setup.place(layer === "user" ? d.options.home : d.config.projectDir, layer === "user");
  const base = { host: host.name, layer };
  const where = d.shown(dir);
  let owned: string[];
  try {
    owned = ownedScripts(dir);
  } catch (error) {
    d.checked.push({ ...base, file: dir });
    d.add({ ...base, level: "error", what: `${where}: ${(error as Error).message}`, where, fix: "make each hook file a regular file" });
    return true;
  }
  if (owned.length === 0) {
    if (named) d.add({ ...base, level: "error", what: `${host.title} has no hookrun hook files in ${where}: no hook of hooks.yaml runs under it`, where, fix: `hooks install ${host.name}` });
    return named;
  }
  d.checked.push({ ...base, file: dir });
  d.installed++;
  const current = new Set<string>();
  if (layer === "project") {
    const target: DispatchTarget = { root: setup.root, bin: null, exec: setup.exec };
    const plan = planScripts(dir, wantedFor({ ...host, setup }, d.config, target) as Record<string, string>);
    const stale = [...plan.write.map((w) => path.basename(w.file)), ...plan.remove.map((f) => path.basename(f))];
    // Only a file whose bytes are what `hooks install` writes now is run (as for entries above).
    for (const f of owned) if (!stale.includes(path.basename(f))) current.add(f);
    for (const name of stale)
      d.add({
        ...base,
        event: name,
        level: "error",
        what: `hookrun's ${name} is missing, stale or left over against hooks.yaml`,
        where: d.shown(path.join(dir, name)),
        fix: `hooks install ${host.name}`,
      });
    for (const file of plan.foreign)
      d.add({
        ...base,
        event: path.basename(file),
        level: "error",
        what: `${path.basename(file)}: your own hook file, not the one \`hooks install ${host.name}\` writes: not fired (the doctor runs no other file), and hooks.yaml's hooks for it do not run under ${host.title}`,
        where: d.shown(file),
        fix: `move its commands into hooks.yaml, remove it, and run \`hooks install ${host.name}\``,
      });
    if (stale.length === 0 && plan.foreign.length === 0) d.add({ ...base, level: "ok", what: `${where}: hookrun's hook files are current with hooks.yaml`, where });
    checkUnfired(d, host);
  }
  sayAssumed(d, host, layer);
  for (const file of owned) {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      d.add({
        ...base,
        event: path.basename(file),
        level: "error",
        what: `${d.shown(file)} is not executable: ${host.title} cannot run it`,
        where: d.shown(file),
        fix: `chmod +x ${d.shown(file)}`,
      });
      continue;
    }
    if (current.has(file)) await probeEntry(d, host, layer, path.basename(file), file, true);
    else
      d.add({
        ...base,
        event: path.basename(file),
        level: "warning",
        what: `${d.shown(file)}: not run: its bytes are not what \`hooks install ${host.name}\` writes now (the doctor runs no other file)`,
        where: d.shown(file),
        fix: `hooks install ${host.name}${layer === "user" ? " --user" : ""}`,
      });
  }
  return true;
}
