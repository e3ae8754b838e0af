/**
 * The pi extension `hooks install pi` writes (`.pi/extensions/hookrun.ts`): the one template, read
 * by the setup (src/hosts/inProcessFile.ts) and by `hooks doctor`. pi loads it with its own
 * TypeScript loader; it imports hookrun from the project's node_modules when the first event comes,
 * and must never throw while pi loads it (a throw there makes `pi -p` exit 1). What it applies is
 * what src/hosts/pi.ts renders. Keep it short: users read it.
 */

/** The first line of the file: how hookrun knows the file is its own. */
export const PI_EXTENSION_MARK = "// hookrun: the pi extension `hooks install pi` writes; `hooks uninstall pi` removes it.";

const TEXT = `${PI_EXTENSION_MARK}
// It hands pi's events to hookrun (the project's node_modules/hookrun) in pi's own process and
// applies what hooks.yaml's hooks answer: a blocked tool call, a rewritten tool input, context
// for the model, a note for you. hooks.yaml decides what runs; edits count at the next event.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const EVENTS = ["session_start", "session_shutdown", "input", "tool_call", "tool_result", "agent_end", "session_before_compact", "session_compact"] as const;
// The fields of pi's events that hookrun reads (docs/hosts/pi.md in hookrun's docs).
const FIELDS = ["toolName", "toolCallId", "input", "content", "isError", "text", "source", "reason", "customInstructions"];
const MISSING =
  "hookrun is not installed in this project (node_modules/hookrun), so its guards cannot run and every tool call is blocked: run \`npm install --save-dev hookrun\`, or \`hooks uninstall pi\` to remove this extension";

type Answer = { block?: string; input?: Record<string, unknown>; context?: string; notify?: string };
type Host = { fire(event: string, payload: object): Promise<{ answer: { stdout: string } | null }>; close(): Promise<void> };

/** hookrun from the project's node_modules, started for this session; null when it cannot be loaded. */
async function start(cwd: string): Promise<Host | null> {
  try {
    const pkg = createRequire(join(cwd, "package.json")).resolve("hookrun/package.json");
    const main = JSON.parse(readFileSync(pkg, "utf8")).main;
    const hookrun = await import(pathToFileURL(join(dirname(pkg), main)).href);
    return hookrun.createInProcessHost({ host: "pi", cwd });
  } catch {
    return null;
  }
}

function say(ctx: ExtensionContext, text: string): void {
  if (ctx.hasUI) ctx.ui.notify(text, "warning");
  else console.error(text);
}

export default function hookrun(pi: ExtensionAPI): void {
  let host: Promise<Host | null> | undefined;
  for (const type of EVENTS)
    pi.on(type, async (event: any, ctx: ExtensionContext) => {
      host ??= start(ctx.cwd);
      const hooks = await host;
      // Without hookrun, guards fail closed: tool calls are blocked with the reason.
      if (!hooks) {
        if (type === "tool_call") return { block: true, reason: MISSING };
        if (type === "session_start") say(ctx, MISSING);
        return;
      }
      const payload: Record<string, unknown> = { type, sessionId: ctx.sessionManager.getSessionId(), cwd: ctx.cwd };
      for (const f of FIELDS) if (event[f] !== undefined) payload[f] = event[f];
      if (type === "agent_end") payload.lastAssistantMessage = lastText(event.messages);
      let a: Answer;
      try {
        const outcome = await hooks.fire(type, payload);
        a = JSON.parse(outcome.answer?.stdout || "{}");
      } catch (error) {
        // hookrun itself failed: a tool call is blocked (a guard that cannot run never opens).
        const why = \`hookrun failed: \${error instanceof Error ? error.message : String(error)}; run \\\`hooks doctor pi\\\`\`;
        if (type === "tool_call") return { block: true, reason: why };
        say(ctx, why);
        return;
      } finally {
        if (type === "session_shutdown") await hooks.close();
      }
      if (a.notify) say(ctx, a.notify);
      if (a.block !== undefined) {
        if (type === "tool_call") return { block: true, reason: a.block };
        if (type === "input") return say(ctx, a.block), { action: "handled" };
        if (type === "session_before_compact") return { cancel: true };
      }
      if (a.input && type === "tool_call") {
        for (const k of Object.keys(event.input)) delete event.input[k];
        Object.assign(event.input, a.input);
      }
      if (a.context) {
        if (type === "tool_result") return { content: [...event.content, { type: "text", text: a.context }] };
        pi.sendMessage({ customType: "hookrun", content: a.context, display: true }, { deliverAs: ctx.isIdle() ? "nextTurn" : "steer" });
      }
    });
}

/** The text of the last assistant message of a run (hooks read it as last_assistant_message). */
function lastText(messages: any[] = []): string {
  const last = [...messages].reverse().find((m) => m.role === "assistant");
  return (last?.content ?? []).filter((c: any) => c.type === "text").map((c: any) => c.text).join("");
}
`;

/** The extension's text (the same for the project and the user's layer: hooks.yaml decides what runs). */
export function piExtensionText(): string {
  return TEXT;
}
