import { claudeClone } from "./claudeClone.js";
import { QODER, qoderRun } from "./qoderRun.js";

export * from "./qoderRun.js";

/** Qoder CLI's whole adapter: its runtime part (qoderRun.ts) with Claude Code's entries, probe and import narrowed to it. */
export const qoder = claudeClone(QODER, qoderRun);
