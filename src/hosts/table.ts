import {
  detectClaude,
  detectCline,
  detectCodex,
  detectCopilot,
  detectCrush,
  detectCursor,
  detectDroid,
  detectGemini,
  detectGoose,
  detectGrok,
  detectKimi,
  detectLetta,
  detectOpencode,
  detectQoder,
  detectQwen,
  detectWindsurf,
  undetectable,
} from "./detect.js";
import type { HostAdapter, HostRuntime, Payload } from "./types.js";

/**
 * One host of the table: its name, its runtime part (what `hooks run --host NAME` needs: read a
 * payload, render an answer) and its whole adapter (with what `hooks install`, `import` and
 * `doctor` use), each module loaded only when asked for.
 */
export interface HostRow {
  readonly name: string;
  /**
   * Where the host's project setup lives (its setup's `folder`, which test/hosts.table.test.ts holds
   * equal): without it in a project, no entries of hookrun's can be there, and `hooks validate`
   * skips loading every adapter to look for them.
   */
  readonly folder: string;
  /** Whether a payload can only have come from this host (src/hosts/detect.ts; the runtime part's `detect` is the same function). */
  readonly detect: (payload: Payload) => boolean;
  runtime(): Promise<HostRuntime>;
  adapter(): Promise<HostAdapter>;
}

/**
 * The one table of hosts (docs/hosts.md): every agent hookrun reads events from and answers, in
 * the order the CLI, the docs' tables and the tests walk them. Add a host: its runtime module
 * (src/hosts/<host>Run.ts), its adapter module (src/hosts/<host>.ts), its detect in
 * src/hosts/detect.ts, one line here and one in src/hosts/adapters.ts. A cold `hooks run --host NAME` loads that host's runtime module alone
 * (docs/architecture.md); src/hosts/adapters.ts loads every whole adapter, for the commands that
 * walk them all.
 */
export const HOST_TABLE: readonly HostRow[] = Object.freeze([
  { name: "claude", folder: ".claude", detect: detectClaude, runtime: async () => (await import("./claudeRun.js")).claudeRun, adapter: async () => (await import("./claude.js")).claudeHost },
  { name: "codex", folder: ".codex", detect: detectCodex, runtime: async () => (await import("./codexRun.js")).codexRun, adapter: async () => (await import("./codex.js")).codex },
  { name: "gemini", folder: ".gemini", detect: detectGemini, runtime: async () => (await import("./geminiRun.js")).geminiRun, adapter: async () => (await import("./gemini.js")).gemini },
  { name: "copilot", folder: ".github/hooks", detect: detectCopilot, runtime: async () => (await import("./copilotRun.js")).copilotRun, adapter: async () => (await import("./copilot.js")).copilot },
  { name: "qwen", folder: ".qwen", detect: detectQwen, runtime: async () => (await import("./qwenRun.js")).qwenRun, adapter: async () => (await import("./qwen.js")).qwenHost },
  { name: "cursor", folder: ".cursor", detect: detectCursor, runtime: async () => (await import("./cursorRun.js")).cursorRun, adapter: async () => (await import("./cursor.js")).cursor },
  { name: "droid", folder: ".factory", detect: detectDroid, runtime: async () => (await import("./droidRun.js")).droidRun, adapter: async () => (await import("./droid.js")).droid },
  { name: "windsurf", folder: ".windsurf", detect: detectWindsurf, runtime: async () => (await import("./windsurfRun.js")).windsurfRun, adapter: async () => (await import("./windsurf.js")).windsurf },
  { name: "cline", folder: ".clinerules", detect: detectCline, runtime: async () => (await import("./clineRun.js")).clineRun, adapter: async () => (await import("./cline.js")).cline },
  {
    name: "agent-code",
    folder: ".agent",
    detect: undetectable,
    runtime: async () => (await import("./agentCodeRun.js")).agentCodeRun,
    adapter: async () => (await import("./agentCode.js")).agentCode,
  },
  { name: "qoder", folder: ".qoder", detect: detectQoder, runtime: async () => (await import("./qoderRun.js")).qoderRun, adapter: async () => (await import("./qoder.js")).qoder },
  { name: "crush", folder: "crush.json", detect: detectCrush, runtime: async () => (await import("./crushRun.js")).crushRun, adapter: async () => (await import("./crush.js")).crush },
  { name: "letta", folder: ".letta", detect: detectLetta, runtime: async () => (await import("./lettaRun.js")).lettaRun, adapter: async () => (await import("./letta.js")).letta },
  {
    name: "goose",
    folder: ".agents/plugins/hookrun/hooks",
    detect: detectGoose,
    runtime: async () => (await import("./gooseRun.js")).gooseRun,
    adapter: async () => (await import("./goose.js")).goose,
  },
  { name: "grok", folder: ".grok/hooks", detect: detectGrok, runtime: async () => (await import("./grokRun.js")).grokRun, adapter: async () => (await import("./grok.js")).grok },
  { name: "kimi", folder: ".kimi-code/config.toml", detect: detectKimi, runtime: async () => (await import("./kimiRun.js")).kimiRun, adapter: async () => (await import("./kimi.js")).kimi },
  { name: "pi", folder: ".pi", detect: undetectable, runtime: async () => (await import("./piRun.js")).piRun, adapter: async () => (await import("./pi.js")).pi },
  { name: "opencode", folder: ".opencode", detect: detectOpencode, runtime: async () => (await import("./opencodeRun.js")).opencodeRun, adapter: async () => (await import("./opencode.js")).opencode },
]);

/** The hosts' names, in the table's order. */
export const HOST_NAMES: readonly string[] = Object.freeze(HOST_TABLE.map((row) => row.name));

/** The table's row of the host named `name` on the command line, or undefined. */
export function hostRow(name: string): HostRow | undefined {
  return HOST_TABLE.find((row) => row.name === name);
}

/**
 * The host a payload can only have come from (`--host auto`), by name, or null. Claude-shaped
 * hosts (Qwen Code, Factory Droid, Copilot's PascalCase entries) are told apart by their own
 * fields first; Claude Code, whose shape they share, is tried last. No host's module is loaded.
 */
export function detectHostName(payload: Payload): string | null {
  const claude = HOST_TABLE.find((row) => row.name === "claude");
  return (HOST_TABLE.find((row) => row !== claude && row.detect(payload)) ?? (claude?.detect(payload) ? claude : null))?.name ?? null;
}

/**
 * The host to answer, by name: `--host auto` (or no flag) is whatever the payload shows, else none
 * (hookrun's own output); `--host NAME` is NAME (null: no such host). Only `--host claude` gives
 * way to a payload that can only have come from another host: a dispatch entry in
 * `.claude/settings.json` fired by Copilot CLI or Cursor answers in their contract. No other name
 * does: under agent-code the payload is the model's own tool input, and keys it writes that look
 * like another host's must never switch the answer to a contract in which agent-code reads a block
 * as "go on".
 */
export function resolveHostName(flag: string | undefined, payload: Payload): string | null {
  if (flag === undefined || flag === "auto") return detectHostName(payload);
  if (!hostRow(flag)) return null;
  return flag === "claude" ? (detectHostName(payload) ?? flag) : flag;
}

/** resolveHostName's host, its runtime part loaded (that host's module alone). */
export async function resolveHostRuntime(flag: string | undefined, payload: Payload): Promise<HostRuntime | null> {
  const name = resolveHostName(flag, payload);
  return name === null ? null : ((await hostRow(name)?.runtime()) ?? null);
}
