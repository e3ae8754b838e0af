import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { isJsonObject } from "../config/scanJson.js";
import { READ_LIMITS, readBoundedText } from "../fs/readBounded.js";
import { configEvents, DISPATCH_MARGIN_MS, dispatchTimeoutMs, ownsEntry } from "./install.js";
import { parseTomlFile, schemaState } from "./tomlFile.js";

/**
 * What `hooks install agent-code` warns about besides writing the entries (loaded only then: it
 * parses TOML). agent-code merges its three settings layers key by key, but an array replaces the
 * earlier layer's whole (config/mod.rs merge_toml_values), so a `hooks` array in a later layer
 * hides every entry of the earlier ones; it rewrites a file without `schema_version = 2` on load;
 * and it kills every hook at 30 s.
 */

/** The longest a run of hookrun may take under agent-code's 30 s kill (hookrun's own start-up left over). */
export const AGENT_CODE_BUDGET_MS = 28_000;

/** Events of the config agent-code fires (`events`: its table) whose hooks, one run group after another, can outlast AGENT_CODE_BUDGET_MS. */
export function overlongEvents(config: ResolvedConfig, events: Readonly<Record<string, string>>): { event: string; ms: number }[] {
  const fired = new Set(Object.values(events));
  return configEvents(config)
    .filter((e) => fired.has(e))
    .map((event) => ({ event, ms: dispatchTimeoutMs(config, event) - DISPATCH_MARGIN_MS }))
    .filter((x) => x.ms > AGENT_CODE_BUDGET_MS);
}

/** The `[[hooks]]` tables of a TOML file, or null when it is absent or unreadable. */
function hookTables(file: string): unknown[] | null {
  try {
    const doc = parseTomlFile(readBoundedText(file, READ_LIMITS.config, { what: "agent-code settings" }), file);
    return Array.isArray(doc.hooks) ? doc.hooks : null;
  } catch {
    return null;
  }
}

/** agent-code's user settings file: `$XDG_CONFIG_HOME/agent-code/config.toml`, else `~/.config/agent-code/config.toml` (config/mod.rs agent_config_dir). */
export function agentCodeUserFile(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "agent-code", "config.toml");
  if (!env.HOME) return null;
  // dirs::config_dir(): ~/Library/Application Support on macOS, ~/.config on Linux.
  return process.platform === "darwin" ? path.join(env.HOME, "Library", "Application Support", "agent-code", "config.toml") : path.join(env.HOME, ".config", "agent-code", "config.toml");
}

export async function agentCodeWarnings(
  config: ResolvedConfig,
  at: { file: string; text: string | null; user: boolean; env: Readonly<Record<string, string | undefined>> },
  events: Readonly<Record<string, string>>,
): Promise<string[]> {
  const out: string[] = [];
  if (at.text !== null && at.text.trim() !== "") {
    try {
      const doc = parseTomlFile(at.text, at.file);
      if (schemaState(doc) === "migrates")
        out.push(
          `${at.file} has ${doc.schema_version === undefined ? "no schema_version and an api.token" : `schema_version ${String(doc.schema_version)}`}: agent-code migrates it to version 2 and rewrites it on its next load (comments and layout dropped, the old text kept as ${path.basename(at.file)}.bak.1); hookrun still finds its entries afterwards`,
        );
    } catch {
      // a file that is not TOML is refused by the install itself
    }
  }
  const reads = agentCodeUserFile(at.env);
  if (at.user && reads && path.resolve(reads) !== path.resolve(at.file))
    out.push(`agent-code reads its user settings from ${reads} here ($XDG_CONFIG_HOME or the platform's config dir), not ${at.file}: move the [[hooks]] tables there`);
  if (!at.user) {
    const local = path.join(config.projectDir, ".agent", "settings.local.toml");
    if (hookTables(local)?.length)
      out.push(
        `${local} has [[hooks]] of its own: agent-code takes the hooks array of its last layer whole, so it never sees those of .agent/settings.toml, hookrun's included; move them into settings.toml (or hooks.yaml)`,
      );
    const user = reads;
    const mine = user ? hookTables(user)?.filter((t) => !(isJsonObject(t) && ownsEntry(t))) : null;
    if (user && mine?.length)
      out.push(
        `${user} has [[hooks]] of yours: in this project agent-code uses .agent/settings.toml's hooks array instead (a later layer's array replaces it), so they stop running here; add them to hooks.yaml (hooks import agent-code ${user})`,
      );
  }
  for (const { event, ms } of overlongEvents(config, events))
    out.push(
      `${event}: its hooks can run ${Math.ceil(ms / 1000)} s in a row, and agent-code kills a hook at 30 s (${event === "pre_tool_use" ? "the call is then vetoed, " : ""}hookrun's hooks still running are left behind): lower their timeouts so the event's run fits in ${AGENT_CODE_BUDGET_MS / 1000} s`,
    );
  return out;
}
