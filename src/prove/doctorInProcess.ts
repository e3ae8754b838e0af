import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type InProcessSetup, projectHookrun } from "../hosts/inProcessFile.js";
import type { HostAdapter, HostSetup } from "../hosts/types.js";
import { checkUnfired } from "./doctorEntries.js";
import type { DoctorRun, Layer } from "./doctorReport.js";

/**
 * A host that loads hookrun's file in its own process (pi's extension, opencode's plugin): the
 * file hookrun's and current, the hookrun it imports (the project's node_modules/hookrun, found as
 * the file finds it) loading with the export the file calls, and a probe event (a shell call
 * before it runs) answered by that hookrun's one path, prepared only: nothing runs. Nothing is
 * fired in the agent: the file runs only inside it.
 */
export async function checkInProcessFile(d: DoctorRun, host: HostAdapter, setup: HostSetup, layer: Layer, named: boolean): Promise<boolean> {
  const { file: spec } = setup as InProcessSetup;
  const base = { host: host.name, layer };
  const root = layer === "user" ? d.options.home : d.config.projectDir;
  const file = setup.place(root, layer === "user");
  const where = d.shown(file);
  const wanted = setup.wanted(d.config, () => "");
  let plan: Awaited<ReturnType<HostSetup["plan"]>>;
  try {
    plan = await setup.plan(wanted, { base: root, user: layer === "user", host });
  } catch (error) {
    d.checked.push({ ...base, file });
    d.add({ ...base, level: "error", what: `${where}: ${(error as Error).message}`, where, fix: "make it a regular file" });
    return true;
  }
  const install = `hooks install ${host.name}${layer === "user" ? " --user" : ""}`;
  if (plan.foreign.length) {
    d.checked.push({ ...base, file });
    d.add({
      ...base,
      level: "error",
      what: `${where}: your own file, not the ${spec.noun} \`hooks install ${host.name}\` writes: hooks.yaml's hooks do not run under ${host.title}`,
      where,
      fix: `move it away and run \`${install}\``,
    });
    return true;
  }
  if (!plan.installed) {
    if (named) d.add({ ...base, level: "error", what: `${host.title} has no hookrun ${spec.noun} at ${where}: no hook of hooks.yaml runs under it`, where, fix: install });
    return named;
  }
  d.checked.push({ ...base, file });
  d.installed++;
  if (plan.stale.length) d.add({ ...base, level: "error", what: `${where} is not the ${spec.noun} this hookrun writes (another version of hookrun's, or an edited copy)`, where, fix: install });
  else d.add({ ...base, level: "ok", what: `${where}: the ${spec.noun} is current`, where });
  if (layer === "project") checkUnfired(d, host);
  await probeLibrary(d, host, spec, layer);
  return true;
}

/** The hookrun the file loads from the project, and one event through its one path, prepared only. */
async function probeLibrary(d: DoctorRun, host: HostAdapter, spec: InProcessSetup["file"], layer: Layer): Promise<void> {
  const base = { host: host.name, layer };
  const projectDir = d.config.projectDir;
  let lib: Record<string, unknown>;
  try {
    const pkg = projectHookrun(projectDir);
    if (pkg === null) throw new Error("it is missing");
    const main = JSON.parse(readFileSync(pkg, "utf8")).main as string;
    lib = (await import(pathToFileURL(path.join(path.dirname(pkg), main)).href)) as Record<string, unknown>;
    if (typeof lib[spec.calls] !== "function" || typeof lib.runHostEvent !== "function") throw new Error(`it has no ${spec.calls}: an older hookrun`);
  } catch (error) {
    d.add({
      ...base,
      level: "error",
      what: `the ${spec.noun} cannot load hookrun from ${d.shown(path.join(projectDir, "node_modules/hookrun"))} (${(error as Error).message.split("\n")[0]}): ${host.title} blocks every tool call`,
      fix: "npm install --save-dev hookrun",
    });
    return;
  }
  const hostOf = (lib.hostByName as (n: string) => HostAdapter | undefined)(host.name);
  const { event, payload } = spec.probe(projectDir);
  const canonical = host.events[event];
  try {
    const run = lib.runHostEvent as (r: Record<string, unknown>) => Promise<{ kind: string; context?: unknown }>;
    const loadConfig = lib.loadConfig as (o: Record<string, unknown>) => Promise<unknown>;
    const outcome = await run({
      host: hostOf,
      event,
      payload,
      env: d.options.env,
      cwd: projectDir,
      config: () => loadConfig({ cwd: projectDir, env: d.options.env }),
      runner: () => {
        throw new Error("the probe runs nothing");
      },
      trustCommand: () => "hooks trust",
      prepareOnly: true,
    });
    d.events.push({ host: host.name, layer, event, canonical, reaches: outcome.kind === "prepared", runs: [], filtered: [] });
    d.add({ ...base, event, level: "ok", what: `the ${spec.noun} loads hookrun from the project, and a probe ${event} reaches its hooks (${outcome.kind})` });
  } catch (error) {
    d.add({ ...base, event, level: "error", what: `a probe ${event} did not reach hookrun: ${(error as Error).message}`, fix: "hooks validate" });
  }
}
