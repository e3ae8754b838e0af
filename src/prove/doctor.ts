import type { ResolvedConfig } from "../config/types.js";
import { installable } from "../hosts/installTargets.js";
import type { EntryFileSetup } from "../hosts/setup.js";
import type { HostAdapter, HostSetup } from "../hosts/types.js";
import { checkJsonFile, checkTomlFile } from "./doctorHostFile.js";
import { checkHostScripts } from "./doctorScripts.js";
import { checkInProcessFile } from "./doctorInProcess.js";
import { checkProject } from "./doctorProject.js";
import { type DoctorOptions, type DoctorReport, DoctorRun } from "./doctorReport.js";
import { checkSwitches } from "./doctorSwitches.js";

// `hooks doctor`: for every agent installed in the project (and the user's layer), whether a hook
// of hooks.yaml would run, checked along the whole path the agent takes: its config file (parsed
// as the agent parses it, hookrun's entries current), its dispatch command fired as the agent
// fires it (src/prove/fireEntry.ts), then trust, the state dir and each hook's command. Returns
// findings; printing is the CLI's (src/cli/actions/doctor.ts). docs/doctor.md has every check.
// The checks, by what they look at: doctorHostFile (a host's config file) and doctorScripts (Cline's
// hook files), chosen by the host's setup (CHECKS below); doctorEntries (hookrun's entries in them), doctorFire and doctorBin (firing an
// entry, and the binary it runs), doctorSwitches (settings that turn hooks off), doctorProject
// (trust, state dir, commands); doctorReport holds the report's shape.

/**
 * How the doctor reads each kind of setup as its host does: a JSON file (parsed as the hosts parse
 * it, shape and keys), agent-code's TOML tables, Cline's executable files, the file pi or
 * opencode loads in process (and the hookrun it imports). The one place that
 * asks a setup's kind: each needs its own parser, and the setup interface stays the same for
 * every other caller.
 */
const CHECKS: Record<HostSetup["kind"], (d: DoctorRun, host: HostAdapter, setup: HostSetup, layer: "project" | "user", named: boolean) => Promise<boolean>> = {
  "json-file": (d, host, setup, layer, named) => checkJsonFile(d, host, setup as EntryFileSetup, layer, named),
  "toml-file": (d, host, setup, layer, named) => checkTomlFile(d, host, setup as EntryFileSetup, layer, named),
  "script-folder": checkHostScripts,
  "in-process-file": checkInProcessFile,
};

/**
 * Every check of `hooks doctor` for the project of `config`. Hosts: the named ones, else every
 * host with a config file holding hooks in the project, plus the user layer's files that hold
 * hookrun entries (every user file with `user`).
 */
export async function doctor(config: ResolvedConfig, options: DoctorOptions): Promise<DoctorReport> {
  const d = new DoctorRun(config, options);
  const named = new Set(options.hosts ?? []);
  const hosts = installable().filter((h) => named.size === 0 || named.has(h.name));
  for (const host of hosts) {
    for (const layer of host.setup.userOnly ? (["user"] as const) : (["project", "user"] as const)) {
      // The user layer without hookrun's entries is the usual case (the project's entries run the hooks): never an error,
      // but for a host that reads no project layer.
      const mustReport = named.has(host.name) && (layer === "project" || host.setup.userOnly === true);
      await CHECKS[host.setup.kind](d, host, host.setup, layer, mustReport);
    }
    checkSwitches(d, host);
  }
  if (d.checked.length > 0) checkProject(d);
  return { findings: d.findings, events: d.events, checked: d.checked, installed: d.installed };
}
