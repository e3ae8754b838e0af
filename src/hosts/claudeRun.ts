import { CLAUDE_EVENTS, SKILL_SHELL, detectClaude } from "./detect.js";
import { EVENT_BY_NAME, pascalEventName } from "../events/catalog.js";
import { FAILURE_STATUSES } from "../runner/runHook.js";
import type { HookResult, Message, TriggerResult } from "../runner/types.js";
import { baseRead } from "./payload.js";
import type { HostAnswer, HostRuntime } from "./types.js";
import { failureLine, rankedDecision, texts } from "./resultText.js";

/** One Claude Code hook response (the JSON a command hook prints on exit 0). */
export interface ClaudeHookResponse {
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
  decision?: "block";
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: string;
    permissionDecision?: "allow" | "deny" | "ask" | "defer";
    permissionDecisionReason?: string;
    decision?: { behavior: "allow" | "deny"; message?: string; updatedInput?: unknown };
    additionalContext?: string;
    updatedInput?: unknown;
  };
}

/**
 * A whole hookrun run as the one response Claude Code reads from a command hook, so one entry in
 * Claude's settings can dispatch to every hook of hooks.yaml (docs/dialects.md has the table).
 * Messages for the model become additionalContext where Claude gives it to the model, else
 * systemMessage (shown to the user); notices and failures (hookrun fails open) go to
 * systemMessage; feedback on a post-tool event is Claude's `decision: "block"` + reason; follow-ups
 * on Stop are its additionalContext (the turn goes on), and so is model context an async hook
 * delivers there; a block is expressed the way each event
 * expects it.
 */
export function formatClaude(result: TriggerResult, hostEvent?: string): ClaudeHookResponse {
  if (hostEvent === SKILL_SHELL && result.event === "pre_tool_use") return formatSkillShell(result);
  const out: ClaudeHookResponse = {};
  const event = result.event;
  const rules = EVENT_BY_NAME.get(event)?.claude ?? null;
  const specific: NonNullable<ClaudeHookResponse["hookSpecificOutput"]> = { hookEventName: rules?.name ?? pascalEventName(event) };
  const shown = result.messages.filter((m) => !m.hide);
  // An async result delivered on Stop whose hook ran where Claude gives context to the model (a
  // background analysis after a Write, say) would never reach the model as a systemMessage (it
  // is delivered once): it is a follow-up there, the turn goes on with it once. One whose hook
  // ran on Stop itself stays for the user, as it would have been had it run in the foreground.
  const continues = rules?.block === "continue" && rules.additionalContext;
  const modelOrigin = new Set(result.async_delivered.filter((d) => modelContextEvent(d.event)).map((d) => d.name));
  const asyncFollowup = (m: Message) => continues && m.async === true && m.kind === undefined && modelOrigin.has(m.hook ?? "");
  const context = texts(shown.filter((m) => m.kind === undefined && !asyncFollowup(m)));
  const notices = texts(shown.filter((m) => m.kind === "notice"));
  const followups = texts(shown.filter((m) => m.kind === "followup" || asyncFollowup(m)));
  const finished = [...result.async_delivered, ...result.hooks];
  const system = [...notices, ...finished.filter((r) => FAILURE_STATUSES.has(r.status)).map(failureLine)];

  // Context reaches the model where Claude takes it; on Stop only follow-ups do (context there
  // would keep the agent from stopping), so a native hook's message on Stop is shown to the user.
  if (rules?.additionalContext && rules.block !== "continue") {
    if (context.length) specific.additionalContext = context.join("\n\n");
  } else system.unshift(...context);
  if (rules?.block === "continue" && followups.length) specific.additionalContext = followups.join("\n\n");

  if (event === "pre_tool_use") {
    // Claude's order: deny > defer > ask > allow; the input is rewritten only on allow, ask or no decision.
    const ranked = rankedDecision(result);
    if (result.blocked) {
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = result.reason ?? `blocked by ${result.blocked_by}`;
    } else if (ranked) {
      specific.permissionDecision = ranked.decision;
      if (ranked.reason) specific.permissionDecisionReason = ranked.reason;
    }
    if (result.updated_input !== null && result.updated_input !== undefined && !result.blocked && ranked?.decision !== "defer") specific.updatedInput = result.updated_input;
  } else if (event === "permission_request") {
    if (result.blocked) specific.decision = { behavior: "deny", message: result.reason ?? `blocked by ${result.blocked_by}` };
    else if (result.hooks.some((r) => r.decision === "allow")) {
      specific.decision = { behavior: "allow" };
      if (result.updated_input !== null && result.updated_input !== undefined) specific.decision.updatedInput = result.updated_input;
    }
  } else if (result.blocked) {
    out.decision = "block";
    out.reason = result.reason ?? `blocked by ${result.blocked_by}`;
  } else if (rules?.block === "feedback") {
    // Claude Code feeds a post-tool "block" back to the model, after the tool's result.
    const feedback = texts(shown.filter((m) => m.kind === "feedback"));
    if (feedback.length) {
      out.decision = "block";
      out.reason = feedback.join("\n");
    }
  }

  return finishResponse(out, result, system, specific);
}

/** What every Claude answer ends with: the agent stopped if a hook asked, the lines for the user, and the event's own output when it says more than its name. */
function finishResponse(out: ClaudeHookResponse, result: TriggerResult, system: string[], specific: NonNullable<ClaudeHookResponse["hookSpecificOutput"]>): ClaudeHookResponse {
  if (!result.continue) {
    out.continue = false;
    if (result.stop_reason) out.stopReason = result.stop_reason;
  }
  if (system.length) out.systemMessage = system.join("\n");
  if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
  return out;
}

/**
 * A pre_tool_use run fired by PreSkillShellCommand, in that event's answer: a block is its deny;
 * `ask` and `defer` are passed on (Claude Code stops the command, saying a skill cannot wait for
 * approval); `allow` adds nothing; a rewrite cannot be applied to an embedded command, so it is a
 * deny saying so (Claude Code would stop it too, without naming the hook). Nothing reaches the
 * model there: context and notices go to `systemMessage`, shown to the user.
 */
function formatSkillShell(result: TriggerResult): ClaudeHookResponse {
  const out: ClaudeHookResponse = {};
  const specific: NonNullable<ClaudeHookResponse["hookSpecificOutput"]> = { hookEventName: SKILL_SHELL };
  const shown = result.messages.filter((m) => !m.hide && (m.kind === undefined || m.kind === "notice"));
  const system = [...texts(shown), ...[...result.async_delivered, ...result.hooks].filter((r) => FAILURE_STATUSES.has(r.status)).map(failureLine)];
  const ranked = rankedDecision(result);
  const rewriters = result.hooks.filter((r) => r.updated_input !== undefined && r.updated_input !== null).map((r) => r.name);
  if (result.blocked) {
    specific.permissionDecision = "deny";
    specific.permissionDecisionReason = result.reason ?? `blocked by ${result.blocked_by}`;
  } else if (ranked && ranked.decision !== "allow") {
    specific.permissionDecision = ranked.decision;
    if (ranked.reason) specific.permissionDecisionReason = ranked.reason;
  } else if (result.updated_input !== null && result.updated_input !== undefined) {
    specific.permissionDecision = "deny";
    specific.permissionDecisionReason = `hookrun: ${rewriters.length ? `hook ${rewriters.join(", ")}` : "a hook"} rewrote the command, and Claude Code cannot run a rewritten command that a skill or slash command embeds, so it was not run`;
  }
  return finishResponse(out, result, system, specific);
}

/** Whether Claude Code gives a hook's additionalContext on this event to the model without keeping the agent going. */
function modelContextEvent(event: string): boolean {
  const rules = EVENT_BY_NAME.get(event)?.claude;
  return rules?.additionalContext === true && rules.block !== "continue";
}

/** What `hooks run EVENT --output claude` prints and exits with. */
export interface ClaudeAnswer extends HostAnswer {
  exitCode: 0 | 2;
}

// A claude hook's plain (not JSON) stdout: Claude Code words it as the hook's plain output.
const plainOutput = (r: HookResult | undefined) => r?.dialect === "claude" && !r.stdout.trim().startsWith("{");

/**
 * The run as Claude Code's command-hook contract, in the form closest to what the hooks would
 * have said to Claude Code themselves, so the model reads the same words (checked against the
 * real CLI in test/claude.e2e.test.ts); for claude-dialect hooks:
 * - a block that is only a hook's exit 2 is answered with exit 2 and that hook's stderr, byte for
 *   byte (Claude quotes it as "hook error: [command]: stderr"; a JSON deny reads differently);
 * - on SessionStart / UserPromptSubmit, context that is only hooks' plain stdout is printed as
 *   plain stdout ("hook success: …" rather than "hook additional context: …");
 * - anything else is one JSON response (formatClaude), exit 0.
 */
export function renderClaude(result: TriggerResult, hostEvent?: string): ClaudeAnswer {
  const response = formatClaude(result, hostEvent);
  const byName = new Map(result.hooks.map((r) => [r.name, r]));
  const blocker = result.blocked ? byName.get(result.blocked_by ?? "") : undefined;
  const onlyKeys = (keys: string[]) => Object.keys(response).every((k) => keys.includes(k)) && Object.keys(response.hookSpecificOutput ?? {}).every((k) => keys.includes(k));
  if (
    blocker?.dialect === "claude" &&
    blocker.exit_code === 2 &&
    blocker.reason === (blocker.stderr.trim() || "No stderr output") &&
    onlyKeys(["decision", "reason", "hookSpecificOutput", "hookEventName", "permissionDecision", "permissionDecisionReason"])
  ) {
    return { stdout: "", stderr: blocker.stderr, exitCode: 2 };
  }
  const rules = EVENT_BY_NAME.get(result.event)?.claude;
  const context = result.messages.filter((m) => !m.hide && m.kind === undefined);
  if (
    rules?.stdoutIsContext &&
    context.length > 0 &&
    onlyKeys(["hookSpecificOutput", "hookEventName", "additionalContext"]) &&
    context.every((m) => !m.async && plainOutput(byName.get(m.hook ?? "")))
  ) {
    return { stdout: `${texts(context).join("\n\n")}\n`, stderr: "", exitCode: 0 };
  }
  return { stdout: `${JSON.stringify(response)}\n`, stderr: "", exitCode: 0 };
}

// Where Claude Code hands hookSpecificOutput.additionalContext to the model before it answers:
// there the model learns that the hooks are off, for a user who sees only its answer (`claude -p`).
const NOT_RUN_CONTEXT_EVENTS: ReadonlySet<string> = new Set(["session_start", "user_prompt_submit"]);

/**
 * The answer of a dispatch whose hooks did not run (the config is untrusted or invalid). Claude
 * Code treats `hooks run`'s exit 77 or 78 as a non-blocking error a `claude -p` user never sees,
 * so every guard would be off in silence: instead the dispatch exits 0 with a `systemMessage`
 * (shown to the user) saying the hooks did not run, why and what to do, and on SessionStart and
 * UserPromptSubmit also `additionalContext`, so the model can tell the user. Fail open: the agent
 * goes on without the hooks.
 */
function notRunResponse(event: string, forUser: string, forModel: string): ClaudeHookResponse {
  const out: ClaudeHookResponse = { systemMessage: `hookrun: the project's hooks did not run: ${forUser}` };
  if (NOT_RUN_CONTEXT_EVENTS.has(event)) {
    out.hookSpecificOutput = {
      hookEventName: EVENT_BY_NAME.get(event)?.claude?.name ?? pascalEventName(event),
      additionalContext: `hookrun: the project's hooks are not running in this session: ${forModel}`,
    };
  }
  return out;
}

/** The not-run answer in Claude's contract (HostAdapter.notRun), for Claude Code and the hosts that read its answers. */
export function claudeNotRun(event: string, forUser: string, forModel: string): HostAnswer {
  return { stdout: `${JSON.stringify(notRunResponse(event, forUser, forModel))}\n`, stderr: "", exitCode: 0 };
}

/**
 * Claude Code as a host. Its payload is hookrun's context already (Claude's field and tool names
 * are the canonical ones); the answer is renderClaude's. Other hosts that read
 * `.claude/settings.json` (Copilot CLI, Cursor, VS Code) fire the same entries with their own
 * payloads: `--host claude` yields to a payload that can only be theirs (src/hosts/table.ts).
 */
export const claudeRun: HostRuntime = {
  name: "claude",
  title: "Claude Code",
  events: CLAUDE_EVENTS,
  tools: {},
  timeout: { unit: "s", default: 600 },
  detect: detectClaude,
  read: (payload) => baseRead(claudeRun, payload),
  render: renderClaude,
  notRun: claudeNotRun,
  degrade: {
    ask: "Claude Code's own ask; in `claude -p` it is a denial whose reason reaches the model",
    notice: "`systemMessage`: shown to the user, never the model",
    followup: "Stop's `additionalContext`: the turn goes on with it",
  },
};

export { SKILL_SHELL, CLAUDE_EVENTS };
