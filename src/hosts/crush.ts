import { isJsonObject } from "../config/scanJson.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { TriggerResult } from "../runner/types.js";
import { type FlatConverted, type FlatEntry, importFlatHooks } from "./flatImport.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { baseRead, POSIX_SHELL, stringField } from "./payload.js";
import { failureLine, rankedDecision, texts } from "./resultText.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostAnswer, HostEntry } from "./types.js";

/**
 * Crush (charmbracelet/crush; docs/hosts/crush.md): one event, PreToolUse, configured in the
 * `hooks` key of `crush.json` (or `.crush.json`; the user's in `~/.config/crush/crush.json`) as flat
 * entries `{name?, matcher?, command, timeout?}`: the matcher an unanchored regex over Crush's
 * tool names (`bash`, `edit`, `write`, `view`, …), the timeout in seconds (default 30). Hooks run
 * in Crush's embedded POSIX shell with `CRUSH_PROJECT_DIR`, `CRUSH_EVENT`, `CRUSH_TOOL_NAME`, …
 * set; stdin is `{event, session_id, cwd, tool_name, tool_input}`. Exit 2 blocks with stderr as
 * the reason, exit 49 halts the turn; on exit 0 stdout is Crush's envelope `{decision: allow|deny,
 * halt, reason, context, updated_input}` (or Claude's `hookSpecificOutput`). A hook past its
 * timeout is "no opinion": the call goes on. Read from Crush's source (internal/hooks).
 */

const EVENTS: Readonly<Record<string, string>> = Object.freeze({ PreToolUse: "pre_tool_use" });

/** Crush's tool names → canonical (Claude's). */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({
  bash: "Bash",
  edit: "Edit",
  multiedit: "MultiEdit",
  write: "Write",
  view: "Read",
  glob: "Glob",
  grep: "Grep",
  ls: "LS",
  fetch: "WebFetch",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
});

/** Crush's answer envelope (version 1). */
interface CrushResponse {
  version: 1;
  decision?: "allow" | "deny";
  halt?: true;
  reason?: string;
  context?: string;
  updated_input?: unknown;
}

/**
 * The run as Crush's envelope: a block is `decision: deny` + reason; an allow is `allow` (Crush
 * then skips its permission prompt); ask and defer say nothing (Crush asks as it would without a
 * hook); a rewritten input is `updated_input` (Crush merges it over the call's input, key by key);
 * a stop is `halt` (the whole turn ends). Crush shows the user nothing of a hook, so context,
 * notices and failures all go to `context`, for the model.
 */
export function renderCrush(result: TriggerResult): HostAnswer {
  const out: CrushResponse = { version: 1 };
  const ranked = rankedDecision(result);
  if (result.blocked) {
    out.decision = "deny";
    out.reason = result.reason ?? `blocked by ${result.blocked_by}`;
  } else if (ranked?.decision === "allow") out.decision = "allow";
  if (!result.blocked && result.updated_input !== null && result.updated_input !== undefined && ranked?.decision !== "defer") out.updated_input = result.updated_input;
  if (!result.continue) {
    out.halt = true;
    out.reason ??= result.stop_reason ?? "hookrun: a hook stopped the agent";
  }
  const shown = result.messages.filter((m) => !m.hide);
  const context = [...texts(shown), ...[...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map((r) => `hookrun: ${failureLine(r)}`)];
  if (context.length) out.context = context.join("\n\n");
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

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

export const crush: HostAdapter = {
  name: "crush",
  title: "Crush",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 30 },
  // Crush's payload names its event in `event` (no `hook_event_name`) and its tools in lower case.
  detect: (payload) => payload.event === "PreToolUse" && payload.hook_event_name === undefined && Object.hasOwn(TOOLS, stringField(payload, "tool_name") ?? ""),
  read: (payload) => baseRead(crush, payload, { hostFields: ["event"], event: "PreToolUse" }),
  render: renderCrush,
  notRun: (_event, _forUser, forModel) => ({
    stdout: `${JSON.stringify({ version: 1, context: `hookrun: the project's hooks are not running in this session: ${forModel}` })}\n`,
    stderr: "",
    exitCode: 0,
  }),
  degrade: {
    ask: "nothing: Crush has no ask; its own permission rules decide, as with no hook",
    defer: "nothing: Crush's own permission rules decide",
    updated_input: "`updated_input`, merged by Crush over the call's input key by key (a key the rewrite drops stays)",
    context: "`context`: to the model (Crush shows the user nothing of a hook)",
    feedback: "nothing: Crush fires no post-tool event",
    followup: "nothing: Crush fires no stop event",
    stop: "`halt: true`: Crush ends the whole turn",
    notice: "`context` (Crush has no channel to the user)",
  },
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
