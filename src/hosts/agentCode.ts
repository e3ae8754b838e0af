import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import type { HookSpec } from "../config/types.js";
import { hookNameFromCommand, uniqueName } from "../interop/hookNames.js";
import { beginImport, type ExistingHook, type HookImport } from "../interop/importHooks.js";
import { configEvents, matchedValues } from "./install.js";
import { hookrunCallNote } from "./dispatch.js";
import { canonicalTool, sampleFields } from "./payload.js";
import { tomlFile } from "./setup.js";
import type { HostAdapter, HostEntry, Payload, TableProblem } from "./types.js";
import { closestMatches, didYouMean } from "../text.js";
import { agentCodeRun, EVENTS, HOST_NAME, TOOLS } from "./agentCodeRun.js";

export * from "./agentCodeRun.js";

/** The events agent-code passes a tool name for, so a `tool_name` filter applies (hooks/mod.rs get_hooks). */
const TOOL_EVENTS: ReadonlySet<string> = new Set(["pre_tool_use", "post_tool_use", "permission_denied"]);

/** A call's raw input, as pre_tool_use sends it, for `hooks doctor`'s probe: a shell call `true`, or a file tool on a file that need not exist. */
function sampleInput(tool: string, projectDir: string): Payload {
  const file = `${projectDir}/hooks-doctor.txt`;
  switch (canonicalTool(agentCode, tool)) {
    case "Write":
      return { file_path: file, content: "" };
    case "Edit":
      return { file_path: file, old_string: "", new_string: "" };
    case "Read":
      return { file_path: file };
    case "Bash":
      return { command: "true" };
    default:
      return {};
  }
}

/**
 * What agent-code makes of each `[[hooks]]` table, read from its serde types (config/schema.rs
 * HookDefinition: `event` one of its 17 names, `action` tagged by `type`: shell needs `command`,
 * http needs `url`; `tool_name` a string; no other key is read). A table its types refuse makes
 * `Config::load()` fail, and agent-code does not start at all (cli/src/main.rs: `Config::load()?`).
 */
function tables(list: readonly unknown[]): TableProblem[] {
  const out: TableProblem[] = [];
  const refuse = (index: number, what: string, fix: string): void => {
    out.push({ index, level: "error", what: `${what}: agent-code cannot load its settings and does not start`, fix });
  };
  const names = Object.keys(EVENTS);
  list.forEach((table, index) => {
    if (!isJsonObject(table)) {
      refuse(index, "a hooks entry that is not a table", "write it as a [[hooks]] table");
      return;
    }
    const { event, action, tool_name, ...rest } = table;
    if (typeof event !== "string") refuse(index, event === undefined ? "a [[hooks]] table without `event`" : "`event` is not a text", `set event = "…" (one of ${names.join(", ")})`);
    else if (!Object.hasOwn(EVENTS, event)) {
      const near = closestMatches(event, names, 1)[0];
      refuse(index, `event "${event}" is not one of agent-code's events${didYouMean(event, names)}`, near ? `rename it to "${near}"` : `use one of ${names.join(", ")}`);
    }
    if (!isJsonObject(action)) refuse(index, action === undefined ? "a [[hooks]] table without `action`" : "`action` is not a table", 'add action = { type = "shell", command = "…" }');
    else if (action.type === "shell") {
      if (typeof action.command !== "string") refuse(index, "a shell action without a `command` text", 'add command = "…" to the action');
    } else if (action.type === "http") {
      if (typeof action.url !== "string") refuse(index, "an http action without a `url` text", 'add url = "…" to the action');
      if (action.method !== undefined && typeof action.method !== "string") refuse(index, "the http action's `method` is not a text", 'set method = "POST" (or remove it)');
    } else refuse(index, action.type === undefined ? "an action without `type`" : `action type ${JSON.stringify(action.type)} is neither "shell" nor "http"`, 'set type = "shell" (or "http")');
    if (tool_name !== undefined && typeof tool_name !== "string") refuse(index, "`tool_name` is not a text", 'set tool_name = "Bash" (one exact tool name), or remove it');
    else if (typeof tool_name === "string" && typeof event === "string" && Object.hasOwn(EVENTS, event) && !TOOL_EVENTS.has(event))
      out.push({
        index,
        level: "warning",
        what: `tool_name = ${JSON.stringify(tool_name)} filters nothing on ${event} (agent-code fires it without a tool): this hook runs on every ${event}`,
        fix: `remove tool_name (it filters only ${[...TOOL_EVENTS].join(", ")})`,
      });
    for (const key of Object.keys(rest))
      out.push({
        index,
        level: "warning",
        what: `key "${key}" is not read by agent-code (a [[hooks]] table has only event, action and tool_name)${key === "matcher" || key === "timeout" ? `: this hook runs without its ${key}` : ""}`,
        fix: key === "matcher" || key === "timeout" ? `move the hook into hooks.yaml, where ${key} works (\`hooks import agent-code\`), or remove "${key}"` : `remove "${key}"`,
      });
  });
  return out;
}

/** agent-code's spellings of the tools hooks.yaml's matchers name (a canonical name agent-code spells otherwise is left out). */
function toolNames(config: ResolvedConfig, event: string): string[] | null {
  const values = matchedValues(config, event, agentCode);
  if (values === null) return null;
  const renamed = new Set(Object.values(TOOLS));
  return values.filter((v) => Object.hasOwn(TOOLS, v) || !renamed.has(v));
}

/**
 * One `[[hooks]]` table per agent-code event of the config (only names agent-code knows: one
 * unknown event fails its whole config), narrowed by `tool_name` (exact, one table per tool) when
 * the event's matchers name exact tools. Keys sorted, as the TOML editor reads tables back.
 */
function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const name = HOST_NAME.get(event);
    if (!name) continue;
    const line = command(event);
    const action = { command: line, type: "shell" };
    const tools = TOOL_EVENTS.has(event) ? toolNames(config, event) : null;
    out[name] = tools === null ? [{ action }] : tools.map((tool_name) => ({ action, tool_name }));
  }
  return out;
}

/** Fields of a `[[hooks]]` table agent-code reads (HookDefinition). */
const TABLE_KEYS = new Set(["event", "tool_name", "action"]);

/**
 * agent-code's settings (parsed TOML) → hooks.yaml, each hook marked `dialect: agent-code` (its
 * script receives agent-code's payload and variables, and on pre_tool_use any non-zero exit or a
 * timeout vetoes, as under agent-code). Every hook gets `timeout: 25` (agent-code kills any hook
 * at 30 s, and the dispatch must fit in that), pre_tool_use hooks `on_failure: block` (so the
 * dispatch fails closed when it cannot run them, as agent-code does).
 */
function importAgentCode(settings: unknown, existing: ExistingHook[]): HookImport {
  const { result, hooks: tables } = beginImport(settings, "agent-code settings must be a TOML table", "the file has no [[hooks]] tables; nothing to import");
  if (tables === null) return result;
  if (!Array.isArray(tables)) throw new TypeError("`hooks` must be an array of [[hooks]] tables");
  const taken = new Set(existing.map((h) => h.name));
  const key = (event: string, command: string | undefined, matcher: string | undefined) => JSON.stringify([event, command ?? null, matcher ?? null]);
  const seen = new Set(existing.map((h) => key(h.event, h.command, h.matcher)));
  for (const [i, table] of tables.entries()) {
    const at = `hooks[${i}]`;
    if (!isJsonObject(table)) {
      result.notes.push(`${at}: not a table; skipped`);
      continue;
    }
    const hostEvent = String(table.event);
    const event = EVENTS[hostEvent];
    if (!event) {
      result.notes.push(`${at}: \`${hostEvent}\` is not an agent-code event (agent-code refuses the whole file over it); skipped`);
      continue;
    }
    const action = table.action;
    if (!isJsonObject(action) || action.type !== "shell" || typeof action.command !== "string" || action.command.trim() === "") {
      result.notes.push(`${at}: skipped an action of type \`${isJsonObject(action) ? String(action.type) : "none"}\`: hookrun runs only shell commands`);
      continue;
    }
    const command = action.command;
    const callsHookrun = hookrunCallNote(command);
    if (callsHookrun) {
      result.notes.push(`${at} (${hostEvent}): ${callsHookrun}`);
      continue;
    }
    for (const k of Object.keys(table)) if (!TABLE_KEYS.has(k)) result.notes.push(`${at}: \`${k}\` is not a field of agent-code's hooks (it ignores it); not carried`);
    const tool = typeof table.tool_name === "string" ? table.tool_name : undefined;
    const matcher = tool === undefined ? undefined : String(canonicalTool(agentCode, tool));
    if (tool !== undefined && !TOOL_EVENTS.has(event))
      result.notes.push(`${at}: \`tool_name = "${tool}"\` on ${hostEvent}, which agent-code fires without a tool name (so it runs for every ${hostEvent}); not carried`);
    const id = key(event, command, tool !== undefined && TOOL_EVENTS.has(event) ? matcher : undefined);
    if (seen.has(id)) {
      result.notes.push(`${at}: \`${command}\` is already a ${event} hook; skipped`);
      continue;
    }
    seen.add(id);
    const name = uniqueName(hookNameFromCommand(command) || `${event.replace(/_/g, "-")}-hook`, taken);
    const hook: HookSpec = {
      name,
      ...(matcher !== undefined && TOOL_EVENTS.has(event) && { matcher }),
      command,
      timeout: 25,
      // agent-code vetoes the call when a pre_tool_use hook cannot run: so does hookrun's dispatch (docs/fail-closed.md).
      ...(event === "pre_tool_use" && { on_failure: "block" as const }),
      dialect: "agent-code",
    };
    result.hooks.push({ event, hostEvent, at, hook });
  }
  if (result.hooks.length)
    result.notes.push(
      "imported with `dialect: agent-code` (each script gets agent-code's payload and AGENT_CODE_HOOK_* variables under every host, and on pre_tool_use any non-zero exit or a timeout vetoes the call), timeout 25 (agent-code kills a hook at 30 s), and `on_failure: block` on pre_tool_use (agent-code vetoes when a hook cannot run, and so does hookrun's dispatch when it cannot run the hooks)",
    );
  return result;
}

/** agent-code's whole adapter: its runtime part (agentCodeRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const agentCode: HostAdapter = {
  ...agentCodeRun,
  // docs/hosts/agent-code.md: `bash -c` in agent-code's cwd, no project-dir variable; the event and
  // pre_tool_use's tool in AGENT_CODE_HOOK_*; stdin the context (pre_tool_use: the raw tool input).
  probe: {
    shell: () => ["bash", "-c"],
    // AGENT_CODE_HOOK_TOOL is set (empty when the event has no tool) for every event, as run_shell_hook does.
    env: (_projectDir, hostEvent, tool) => ({ AGENT_CODE_HOOK_EVENT: hostEvent, AGENT_CODE_HOOK_TOOL: TOOL_EVENTS.has(hostEvent) ? (tool ?? "Bash") : "" }),
    payload: (hostEvent, projectDir, tool = "Bash") => {
      const f = sampleFields(EVENTS[hostEvent] ?? hostEvent, tool, projectDir);
      if (hostEvent === "pre_tool_use") return sampleInput(tool, projectDir);
      if (hostEvent === "post_tool_use") return { tool, is_error: false };
      if (hostEvent === "permission_denied") return { session_id: f.session_id, turn: 0, tool, tool_use_id: "hooks-doctor-1", reason: "hooks doctor", input_summary: "", timestamp: "" };
      if (hostEvent === "user_prompt_submit") return { user_input: f.prompt, turn: 0 };
      return { session_id: f.session_id, cwd: projectDir };
    },
    entryTool: (entry) => (typeof entry.tool_name === "string" ? entry.tool_name : undefined),
    tables,
  },
  setup: tomlFile({
    projectFile: ".agent/settings.toml",
    userFile: ".config/agent-code/config.toml",
    hooksPath: ["hooks"],
    root: null,
    exec: true,
    walkUp: true,
    // agent-code kills every hook at 30 s, whatever the table says (docs/hosts/agent-code.md).
    killAfterMs: 30_000,
    skeleton: { schema_version: 2 },
    note: "agent-code reads its settings when it starts: entries written now take effect in its next session",
    entries,
    async warnings(config, at) {
      const { agentCodeWarnings } = await import("./agentCodeSetup.js");
      return agentCodeWarnings(config, at, EVENTS);
    },
  }),
  import: importAgentCode,
};
