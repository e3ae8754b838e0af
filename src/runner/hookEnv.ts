import type { ResolvedHook } from "../config/types.js";

/** A hook's environment (SPEC §4): runner env, defaults.env + hook env, then HOOKRUN and HOOK_*. */
export function hookEnv(base: NodeJS.ProcessEnv, hook: ResolvedHook, context: Record<string, unknown>, projectDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...hook.env };
  env.HOOKRUN = "1";
  env.HOOK_EVENT = hook.event;
  env.HOOK_NAME = hook.name;
  env.HOOK_SESSION_ID = String(context.session_id);
  env.HOOK_TURN_COUNT = String(context.turn_count);
  env.HOOK_PROJECT_DIR = projectDir;
  // Claude Code hook commands and scripts locate the project by $CLAUDE_PROJECT_DIR (SPEC §13);
  // when Claude Code itself runs hookrun it is already set and passes through.
  if (!env.CLAUDE_PROJECT_DIR) env.CLAUDE_PROJECT_DIR = projectDir;
  if (typeof context.tool_name === "string") env.HOOK_TOOL_NAME = context.tool_name;
  else delete env.HOOK_TOOL_NAME;
  if (typeof context.path === "string") env.HOOK_FILE_PATH = context.path;
  else delete env.HOOK_FILE_PATH;
  return env;
}
