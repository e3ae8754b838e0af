import type { ResolvedConfig, HookSpec } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { matcherRule } from "../config/matcher.js";
import { hookNameFromCommand, slug, uniqueName } from "../interop/hookNames.js";
import { beginImport, customEventName, type ExistingHook, type HookImport, type ImportedHook } from "../interop/importHooks.js";
import { configEvents, dispatchTimeoutMs, matchedValues } from "./install.js";
import { hookrunCallNote } from "./dispatch.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter, HostEntry } from "./types.js";
import { sampleFields } from "./payload.js";
import { CAMEL_EVENTS, COPILOT_TOOLS as TOOLS, PASCAL_EVENTS } from "../events/copilotNames.js";
import { copilotRun } from "./copilotRun.js";

export * from "./copilotRun.js";

/**
 * GitHub Copilot CLI (`@github/copilot`, verified with 1.0.102; docs/hosts/copilot.md). Everything
 * hookrun knows about this host is here: its events, tool names, payloads, the answer it reads,
 * the degradation rules, the dispatch entries `hooks install copilot` writes and `hooks import copilot`.
 *
 * Copilot has two hook dialects, chosen by how an event key is spelled in its config:
 * - camelCase keys (`preToolUse`, `agentStop`, …): camelCase input (`sessionId`, `timestamp` in
 *   epoch ms, `toolName` in Copilot's own names such as `bash`/`create`, `toolArgs`), no event name
 *   in the payload;
 * - PascalCase keys (`PreToolUse`, `Stop`, …; also what it reads from `.claude/settings*.json`):
 *   snake_case input with `hook_event_name`, an ISO `timestamp` and Claude's tool names (`Bash`,
 *   `Write`), the arguments still in Copilot's shape (`path`, `file_text`).
 * Both read the same flat answer (`permissionDecision`, `modifiedArgs`, `additionalContext`,
 * `decision`/`reason`), which is what render prints, so one answer serves whichever fired it.
 */

/**
 * Events hookrun does not install a dispatch entry for, and why (`hooks install` leaves them out;
 * a hooks.yaml hook on one never runs under Copilot).
 */
export const COPILOT_NOT_INSTALLED: Readonly<Record<string, string>> = {
  permission_request: "Copilot's permissionRequest answer is not documented; pre_tool_use decides tool calls under Copilot",
};

const TOOL_EVENTS = new Set(["pre_tool_use", "post_tool_use", "post_tool_use_failure", "permission_request"]);

/**
 * One camelCase entry per event of hooks.yaml that Copilot fires: `bash` is the dispatch command,
 * `timeoutSec` the event's run plus a margin (dispatchTimeoutMs), since a timed-out preToolUse hook
 * lets the call proceed; on tool events a `matcher` (Copilot anchors it and tests its own tool
 * names) listing every Copilot name of the tools hooks.yaml's matchers select, none when a hook
 * takes any tool. Other events get no matcher (what Copilot would test there is not documented).
 */
function entries(config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> {
  const out: Record<string, HostEntry[]> = {};
  for (const event of configEvents(config)) {
    const hostEvent = Object.keys(CAMEL_EVENTS).find((k) => CAMEL_EVENTS[k] === event);
    if (hostEvent === undefined || Object.hasOwn(COPILOT_NOT_INSTALLED, event)) continue;
    const entry: HostEntry = { type: "command", bash: command(event), timeoutSec: Math.ceil(dispatchTimeoutMs(config, event) / 1000) };
    const values = TOOL_EVENTS.has(event) ? matchedValues(config, event, copilot) : null;
    if (values) entry.matcher = [...values].sort().join("|");
    out[hostEvent] = [entry];
  }
  return out;
}

const MAX_TIMEOUT_S = 24 * 60 * 60;

/**
 * `.github/hooks/*.json` (or the `hooks` of `.github/copilot/settings*.json`) → hooks.yaml. Flat
 * entries and Claude's nested `{matcher, hooks: [...]}` groups, under camelCase or PascalCase keys.
 * The key's casing decides what Copilot sends and so the hook's dialect: camelCase keys
 * `dialect: copilot`, PascalCase keys `dialect: copilot-pascal` (docs/dialects.md); every field of
 * an entry is carried or noted, or that one hook refused, saying why.
 */
function importCopilot(raw: unknown, existing: ExistingHook[] = []): HookImport {
  const { result, root: settings, hooks } = beginImport(raw, "a Copilot hooks file must be a JSON object", "the file has no `hooks` object; nothing to import");
  if (hooks === null) return result;
  if (!isJsonObject(hooks)) throw new TypeError("`hooks` in a Copilot hooks file must be an object of events");
  if (settings.version !== undefined && settings.version !== 1) result.notes.push(`\`version\` ${JSON.stringify(settings.version)}: Copilot reads version 1; imported as version 1`);
  for (const k of Object.keys(settings)) if (k !== "version" && k !== "hooks") result.notes.push(`\`${k}\` is not carried (hookrun imports only \`hooks\`)`);
  const taken = new Set(existing.map((h) => h.name));
  const seen = new Set(existing.map((h) => JSON.stringify([h.event, h.command ?? null, h.matcher ?? null])));
  for (const [hostEvent, list] of Object.entries(hooks)) {
    const known = Object.hasOwn(PASCAL_EVENTS, hostEvent) || Object.hasOwn(CAMEL_EVENTS, hostEvent);
    // An event key hookrun has no event for keeps its spelling's dialect: PascalCase keys are Claude-shaped.
    const pascal = Object.hasOwn(PASCAL_EVENTS, hostEvent) || (!known && /^[A-Z]/.test(hostEvent));
    if (!Array.isArray(list)) {
      result.notes.push(`hooks.${hostEvent}: not a list of hooks; skipped`);
      continue;
    }
    let event = Object.hasOwn(PASCAL_EVENTS, hostEvent) ? PASCAL_EVENTS[hostEvent] : Object.hasOwn(CAMEL_EVENTS, hostEvent) ? CAMEL_EVENTS[hostEvent] : null;
    if (event === null) {
      event = customEventName("copilot", slug(hostEvent.replace(/([a-z0-9])([A-Z])/g, "$1_$2")).replace(/[-.]/g, "_"));
      result.customEvents[event] = { custom: true, description: `Copilot CLI's ${hostEvent} event (imported; fire it with \`hooks run ${event}\`)` };
      result.notes.push(`hooks.${hostEvent}: hookrun has no event for Copilot's \`${hostEvent}\`; its hooks are imported under the custom event \`${event}\``);
    }
    list.forEach((item, i) => {
      const at = `hooks.${hostEvent}[${i}]`;
      // Claude's nested group: {matcher, hooks: [...]}; else one flat entry.
      const group = isJsonObject(item) && Array.isArray(item.hooks) ? item : null;
      const members: [unknown, string, unknown][] = group
        ? (group.hooks as unknown[]).map((h, j) => [h, `${at}.hooks[${j}]`, group.matcher])
        : [[item, at, isJsonObject(item) ? item.matcher : undefined]];
      for (const [entry, where, rawMatcher] of members) {
        const converted = convertEntry(entry, event, pascal, rawMatcher, where);
        if ("skip" in converted) {
          result.notes.push(converted.skip);
          continue;
        }
        const { hook, notes } = converted;
        const id = JSON.stringify([event, hook.command ?? null, hook.matcher ?? null]);
        if (seen.has(id)) {
          result.notes.push(`${where}: \`${hook.command}\` is already a ${event} hook; skipped`);
          continue;
        }
        seen.add(id);
        const base = hookNameFromCommand(hook.command ?? "") || slug(`${event.replace(/_/g, "-")}${hook.matcher ? `-${hook.matcher.replace(/[|,]+/g, "-")}` : ""}-hook`);
        hook.name = uniqueName(base, taken);
        result.notes.push(...notes.map((n) => `${where} (\`${hook.name}\`): ${n}`));
        const imported: ImportedHook = { event, hostEvent, at: where, hook: ordered(hook) };
        result.hooks.push(imported);
      }
    });
  }
  return result;
}

function ordered(h: HookSpec): HookSpec {
  const order = ["name", "description", "matcher", "command", "timeout", "cwd", "env", "on_failure", "dialect"] as const;
  const out: Record<string, unknown> = {};
  for (const k of order) if (h[k] !== undefined) out[k] = h[k];
  return out as unknown as HookSpec;
}

type Converted = { hook: HookSpec; notes: string[] } | { skip: string };

/** One Copilot command entry → a hookrun hook (every field carried or noted), or why it is skipped. */
function convertEntry(entry: unknown, event: string, pascal: boolean, rawMatcher: unknown, at: string): Converted {
  if (!isJsonObject(entry)) return { skip: `${at}: not an object; skipped` };
  const type = entry.type ?? "command";
  if (type !== "command") return { skip: `${at}: skipped a hook of type \`${String(type)}\`: hookrun runs only \`command\` hooks` };
  const bash = typeof entry.bash === "string" && entry.bash.trim() ? entry.bash : typeof entry.command === "string" && entry.command.trim() ? entry.command : null;
  if (bash === null) {
    if (typeof entry.powershell === "string") return { skip: `${at}: only a \`powershell\` command; hookrun runs hooks with sh, bash or zsh; skipped` };
    return { skip: `${at}: no \`bash\` (or \`command\`); skipped` };
  }
  const callsHookrun = hookrunCallNote(bash);
  if (callsHookrun) return { skip: `${at}: \`${bash}\` ${callsHookrun}` };
  const hook: HookSpec = { name: "", command: bash };
  const notes: string[] = [];
  if (rawMatcher !== undefined && rawMatcher !== "" && rawMatcher !== "*") {
    if (typeof rawMatcher !== "string") return { skip: `${at}: \`matcher\` ${JSON.stringify(rawMatcher)} is not text; skipped` };
    if (!TOOL_EVENTS.has(event)) notes.push(`matcher \`${rawMatcher}\` dropped: ${event} has no tool to match`);
    else hook.matcher = canonicalMatcher(rawMatcher, notes);
  }
  for (const [k, v] of Object.entries(entry)) {
    switch (k) {
      case "type":
      case "bash":
      case "matcher":
        break;
      case "command":
        if (entry.bash !== undefined && v !== entry.bash) notes.push("`command` not carried: `bash` is given and Copilot runs that");
        break;
      case "powershell":
        notes.push("`powershell` not carried: hookrun runs the `bash` command on every platform");
        break;
      case "timeoutSec":
      case "timeout":
        if (typeof v === "number" && v > 0 && v <= MAX_TIMEOUT_S) {
          if (k === "timeout" && entry.timeoutSec !== undefined) notes.push("`timeout` not carried: `timeoutSec` is given");
          else hook.timeout = v;
        } else return { skip: `${at} (\`${bash}\`): not imported: ${k} ${JSON.stringify(v)} is not a number of seconds between 0 and 24 h` };
        break;
      case "cwd":
        if (typeof v === "string" && v) hook.cwd = v;
        else return { skip: `${at} (\`${bash}\`): not imported: cwd ${JSON.stringify(v)} is not a path` };
        break;
      case "env":
        if (isJsonObject(v) && Object.values(v).every((x) => typeof x === "string")) hook.env = v as Record<string, string>;
        else return { skip: `${at} (\`${bash}\`): not imported: \`env\` is not an object of strings` };
        break;
      case "comment":
      case "description":
      case "statusMessage":
        if (typeof v === "string" && v.trim()) {
          if (hook.description !== undefined) notes.push(`\`${k}\` not carried: the hook's description is already another field's`);
          else hook.description = v.trim();
        } else notes.push(`\`${k}\` ${JSON.stringify(v)} is not text; not carried`);
        break;
      default:
        notes.push(`\`${k}\` is not carried (not a field of Copilot's command hooks that hookrun knows)`);
    }
  }
  // Copilot's default timeout (30 s) is the dialect's; a preToolUse hook that exits non-zero
  // denies the call in the dialect too, as in Copilot (a timeout lets it run, in both).
  hook.dialect = pascal ? "copilot-pascal" : "copilot";
  return { hook, notes };
}

/** A Copilot matcher (its tool names, anchored) → hooks.yaml's (canonical names; a regex stays a regex). */
function canonicalMatcher(matcher: string, notes: string[]): string {
  const rule = matcherRule(matcher);
  if (rule.kind === "names") return [...rule.names].map((n) => (Object.hasOwn(TOOLS, n) ? TOOLS[n] : n)).join("|");
  notes.push(`regex matcher \`${matcher}\`: Copilot anchors it (^(?:…)$) and tests its own tool names, hookrun does neither; it is carried anchored, review it`);
  return `^(?:${matcher})$`;
}

/** Copilot CLI's whole adapter: its runtime part (copilotRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const copilot: HostAdapter = {
  ...copilotRun,
  // Observed (copilot-contract): the entry's `bash` text under bash, cwd the project root, COPILOT_PROJECT_DIR and
  // CLAUDE_PROJECT_DIR set; camelCase keys get camelCase payloads, PascalCase keys Claude's snake_case ones.
  probe: {
    shell: () => ["bash", "-c"],
    env: (projectDir) => ({ CLAUDE_PROJECT_DIR: projectDir, COPILOT_PROJECT_DIR: projectDir, COPILOT_HOOK_DIR: `${projectDir}/.github/hooks`, COPILOT_CLI: "1" }),
    payload: (hostEvent, projectDir) => {
      if (Object.hasOwn(PASCAL_EVENTS, hostEvent))
        return {
          ...sampleFields(PASCAL_EVENTS[hostEvent], "Bash", projectDir),
          hook_event_name: hostEvent,
          timestamp: new Date().toISOString(),
          tool_use_id: undefined,
          ...(hostEvent === "SessionStart" && { source: "new", initial_prompt: "hooks doctor" }),
        };
      const f = sampleFields(CAMEL_EVENTS[hostEvent] ?? hostEvent, "bash", projectDir);
      return {
        sessionId: f.session_id,
        timestamp: Date.now(),
        cwd: projectDir,
        ...(f.tool_name !== undefined && { toolName: f.tool_name, toolArgs: f.tool_input }),
        ...(f.prompt !== undefined && { prompt: f.prompt }),
        ...(f.source !== undefined && { source: "new" }),
        ...(hostEvent === "agentStop" && { stopReason: "end_turn", stop_hook_active: false }),
      };
    },
  },
  setup: jsonFile({
    projectFile: ".github/hooks/hookrun.json",
    userFile: ".copilot/hooks/hookrun.json",
    hooksPath: ["hooks"],
    // Set by Copilot in every hook's environment (its project hooks also start in the project root,
    // but its lifecycle hooks follow the session's directory after /cd).
    root: '"$COPILOT_PROJECT_DIR"',
    exec: true,
    // preToolUse denies on any non-zero exit: the 127 of a missing hookrun would deny every call
    blocksOnStartFailure: true,
    skeleton: { version: 1 },
    entries,
  }),
  import: importCopilot,
};
