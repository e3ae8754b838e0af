import { isJsonObject } from "../config/scanJson.js";
import { type FlatConverted, type FlatEntry, importFlatHooks } from "./flatImport.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { POSIX_SHELL } from "./payload.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { crushRun, EVENTS, TOOLS } from "./crushRun.js";

export * from "./crushRun.js";

function entries(config: Parameters<NonNullable<HostAdapter["setup"]>["wanted"]>[0], command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  if (!configEvents(config).includes("pre_tool_use")) return out;
  // Claude's names of Crush's tools (Bash beside bash) are left out: Crush never reports them.
  const canonical = new Set(Object.values(TOOLS));
  const values = matchedValues(config, "pre_tool_use", crush)?.filter((v) => Object.hasOwn(TOOLS, v) || !canonical.has(v)) ?? null;
  if (values && values.length === 0) return out;
  // Crush's matcher is an unanchored regex: anchored, so `bash` does not also take `bash_output`.
  const matcher = values ? `^(${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$` : undefined;
  out.PreToolUse = [{ name: "hookrun", ...(matcher && { matcher }), command: command("pre_tool_use"), timeout: Math.ceil(dispatchTimeoutMs(config, "pre_tool_use") / 1000) }];
  return out;
}

function convertEntry({ entry }: FlatEntry): FlatConverted {
  const notes: string[] = [];
  let matcher: string | undefined;
  let timeout: number | undefined;
  for (const [k, v] of Object.entries(entry)) {
    if (k === "command" || k === "name") continue;
    if (k === "timeout") {
      if (typeof v === "number" && v > 0 && v <= 86400) timeout = v;
      else return { refuse: `timeout ${JSON.stringify(v)} is not a number of seconds between 0 and 24 h` };
    } else if (k === "matcher") {
      if (typeof v !== "string") notes.push(`matcher ${JSON.stringify(v)} is not text; not carried`);
      else if (v !== "") {
        // Crush's matcher is an unanchored regex over its tool names; hookrun matches canonical names.
        const names = /^\^?\(?([a-z_]+(?:\|[a-z_]+)*)\)?\$?$/.exec(v);
        if (names)
          matcher = names[1]!
            .split("|")
            .map((n) => TOOLS[n] ?? n)
            .join("|");
        else {
          matcher = v;
          notes.push(`matcher \`${v}\` is a regex over Crush's tool names; hookrun matches canonical names (bash is Bash, view is Read): check it`);
        }
      }
    } else notes.push(`\`${k}\` is not a field of Crush's hooks; not carried`);
  }
  return { ...(matcher !== undefined && { matcher }), ...(timeout !== undefined && { timeout }), notes };
}

function importCrush(settings: unknown, existing: Parameters<NonNullable<HostAdapter["import"]>>[1]) {
  if (!isJsonObject(settings)) throw new TypeError("crush.json must be a JSON object");
  const imp = importFlatHooks(settings.hooks, existing, { title: "Crush", events: EVENTS, convert: convertEntry });
  // Crush reads Claude's hookSpecificOutput and exit 2 as Claude Code does; its own envelope and exit 49 have no dialect here.
  for (const h of imp.hooks) {
    h.hook.dialect = "claude";
    const text = h.hook.command ?? "";
    if (/\$\{?CRUSH_/.test(text) || text.includes("CRUSH_"))
      imp.notes.push(`${h.at} (\`${h.hook.name}\`): uses Crush's CRUSH_* variables, which hookrun does not set: read the payload on stdin instead`);
  }
  if (imp.hooks.length) imp.notes.push("imported with `dialect: claude`: a hook that prints Crush's own envelope (`decision`, `halt`, `context`) or exits 49 is not read as Crush reads it");
  return imp;
}

/** Crush's whole adapter: its runtime part (crushRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const crush: HostAdapter = {
  ...crushRun,
  probe: {
    // Crush runs hooks in its embedded POSIX shell (mvdan.cc/sh); /bin/sh stands in for it.
    shell: POSIX_SHELL,
    env: (projectDir, hostEvent, tool) => ({
      CRUSH: "1",
      AGENT: "crush",
      CRUSH_EVENT: hostEvent,
      CRUSH_TOOL_NAME: tool ?? "bash",
      CRUSH_SESSION_ID: "hooks-doctor",
      CRUSH_CWD: projectDir,
      CRUSH_PROJECT_DIR: projectDir,
    }),
    payload: (hostEvent, projectDir, tool) => ({ event: hostEvent, session_id: "hooks-doctor", cwd: projectDir, tool_name: tool ?? "bash", tool_input: { command: "true" } }),
    assumed: "the shell: Crush runs hooks in its embedded POSIX shell (mvdan.cc/sh), `/bin/sh -c` stands in for it",
  },
  setup: jsonFile({ projectFile: "crush.json", userFile: ".config/crush/crush.json", hooksPath: ["hooks"], root: '"$CRUSH_PROJECT_DIR"', entries }),
  import: importCrush,
};
