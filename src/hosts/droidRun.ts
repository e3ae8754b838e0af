import { DROID_EVENTS as EVENTS, detectDroid } from "./detect.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { renderClaude } from "./claudeRun.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { baseRead } from "./payload.js";

/**
 * Factory Droid (`droid`, `droid exec`): Claude Code's hook contract (same settings shape, same
 * snake_case payloads, same JSON answers and exit codes) with Droid's own tool names (`Execute`
 * for the shell, `Create` for new files, `FetchUrl`) and nine events. The answer is Claude's
 * render (src/hosts/claude.ts); this module maps names. Facts and sources: docs/hosts/droid.md.
 *
 * Config file: the `hooks` key of `.factory/settings.json` (and `~/.factory/settings.json`).
 * Factory's docs name `.factory/hooks.json` as the primary file, but droid 0.186 was reported to
 * never read it (Factory-AI/factory#3) while the `settings.json` key works in every version
 * reported; the docs also disagree on that file's shape. See docs/hosts/droid.md.
 */

export const INSTALL_EVENT: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.entries(EVENTS).map(([h, c]) => [c, h])));

/** Droid's tool names that differ from the canonical (Claude's) ones. */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ Execute: "Bash", Create: "Write", FetchUrl: "WebFetch" });
/** A Droid payload is Claude's shape with Droid's tool names: the shared reader, its event name under `host` only. */
export function read(payload: Payload, event: string): HookContext {
  const ctx = baseRead(droidRun, payload, { event });
  delete ctx.hook_event_name;
  return ctx;
}

/** Droid reads a hook's answer as Claude Code does: the Claude render, byte for byte. */
const render = (result: TriggerResult): HostAnswer => renderClaude(result);

// Where Droid gives hookSpecificOutput.additionalContext to the model before it answers.
const NOT_RUN_CONTEXT = new Set(["session_start", "user_prompt_submit"]);

function notRun(event: string, forUser: string, forModel: string): HostAnswer {
  const out: Record<string, unknown> = { systemMessage: `hookrun: the project's hooks did not run: ${forUser}` };
  if (NOT_RUN_CONTEXT.has(event)) out.hookSpecificOutput = { hookEventName: INSTALL_EVENT[event], additionalContext: `hookrun: the project's hooks are not running in this session: ${forModel}` };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: "", exitCode: 0 };
}

export const droidRun: HostRuntime = {
  name: "droid",
  title: "Factory Droid",
  events: EVENTS,
  tools: TOOLS,
  timeout: { unit: "s", default: 60 },
  detect: detectDroid,
  read,
  render,
  notRun,
  degrade: {
    ask: "passed on as Claude's `permissionDecision: ask` (Droid asks the user; in `droid exec` it cannot, see docs/hosts/droid.md)",
    defer: "passed on as Claude's `permissionDecision: defer`; Droid documents allow/deny/ask only, so Droid's own rules decide",
    updated_input: "Claude's `hookSpecificOutput.updatedInput` on PreToolUse",
    context: "Claude's `additionalContext` (SessionStart, UserPromptSubmit, PostToolUse); elsewhere `systemMessage` (shown to the user)",
    feedback: "PostToolUse `decision: block` + reason (fed to the model next to the tool result)",
    followup: "Stop / SubagentStop `additionalContext` (the turn goes on)",
    stop: "`continue: false` + `stopReason`",
    notice: "`systemMessage`",
  },
};

export { EVENTS };
