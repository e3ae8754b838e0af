import { Document } from "yaml";
import type { ConfigFileSpec, HookSpec } from "../config/types.js";
import type { ClaudeImport } from "./importClaudeSettings.js";

/** The import as a config object: custom events first, then hooks grouped by event in file order. */
export function claudeImportToSpec(imp: ClaudeImport): ConfigFileSpec {
  const spec: ConfigFileSpec = {};
  if (Object.keys(imp.customEvents).length) spec.events = { ...imp.customEvents };
  const hooks: Record<string, HookSpec[]> = {};
  for (const { event, hook } of imp.hooks) (hooks[event] ??= []).push(hook);
  spec.hooks = hooks;
  return spec;
}

/** A standalone hooks.yaml for the import, with a header saying where it came from. */
export function renderClaudeImport(imp: ClaudeImport, source: string): string {
  const doc = new Document(claudeImportToSpec(imp));
  doc.commentBefore = ` Imported from ${source} by \`hooks import claude\`.\n Review the commands, then \`hooks validate\` and \`hooks trust\`.`;
  return doc.toString({ lineWidth: 0 });
}
