import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { HostAdapter, HostSetup } from "../hosts/types.js";
import { checkUnfired } from "./doctorEntries.js";
import type { DoctorRun, Layer } from "./doctorReport.js";

/**
 * A host that loads hookrun's extension in its own process (pi): the extension file current, the
 * hookrun it imports (the project's node_modules/hookrun, resolved as the extension resolves it)
 * loading, and a probe event (a shell call `true`) answered by that hookrun's one path, prepared
 * only: nothing runs.
 */
export async function checkExtensionFile(d: DoctorRun, host: HostAdapter, setup: HostSetup, layer: Layer, named: boolean): Promise<boolean> {
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
      what: `${where}: your own file, not the extension \`hooks install ${host.name}\` writes: hooks.yaml's hooks do not run under ${host.title}`,
      where,
      fix: `move it away and run \`${install}\``,
    });
    return true;
  }
  if (!plan.installed) {
    if (named) d.add({ ...base, level: "error", what: `${host.title} has no hookrun extension at ${where}: no hook of hooks.yaml runs under it`, where, fix: install });
    return named;
  }
  d.checked.push({ ...base, file });
  d.installed++;
  if (plan.stale.length) d.add({ ...base, level: "error", what: `${where} is not the extension this hookrun writes (an older or edited copy)`, where, fix: install });
  else d.add({ ...base, level: "ok", what: `${where}: the extension is current`, where });
  if (layer === "project") checkUnfired(d, host);
  await probeLibrary(d, host, layer);
  return true;
}

/** The hookrun the extension loads from the project, and one event through its one path, prepared only. */
async function probeLibrary(d: DoctorRun, host: HostAdapter, layer: Layer): Promise<void> {
  const base = { host: host.name, layer };
  const projectDir = d.config.projectDir;
  let lib: Record<string, unknown>;
  try {
    const pkg = createRequire(path.join(projectDir, "package.json")).resolve("hookrun/package.json");
    const main = JSON.parse(readFileSync(pkg, "utf8")).main as string;
    lib = (await import(pathToFileURL(path.join(path.dirname(pkg), main)).href)) as Record<string, unknown>;
    if (typeof lib.createInProcessHost !== "function" || typeof lib.runHostEvent !== "function") throw new Error("it has no createInProcessHost: an older hookrun");
  } catch (error) {
    d.add({
      ...base,
      level: "error",
      what: `the extension cannot load hookrun from ${d.shown(path.join(projectDir, "node_modules/hookrun"))} (${(error as Error).message.split("\n")[0]}): ${host.title} blocks every tool call`,
      fix: "npm install --save-dev hookrun",
    });
    return;
  }
  const hostOf = (lib.hostByName as (n: string) => HostAdapter | undefined)(host.name);
  const payload = { type: "tool_call", sessionId: "hooks-doctor", cwd: projectDir, toolName: "bash", toolCallId: "hooks-doctor-1", input: { command: "true" } };
  try {
    const run = lib.runHostEvent as (r: Record<string, unknown>) => Promise<{ kind: string; context?: unknown }>;
    const loadConfig = lib.loadConfig as (o: Record<string, unknown>) => Promise<unknown>;
    const outcome = await run({
      host: hostOf,
      event: "tool_call",
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
    d.events.push({ host: host.name, layer, event: "tool_call", canonical: "pre_tool_use", reaches: outcome.kind === "prepared", runs: [], filtered: [] });
    d.add({ ...base, event: "tool_call", level: "ok", what: `the extension loads hookrun from the project, and a probe tool_call reaches its hooks (${outcome.kind})` });
  } catch (error) {
    d.add({ ...base, event: "tool_call", level: "error", what: `a probe tool_call did not reach hookrun: ${(error as Error).message}`, fix: "hooks validate" });
  }
}
