import type { HostEventOutcome } from "./runHostEvent.js";
import type { HostAdapter } from "./types.js";
import { warmRenderer } from "./warm.js";

/**
 * The body `hooks serve` answers a host's event with (`POST /v1/hosts/{host}/{event}`): for a host
 * with http hooks (Claude Code), the JSON its http hook reads (an http hook's answer must be JSON:
 * a block that the command answer gives as exit 2 is its JSON form here); for any other host, or
 * with `?answer=command`, the command answer itself, `{stdout, stderr, exit_code}`, byte for byte
 * what `hooks run --host HOST` prints and exits with.
 */
export function hostHttpBody(host: HostAdapter, outcome: HostEventOutcome, form: "http" | "command"): unknown {
  const render = warmRenderer(host.name);
  if (form === "command" || !render) {
    const a = outcome.kind === "prepared" || outcome.answer === null ? { stdout: "", stderr: "", exitCode: 0 } : outcome.answer;
    return { stdout: a.stdout, stderr: a.stderr, exit_code: a.exitCode };
  }
  if (outcome.kind === "ran" || outcome.kind === "blocked") return render(outcome.result, outcome.hostEvent);
  // The not-run answer of a warm host is its JSON on stdout; nothing said is an empty object.
  const text = outcome.kind === "not-run" ? outcome.answer.stdout.trim() : "";
  return text ? JSON.parse(text) : {};
}
