import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { configEvents } from "./install.js";
import { scriptFolder } from "./setup.js";
import type { HostAdapter } from "./types.js";
import { sampleFields } from "./payload.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import { slug, uniqueName } from "../interop/hookNames.js";
import { clineRun, EVENTS, specificKey } from "./clineRun.js";

export * from "./clineRun.js";

/**
 * Cline's hook files for the events of `config`: file name in the hooks folder → script. The
 * command `exec`s hookrun (the setup's `exec`), so the process Cline waits on is hookrun itself.
 */
export function clineHookScripts(config: ResolvedConfig, command: (event: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const event of configEvents(config))
    for (const [hookName, canonical] of Object.entries(EVENTS)) if (canonical === event) out[hookName] = `#!/bin/sh\n# hookrun: hands Cline's ${hookName} to hooks.yaml\n${command(event)}\n`;
  return out;
}

// ---- import -------------------------------------------------------------------------------

/** The matcher a Cline hook type implies on its canonical event (TaskStart and TaskResume share session_start). */
const IMPLIED_MATCHER: Readonly<Record<string, string>> = Object.freeze({ TaskStart: "startup", TaskResume: "resume" });

/**
 * A Cline hooks folder (`.clinerules/hooks/`, read by `hooks import`: each file's name, execute bit
 * and text) → hooks.yaml: each executable named after a hook type becomes a hook of its event that
 * runs the file, `dialect: cline` (it receives Cline's payload and is read by Cline's rules, failing
 * closed). hookrun's own dispatch scripts, files Cline would not run and other names are noted.
 */
function importCline(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings) || typeof settings.folder !== "string" || !Array.isArray(settings.files))
    throw new TypeError("Cline's hooks are a folder of executables named after their hook type (.clinerules/hooks/): pass the folder");
  const result: HookImport = { hooks: [], customEvents: {}, notes: [] };
  const taken = new Set(existing.map((h) => h.name));
  const folder = settings.folder.replace(/\/+$/, "");
  for (const f of settings.files) {
    if (!isJsonObject(f) || typeof f.name !== "string") continue;
    const name = f.name;
    const event = Object.hasOwn(EVENTS, name) ? EVENTS[name] : undefined;
    if (event === undefined) {
      result.notes.push(`${name}: not a Cline hook type (${Object.keys(EVENTS).join(", ")}); skipped`);
      continue;
    }
    if (typeof f.text === "string" && /^# hookrun: hands Cline's /m.test(f.text)) {
      result.notes.push(`${name}: hookrun's own script (hooks install cline): it already hands ${name} to hookrun; skipped`);
      continue;
    }
    if (f.executable !== true) {
      result.notes.push(`${name}: not executable, so Cline does not run it; skipped (chmod +x it and import again to keep it)`);
      continue;
    }
    const file = `${folder}/${name}`;
    const command = /^[\w./-]+$/.test(file) ? file : `'${file.replace(/'/g, "'\\''")}'`;
    if (existing.some((h) => h.event === event && h.command === command)) {
      result.notes.push(`${name}: \`${command}\` is already a ${event} hook; skipped`);
      continue;
    }
    const hookName = uniqueName(`cline-${slug(name.replace(/([a-z0-9])([A-Z])/g, "$1-$2"))}`, taken);
    const matcher = Object.hasOwn(IMPLIED_MATCHER, name) ? IMPLIED_MATCHER[name] : undefined;
    result.hooks.push({ event, hostEvent: name, at: name, hook: { name: hookName, ...(matcher && { matcher }), command, dialect: "cline" } });
  }
  if (settings.files.length === 0) result.notes.push("the folder has no hook files; nothing to import");
  if (result.hooks.length > 0 && !folder.startsWith("/"))
    result.notes.push(`the commands name the files from where \`hooks import\` ran (${folder}); hookrun runs a hook from the directory of hooks.yaml: check that they resolve from there`);
  return result;
}

/** Cline's whole adapter: its runtime part (clineRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const cline: HostAdapter = {
  ...clineRun,
  // Cline runs each hook file itself (its `#!` line picks the interpreter), in the workspace.
  probe: {
    shell: () => [],
    env: () => ({}),
    payload: (hostEvent, projectDir) => {
      const f = sampleFields(EVENTS[hostEvent] ?? hostEvent, "execute_command", projectDir);
      const specific = f.tool_name !== undefined ? { toolName: f.tool_name, parameters: f.tool_input } : f.prompt !== undefined ? { prompt: f.prompt, attachments: [] } : {};
      return { clineVersion: "hooks-doctor", hookName: hostEvent, timestamp: String(Date.now()), taskId: "hooks-doctor", workspaceRoots: [projectDir], [specificKey(hostEvent)]: specific };
    },
  },
  // a non-zero exit cancels the call: the 127 of a missing hookrun would cancel every call
  setup: scriptFolder({ projectDir: ".clinerules/hooks", userDir: "Documents/Cline/Hooks", exec: true, blocksOnStartFailure: true, files: clineHookScripts }),
  import: importCline,
};
