import { existsSync } from "node:fs";
import path from "node:path";
import type { HostAdapter, HostSetup } from "../hosts/types.js";
import type { DoctorRun, Layer } from "./doctorReport.js";

/**
 * A host that loads hookrun's plugin file into its own process (opencode): the file there and
 * current, and hookrun importable from the project's node_modules, where the plugin looks for it
 * (without it, the plugin refuses every tool call). Nothing is fired: the plugin runs only inside
 * the agent.
 */
export async function checkPluginFile(d: DoctorRun, host: HostAdapter, setup: HostSetup, layer: Layer, named: boolean): Promise<boolean> {
  const user = layer === "user";
  const base = user ? d.options.home : d.config.projectDir;
  const file = setup.place(base, user);
  const where = d.shown(file);
  const at = { host: host.name, layer };
  let plan: Awaited<ReturnType<HostSetup["plan"]>>;
  try {
    plan = await setup.plan(
      setup.wanted(d.config, () => ""),
      { base, user, host },
    );
  } catch (error) {
    d.checked.push({ ...at, file });
    d.add({ ...at, level: "error", what: `${where}: ${(error as Error).message}`, where, fix: "make it a regular file" });
    return true;
  }
  if (!plan.installed) {
    if (plan.foreign.length)
      d.add({ ...at, level: "warning", what: `${where}: your own plugin, not hookrun's: hooks.yaml's hooks do not run through it`, where, fix: `rename it, then \`hooks install ${host.name}\`` });
    else if (named) d.add({ ...at, level: "error", what: `${host.title} has no hookrun plugin at ${where}: no hook of hooks.yaml runs under it`, where, fix: `hooks install ${host.name}` });
    return named || plan.foreign.length > 0;
  }
  d.checked.push({ ...at, file });
  d.installed++;
  if (plan.stale.length) d.add({ ...at, level: "error", what: `${where}: hookrun's plugin is from another version of hookrun`, where, fix: `hooks install ${host.name}${user ? " --user" : ""}` });
  else d.add({ ...at, level: "ok", what: `${where}: hookrun's plugin is current`, where });
  const lib = path.join(d.config.projectDir, "node_modules", "hookrun", "package.json");
  if (!existsSync(lib))
    d.add({
      ...at,
      level: "error",
      what: `the plugin imports hookrun from ${d.shown(path.dirname(lib))}, which is missing: ${host.title} refuses every tool call until it is there`,
      where: d.shown(path.dirname(lib)),
      fix: "npm install --save-dev hookrun",
    });
  return true;
}
