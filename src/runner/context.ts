import { ContextError, UnknownHookError } from "../errors.js";
import { closestMatches } from "../text.js";
import { describeJsonError } from "../config/scanJson.js";
import { EVENT_BY_NAME, pascalEventName } from "../events/catalog.js";
import type { HookContext } from "./types.js";
import type { ResolvedHook } from "../config/types.js";

/**
 * The JSON object a hook reads on stdin (docs/running-hooks.md#what-a-hook-receives), without `hook` (added per hook): the fixed
 * fields first, then the caller's fields untouched, `stop_hook_active` defaulting to false.
 */
export function buildContext(event: string, context: HookContext, cwd: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const { session_id: _s, turn_count, last_assistant_message, cwd: ctxCwd, event: _e, hook_event_name: _h, hook: _hook, ...rest } = context;
  const out: Record<string, unknown> = {
    event,
    hook_event_name: pascalEventName(event),
    session_id: sessionIdOf(context, env),
    turn_count: typeof turn_count === "number" && Number.isInteger(turn_count) && turn_count >= 0 ? turn_count : 0,
    last_assistant_message: typeof last_assistant_message === "string" ? last_assistant_message : null,
    cwd: typeof ctxCwd === "string" && ctxCwd !== "" ? ctxCwd : cwd,
  };
  if (EVENT_BY_NAME.get(event)?.fields.includes("stop_hook_active")) out.stop_hook_active = rest.stop_hook_active ?? false;
  for (const key of Object.keys(rest)) if (!Object.hasOwn(out, key)) setOwn(out, key, rest[key]);
  return out;
}

/**
 * `obj[key] = value` that also works for a key named `__proto__` (a JSON object from a caller or
 * a hook may have one): it becomes an own field, as JSON.parse made it, never the object's prototype.
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** One hook's stdin line: the base context plus `hook`, then a newline. */
export function hookInput(base: Record<string, unknown>, name: string, projectDir: string): string {
  return `${JSON.stringify({ ...base, hook: { name, project_dir: projectDir } })}\n`;
}

/** The context's session_id, else $HOOKS_SESSION_ID, else "default". */
export function sessionIdOf(context: HookContext, env: NodeJS.ProcessEnv): string {
  const id = context.session_id;
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number") return String(id);
  return env.HOOKS_SESSION_ID || "default";
}

/** A hook's environment (docs/running-hooks.md#what-a-hook-receives): runner env, defaults.env + hook env, then HOOKRUN and HOOK_*. */
export function hookEnv(base: NodeJS.ProcessEnv, hook: ResolvedHook, context: Record<string, unknown>, projectDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...hook.env };
  env.HOOKRUN = "1";
  env.HOOK_EVENT = hook.event;
  env.HOOK_NAME = hook.name;
  env.HOOK_SESSION_ID = String(context.session_id);
  env.HOOK_TURN_COUNT = String(context.turn_count);
  env.HOOK_PROJECT_DIR = projectDir;
  // Claude Code hook commands and scripts locate the project by $CLAUDE_PROJECT_DIR (docs/cli.md#environment-variables);
  // when Claude Code itself runs hookrun it is already set and passes through.
  if (!env.CLAUDE_PROJECT_DIR) env.CLAUDE_PROJECT_DIR = projectDir;
  if (typeof context.tool_name === "string") env.HOOK_TOOL_NAME = context.tool_name;
  else delete env.HOOK_TOOL_NAME;
  if (typeof context.path === "string") env.HOOK_FILE_PATH = context.path;
  else delete env.HOOK_FILE_PATH;
  return env;
}

/** A history entry: gptme/OpenAI/Anthropic message shapes, or a Claude Code transcript line. */
export interface HistoryEntry {
  role?: string;
  type?: string;
  content?: unknown;
  message?: { role?: string; content?: unknown };
  [field: string]: unknown;
}

// The text of one assistant turn, as agent-code's `last_assistant_text` (crates/lib/src/query/mod.rs,
// avala-ai/agent-code c25b885f) reads it: a string, or the text blocks of a content list joined
// with no separator; null only when that is empty (whitespace-only text is text, returned as is).
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content === "" ? null : content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") parts.push(block);
    else if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text === "string") parts.push(text);
    }
  }
  const joined = parts.join("");
  return joined === "" ? null : joined;
}

/**
 * `last_assistant_message` the agent-code way (docs/running-hooks.md#what-a-hook-receives): walk the history backwards, skip
 * assistant turns that are only tool calls (no text), join the text blocks of the latest one
 * with text with no separator, exactly as agent-code's `last_assistant_text` does.
 */
export function lastAssistantText(history: readonly HistoryEntry[]): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i];
    if (!entry || typeof entry !== "object") continue;
    const msg = entry.message && typeof entry.message === "object" ? entry.message : entry;
    const role = msg.role ?? entry.type;
    if (role !== "assistant") continue;
    const text = textOf(msg.content);
    if (text !== null) return text;
  }
  return null;
}

// What every door (library, CLI, server) checks of a trigger's input before anything runs, so a
// caller gets the same sentence whichever door it used.

/**
 * A context is one JSON object; anything else is a ContextError (CLI exit 65, server 400).
 * `where` finishes "the context …": "from stdin", "in the request body", "of `stop`".
 */
export function checkContext(value: unknown, where: string): asserts value is HookContext {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return;
  const kind = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
  throw new ContextError(`the context ${where} is ${kind}, not a JSON object; pass one JSON object`);
}

/** A context document: empty (or only whitespace) is `{}`; otherwise one JSON object. */
export function parseContext(text: string, where: string): HookContext {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ContextError(`the context ${where} is not valid JSON (${describeJsonError(text, error)}); pass one JSON object`, { cause: error });
  }
  checkContext(value, where);
  return value;
}

/**
 * Every name given to --only / --skip (`?only=` / `?skip=`) must be a hook of the config: a typo
 * would otherwise run nothing, silently. `label` names the option as the caller wrote it.
 */
export function checkHookNames(label: string, names: readonly string[] | undefined, known: readonly string[]): void {
  const unknown = (names ?? []).filter((n) => !known.includes(n));
  if (unknown.length === 0) return;
  const hint = closestMatches(unknown[0], [...known], 1)[0];
  throw new UnknownHookError(`${label}: no hook named ${unknown.join(", ")}${hint ? `; did you mean ${hint}?` : "; run `hooks list` to see them"}`, unknown);
}
