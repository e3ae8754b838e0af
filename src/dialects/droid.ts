/**
 * The droid dialect: hooks written for Factory Droid (`dialect: droid`, what `hooks import droid`
 * writes). Droid follows Claude Code's hook contract (docs/hosts/droid.md), so a droid hook's
 * answer is read by Claude's rules (src/dialects/claude.ts); what differs is what it receives:
 * Droid's tool names (`Execute` for the shell, `Create` for a new file, `FetchUrl`) and
 * `$FACTORY_PROJECT_DIR`. docs/dialects.md#droid-hooks-written-for-factory-droid.
 */
import { isJsonObject } from "../config/scanJson.js";
import type { HookResult } from "../runner/types.js";
import { claudeInput, readClaude } from "./claude.js";
import type { DialectCode } from "./types.js";

/** Canonical tool names Droid spells otherwise (Edit, Read, Glob, … are spelled alike). */
const DROID_TOOL: Readonly<Record<string, string>> = Object.freeze({ Bash: "Execute", Write: "Create", WebFetch: "FetchUrl" });

/**
 * Claude's field set (with its defaults) and Droid's tool name: Droid's own when Droid fired the
 * event, else the canonical name in Droid's spelling; the tool input is Claude's shape, as Droid's.
 */
export function droidInput(base: Record<string, unknown>, event: string): Record<string, unknown> {
  const out = { ...claudeInput(base, event) };
  const host = isJsonObject(base.host) ? base.host : null;
  if (host?.name === "droid" && typeof host.tool_name === "string") out.tool_name = host.tool_name;
  else if (typeof base.tool_name === "string" && Object.hasOwn(DROID_TOOL, base.tool_name)) out.tool_name = DROID_TOOL[base.tool_name];
  return out;
}

/** A result's words about Claude Code, said of Droid (whose rules they are here). */
function asDroid(r: HookResult): HookResult {
  const say = (t: string): string => t.replace(/Claude Code/g, "Droid");
  return { ...r, ...(r.error ? { error: say(r.error) } : {}), warnings: r.warnings.map(say) };
}

export const droid: DialectCode = {
  stdin: droidInput,
  readExit: (r, hook, code, gate) => asDroid(readClaude(r, hook, code, gate)),
  env: (_input, _event, projectDir) => ({ FACTORY_PROJECT_DIR: projectDir }),
};
