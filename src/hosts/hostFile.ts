import { applyEdits, type FormattingOptions, type Node, modify, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { WriteError } from "../errors.js";
import type { ResolvedConfig } from "../config/types.js";
import { ownsEntry } from "./install.js";
import { type DispatchTarget, dispatchCommand } from "./dispatch.js";
import * as toml from "./tomlFile.js";
import { warmEntries } from "./warm.js";
import type { HostAdapter, HostEntry } from "./types.js";

/**
 * hookrun's entries in a host's JSON config file (`hooks install` / `uninstall` / `--check`,
 * `hooks validate`'s staleness check): merged with the user's own entries, edited in place (every
 * byte outside hookrun's entries kept), idempotent and exactly reversible (decision 0009). A host
 * whose file is TOML (`install.format: "toml"`, agent-code) is edited by src/hosts/tomlFile.ts.
 */

const isToml = (adapter: HostAdapter): boolean => adapter.install?.format === "toml";

interface Parsed {
  root: Node | undefined;
  fmt: FormattingOptions;
}

function parse(text: string, file: string): Parsed {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    const line = text.slice(0, e.offset).split("\n").length;
    throw new WriteError(`${file}:${line}: ${printParseErrorCode(e.error)}; fix the file (it must be JSON) and run the command again; nothing was written`, file);
  }
  if (root && root.type !== "object") throw new WriteError(`${file} is not a JSON object; fix it and run the command again; nothing was written`, file);
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return { root, fmt: { insertSpaces: !indent.includes("\t"), tabSize: indent.includes("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" } };
}

const nodeAt = (root: Node | undefined, path: readonly (string | number)[]): Node | undefined => {
  let node = root;
  for (const key of path) {
    if (!node) return undefined;
    if (node.type === "object" && typeof key === "string") node = node.children?.find((p) => p.children?.[0].value === key)?.children?.[1];
    else if (node.type === "array" && typeof key === "number") node = node.children?.[key];
    else return undefined;
  }
  return node;
};

const jsonValue = (node: Node | undefined): unknown => {
  if (!node) return undefined;
  if (node.type === "object") return Object.fromEntries((node.children ?? []).map((p) => [p.children![0].value as string, jsonValue(p.children![1])]));
  if (node.type === "array") return (node.children ?? []).map((n) => jsonValue(n));
  return node.value;
};

/** hookrun's entries now in the file's text: host event → entries, in file order. */
export function installedEntries(adapter: HostAdapter, text: string, file: string): Record<string, HostEntry[]> {
  if (isToml(adapter)) return toml.installedEntries(adapter, text, file);
  const { root } = parse(text, file);
  const map = nodeAt(root, adapter.install!.hooksPath);
  // No prototype: an event key "__proto__" or "constructor" in the file is a key like any other.
  const out: Record<string, HostEntry[]> = Object.create(null);
  for (const prop of map?.type === "object" ? (map.children ?? []) : []) {
    const list = prop.children?.[1];
    if (list?.type !== "array") continue;
    const owned = (list.children ?? []).map((n) => jsonValue(n)).filter(ownsEntry) as HostEntry[];
    if (owned.length) out[prop.children![0].value as string] = owned;
  }
  return out;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The text without hookrun's entries; an event list or hooks map hookrun's removal empties goes too. */
export function removeEntries(adapter: HostAdapter, text: string, file: string): string {
  const at = adapter.install!.hooksPath;
  let out = text;
  for (;;) {
    const { root } = parse(out, file);
    const map = nodeAt(root, at);
    if (map?.type !== "object") return out;
    const props = map.children ?? [];
    let next: string | null = null;
    for (const [p, prop] of props.entries()) {
      const list = prop.children![1];
      if (list.type !== "array") continue;
      const items = list.children ?? [];
      const owned = items.map((n, i) => (ownsEntry(jsonValue(n)) ? i : -1)).filter((i) => i >= 0);
      if (owned.length === 0) continue;
      // A list of only hookrun's entries goes with its key; else the last of hookrun's entries.
      next = owned.length === items.length ? removeChild(out, map, p) : removeChild(out, list, owned[owned.length - 1]);
      break;
    }
    if (next !== null) {
      out = next;
      continue;
    }
    // A hooks map the removal left empty goes as well.
    if (props.length === 0 && at.length > 0) {
      const parent = nodeAt(root, at.slice(0, -1))!;
      const index = (parent.children ?? []).findIndex((p) => p.children?.[0].value === at[at.length - 1]);
      if (index >= 0) out = removeChild(out, parent, index);
    }
    return out;
  }
}

/**
 * The text without child `index` of an array or object (an object's child is a `"key": value`
 * property), with the comma and blank that joined it: the exact inverse of appendToArray.
 */
function removeChild(text: string, container: Node, index: number): string {
  const items = container.children ?? [];
  const item = items[index];
  if (items.length === 1) return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
  if (index > 0) {
    const prev = items[index - 1];
    return text.slice(0, prev.offset + prev.length) + text.slice(item.offset + item.length);
  }
  return text.slice(0, item.offset) + text.slice(items[1].offset);
}

/**
 * The file's text with exactly `wanted` as hookrun's entries: unchanged when they are already
 * there (idempotent); else hookrun's old entries removed and the wanted ones appended to each
 * event's list, the user's entries and formatting untouched. `text` null: a new file.
 */
export function mergeEntries(adapter: HostAdapter, text: string | null, file: string, wanted: Record<string, HostEntry[]>): string {
  if (isToml(adapter)) return toml.mergeEntries(adapter, text, file, wanted);
  const install = adapter.install!;
  if (text !== null && text.trim() !== "" && same(installedEntries(adapter, text, file), wanted)) return text;
  let out = text === null || text.trim() === "" ? `${JSON.stringify({ ...install.skeleton }, null, 2)}\n` : removeEntries(adapter, text, file);
  for (const [event, entries] of Object.entries(wanted)) {
    for (const entry of entries) {
      const { root, fmt } = parse(out, file);
      const list = nodeAt(root, [...install.hooksPath, event]);
      out = list?.type === "array" && list.children?.length ? appendToArray(out, list, entry, fmt) : setProperty(out, root, [...install.hooksPath, event], [entry], fmt);
    }
  }
  return out;
}

/**
 * `path` set to `value` in `text`: a new property is appended to the deepest object that exists,
 * in that object's own layout (as appendToArray does); jsonc-parser's modify, which re-formats
 * the whole parent, serves only an empty parent.
 */
function setProperty(text: string, root: Node | undefined, path: readonly string[], value: unknown, fmt: FormattingOptions): string {
  let depth = 0;
  while (depth < path.length - 1 && nodeAt(root, path.slice(0, depth + 1))?.type === "object") depth++;
  const parent = nodeAt(root, path.slice(0, depth));
  const existing = nodeAt(root, path.slice(0, depth + 1));
  if (!parent?.children?.length || existing) return applyEdits(text, modify(text, [...path], value, { formattingOptions: fmt }));
  // What is missing below the parent, as one nested value: {"hooks": {"Stop": [...]}}.
  const nested = path.slice(depth + 1).reduceRight<unknown>((v, key) => ({ [key]: v }), value);
  return appendToArray(text, parent, { [path[depth]]: nested }, fmt, true);
}

/**
 * `entry` appended to a non-empty JSON array in `text`, in the array's own layout (one line, or
 * one item per line at the last item's indentation); nothing else in the file moves. (jsonc-parser's
 * array insertion re-formats the whole array, the user's items included.)
 */
function appendToArray(text: string, list: Node, entry: unknown, fmt: FormattingOptions, asProperty = false): string {
  const last = list.children![list.children!.length - 1];
  const end = last.offset + last.length;
  // An object member: its text is `"key": value`, one property of `entry`.
  const [key, value] = asProperty ? Object.entries(entry as Record<string, unknown>)[0] : [null, entry];
  const label = key === null ? "" : `${JSON.stringify(key)}: `;
  if (!text.slice(list.offset, list.offset + list.length).includes("\n")) return `${text.slice(0, end)}, ${label}${JSON.stringify(value)}${text.slice(end)}`;
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))![0];
  const eol = fmt.eol ?? "\n";
  const body = JSON.stringify(value, null, fmt.insertSpaces ? " ".repeat(fmt.tabSize ?? 2) : "\t").replaceAll("\n", eol + indent);
  return `${text.slice(0, end)},${eol}${indent}${label}${body}${text.slice(end)}`;
}

/**
 * The text after `hooks uninstall`: hookrun's entries gone; null when nothing else is left in the
 * file (only what hookrun would have created), so the file can be removed.
 */
export function uninstallText(adapter: HostAdapter, text: string, file: string): string | null {
  if (isToml(adapter)) return toml.uninstallText(adapter, text, file);
  const out = removeEntries(adapter, text, file);
  const { root } = parse(out, file);
  const value = jsonValue(root) ?? {};
  const rest = Object.entries(value as Record<string, unknown>).filter(([k, v]) => !(Object.hasOwn(adapter.install!.skeleton ?? {}, k) && same(adapter.install!.skeleton![k], v)));
  return rest.length === 0 ? null : out;
}

/** How a host's file stands against the config: what `hooks install --check` and `hooks validate` report. */
export interface InstallState {
  /** hookrun has entries in the file. */
  installed: boolean;
  /** Host events whose entries are missing, extra or different from what the config needs. */
  stale: string[];
}

export function installState(adapter: HostAdapter, text: string | null, file: string, wanted: Record<string, HostEntry[]>): InstallState {
  const have = text === null || text.trim() === "" ? {} : installedEntries(adapter, text, file);
  const events = [...new Set([...Object.keys(have), ...Object.keys(wanted)])];
  return { installed: Object.keys(have).length > 0, stale: events.filter((e) => !same(have[e] ?? [], wanted[e] ?? [])) };
}

/**
 * The entries `hooks install` writes for `config`: command entries running hookrun at `target`,
 * or warm mode's http entries on `port`. `hooks install --check` and `hooks doctor` hold a file
 * against them.
 */
export function wantedEntries(adapter: HostAdapter, config: ResolvedConfig, target: DispatchTarget, port: number | null = null): Record<string, HostEntry[]> {
  const command = (event: string) => dispatchCommand(adapter.name, event, target);
  return port === null ? adapter.install!.entries(config, command) : warmEntries(adapter, config, command, port);
}
