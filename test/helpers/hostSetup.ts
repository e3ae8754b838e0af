import type { ResolvedConfig } from "../../src/config/types.js";
import { jsonEditor } from "../../src/hosts/hostFile.js";
import { type EntryEditor, type EntryFileSetup, type EntryFileSpec, staleNames } from "../../src/hosts/setup.js";
import { tomlEditor } from "../../src/hosts/tomlFile.js";
import type { HostAdapter, HostEntry } from "../../src/hosts/types.js";

// A host's setup as the tests of its config file need it: the file's spec, its entries and its
// editor, without the async loading the CLI uses. Throws for a host whose setup is not a config file.

export function entryFileOf(host: HostAdapter): EntryFileSetup {
  const setup = host.setup as EntryFileSetup | undefined;
  if (!setup?.spec) throw new Error(`${host.name} has no config-file setup`);
  return setup;
}

export const specOf = (host: HostAdapter): EntryFileSpec => entryFileOf(host).spec;

export const entriesOf = (host: HostAdapter, config: ResolvedConfig, command: (event: string) => string): Record<string, HostEntry[]> => specOf(host).entries(config, command);

/** The JSON editor of a host's JSON file, or agent-code's TOML editor. */
export const editorOf = (host: HostAdapter): EntryEditor => (specOf(host).projectFile.endsWith(".toml") ? tomlEditor : jsonEditor(specOf(host)));

/** How a file's text stands against `wanted`, as `hooks install --check` reports it. */
export function stateOf(editor: EntryEditor, text: string, file: string, wanted: Record<string, HostEntry[]>): { installed: boolean; stale: string[] } {
  const have = editor.installed(text, file);
  return { installed: Object.keys(have).length > 0, stale: staleNames(have, wanted) };
}
