import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { matcherRule } from "../config/matcher.js";
import { tryParseHookEvent } from "../events/parseHookEvent.js";
import { importClaudeSettings } from "../interop/importClaudeSettings.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { canonicalTool, POSIX_SHELL, sampleFields } from "./payload.js";
import { droidRun, EVENTS, INSTALL_EVENT } from "./droidRun.js";

export * from "./droidRun.js";

function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = INSTALL_EVENT[event];
    if (!hostEvent) continue;
    const values = event === "pre_tool_use" || event === "post_tool_use" ? matchedValues(config, event, droid) : null;
    out[hostEvent] = [{ ...(values && { matcher: values.join("|") }), hooks: [{ type: "command", command: command(event), timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000) }] }];
  }
  return out;
}

/** The event map of a Droid file: the `hooks` key (settings.json), or the file itself (a standalone hooks.json). */
function eventMap(settings: Record<string, unknown>): { map: unknown; standalone: boolean } {
  if (settings.hooks !== undefined) return { map: settings.hooks, standalone: false };
  if (Object.keys(settings).some((k) => Object.hasOwn(EVENTS, k))) return { map: settings, standalone: true };
  return { map: undefined, standalone: false };
}

function importDroid(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Droid settings must be a JSON object");
  const { map, standalone } = eventMap(settings);
  if (map === undefined) return { hooks: [], customEvents: {}, notes: ["the file has no `hooks` object and names no Droid event; nothing to import"] };
  // A key that names no event of Droid or hookrun is not a hook list (Droid ignores it): named, not imported.
  const notes: string[] = [];
  const events = isJsonObject(map)
    ? Object.fromEntries(
        Object.entries(map).filter(([ev]) => {
          if (Object.hasOwn(EVENTS, ev) || tryParseHookEvent(ev) !== null || Array.isArray(map[ev])) return true;
          notes.push(`${standalone ? "" : "hooks."}${ev}: not an event of Droid (Droid ignores it); not imported`);
          return false;
        }),
      )
    : map;
  // Droid's matchers name Droid's tools; hookrun's name canonical ones (Execute is Bash).
  const mapped = isJsonObject(events)
    ? Object.fromEntries(
        Object.entries(events).map(([ev, groups]) => [
          ev,
          Array.isArray(groups)
            ? groups.map((g) => {
                if (!isJsonObject(g) || typeof g.matcher !== "string") return g;
                const rule = matcherRule(g.matcher);
                return rule.kind === "names" ? { ...g, matcher: [...rule.names].map((n) => canonicalTool(droid, n)).join("|") } : g;
              })
            : groups,
        ]),
      )
    : events;
  const imp = importClaudeSettings({ hooks: mapped }, existing);
  imp.notes = [...notes, ...imp.notes.map((n) => n.replace(/Claude Code/g, "Droid"))];
  if (standalone) imp.notes.unshift("read as a standalone hooks.json (events at the top level)");
  for (const h of imp.hooks) {
    h.hook.dialect = "droid";
    if (!Object.hasOwn(EVENTS, h.hostEvent)) imp.notes.push(`${h.at}: Droid does not fire ${h.hostEvent} (it has nine events); imported as ${h.event} for other hosts`);
    const text = h.hook.command ?? (h.hook.args ?? []).join(" ");
    if (/\$\{?FACTORY_PROJECT_DIR\b/.test(text))
      imp.notes.push(`${h.at} (\`${h.hook.name}\`): uses $FACTORY_PROJECT_DIR in its command line; hookrun sets it to the project's directory for droid-dialect hooks under every host`);
    const matcher = h.hook.matcher;
    if (matcher !== undefined && matcherRule(matcher).kind === "regex")
      imp.notes.push(
        `${h.at} (\`${h.hook.name}\`): matcher \`${matcher}\` is a regex over Droid's tool names; hookrun matches canonical names (Execute is Bash, Create is Write, FetchUrl is WebFetch): check it`,
      );
  }
  return imp;
}

/** Factory Droid's whole adapter: its runtime part (droidRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const droid: HostAdapter = {
  ...droidRun,
  // Droid runs hooks from its current directory, which may change: the project root comes from FACTORY_PROJECT_DIR.
  // Factory's docs: Claude's contract (so `/bin/sh -c`), FACTORY_PROJECT_DIR set, cwd Droid's own (the project here).
  probe: {
    shell: POSIX_SHELL,
    env: (projectDir) => ({ FACTORY_PROJECT_DIR: projectDir }),
    payload: (hostEvent, projectDir) => ({
      ...sampleFields(EVENTS[hostEvent] ?? hostEvent, "Execute", projectDir),
      transcript_path: `${projectDir}/.factory/sessions/hooks-doctor.jsonl`,
      hook_event_name: hostEvent,
      permission_mode: "default",
    }),
    assumed: "the shell (`/bin/sh -c`, as Claude Code, whose contract Droid follows)",
  },
  setup: jsonFile({ projectFile: ".factory/settings.json", userFile: ".factory/settings.json", hooksPath: ["hooks"], root: '"$FACTORY_PROJECT_DIR"', entries }),
  import: importDroid,
};
