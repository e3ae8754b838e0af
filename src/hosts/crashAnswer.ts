import { FAIL_CLOSED_FLAG, isGateEvent } from "./failClosed.js";
import { failedAnswer } from "./runHostEvent.js";
import { hostByName } from "./adapters.js";
import type { HostAnswer } from "./types.js";

/**
 * What a fail-closed dispatch (`hooks run EVENT --host HOST --fail-closed`, the entry `hooks
 * install` writes for an event with an `on_failure: block` hook) answers when hookrun itself fails
 * before or around the one path to the answer: an uncaught exception (a deleted working
 * directory, a bug), an error the CLI would print and exit 1 or 64 on. An agent reads those exits
 * as "go on" (Codex, Gemini CLI, Qwen Code), so the block is rendered in the host's own contract
 * instead (docs/fail-closed.md). Null: not such a dispatch (no `--fail-closed`, no known `--host`,
 * not a gate event), and the error takes its usual course.
 *
 * Loaded only when something failed: it reads argv, not the parsed command, because the failure
 * may come before (or from) the parsing.
 */
export function crashAnswer(argv: readonly string[], error: unknown): HostAnswer | null {
  if (!argv.includes(FAIL_CLOSED_FLAG)) return null;
  const run = argv.indexOf("run");
  const eventArg = run >= 0 ? argv[run + 1] : undefined;
  const host = hostByName(optionValue(argv, "--host") ?? "");
  if (!host || !eventArg) return null;
  const event = Object.hasOwn(host.events, eventArg) ? host.events[eventArg] : eventArg;
  if (!isGateEvent(event, null)) return null;
  return failedAnswer(host, event, error);
}

/** The value of `--name VALUE` or `--name=VALUE` in argv. */
function optionValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}
