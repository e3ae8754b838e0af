import { agentCode } from "./agentCode.js";
import { claudeHost } from "./claude.js";
import { cline } from "./cline.js";
import { codex } from "./codex.js";
import { cursor } from "./cursor.js";
import { droid } from "./droid.js";
import { gemini } from "./gemini.js";
import { copilot } from "./copilot.js";
import { opencode } from "./opencode.js";
import { qwenHost } from "./qwen.js";
import { windsurf } from "./windsurf.js";
import { pi } from "./pi.js";
import type { HostAdapter, Payload } from "./types.js";
import { EVENT_BY_NAME } from "../events/catalog.js";

/**
 * The one table of hosts (docs/hosts.md): every agent hookrun reads events from and answers. The CLI
 * (`--host`, `hooks install`, `hooks import`), `hooks validate`'s staleness check, the docs'
 * tables and the tests walk this list. Add a host: one module in src/hosts/, one line here.
 */
export const HOSTS: readonly HostAdapter[] = Object.freeze([claudeHost, codex, gemini, copilot, qwenHost, cursor, droid, windsurf, cline, agentCode, pi, opencode]);

/** The host named `name` on the command line, or undefined. */
export function hostByName(name: string): HostAdapter | undefined {
  return HOSTS.find((h) => h.name === name);
}

/**
 * The host a payload can only have come from (`--host auto`), or null. Claude-shaped hosts (Qwen
 * Code, Factory Droid, Copilot's PascalCase entries) are told apart by their own fields first;
 * Claude Code, whose shape they share, is tried last.
 */
export function detectHost(payload: Payload): HostAdapter | null {
  return HOSTS.find((h) => h !== claudeHost && h.detect(payload)) ?? (claudeHost.detect(payload) ? claudeHost : null);
}

/**
 * The host to answer: `--host auto` (or no flag) is whatever the payload shows, else none (hookrun's
 * own output); `--host NAME` is NAME. Only `--host claude` gives way to a payload that can only
 * have come from another host: a dispatch entry in `.claude/settings.json` fired by Copilot CLI or
 * Cursor answers in their contract. No other name does: under agent-code the payload is the
 * model's own tool input, and keys it writes that look like another host's must never switch
 * the answer to a contract in which agent-code reads a block as "go on".
 */
export function resolveHost(flag: string | undefined, payload: Payload): HostAdapter | null {
  const detected = detectHost(payload);
  if (flag === undefined || flag === "auto") return detected;
  const named = hostByName(flag);
  if (!named) return null;
  return named === claudeHost && detected && detected !== claudeHost ? detected : named;
}

/** The README's host table (generated: scripts/update-readme-events.mjs; test/hosts.contract.test.ts checks it). */
/**
 * Agents hookrun serves through an integration of its own rather than a host adapter: the
 * README's host table lists them after the adapters. `events` is checked against the plugin's
 * source by test/hosts.contract.test.ts.
 */
export const INTEGRATIONS: readonly { title: string; setup: string; events: number; unit: string; verified: string }[] = [
  {
    title: "gptme",
    setup: "the plugin in `integrations/gptme`: one line in `gptme.toml`",
    events: 13,
    unit: "seconds",
    verified: "a stand-in of its hook API from its source (gptme d27f98d3), not the real gptme",
  },
];

export function hostTableMarkdown(): string {
  const rows = HOSTS.map((h) => {
    const events = [...new Set(Object.values(h.events))].filter((e) => EVENT_BY_NAME.has(e)).length;
    const install = h.setup ? `\`hooks install ${h.name}\` → ${h.setup.summary}` : "–";
    const unit = h.timeout.unit === "ms" ? "milliseconds" : "seconds";
    return `| ${h.title} | ${install} | ${events} | ${h.import ? `\`hooks import ${h.name}\`` : "–"} | ${unit} | ${h.verified} |`;
  });
  for (const i of INTEGRATIONS) rows.push(`| ${i.title} | ${i.setup} | ${i.events} | – | ${i.unit} | ${i.verified} |`);
  return ["| agent | dispatch entries | events read | import | host timeouts in | checked against |", "|---|---|---|---|---|---|", ...rows].join("\n");
}
