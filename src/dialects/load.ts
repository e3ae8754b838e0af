/**
 * The code of each dialect of the dialect table (src/events/dialects.ts), loaded on first use so a
 * run pays only for the dialects its hooks are written in. hookrun's own is always loaded.
 */
import type { DialectName } from "../events/dialects.js";
import { native } from "./native.js";
import type { DialectCode } from "./types.js";

export type { DialectCode } from "./types.js";

const LOADERS: Readonly<Record<DialectName, () => Promise<DialectCode>>> = {
  native: async () => native,
  claude: () => import("./claude.js").then((m) => m.claude),
  codex: () => import("./codex.js").then((m) => m.codex),
  droid: () => import("./droid.js").then((m) => m.droid),
  "agent-code": () => import("./agentCode.js").then((m) => m.agentCode),
  cursor: () => import("./cursor.js").then((m) => m.cursor),
  windsurf: () => import("./windsurf.js").then((m) => m.windsurf),
  cline: () => import("./cline.js").then((m) => m.cline),
  gemini: () => import("./gemini.js").then((m) => m.gemini),
  qwen: () => import("./qwen.js").then((m) => m.qwen),
  copilot: () => import("./copilot.js").then((m) => m.copilot),
  "copilot-pascal": () => import("./copilot.js").then((m) => m.copilotPascal),
};

/** The code of dialect `name` (a name of the table). */
export function loadDialect(name: DialectName): Promise<DialectCode> {
  return LOADERS[name]();
}
