import { type ClaudeCloneSpec, claudeCloneRun } from "./claudeCloneRun.js";
import { detectQoder, QODER_EVENTS, QODER_TRANSCRIPTS } from "./detect.js";

/**
 * Qoder CLI (`@qoder-ai/qodercli`; docs/hosts/qoder.md): Claude Code's hook contract, read from
 * `.qoder/settings.json` (and `.qoder/settings.local.json`, `~/.qoder/settings.json`), with
 * Claude's payloads and tool names, `QODER_PROJECT_DIR` (and `CLAUDE_PROJECT_DIR`) set to the
 * project root, `if` and `asyncRewake` honoured, no `onFailure`. Its events, read from its bundle
 * (1.1.52), are Claude Code's less UserPromptExpansion, PostToolBatch and PreSkillShellCommand.
 */
export const QODER: ClaudeCloneSpec = {
  name: "qoder",
  title: "Qoder CLI",
  events: QODER_EVENTS,
  timeout: { unit: "s", default: 600 },
  projectFile: ".qoder/settings.json",
  userFile: ".qoder/settings.json",
  projectDirVar: "QODER_PROJECT_DIR",
  transcriptFolder: QODER_TRANSCRIPTS,
  detect: detectQoder,
  onFailure: false,
  asyncRewake: true,
  degrade: { ask: "Claude's `permissionDecision: ask` (Qoder asks the user; in yolo mode it does not)" },
};

export const qoderRun = claudeCloneRun(QODER);
