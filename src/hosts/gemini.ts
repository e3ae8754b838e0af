import { GEMINI_ROOT, geminiEntries, geminiProbe } from "./geminiSetup.js";
import { importGeminiSettings } from "./geminiImport.js";
import { geminiRun } from "./geminiRun.js";
import { jsonFile } from "./setup.js";
import type { HostAdapter } from "./types.js";

export * from "./geminiRun.js";

/** Gemini CLI's whole adapter: its runtime part (geminiRun.ts) with its entries and probe (geminiSetup.ts) and import (geminiImport.ts). */
export const gemini: HostAdapter = {
  ...geminiRun,
  probe: geminiProbe,
  setup: jsonFile({
    projectFile: ".gemini/settings.json",
    userFile: ".gemini/settings.json",
    hooksPath: ["hooks"],
    root: GEMINI_ROOT,
    exec: true,
    // exit 2 or more blocks: the 127 of a missing hookrun would block every call
    blocksOnStartFailure: true,
    entries: geminiEntries,
  }),
  import: importGeminiSettings,
};
