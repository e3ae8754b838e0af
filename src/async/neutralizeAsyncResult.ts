import type { HookResult } from "../runner/types.js";

/**
 * Async hooks never block, stop or transform (SPEC §5.3): strip those effects from a finished
 * async result, keeping a warning on the result for each one ignored.
 */
export function neutralizeAsyncResult(result: HookResult): HookResult {
  const out: HookResult = { ...result, warnings: [...result.warnings] };
  if (out.decision === "block" || out.status === "blocked") {
    out.warnings.push(`async hooks cannot block: the block decision${out.reason ? ` ("${out.reason}")` : ""} was ignored`);
    out.decision = null;
    if (out.status === "blocked") out.status = "ok";
  }
  if (out.stop_propagation) {
    out.warnings.push("async hooks cannot stop propagation: stop_propagation was ignored");
    delete out.stop_propagation;
  }
  if (out.continue === false) {
    out.warnings.push("async hooks cannot stop the agent: continue=false was ignored");
    delete out.continue;
    delete out.stop_reason;
  }
  if (out.updated_input !== undefined && out.updated_input !== null) {
    out.warnings.push("async hooks cannot transform input: updated_input was ignored");
    delete out.updated_input;
  }
  return out;
}
