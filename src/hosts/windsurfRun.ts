import { detectWindsurf } from "./detect.js";
import { isJsonObject } from "../config/scanJson.js";
import type { HookContext, TriggerResult } from "../runner/types.js";
import { blockReason, hookrunLine, parseJsonObject, rankedDecision, resultTexts } from "./resultText.js";
import type { HostAnswer, Payload, HostRuntime } from "./types.js";
import { baseRead, field, stringField } from "./payload.js";

/**
 * Windsurf Cascade (the IDE's agent): `.windsurf/hooks.json` (user: `~/.codeium/windsurf/hooks.json`),
 * `{"hooks": {event: [{command, show_output}]}}`. A hook's answer is its exit code alone: 2 blocks
 * a pre-hook; anything a hook says beyond that reaches the user only as the hook's output, shown
 * in Cascade when `show_output` is true. So every decision hookrun has that Windsurf cannot carry
 * (ask, rewritten input, context for the model, follow-ups, stop) becomes a block or a line the
 * user sees, by the rules in `degrade`. Facts and sources: docs/hosts/windsurf.md.
 */

/** Windsurf's event → canonical. */
export const EVENTS: Readonly<Record<string, string>> = Object.freeze({
  pre_read_code: "pre_tool_use",
  post_read_code: "post_tool_use",
  pre_write_code: "pre_tool_use",
  post_write_code: "post_tool_use",
  pre_run_command: "pre_tool_use",
  post_run_command: "post_tool_use",
  pre_mcp_tool_use: "pre_tool_use",
  post_mcp_tool_use: "post_tool_use",
  pre_user_prompt: "user_prompt_submit",
  post_cascade_response: "stop",
});

/**
 * Windsurf has no tool names, one event pair per kind of action instead; the action's name (the
 * event without `pre_`/`post_`) is the host's tool name. A write that creates a file is `Write`.
 */
const TOOLS: Readonly<Record<string, string>> = Object.freeze({ run_command: "Bash", read_code: "Read", write_code: "Edit" });

export const action = (hostEvent: string): string => hostEvent.replace(/^(pre|post)_/, "");
const PRE_EVENTS = new Set(["pre_tool_use", "user_prompt_submit"]);

function read(payload: Payload, event: string): HookContext {
  const hostEvent = stringField(payload, "agent_action_name") ?? event;
  const toolInfo = field(payload, "tool_info");
  const info = isJsonObject(toolInfo) ? toolInfo : {};
  // The shared reader, Windsurf's bookkeeping under `host`; the tool comes from the action below.
  const ctx = baseRead(windsurfRun, payload, { hostFields: ["trajectory_id", "execution_id", "timestamp", "tool_info"], event: hostEvent });
  delete ctx.agent_action_name;
  const host = ctx.host as Record<string, unknown>;
  host.event = hostEvent;
  const trajectory = stringField(payload, "trajectory_id");
  if (trajectory !== undefined) ctx.session_id = trajectory;
  const rest = (omit: string[]) => Object.fromEntries(Object.entries(info).filter(([k]) => !omit.includes(k)));
  const kind = action(hostEvent);
  const post = hostEvent.startsWith("post_");
  switch (kind) {
    case "run_command": {
      host.tool_name = kind;
      ctx.tool_name = "Bash";
      ctx.tool_input = { command: info.command_line, ...(typeof info.cwd === "string" && { cwd: info.cwd }) };
      if (typeof info.cwd === "string") ctx.cwd = info.cwd;
      if (post) ctx.tool_response = rest(["command_line", "cwd"]);
      break;
    }
    case "read_code":
      host.tool_name = kind;
      ctx.tool_name = "Read";
      ctx.tool_input = { file_path: info.file_path };
      if (post) ctx.tool_response = rest(["file_path"]);
      break;
    case "write_code": {
      host.tool_name = kind;
      const edits = Array.isArray(info.edits) ? info.edits : [];
      const creates = edits.length === 1 && isJsonObject(edits[0]) && edits[0].old_string === "";
      ctx.tool_name = creates ? "Write" : "Edit";
      ctx.tool_input = { file_path: info.file_path, edits: info.edits };
      break;
    }
    case "mcp_tool_use": {
      const server = typeof info.mcp_server_name === "string" ? info.mcp_server_name : "unknown";
      const tool = typeof info.mcp_tool_name === "string" ? info.mcp_tool_name : "unknown";
      host.tool_name = `${server}/${tool}`;
      ctx.tool_name = `mcp__${server}__${tool}`;
      ctx.tool_input = parseJsonObject(info.mcp_tool_arguments) ?? {};
      if (post && info.mcp_result !== undefined) ctx.tool_response = parseJsonObject(info.mcp_result);
      break;
    }
    case "user_prompt":
      if (info.user_prompt !== undefined) ctx.prompt = info.user_prompt;
      break;
    case "cascade_response":
      if (typeof info.response === "string") ctx.last_assistant_message = info.response;
      break;
  }
  ctx.host = host;
  return ctx;
}

/**
 * A run as Windsurf's contract: exit 2 (reason on stderr) blocks a pre-hook; exit 0 otherwise,
 * with every line the user must see on stdout (Cascade shows it when `show_output` is true, as
 * `hooks install windsurf` writes it).
 */
function render(result: TriggerResult): HostAnswer {
  const t = resultTexts(result);
  const lines: string[] = [];
  const pre = PRE_EVENTS.has(result.event);
  const ranked = rankedDecision(result);
  let block: string | null = null;
  if (pre) {
    if (result.blocked) block = blockReason(result);
    else if (!result.continue) block = `hookrun: a hook asked to stop the agent (${result.stop_reason ?? "no reason given"}); Windsurf cannot stop it, so this action is blocked`;
    else if (ranked?.decision === "ask") block = `hookrun: Windsurf cannot ask the user, so this is blocked instead${ranked.reason ? `: ${ranked.reason}` : ""}`;
  } else if (!result.continue && result.event !== "stop") lines.push(`hookrun: a hook asked to stop the agent (${result.stop_reason ?? "no reason given"}); Windsurf cannot stop it`);
  if (pre && !block && result.updated_input !== null && result.updated_input !== undefined && ranked?.decision !== "defer")
    lines.push(`hookrun: Windsurf cannot rewrite the action; it runs as the agent wrote it (a hook asked for ${JSON.stringify(result.updated_input)})`);
  if (result.event === "stop") {
    const goOn = [...(result.blocked ? [blockReason(result)] : []), ...t.followups];
    if (goOn.length) lines.push(`hookrun: a hook asked the agent to go on, which Windsurf cannot do after a response: ${goOn.join(" | ")}`);
  }
  if (t.context.length) lines.push(`hookrun: Windsurf gives hooks no way to reach the model; for you: ${t.context.join(" | ")}`);
  if (t.feedback.length) lines.push(`hookrun: feedback on the action (Windsurf cannot give it to the model): ${t.feedback.join(" | ")}`);
  lines.push(...t.notices.map(hookrunLine), ...t.failures.map(hookrunLine));
  if (block !== null) return { stdout: "", stderr: `${[block, ...lines].join("\n")}\n`, exitCode: 2 };
  return { stdout: lines.length ? `${lines.join("\n")}\n` : "", stderr: "", exitCode: 0 };
}

/** Hooks that did not run: the action goes on (as under every host) and the user is told. */
function notRun(_event: string, forUser: string, _forModel: string): HostAnswer {
  return { stdout: `hookrun: the project's hooks did not run: ${forUser}\n`, stderr: "", exitCode: 0 };
}

export const windsurfRun: HostRuntime = {
  name: "windsurf",
  title: "Windsurf Cascade",
  events: EVENTS,
  tools: TOOLS,
  // Windsurf's hooks.json has no timeout field and its docs name none: hookrun's own timeouts bound the run.
  timeout: { unit: "s", default: 0 },
  detect: detectWindsurf,
  read,
  render,
  notRun,
  degrade: {
    ask: "a block (exit 2) whose reason says Windsurf cannot ask",
    defer: "nothing (exit 0): Windsurf's own rules decide",
    updated_input: "the action runs unchanged and a line says what the hook asked for",
    context: "a line the user sees (stdout, shown by show_output): Windsurf gives hooks no way to reach the model",
    feedback: "a line the user sees",
    followup: "a line the user sees: post_cascade_response cannot make the agent go on",
    stop: "on a pre-hook a block saying so; elsewhere a line the user sees",
    notice: "a line the user sees (stdout with exit 0, stderr with exit 2)",
  },
};
