import { parse, TomlError } from "smol-toml";
import { nestingTooDeepAt, TOO_DEEP } from "../config/limits.js";
import { lineOf } from "../text.js";
import { isJsonObject } from "../config/scanJson.js";
import { WriteError } from "../errors.js";
import { ownsEntry } from "./install.js";
import type { EntryEditor, HostEntry } from "./types.js";

/**
 * hookrun's entries in a host's TOML config file (agent-code's `.agent/settings.toml`, Kimi Code's
 * `~/.kimi-code/config.toml`): an array
 * of tables `[[hooks]]`, each with its `event`. hookrun appends its own tables at the end of the
 * file and removes exactly those bytes again (every byte of the user's kept, comments included);
 * the file is parsed (smol-toml) before and after each edit, and an edit whose result is not the
 * same document plus or minus hookrun's tables is refused with nothing written. The entry map is
 * the JSON editor's (`{event: [entry]}`, entry = the table without `event`): the `tomlFile` setup
 * of src/hosts/setup.ts serves both formats alike.
 */

/**
 * How one host writes its `[[hooks]]` tables: agent-code's (`tool_name`, an `action` inline table,
 * and the `schema_version = 2` stamp its loader wants) or a flat table of plain keys (Kimi Code's
 * `event`, `matcher`, `command`, `timeout`, and nothing else: it refuses a file with a key more).
 */
interface TomlDialect {
  /** A new file starts with `schema_version = 2`, and one agent-code would rewrite gets SCHEMA_STAMP. */
  readonly stamp: boolean;
  table(event: string, entry: HostEntry, eol: string): string;
}

const editorFor = (d: TomlDialect): EntryEditor => ({
  installed: (text, file) => installedEntries(text, file),
  merge: (text, file, wanted) => mergeEntries(d, text, file, wanted),
  uninstall: (text, file) => uninstallText(d, text, file),
});

/** The editor of agent-code's TOML settings file. */
export const tomlEditor: EntryEditor = editorFor({ stamp: true, table: tableText });

/** The editor of a TOML file whose `[[hooks]]` tables hold plain keys only (Kimi Code's `config.toml`): no stamp. */
export const flatTomlEditor: EntryEditor = editorFor({ stamp: false, table: flatTableText });

/** The line `hooks install` puts at the top of a file agent-code would otherwise rewrite on load. */
export const SCHEMA_STAMP = "schema_version = 2 # hooks install agent-code: agent-code rewrites a settings file without it, dropping its comments\n";

/** The TOML document of a config file's text, or a WriteError naming FILE:LINE. */
export function parseTomlFile(text: string, file: string, what = "run the command again; nothing was written"): Record<string, unknown> {
  // smol-toml recurses once per level of nesting: a file nested past the limit never reaches it
  const deep = nestingTooDeepAt(text, "toml");
  if (deep !== null) throw new WriteError(`${file}:${lineOf(text, deep)}: ${TOO_DEEP}; fix the file and ${what}`, file);
  try {
    return plain(parse(text)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw new WriteError(`${file}:${error.line}: ${error.message.split("\n")[0]}; fix the file (it must be TOML) and ${what}`, file, { cause: error });
    throw error;
  }
}

// Plain objects (smol-toml's have no prototype; dates become their ISO text), keys sorted, so
// two documents compare by JSON text.
function plain(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = plain((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(plain(a)) === JSON.stringify(plain(b));

function hookTables(doc: Record<string, unknown>, file: string): unknown[] {
  if (doc.hooks === undefined) return [];
  if (!Array.isArray(doc.hooks)) throw new WriteError(`${file}: \`hooks\` is not an array of [[hooks]] tables; fix it and run the command again; nothing was written`, file);
  return doc.hooks;
}

/** A `[[hooks]]` table as [event, entry]: the entry is the table without `event`, keys sorted. */
function split(table: unknown): [string, HostEntry] {
  const { event, ...entry } = table as Record<string, unknown>;
  return [String(event), plain(entry) as HostEntry];
}

/** The file's `[[hooks]]` tables, parsed; a WriteError (FILE:LINE) when it is not TOML or `hooks` is no array. */
export function hookTableList(text: string, file: string): unknown[] {
  return hookTables(parseTomlFile(text, file), file);
}

/** hookrun's entries among `tables` (hookTableList): host event → entries, in file order. */
export function ownedEntries(tables: readonly unknown[]): Record<string, HostEntry[]> {
  // No prototype: an event named "__proto__" or "constructor" in the file is a key like any other.
  const out: Record<string, HostEntry[]> = Object.create(null);
  for (const table of tables) {
    if (!isJsonObject(table) || !ownsEntry(table)) continue;
    const [event, entry] = split(table);
    (out[event] ??= []).push(entry);
  }
  return out;
}

/** hookrun's entries now in the file's text: host event → entries, in file order. */
function installedEntries(text: string, file: string): Record<string, HostEntry[]> {
  return ownedEntries(hookTableList(text, file));
}

/** Where each `[[hooks]]` table's text is: from its header line to the end of its last key line. */
interface Block {
  start: number;
  end: number;
  /** The header's line, 1-based. */
  line: number;
}

// A table header alone on its line: `[name]` or `[[name]]`, dotted or quoted keys, a comment after.
const HEADER = /^[ \t]*(\[\[?)[ \t]*([A-Za-z0-9_\-."' \t]+?)[ \t]*\]\]?[ \t]*(#.*)?$/;

/**
 * The multi-line string still open at the end of `line` (`"""` or `'''`), or null, given the one
 * open at its start: TOML's strings as far as they hide a header or a `#` (a basic string's
 * escapes, literal strings without them, a closing run of up to five quotes).
 */
function openStringAfter(line: string, start: string | null): string | null {
  let open = start;
  let i = 0;
  while (i < line.length) {
    if (open !== null) {
      const q = open[0];
      if (q === '"' && line[i] === "\\") i += 2;
      else if (line.startsWith(open, i)) {
        let run = 3;
        while (run < 5 && line[i + run] === q) run++;
        i += run;
        open = null;
      } else i++;
      continue;
    }
    const c = line[i];
    if (c === "#") return null;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      open = line.slice(i, i + 3);
      i += 3;
    } else if (c === '"' || c === "'") {
      // A one-line string, to its closing quote (in a basic string `\"` does not close it).
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += c === '"' && line[j] === "\\" ? 2 : 1;
      i = j + 1;
    } else i++;
  }
  return open;
}

/**
 * The `[[hooks]]` tables of a TOML text, in order: each runs from its header through the sub-tables
 * that belong to it (`[hooks.action]`) to its last line that is neither blank nor a comment. Lines
 * inside multi-line strings are not headers. One pass: linear in the text. (What this finds is
 * checked by parsing the result.)
 */
function hookBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | null = null;
  let inString: string | null = null;
  let offset = 0;
  let lineNo = 0;
  for (const raw of text.split("\n")) {
    const lineStart = offset;
    lineNo++;
    offset += raw.length + 1;
    const lineEnd = Math.min(offset, text.length);
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (inString) {
      inString = openStringAfter(line, inString);
      if (open) open.end = lineEnd;
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      const name = header[2].replace(/[\s"']/g, "");
      if (header[1] === "[[" && name === "hooks") {
        open = { start: lineStart, end: lineEnd, line: lineNo };
        blocks.push(open);
      } else if (!(open && name.startsWith("hooks."))) open = null;
      else open.end = lineEnd;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (open) open.end = lineEnd;
    inString = openStringAfter(line, null);
  }
  return blocks;
}

/** The line (1-based) of each `[[hooks]]` table's header, in order; `[]` when the array is written inline. */
export function hookTableLines(text: string): number[] {
  return hookBlocks(text).map((b) => b.line);
}

/** The text without hookrun's `[[hooks]]` tables (each with the one blank line that preceded it). */
function removeOwned(text: string, file: string): string {
  const tables = hookTables(parseTomlFile(text, file), file);
  const owned = tables.map((t) => isJsonObject(t) && ownsEntry(t));
  if (!owned.includes(true)) return text;
  const blocks = hookBlocks(text);
  if (blocks.length !== tables.length)
    throw new WriteError(
      `${file}: hookrun's hooks are not each a [[hooks]] table of their own (an inline \`hooks = [...]\` array?), so it cannot remove exactly them; remove the entries that run \`hooks run … --host …\` yourself; nothing was written`,
      file,
    );
  let out = text;
  for (let k = blocks.length - 1; k >= 0; k--) {
    if (!owned[k]) continue;
    let { start } = blocks[k];
    if (out.slice(start - 4, start) === "\r\n\r\n") start -= 2;
    else if (out.slice(start - 2, start) === "\n\n") start -= 1;
    out = out.slice(0, start) + out.slice(blocks[k].end);
  }
  return out;
}

const basic = (s: string): string => JSON.stringify(s).replaceAll("\u007f", "\\u007f");

/** One `[[hooks]]` table's text for an entry of `event`. */
function tableText(event: string, entry: HostEntry, eol: string): string {
  const lines = ["[[hooks]]", `event = ${basic(event)}`];
  if (typeof entry.tool_name === "string") lines.push(`tool_name = ${basic(entry.tool_name)}`);
  const action = entry.action as Record<string, unknown>;
  lines.push(`action = { type = ${basic(String(action.type))}, command = ${basic(String(action.command))} }`);
  return lines.join(eol) + eol;
}

/** One flat `[[hooks]]` table: `event`, then the entry's string and number keys in their order. */
function flatTableText(event: string, entry: HostEntry, eol: string): string {
  const lines = ["[[hooks]]", `event = ${basic(event)}`];
  for (const [key, value] of Object.entries(entry)) {
    if (typeof value === "string") lines.push(`${key} = ${basic(value)}`);
    else if (typeof value === "number" && Number.isInteger(value)) lines.push(`${key} = ${value}`);
    else throw new TypeError(`${key}: a flat [[hooks]] table holds strings and integers only`);
  }
  return lines.join(eol) + eol;
}

/** Whether agent-code would rewrite the file on load (no `schema_version = 2`), and whether stamping it is safe. */
export function schemaState(doc: Record<string, unknown>): "current" | "stampable" | "migrates" {
  if (doc.schema_version === 2) return "current";
  // Its only migrations: 0 → 1 stamps the version; 1 → 2 renames api.token to api.api_key.
  const token = isJsonObject(doc.api) && doc.api.token !== undefined;
  return doc.schema_version === undefined && !token ? "stampable" : "migrates";
}

/**
 * The file's text with exactly `wanted` as hookrun's tables: unchanged when they are already there
 * (idempotent); else hookrun's old tables removed and the wanted ones appended at the end, each
 * after one blank line. A new file starts with `schema_version = 2`; an existing one agent-code
 * would rewrite on load (no schema_version, nothing to migrate) gets SCHEMA_STAMP on top.
 */
function mergeEntries(d: TomlDialect, text: string | null, file: string, wanted: Record<string, HostEntry[]>): string {
  const fresh = text === null || text.trim() === "";
  if (!fresh && same(installedEntries(text, file), wanted)) return text;
  const eol = !fresh && text.includes("\r\n") ? "\r\n" : "\n";
  let out = fresh ? (d.stamp ? `schema_version = 2${eol}` : "") : removeOwned(text, file);
  if (d.stamp && !fresh && schemaState(parseTomlFile(text, file)) === "stampable") out = SCHEMA_STAMP.replace("\n", eol) + out;
  for (const [event, entries] of Object.entries(wanted)) {
    for (const entry of entries) {
      if (out !== "" && !out.endsWith("\n")) out += eol;
      out += (out === "" ? "" : eol) + d.table(event, entry, eol);
    }
  }
  verify(d, text ?? "", out, file, wanted);
  return out;
}

/**
 * The text after `hooks uninstall`: hookrun's tables (and its schema stamp) gone; null when nothing
 * else is left but the `schema_version = 2` a new file starts with, so the file can be removed.
 */
function uninstallText(d: TomlDialect, text: string, file: string): string | null {
  let out = removeOwned(text, file);
  if (d.stamp) for (const stamp of [SCHEMA_STAMP, SCHEMA_STAMP.replace("\n", "\r\n")]) if (out !== text && out.startsWith(stamp)) out = out.slice(stamp.length);
  if (out !== text) verify(d, text, out, file, {});
  return (d.stamp ? out.replace(/^schema_version = 2\r?\n/, "") : out).trim() === "" ? null : out;
}

/** The edit kept the document: the same keys and the user's tables; only hookrun's tables (and the stamp) differ. */
function verify(d: TomlDialect, before: string, after: string, file: string, wanted: Record<string, HostEntry[]>): void {
  const b = parseTomlFile(before, file);
  let a: Record<string, unknown>;
  try {
    a = parseTomlFile(after, file);
  } catch (error) {
    throw new WriteError(`${file}: hookrun's edit would not be TOML (${(error as Error).message}); edit the file by hand; nothing was written`, file, { cause: error });
  }
  const rest = (doc: Record<string, unknown>) => Object.fromEntries(Object.entries(doc).filter(([k]) => k !== "hooks" && (!d.stamp || k !== "schema_version")));
  const users = hookTables(b, file).filter((t) => !(isJsonObject(t) && ownsEntry(t)));
  const ours = Object.entries(wanted).flatMap(([event, list]) => list.map((e) => ({ event, ...e })));
  const version =
    a.schema_version === b.schema_version ||
    (d.stamp && ((b.schema_version === undefined && a.schema_version === 2) || (a.schema_version === undefined && before.includes("schema_version = 2 # hooks install"))));
  if (!same(rest(a), rest(b)) || !same(hookTables(a, file), [...users, ...ours]) || !version)
    throw new WriteError(`${file}: hookrun could not edit its [[hooks]] tables without touching the rest (an unusual layout?); edit the file by hand; nothing was written`, file);
}
