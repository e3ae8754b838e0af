import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { matcherRule } from "../config/matcher.js";
import { EVENT_BY_NAME, LOOP_EVENTS } from "../events/catalog.js";
import type { ExistingHook, HookImport } from "../interop/importHooks.js";
import { type FlatConverted, type FlatEntry, importFlatHooks } from "./flatImport.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { CURSOR_EVENT } from "../events/cursorNames.js";
import { canonicalTool, POSIX_SHELL, sampleFields } from "./payload.js";
import { cursorRun, EVENTS } from "./cursorRun.js";

export * from "./cursorRun.js";

// ---- install ------------------------------------------------------------------------------

const TOOL_EVENTS = new Set(["pre_tool_use", "post_tool_use", "post_tool_use_failure"]);

function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = CURSOR_EVENT[event];
    if (!hostEvent) continue;
    const entry: HostEntry = { command: command(event), timeout: Math.ceil(dispatchTimeoutMs(config, event) / 1000) };
    if (TOOL_EVENTS.has(event)) {
      const values = matchedValues(config, event, cursor);
      if (values) entry.matcher = values.join("|");
    }
    // A hook that blocks on its own failure asks for fail-closed: so does the dispatch if hookrun itself fails.
    if (EVENT_BY_NAME.get(event)?.gate === "yes" && config.hooks.some((h) => h.event === event && h.enabled && h.onFailure === "block")) entry.failClosed = true;
    // Cursor's own bound (default 5) would cut short a hook's larger or absent `loop_limit`:
    // the dispatch has none, and hookrun enforces each hook's (docs/configuration.md#loop_limit).
    if (LOOP_EVENTS.has(event)) entry.loop_limit = null;
    out[hostEvent] = [entry];
  }
  return out;
}

// ---- import -------------------------------------------------------------------------------

/** The matcher a tool-specific event implies, in canonical names. */
const IMPLIED_MATCHER: Readonly<Record<string, string>> = Object.freeze({
  beforeShellExecution: "Bash",
  afterShellExecution: "Bash",
  beforeReadFile: "Read",
  afterFileEdit: "Write|Edit",
  beforeMCPExecution: "^MCP:",
  afterMCPExecution: "^MCP:",
});
/** A Cursor matcher in canonical tool names: an exact list is mapped name by name; a regex is kept. */
function canonicalMatcher(matcher: string): { matcher?: string; note?: string } {
  const rule = matcherRule(matcher);
  if (rule.kind === "all") return {};
  if (rule.kind === "names") return { matcher: [...rule.names].map((n) => canonicalTool(cursor, n)).join("|") };
  return { matcher, note: "matcher is a regex over Cursor's tool names and hookrun tests it against canonical names (Cursor's Shell is Bash): check it" };
}

/** One Cursor entry's fields (`timeout`, `matcher`, `failClosed`, `loop_limit`) → hookrun's, each carried or noted. */
function convertEntry({ hostEvent, event, command, entry }: FlatEntry): FlatConverted {
  const notes: string[] = [];
  let matcher: string | undefined = Object.hasOwn(IMPLIED_MATCHER, hostEvent) ? IMPLIED_MATCHER[hostEvent] : undefined;
  let timeout: number | undefined;
  let onFailure: "block" | undefined;
  let loopLimit: number | null | undefined;
  for (const [k, v] of Object.entries(entry)) {
    if (k === "type" || k === "command") continue;
    if (k === "timeout") {
      if (typeof v === "number" && v > 0 && v <= 86400) timeout = v;
      else return { refuse: `timeout ${JSON.stringify(v)} is not a number of seconds between 0 and 24 h` };
    } else if (k === "matcher") {
      if (typeof v !== "string") notes.push(`matcher ${JSON.stringify(v)} is not text; not carried`);
      else if (matcher !== undefined) notes.push(`matcher \`${v}\` not carried: ${hostEvent} is about one tool, so the hook is imported with matcher \`${matcher}\``);
      else if (!EVENT_BY_NAME.get(event)?.matchField) notes.push(`matcher \`${v}\` dropped: ${event} has no field to match`);
      else {
        const m = canonicalMatcher(v);
        matcher = m.matcher;
        if (m.note) notes.push(m.note);
      }
    } else if (k === "failClosed") {
      if (v === true) {
        if (event === "stop" || event === "subagent_stop") notes.push(`\`failClosed\` not carried: a failed ${event} hook cannot deny anything (Cursor's stop takes only a follow-up)`);
        else if (EVENT_BY_NAME.get(event)?.gate === "yes") onFailure = "block";
        else notes.push(`\`failClosed\` not carried: ${event} cannot block`);
      } else if (v !== false) notes.push(`failClosed ${JSON.stringify(v)} is not true or false; not carried`);
    } else if (k === "loop_limit") {
      if (event !== "stop" && event !== "subagent_stop") notes.push(`\`loop_limit\` dropped: it bounds only stop and subagentStop follow-ups, and ${hostEvent} has none`);
      else if (v === null || (Number.isSafeInteger(v) && (v as number) > 0)) loopLimit = v as number | null;
      else notes.push(`loop_limit ${JSON.stringify(v)} is not a positive integer or null; not carried (the cursor dialect's default, 5, applies)`);
    } else notes.push(`\`${k}\` is not a field of Cursor's command hooks that hookrun knows; not carried`);
  }
  if (/^\.{0,2}\/|^[\w.-]+\//.test(command.trim()) && !command.trim().startsWith("/"))
    notes.push("relative path: Cursor runs project hooks from the project root, hookrun from the directory of hooks.yaml: check that it still resolves");
  return { matcher, timeout, ...(onFailure && { on_failure: onFailure }), ...(loopLimit !== undefined && { loop_limit: loopLimit }), notes };
}

function importCursor(settings: unknown, existing: ExistingHook[]): HookImport {
  if (!isJsonObject(settings)) throw new TypeError("Cursor's hooks.json must be a JSON object");
  const imp = importFlatHooks(settings.hooks, existing, { title: "Cursor", events: EVENTS, convert: convertEntry });
  // Written for Cursor: they receive Cursor's payload and are read by Cursor's rules (docs/dialects.md).
  for (const h of imp.hooks) h.hook.dialect = "cursor";
  if (settings.version !== undefined && settings.version !== 1) imp.notes.unshift(`version ${JSON.stringify(settings.version)}: Cursor documents version 1 only; read as version 1`);
  return imp;
}

/** Cursor's whole adapter: its runtime part (cursorRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const cursor: HostAdapter = {
  ...cursorRun,
  // Cursor's docs say only "spawned processes"; the shell, cwd and variables are assumed (cwd the workspace root,
  // where `${CURSOR_PROJECT_DIR:-$PWD}` in the entries finds the project).
  probe: {
    shell: POSIX_SHELL,
    env: () => ({}),
    payload: (hostEvent, projectDir) => {
      const f = sampleFields(EVENTS[hostEvent] ?? hostEvent, "Shell", projectDir);
      const common = { conversation_id: "hooks-doctor", generation_id: "hooks-doctor", hook_event_name: hostEvent, cursor_version: "hooks-doctor", workspace_roots: [projectDir] };
      if (hostEvent === "beforeShellExecution" || hostEvent === "afterShellExecution") return { ...common, command: "true", cwd: projectDir };
      if (hostEvent === "beforeSubmitPrompt") return { ...common, prompt: f.prompt, attachments: [] };
      if (f.tool_name !== undefined) return { ...common, tool_name: f.tool_name, tool_input: JSON.stringify(f.tool_input) };
      return { ...common, ...(hostEvent === "stop" && { status: "completed", loop_count: 0 }) };
    },
    assumed: "the shell (`/bin/sh -c`), the working directory (the workspace root) and the environment",
  },
  setup: jsonFile({
    projectFile: ".cursor/hooks.json",
    userFile: ".cursor/hooks.json",
    hooksPath: ["hooks"],
    // Project hooks run in the project root, where Cursor also sets CURSOR_PROJECT_DIR (older builds resolved relative paths from .cursor/).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text for the host's command line, not a template
    root: '"${CURSOR_PROJECT_DIR:-$PWD}"',
    skeleton: { version: 1 },
    entries,
  }),
  import: importCursor,
};
