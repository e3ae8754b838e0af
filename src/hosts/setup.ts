import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import type { ResolvedConfig } from "../config/types.js";
import { WriteError } from "../errors.js";
import { FileReadError, READ_LIMITS, readBoundedFile } from "../fs/readBounded.js";
import type { EntryEditor, EntryFileSpec, HostEntry, HostSetup, SetupPlace, SetupPlan } from "./types.js";

export type { EntryEditor, EntryFileSpec };

/**
 * The three ways `hooks install` hands a host's events to hookrun, each one `HostSetup` (the
 * interface every caller uses, none asking which kind it is; docs/architecture.md):
 * - `jsonFile`: hookrun's entries in the host's JSON config file (src/hosts/hostFile.ts edits it);
 * - `tomlFile`: hookrun's `[[hooks]]` tables in a TOML config file (agent-code; src/hosts/tomlFile.ts);
 * - `scriptFolder`: one executable per hook type in a folder (Cline; src/hosts/hostScripts.ts).
 * An adapter declares its own (`setup: jsonFile({...})`). This module is loaded with every
 * adapter, on every `hooks run`: the editors load only when called.
 */

/** A setup whose hookrun part is entries in a config file: its spec and its editor, for the doctor's checks of the file. */
export interface EntryFileSetup extends HostSetup {
  readonly spec: EntryFileSpec;
  editor(): Promise<EntryEditor>;
}

/** One config file as `hooks install` sees it. */
interface ConfigFile {
  /** As named (project-relative or under HOME). */
  file: string;
  /** Where writes go: the symlink's target when the file is a link (the link stays). */
  target: string;
  text: string | null;
  /** The file starts with a UTF-8 byte order mark (not part of `text`): every write keeps it. */
  bom: boolean;
}

const BOM = "\ufeff";
/** The text to write back to a file read as `f`: its byte order mark kept. */
const withBom = (f: ConfigFile, text: string): string => (f.bom ? BOM + text : text);

/** A host's config file, read within the config size limit; a WriteError when it cannot be. */
export function readConfigFile(file: string, what: string): ConfigFile {
  let target = file;
  try {
    target = realpathSync(file);
  } catch {
    // not there yet (or a dangling link, refused below when read)
  }
  if (!existsSync(file)) return { file, target, text: null, bom: false };
  try {
    const raw = readBoundedFile(file, READ_LIMITS.config, { what });
    const bom = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
    return { file, target, text: raw.toString("utf8", bom ? 3 : 0), bom };
  } catch (error) {
    if (error instanceof FileReadError) throw new WriteError(`${error.message}; nothing was written`, file, { cause: error });
    throw error;
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Names whose entries differ between what is there and what is wanted (missing, extra or changed). */
export function staleNames(have: Readonly<Record<string, unknown>>, wanted: Readonly<Record<string, unknown>>): string[] {
  const names = [...new Set([...Object.keys(have), ...Object.keys(wanted)])];
  return names.filter((n) => !same(Object.hasOwn(have, n) ? have[n] : [], Object.hasOwn(wanted, n) ? wanted[n] : []));
}

function entryFile(kind: "json-file" | "toml-file", spec: EntryFileSpec, loadEditor: () => Promise<EntryEditor>): EntryFileSetup {
  const place = (base: string, user: boolean) => path.join(base, user ? spec.userFile : spec.projectFile);
  const read = (at: { base: string; user: boolean; host: { title: string } }) => readConfigFile(place(at.base, at.user), `${at.host.title} config`);
  const entriesIn = (editor: EntryEditor, f: ConfigFile) => (f.text === null || f.text.trim() === "" ? {} : editor.installed(f.text, f.file));
  const setup: EntryFileSetup = {
    kind,
    spec,
    editor: loadEditor,
    // A config file at the project root (Crush's crush.json) is itself what says the project uses the host.
    folder: path.dirname(spec.projectFile) === "." ? spec.projectFile : path.dirname(spec.projectFile),
    summary: `\`${spec.projectFile}\``,
    root: spec.root,
    exec: spec.exec,
    walkUp: spec.walkUp,
    killAfterMs: spec.killAfterMs,
    blocksOnStartFailure: spec.blocksOnStartFailure,
    note: spec.note,
    warnings: spec.warnings,
    place,
    wanted: (config, command) => spec.entries(config, command),
    async plan(wanted, at): Promise<SetupPlan> {
      const editor = await loadEditor();
      const f = read(at);
      const have = entriesIn(editor, f);
      const stale = staleNames(have, wanted);
      const after = stale.length === 0 ? f.text : editor.merge(f.text, f.file, wanted as Record<string, HostEntry[]>);
      return {
        where: f.file,
        exists: f.text !== null,
        before: f.text,
        installed: Object.keys(have).length > 0,
        stale,
        foreign: [],
        changes: after === f.text || after === null ? [] : [{ file: f.file, target: f.target, text: withBom(f, after) }],
      };
    },
    async removal(at): Promise<SetupPlan> {
      const editor = await loadEditor();
      const f = read(at);
      const have = entriesIn(editor, f);
      const after = f.text === null || Object.keys(have).length === 0 ? f.text : editor.uninstall(f.text, f.file);
      const changes = after === f.text ? [] : [{ file: f.file, target: f.target, text: after === null ? null : withBom(f, after), why: "it held only hookrun's entries" }];
      return { where: f.file, exists: f.text !== null, before: f.text, installed: Object.keys(have).length > 0, stale: Object.keys(have), foreign: [], changes };
    },
    async installed(base, user) {
      const editor = await loadEditor();
      return entriesIn(editor, readConfigFile(place(base, user), "host config"));
    },
  };
  return setup;
}

/** hookrun's entries in a host's JSON config file (Claude Code's `.claude/settings.json`, …). */
export function jsonFile(spec: EntryFileSpec): EntryFileSetup {
  return entryFile("json-file", spec, async () => (await import("./hostFile.js")).jsonEditor(spec));
}

/** hookrun's `[[hooks]]` tables in a host's TOML config file (agent-code's `.agent/settings.toml`; `flat`: plain-key tables, Kimi Code's). */
export function tomlFile(spec: EntryFileSpec, flat = false): EntryFileSetup {
  return entryFile("toml-file", spec, async () => {
    const m = await import("./tomlFile.js");
    return flat ? m.flatTomlEditor : m.tomlEditor;
  });
}

/** A host with no config file but one executable per hook type (Cline). */
export interface ScriptFolderSpec {
  /** The folder of the project's hook scripts, relative to the project root. */
  readonly projectDir: string;
  /** The folder of the user's, relative to the home directory. */
  readonly userDir: string;
  /** See HostSetup.exec, blocksOnStartFailure. */
  readonly exec?: boolean;
  readonly blocksOnStartFailure?: boolean;
  /** The scripts for `config`: file name → script text (each carries SCRIPT_MARK, src/hosts/hostScripts.ts). */
  files(config: ResolvedConfig, command: (event: string) => string): Record<string, string>;
}

/**
 * One executable per hook type in a folder: `hooks install` writes hookrun's (mode 0755), never
 * over a file that is not hookrun's, and removes hookrun's that the config no longer needs.
 */
export function scriptFolder(spec: ScriptFolderSpec): HostSetup {
  const place = (base: string, user: boolean) => path.join(base, user ? spec.userDir : spec.projectDir);
  const scripts = () => import("./hostScripts.js");
  return {
    kind: "script-folder",
    folder: spec.projectDir.split("/")[0],
    summary: `one script per hook in \`${spec.projectDir}/\``,
    root: null,
    exec: spec.exec,
    blocksOnStartFailure: spec.blocksOnStartFailure,
    place,
    wanted: (config, command) => spec.files(config, command),
    async plan(wanted, at: SetupPlace): Promise<SetupPlan> {
      const { ownedScripts, planScripts } = await scripts();
      const dir = place(at.base, at.user);
      const plan = planScripts(dir, wanted as Record<string, string>);
      return {
        where: dir,
        exists: existsSync(dir),
        before: null,
        installed: ownedScripts(dir).length > 0,
        stale: [...plan.write.map((w) => path.basename(w.file)), ...plan.remove.map((f) => path.basename(f))],
        foreign: plan.foreign,
        changes: [...plan.write.map((w) => ({ file: w.file, target: w.file, text: w.text, mode: 0o755 })), ...plan.remove.map((f) => ({ file: f, target: f, text: null, why: "hookrun's" }))],
      };
    },
    async removal(at: SetupPlace): Promise<SetupPlan> {
      const { ownedScripts } = await scripts();
      const dir = place(at.base, at.user);
      const owned = ownedScripts(dir);
      return {
        where: dir,
        exists: existsSync(dir),
        before: null,
        installed: owned.length > 0,
        stale: owned.map((f) => path.basename(f)),
        foreign: [],
        changes: owned.map((f) => ({ file: f, target: f, text: null, why: "hookrun's" })),
      };
    },
    async installed(base, user) {
      const { ownedScripts } = await scripts();
      return Object.fromEntries(ownedScripts(place(base, user)).map((f) => [path.basename(f), f]));
    },
  };
}
