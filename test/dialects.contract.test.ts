import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENTS } from "../src/events/catalog.js";
import { createRunner } from "../src/runner/createRunner.js";
import type { TriggerResult } from "../src/runner/types.js";
import { ROOT } from "./helpers/cli.js";
import { useSandbox } from "./helpers/sandbox.js";

// docs/dialects.md's table of Claude Code's hook contract is generated here from what the runner
// really does with each case in each dialect: the doc cannot drift from the code. The "Claude
// Code" column is what Claude Code 2.1.332 does (read from 2.1.330; test/claude.e2e.test.ts checks the claude
// column's cases against the real CLI). Rewrite the table: HOOKS_UPDATE_DOCS=1 npx vitest run test/dialects.contract.test.ts
const sb = useSandbox();

interface Case {
  what: string;
  event: string;
  /** The hook's shell command. */
  command: string;
  claude: string;
  context?: Record<string, unknown>;
}

const json = (value: unknown) => `printf '%s' '${JSON.stringify(value)}'`;

const CASES: Case[] = [
  { what: "exit 0, no output", event: "pre_tool_use", command: "true", claude: "nothing; the tool runs" },
  { what: "exit 2, stderr `X`", event: "pre_tool_use", command: "echo X >&2; exit 2", claude: "the tool is blocked; the model gets `[command]: X` as the tool error" },
  { what: "exit 2, stderr `X`", event: "post_tool_use", command: "echo X >&2; exit 2", claude: "the model gets X after the tool result (hook blocking error)" },
  { what: "exit 2, stderr `X`", event: "stop", command: "echo X >&2; exit 2", claude: "the turn goes on: `Stop hook feedback: [command]: X`" },
  { what: "exit 2, stderr `X`", event: "session_start", command: "echo X >&2; exit 2", claude: "X is shown to the user; nothing is blocked" },
  { what: "exit 1, stderr `X`", event: "pre_tool_use", command: "echo X >&2; exit 1", claude: "non-blocking error shown to the user; the tool runs" },
  { what: "plain stdout `X`", event: "session_start", command: "echo X", claude: "model context (`SessionStart:startup hook success: X`)" },
  { what: "plain stdout `X`", event: "user_prompt_submit", command: "echo X", claude: "model context" },
  { what: "plain stdout `X`", event: "post_tool_use", command: "echo X", claude: "transcript only: neither the model nor, in `-p`, the user" },
  { what: "plain stdout `X`", event: "stop", command: "echo X", claude: "transcript only" },
  { what: "`systemMessage: X`", event: "post_tool_use", command: json({ systemMessage: "X" }), claude: "shown to the user, never to the model" },
  { what: '`decision: "block"`, `reason: X`', event: "pre_tool_use", command: json({ decision: "block", reason: "X" }), claude: "the tool is blocked with X" },
  { what: '`decision: "block"`, `reason: X`', event: "post_tool_use", command: json({ decision: "block", reason: "X" }), claude: "the model gets X after the tool result" },
  { what: '`decision: "block"`, `reason: X`', event: "stop", command: json({ decision: "block", reason: "X" }), claude: "the turn goes on: `Stop hook feedback: X`" },
  { what: '`decision: "deny"` (not in Claude\'s schema)', event: "pre_tool_use", command: json({ decision: "deny", reason: "X" }), claude: "non-blocking error (schema); the tool runs" },
  { what: '`decision: "approve"`', event: "pre_tool_use", command: json({ decision: "approve" }), claude: "allowed (legacy)" },
  {
    what: "`permissionDecision: deny`, reason X",
    event: "pre_tool_use",
    command: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "X" } }),
    claude: "the tool is blocked; the model gets X",
  },
  {
    what: "`permissionDecision: ask`",
    event: "pre_tool_use",
    command: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } }),
    claude: "asks the user (denied in `-p`)",
  },
  {
    what: "`permissionDecision: allow` + `updatedInput`",
    event: "pre_tool_use",
    command: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls" } } }),
    claude: "the tool runs with the new input",
  },
  { what: "`additionalContext: X`", event: "pre_tool_use", command: json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "X" } }), claude: "model context" },
  {
    what: "`additionalContext: X`",
    event: "stop",
    command: json({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "X" } }),
    claude: "the turn goes on with X (`Stop hook additional context: X`)",
  },
  { what: "`hookEventName` of another event", event: "pre_tool_use", command: json({ hookSpecificOutput: { hookEventName: "Stop", additionalContext: "X" } }), claude: "non-blocking error; ignored" },
  { what: "`continue: false`, `stopReason: X`", event: "post_tool_use", command: json({ continue: false, stopReason: "X" }), claude: "the agent stops; X shown to the user" },
  { what: "`suppressOutput: true`", event: "post_tool_use", command: json({ suppressOutput: true }), claude: "hides the hook's stdout from the transcript" },
  {
    what: "`permissionDecision: defer`",
    event: "pre_tool_use",
    command: json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "defer" } }),
    claude: "defers the call to Claude's own permission check",
  },
  {
    what: "`updatedToolOutput`",
    event: "post_tool_use",
    command: json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "Y" } }),
    claude: "the model gets Y as the tool's output",
  },
  {
    what: "`decision: {behavior: deny, message: X}`",
    event: "permission_request",
    command: json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "X" } } }),
    claude: "permission denied with X",
  },
  {
    what: "`decision: {behavior: allow}`",
    event: "permission_request",
    command: json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } }),
    claude: "permission granted",
  },
  {
    what: "JSON deny, then exit 1",
    event: "pre_tool_use",
    command: `${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "X" } })}; exit 1`,
    claude: "the tool is blocked with X (JSON is read on every exit code)",
  },
  {
    what: "JSON allow, then exit 2 with stderr `X`",
    event: "pre_tool_use",
    command: `${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })}; echo X >&2; exit 2`,
    claude: "the tool is blocked: exit 2 counts as deny, stderr is the reason",
  },
  { what: "`{` … `}` that is not JSON", event: "session_start", command: "printf '{oops}'", claude: "non-blocking error; ignored" },
  { what: "JSON, then a log line", event: "session_start", command: `printf '{"a":1}\\nlog'`, claude: "plain text (model context here)" },
];

/** What a result says, in a few words, for one cell of the table. */
function describe_(r: TriggerResult): string {
  const parts: string[] = [];
  const h = r.hooks[0];
  if (r.blocked) parts.push(r.event === "stop" ? `the turn goes on: blocked with \`${r.reason}\`` : `blocked: \`${r.reason}\``);
  else if (h.decision === "allow" || h.decision === "ask" || h.decision === "defer") parts.push(h.decision === "allow" ? "allowed" : h.decision);
  if (r.updated_input !== null) parts.push(`input becomes \`${JSON.stringify(r.updated_input)}\``);
  for (const m of r.messages) {
    const words = m.kind === "notice" ? "for the user" : m.kind === "feedback" ? "feedback to the model" : m.kind === "followup" ? "the turn goes on with" : "model context";
    parts.push(`${words}: \`${m.content.replace(/\n/g, "⏎")}\``);
  }
  if (!r.continue) parts.push(`the agent stops: \`${r.stop_reason}\``);
  if (h.status === "failed" || h.status === "invalid_output") parts.push(`${h.status === "failed" ? "failure" : "invalid output"} (fails open, shown to the user)`);
  for (const w of h.warnings) parts.push(`warning: ${w.replace(/`/g, "")}`);
  return parts.join("; ") || "nothing";
}

async function outcome(c: Case, dialect: "claude" | "native"): Promise<string> {
  sb.current.write("hooks.yaml", `hooks:\n  ${c.event}:\n    - name: h\n      dialect: ${dialect}\n      command: ${JSON.stringify(c.command)}\n`);
  const runner = createRunner(await sb.current.load(), { trust: "all", runLog: false, cwd: sb.current.dir, env: sb.current.processEnv });
  try {
    return describe_(await runner.trigger(c.event, { session_id: "s", tool_name: "Bash", ...c.context }));
  } finally {
    await runner.close();
  }
}

const DOC = path.join(ROOT, "docs/dialects.md");
const BEGIN = "<!-- contract table: generated by test/dialects.contract.test.ts -->";
const END = "<!-- end of contract table -->";

const EVENTS_BEGIN = "<!-- claude events: generated by test/dialects.contract.test.ts -->";
const EVENTS_END = "<!-- end of claude events -->";

/** Replace the text between two markers; the markers must be there. */
function withBlock(text: string, begin: string, end: string, body: string): string {
  const [before, rest] = text.split(begin);
  const after = rest?.split(end)[1];
  expect(after, `docs/dialects.md lacks the ${begin} … ${end} markers`).toBeDefined();
  return `${before}${begin}\n${body}\n${end}${after}`;
}

function checkDoc(update: (text: string) => string): void {
  const text = readFileSync(DOC, "utf8");
  const updated = update(text);
  if (process.env.HOOKS_UPDATE_DOCS === "1") writeFileSync(DOC, updated);
  expect(text, "docs/dialects.md is stale: HOOKS_UPDATE_DOCS=1 npx vitest run test/dialects.contract.test.ts").toBe(updated);
}

describe("docs/dialects.md: Claude Code's hook contract, and what each dialect does with it", () => {
  it("the table of Claude's events is the event catalog's claude column", () => {
    const block = { deny: "blocks the action", feedback: "feedback to the model after the tool result", continue: "the turn goes on", user: "shown to the user; nothing blocked" };
    const rows = ["| Claude Code event | hookrun event | matcher tests | plain stdout on exit 0 | `additionalContext` | exit 2 / `decision: block` |", "|---|---|---|---|---|---|"];
    for (const e of EVENTS) {
      if (!e.claude) continue;
      const match = e.matchField ? `\`${e.matchField}\`${e.matchBaseName ? " (base name)" : ""}` : "– (matcher ignored)";
      rows.push(
        `| ${e.claude.name} | ${e.name} | ${match} | ${e.claude.stdoutIsContext ? "model context" : "transcript only"} | ${e.claude.additionalContext ? "model context" : "ignored"} | ${block[e.claude.block]} |`,
      );
    }
    checkDoc((text) => withBlock(text, EVENTS_BEGIN, EVENTS_END, rows.join("\n")));
  });

  it("the table is what the runner does with each case", async () => {
    const rows = ["| a hook on … | that … | Claude Code 2.1.332 | hookrun, `dialect: claude` | hookrun, `dialect: native` |", "|---|---|---|---|---|"];
    for (const c of CASES) rows.push(`| ${c.event} | ${c.what} | ${c.claude} | ${await outcome(c, "claude")} | ${await outcome(c, "native")} |`);
    checkDoc((text) => withBlock(text, BEGIN, END, rows.join("\n")));
  }, 60_000);
});
