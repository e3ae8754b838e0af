import { claudeHost } from "./claude.js";
import { codex } from "./codex.js";
import { gemini } from "./gemini.js";
import { copilot } from "./copilot.js";
import { qwenHost } from "./qwen.js";
import { cursor } from "./cursor.js";
import { droid } from "./droid.js";
import { windsurf } from "./windsurf.js";
import { cline } from "./cline.js";
import { agentCode } from "./agentCode.js";
import { qoder } from "./qoder.js";
import { crush } from "./crush.js";
import { letta } from "./letta.js";
import { goose } from "./goose.js";
import { grok } from "./grok.js";
import { kimi } from "./kimi.js";
import { pi } from "./pi.js";
import { opencode } from "./opencode.js";
import { EVENT_BY_NAME } from "../events/catalog.js";
import { detectHostName, HOST_TABLE, resolveHostName } from "./table.js";
import type { HostAdapter, Payload } from "./types.js";

/**
 * Every host's whole adapter, in the host table's order (src/hosts/table.ts): for the commands
 * that walk them all or need a host's setup, import or probe (`hooks install`, `import`, `doctor`,
 * `validate`, `hooks serve`), the library, the docs' tables and the tests. `hooks run` does not
 * load this module: it loads the one host it answers (src/hosts/table.ts).
 */
const LOADED: readonly HostAdapter[] = [claudeHost, codex, gemini, copilot, qwenHost, cursor, droid, windsurf, cline, agentCode, qoder, crush, letta, goose, grok, kimi, pi, opencode];

export const HOSTS: readonly HostAdapter[] = Object.freeze(
  HOST_TABLE.map((row) => {
    const adapter = LOADED.find((h) => h.name === row.name);
    if (!adapter) throw new Error(`src/hosts/adapters.ts: no adapter for the host table's ${row.name}`);
    return adapter;
  }),
);
if (LOADED.length !== HOSTS.length) throw new Error("src/hosts/adapters.ts: an adapter that is not in the host table (src/hosts/table.ts)");

/** The host named `name` on the command line, or undefined. */
export function hostByName(name: string): HostAdapter | undefined {
  return HOSTS.find((h) => h.name === name);
}

/** The host a payload can only have come from (`--host auto`), or null (src/hosts/table.ts detectHostName). */
export function detectHost(payload: Payload): HostAdapter | null {
  const name = detectHostName(payload);
  return name === null ? null : (hostByName(name) ?? null);
}

/** The host to answer for `--host FLAG` and a payload (src/hosts/table.ts resolveHostName). */
export function resolveHost(flag: string | undefined, payload: Payload): HostAdapter | null {
  const name = resolveHostName(flag, payload);
  return name === null ? null : (hostByName(name) ?? null);
}

/**
 * What a host's adapter (or an integration) was checked against, for the README's last column:
 * - `real`: the published CLI, pinned in package.json's devDependencies, or, with `installedBy`,
 *   installed at that version by that script (test/hosts.contract.test.ts checks the version
 *   either way), run offline by the e2e tests named;
 * - `docs`: the agent's documented payloads and answers (`source` names where);
 * - `source`: the agent's source, read at `source`;
 * - `stand-in`: a stand-in of the agent's API built from its source;
 * `why` says why the real agent was not run here.
 */
export type Checked =
  | { readonly real: string; readonly version: string; readonly e2e: readonly string[]; readonly note?: string; readonly installedBy?: string }
  | { readonly docs: string; readonly why: string }
  | { readonly source: string; readonly why: string }
  | { readonly standIn: string; readonly why: string };

/** One line per host (by `name`) and per integration (by title): add a host, add its line. */
export const CHECKED: Readonly<Record<string, Checked>> = {
  claude: {
    real: "@anthropic-ai/claude-code",
    version: "2.1.332",
    e2e: ["test/claude.e2e.test.ts", "test/claude.warm.e2e.test.ts", "test/claude.skillShell.e2e.test.ts", "test/claude.background.e2e.test.ts"],
  },
  codex: { real: "@openai/codex", version: "0.171.0", e2e: ["test/codex.e2e.test.ts", "test/dialects.e2e.codex.test.ts"] },
  gemini: { real: "@google/gemini-cli", version: "0.61.0", e2e: ["test/gemini.e2e.test.ts"] },
  copilot: { real: "@github/copilot", version: "1.0.102", e2e: ["test/copilot.e2e.test.ts"], note: "both dialects" },
  qwen: { real: "@qwen-code/qwen-code", version: "0.24.4", e2e: ["test/qwen.e2e.test.ts"] },
  cursor: { docs: "cursor.com/docs/agent/hooks", why: "the app is not on npm" },
  droid: { docs: "docs.factory.ai hooks reference, with Claude Code's answers", why: "its npm package is not installed here" },
  windsurf: { docs: "docs.windsurf.com Cascade hooks", why: "an IDE" },
  cline: { docs: "docs.cline.bot hook reference", why: "an editor extension" },
  "agent-code": { source: "avala-ai/agent-code c25b885f, 0.30.0", why: "not on npm" },
  qoder: { real: "@qoder-ai/qodercli", version: "1.1.52", e2e: ["test/qoder.e2e.test.ts"], note: "ACP mode with its scripted model responses" },
  crush: { source: "charmbracelet/crush 37f36e93 (internal/hooks, internal/config)", why: "its npm package downloads its binary at install" },
  letta: { source: "letta-ai/letta-code 1f4d3e3e (0.30.29, src/hooks/)", why: "its npm package 0.32.18 does not install: it pins a sharp-electron version missing from the registry" },
  goose: { source: "block/goose 0825b570 (crates/goose/src/hooks/mod.rs, crates/goose/src/plugins/discovery.rs)", why: "a binary from GitHub releases, not on npm" },
  grok: { source: "xai-org/grok-build 19d42e35", why: "not on npm" },
  kimi: { real: "@moonshot-ai/kimi-code", version: "2.1.0", e2e: ["test/kimi.e2e.test.ts"], note: "Node 22", installedBy: ".ci/run" },
  pi: { real: "@mariozechner/pi-coding-agent", version: "0.73.1", e2e: ["test/pi.e2e.test.ts"], note: "an extension calling the library in process" },
  opencode: { real: "opencode-ai", version: "1.18.33", e2e: ["test/opencode.e2e.test.ts"], note: "a plugin calling the library in process" },
  gptme: { standIn: "gptme d27f98d3", why: "a Python agent, not run here" },
};

/** The README's words for what a host was checked against. */
export function checkedText(c: Checked): string {
  if ("real" in c) {
    const notes = [c.note, c.installedBy && `installed by \`${c.installedBy}\``].filter(Boolean);
    return `real CLI ${c.version}${notes.length ? ` (${notes.join(", ")})` : ""}, e2e: ${c.e2e.map((f) => `\`${f}\``).join(", ")}`;
  }
  if ("docs" in c) return `documented payloads: ${c.docs}; the real agent not run (${c.why})`;
  if ("source" in c) return `its source: ${c.source}; the real agent not run (${c.why})`;
  return `a stand-in of its hook API from its source (${c.standIn}); the real agent not run (${c.why})`;
}

function checkedOf(key: string): string {
  const c = CHECKED[key];
  if (!c) throw new Error(`src/hosts/table.ts: CHECKED has no line for ${key}`);
  return checkedText(c);
}

/**
 * Agents hookrun serves through an integration of its own rather than a host adapter: the
 * README's host table lists them after the adapters. `events` is checked against the plugin's
 * source by test/hosts.contract.test.ts.
 */
export const INTEGRATIONS: readonly { name: string; title: string; setup: string; events: number; unit: string }[] = [
  { name: "gptme", title: "gptme", setup: "the plugin in `integrations/gptme`: one line in `gptme.toml`", events: 13, unit: "seconds" },
];

/** The README's host table (generated: scripts/update-readme-events.mjs; test/readme.test.ts and test/hosts.contract.test.ts check it). */
export function hostTableMarkdown(): string {
  const rows = HOSTS.map((h) => {
    const events = [...new Set(Object.values(h.events))].filter((e) => EVENT_BY_NAME.has(e)).length;
    const install = h.setup ? `\`hooks install ${h.name}\` → ${h.setup.summary}` : "–";
    const unit = h.timeout.unit === "ms" ? "milliseconds" : "seconds";
    return `| ${h.title} | ${install} | ${events} | ${h.import ? `\`hooks import ${h.name}\`` : "–"} | ${unit} | ${checkedOf(h.name)} |`;
  });
  for (const i of INTEGRATIONS) rows.push(`| ${i.title} | ${i.setup} | ${i.events} | – | ${i.unit} | ${checkedOf(i.name)} |`);
  return ["| agent | dispatch entries | events read | import | host timeouts in | checked against |", "|---|---|---|---|---|---|", ...rows].join("\n");
}
