import { inProcessFile } from "./inProcessFile.js";
import type { HostAdapter } from "./types.js";
import { piExtensionText } from "./piExtension.js";
import { piRun } from "./piRun.js";

export * from "./piRun.js";

/** pi's whole adapter: its runtime part (piRun.ts) with what `hooks install`, `import` and `doctor` use. */
export const pi: HostAdapter = {
  ...piRun,
  setup: inProcessFile({
    projectFile: ".pi/extensions/hookrun.ts",
    userFile: ".pi/agent/extensions/hookrun.ts",
    folder: ".pi",
    noun: "extension",
    text: piExtensionText(),
    calls: "createInProcessHost",
    probe: (projectDir) => ({
      event: "tool_call",
      payload: { type: "tool_call", sessionId: "hooks-doctor", cwd: projectDir, toolName: "bash", toolCallId: "hooks-doctor-1", input: { command: "true" } },
    }),
  }),
};
